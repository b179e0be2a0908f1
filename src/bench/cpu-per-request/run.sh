#!/bin/bash
# The gateway's CPU per request, the gateway alone on core 0, DynamoDB Local and the load on core 1.
# usage: src/bench/cpu-per-request/run.sh JAR [JAR...]   (each jar in turn, against one DynamoDB Local)
# env: WARM (s, default 60), SECS (s, default 30), ROUNDS (default 2), CLIENTS (default 8)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# DynamoDB Local keeps its SQLite file in memory (/dev/shm): on a disk every write syncs, and loading
# the sample takes many minutes.
work=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
javac -d "$work" -cp "$1" "$here/Load.java" "$here/Dynamo.java"
taskset -c 1 java -Xmx1g -cp "$1:$work" Dynamo 8765 "$work/ddb" > "$work/ddb.log" 2>&1 &
until grep -q ready "$work/ddb.log"; do sleep 1; done
MOVIE='{ movie(id: "tt0111161") { title year } }'
TWELVE='{ person(id: "nm0000151") { name movies(first: 10) { edges { node { movie { title cast(first: 3) { edges { node { person { name birthYear } } } } } } } } } }'
n=0
for jar in "$@"; do
  n=$((n + 1)); port=$((8090 + n))
  DYNAMODB_ENDPOINT=http://127.0.0.1:8765 TABLE_NAME=bench-$n CREATE_TABLE=true LOAD_SAMPLE=true PORT=$port \
    AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_REGION=us-east-1 \
    taskset -c 0 java -jar "$jar" > "$work/gateway-$n.log" 2>&1 &
  gateway=$!
  until grep -q "ready in" "$work/gateway-$n.log"; do sleep 1; done
  for round in $(seq 1 "${ROUNDS:-2}"); do
    for shape in MOVIE TWELVE; do
      echo "$jar $shape round $round: $(taskset -c 1 java -cp "$work" Load "http://127.0.0.1:$port/graphql" $gateway \
        "${!shape}" "${CLIENTS:-8}" "${WARM:-60}" "${SECS:-30}")"
    done
  done
  kill $gateway; wait $gateway 2>/dev/null || true
done
