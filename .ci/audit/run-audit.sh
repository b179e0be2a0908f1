#!/usr/bin/env bash
# graphql-http's GraphQL-over-HTTP server audits against the real server: build the jar, start it on the
# embedded default, run the audits (any MUST error or SHOULD warning fails), stop it.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -DskipTests package
port=${AUDIT_PORT:-18080}   # another value lets two clones run their audits at once
PORT=$port java -jar target/moviegraph.jar > target/audit-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  if curl -fs "http://127.0.0.1:$port/health" > /dev/null; then
    break
  fi
  sleep 1
done
curl -fs "http://127.0.0.1:$port/health" > /dev/null || { cat target/audit-server.log; exit 1; }
npm install --prefix .ci/audit --no-audit --no-fund --silent
node .ci/audit/audit.mjs "http://127.0.0.1:$port/graphql"
