#!/usr/bin/env bash
# The functions' slim jar (target/moviegraph-lambda.jar, built by `mvn -B -DskipTests package`): its size,
# what it must not carry (the engine above all: the functions only ever reach DynamoDB over HTTP), and the
# handlers run from it alone against an engine (the server jar's embedded one) with the sample table: init
# time, a stream counted exactly once, its changes published.
set -euo pipefail
cd "$(dirname "$0")/.."
jar=target/moviegraph-lambda.jar
[ -f "$jar" ] || { echo "lambda-check: $jar is missing: run mvn -B -DskipTests package first" >&2; exit 1; }
bytes=$(stat -c %s "$jar")
echo "lambda-check: $jar is $((bytes / 1024 / 1024)) MiB ($bytes bytes)"
[ "$bytes" -lt $((25 * 1024 * 1024)) ] || { echo "lambda-check: over 25 MiB" >&2; exit 1; }
forbidden='org/eclipse/jetty/|io/javalin/|^graphql/|graphiql/|dev/moviegraph/(engine|capacity|cli|http|graphql|local|imdb)/'
if unzip -Z1 "$jar" | grep -E "$forbidden" | head -5 | grep -q .; then
  echo "lambda-check: the slim jar carries what the functions do not need:" >&2
  unzip -Z1 "$jar" | grep -E "$forbidden" | head -5 >&2
  exit 1
fi

work=$(mktemp -d)
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
PORT=$port TOTALS=stream AGGREGATOR=off SUBSCRIPTIONS=off java -jar target/moviegraph.jar >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 180); do
  curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  kill -0 $server 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 1
done
endpoint=$(grep -o 'Engine started in-process at http://[0-9.:]*' "$work/server.log" | awk '{print $NF}')
[ -n "$endpoint" ] || { echo "lambda-check: no engine endpoint in the server's log" >&2; cat "$work/server.log" >&2; exit 1; }
DYNAMODB_ENDPOINT=$endpoint TABLE_NAME=moviegraph \
  java -cp "$jar:target/test-classes" dev.moviegraph.lambda.SlimJarRun
echo "lambda-check: the handlers ran from the slim jar alone"
