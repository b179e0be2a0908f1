#!/bin/bash
# The gateway's CPU per request, the gateway alone on core 0, the engine (or the stand-in) and the
# load on core 1.
# usage: src/bench/cpu-per-request/run.sh GATEWAY [GATEWAY...]   (each in turn, against one engine)
#   a GATEWAY is a jar, then optionally the gateway's own java options and environment, in one argument:
#   "target/moviegraph.jar -XX:AOTCache=target/moviegraph.aot WARMUP_SECONDS=20"
# env: WARM (s, default 60), SECS (s, default 30), ROUNDS (default 2), CLIENTS (default 8),
#      SHAPES (names below, default "movie eleven twelve"; "all" for every one; watchlist only with SIGNED_IN=1),
#      WINDOW_SECONDS (COLD's windows, default 10), LATENCY_MS (unset: the gateway calls the engine; set: it calls the stand-in, which answers
#      from memory after that many ms), COLD (1: print the first WINDOWS 10 s windows of a fresh
#      server under load before anything warms it), WINDOWS (default 6), JAVA_OPTS (for every gateway),
#      GATEWAY_JAVA (the java the gateways run on, default java; e.g. a JDK 25 for an AOT cache),
#      LOAD (1: load each jar's sample into a table of its own, for jars of another table layout than
#      the first jar's; else every jar reads the sample the first jar's engine loaded, table moviegraph),
#      SDK_FLOOR (1: first measure the AWS SDK client alone on core 0, the gateway's own client from the
#      first jar, SDK_FLOOR_IN_FLIGHT (8) calls in flight, no server and no GraphQL: SdkFloor.java),
#      SIGNED_IN (1: start a minimal OpenID Connect provider on core 1 (Issuer.java), turn sign-in on in
#      every gateway, and run each shape twice a round: anonymous, then with a signed-in viewer's token)
#      ACCEPT (the Accept header of every request, e.g. "multipart/mixed;deferSpec=20220824,application/json"
#      for @defer's parts; unset: none, one JSON answer)
#      RATES (percents, e.g. "50 90": after each closed-loop measure, an open loop (OpenLoop.java) at each
#      percent of the req/s it measured, WARM then SECS seconds, evenly spaced requests, latency from each
#      request's due time: one line a percent with p50/p90/p99/max, gateway CPU and the rates sent and answered)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The engine's data folder in memory (/dev/shm) where there is one: on a disk every write may wait for a sync.
work=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
first_jar=${1%% *}
javac -d "$work" -cp "$first_jar" "$here/Load.java" "$here/Dynamo.java" "$here/StandIn.java" "$here/SdkFloor.java" \
  "$here/Issuer.java" "$here/OpenLoop.java"
taskset -c 1 java -Xmx1g -cp "$first_jar:$work" Dynamo 8765 "$work/ddb" > "$work/ddb.log" 2>&1 &
until grep -q ready "$work/ddb.log"; do sleep 1; done
endpoint=http://127.0.0.1:8765
if [ -n "${LATENCY_MS:-}" ]; then
  taskset -c 1 java -Xmx2g -cp "$work" StandIn 8766 "$endpoint" "$LATENCY_MS" > "$work/standin.log" 2>&1 &
  until grep -q ready "$work/standin.log"; do sleep 1; done
  endpoint=http://127.0.0.1:8766
fi

sign_in=()
if [ "${SIGNED_IN:-0}" = 1 ]; then
  taskset -c 1 java -cp "$first_jar:$work" Issuer 8767 moviegraph-bench "$work/token" > "$work/issuer.log" 2>&1 &
  until grep -q ready "$work/issuer.log"; do sleep 1; done
  sign_in=(OIDC_ISSUER=http://127.0.0.1:8767/bench OIDC_AUDIENCE=moviegraph-bench)
fi

if [ "${SDK_FLOOR:-0}" = 1 ]; then
  AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_REGION=us-east-1 \
    taskset -c 0 java -cp "$first_jar:$work" SdkFloor "$endpoint" moviegraph "${SDK_FLOOR_IN_FLIGHT:-8}" "${WARM:-60}" "${SECS:-30}"
fi

# name|data levels (rounds of DynamoDB calls)|DynamoDB calls|query
cat > "$work/shapes" <<'EOF'
movie|1|1|{ movie(id: "tt0111161") { title year } }
movieWithCast|1|1|{ movie(id: "tt0111161") { title cast(first: 10) { edges { node { characters person { name } } } } } }
castBirthYears|2|2|{ movie(id: "tt0111161") { title cast(first: 10) { edges { node { characters person { name birthYear } } } } } }
filmography|1|1|{ person(id: "nm5161932") { name movies(first: 10) { edges { node { movie { title year } } } } } }
topMovies|1|1|{ topMovies(month: "2024-05", limit: 10) { streams movie { title } } }
top10WithGenres|2|2|{ topMovies(month: "2024-05", limit: 10) { streams movie { title genres } } }
castWithFilmographies|2|11|{ movie(id: "tt0111161") { title cast(first: 10) { edges { node { person { name movies(first: 5) { edges { node { movie { title } } } } } } } } } }
twentyMoviesWithCasts|1|20|{ movies(ids: ["tt0111161", "tt0068646", "tt0071562", "tt0468569", "tt0050083", "tt0108052", "tt0167260", "tt0110912", "tt0120737", "tt0060196", "tt0109830", "tt0137523", "tt0167261", "tt1375666", "tt0080684", "tt0133093", "tt0099685", "tt0073486", "tt0047478", "tt0114369"]) { title cast(first: 5) { edges { node { person { name } } } } } }
eleven|2|11|{ person(id: "nm5161932") { name movies(first: 10) { edges { node { movie { title cast(first: 3) { edges { node { person { name } } } } } } } } } }
twelve|3|12|{ person(id: "nm5161932") { name movies(first: 10) { edges { node { movie { title cast(first: 3) { edges { node { person { name birthYear } } } } } } } } } }
castDeferred|1|1|{ movie(id: "tt0111161") { title ... @defer { cast(first: 10) { edges { node { characters person { name } } } } } } }
twelveDeferred|3|12|{ person(id: "nm5161932") { name movies(first: 10) { edges { node { ... @defer { movie { title cast(first: 3) { edges { node { person { name birthYear } } } } } } } } } } }
search|1|1|{ search(query: "the godfather", first: 10) { edges { node { ... on Movie { id title year } ... on Person { id name } } knownFor { title } } } }
browse|1|1|{ browseMovies(genre: "Drama", first: 20) { edges { node { id title year } } } }
topRated|1|1|{ topRated(first: 20) { edges { node { id title year } } } }
persisted|1|1|{ movie(id: "tt0111161") { title year } }
watchlist|2|2|{ viewer { watchlist(first: 10) { totalCount edges { addedAt movie { title year } } } } }
EOF
# The signed-in viewer's watchlist, ten movies (adding one again keeps it): what the watchlist shape pages.
fill_watchlist() {
  for movie in tt0111161 tt0068646 tt0071562 tt0468569 tt0050083 tt0108052 tt0167260 tt0110912 tt0120737 tt0060196; do
    curl -sf -o /dev/null -H 'Content-Type: application/json' -H "Authorization: Bearer $(cat "$work/token")" \
      -d "{\"query\":\"mutation { addToWatchlist(movieId: \\\"$movie\\\") { addedAt } }\"}" "http://127.0.0.1:$1/graphql"
  done
}
shapes=${SHAPES:-movie eleven twelve}
[ "$shapes" = all ] && shapes=$(cut -d'|' -f1 "$work/shapes" | tr '\n' ' ')
n=0
for gateway_spec in "$@"; do
  read -r jar gateway_words <<< "$gateway_spec"
  gateway_opts=(); gateway_env=()
  for word in $gateway_words; do
    case "$word" in -*) gateway_opts+=("$word") ;; *=*) gateway_env+=("$word") ;; esac
  done
  n=$((n + 1)); port=$((8090 + n))
  table=moviegraph
  if [ "${LOAD:-0}" = 1 ]; then
    # The sample is loaded through the engine itself: the stand-in only answers reads.
    table=bench-$n
    DYNAMODB_ENDPOINT=http://127.0.0.1:8765 TABLE_NAME=$table CREATE_TABLE=true LOAD_SAMPLE=true PORT=$port \
      AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_REGION=us-east-1 \
      java -jar "$jar" > "$work/load-$n.log" 2>&1 &
    loader=$!
    until grep -q "ready in" "$work/load-$n.log"; do sleep 1; done
    kill $loader; wait $loader 2>/dev/null || true
  fi
  # The load is one client from one address: its limit on, never reached, so its cost is measured.
  DYNAMODB_ENDPOINT=$endpoint TABLE_NAME=$table PORT=$port \
    CLIENT_READ_UNITS_PER_SECOND=${CLIENT_READ_UNITS_PER_SECOND:-1000000} \
    AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_REGION=us-east-1 \
    env "${sign_in[@]}" "${gateway_env[@]}" taskset -c 0 "${GATEWAY_JAVA:-java}" ${JAVA_OPTS:-} "${gateway_opts[@]}" -jar "$jar" \
    > "$work/gateway-$n.log" 2>&1 &
  gateway=$!
  until grep -q "ready in" "$work/gateway-$n.log"; do sleep 0.1; done
  echo "$gateway_spec: $(grep -o 'ready in.*' "$work/gateway-$n.log" | head -1)"
  cold=${COLD:-0}
  for round in $(seq 1 "${ROUNDS:-2}"); do
    for shape in $shapes; do
      IFS='|' read -r name levels calls query < <(grep "^$shape|" "$work/shapes")
      # persisted: movie's query as an automatic persisted query (the hash alone); watchlist: signed in only.
      persisted=0; [ "$name" = persisted ] && persisted=1
      if [ "$name" = watchlist ]; then
        [ "${SIGNED_IN:-0}" = 1 ] || { echo "$gateway_spec watchlist: needs SIGNED_IN=1, skipped"; continue; }
        fill_watchlist "$port"
      fi
      windows=0
      [ "$cold" = 1 ] && windows=${WINDOWS:-6}
      floor=""
      [ -n "${LATENCY_MS:-}" ] && floor=" floor ${levels} x ${LATENCY_MS} ms"
      if [ "$name" = watchlist ]; then
        echo "$gateway_spec $name signed in round $round: $(PERSISTED=$persisted BEARER=$(cat "$work/token") taskset -c 1 java -cp "$work" Load \
          "http://127.0.0.1:$port/graphql" $gateway "$query" "${CLIENTS:-8}" "${WARM:-60}" "${SECS:-30}" 0 | tr '\n' ' ')"
        continue
      fi
      closed=$(PERSISTED=$persisted taskset -c 1 java -cp "$work" Load \
        "http://127.0.0.1:$port/graphql" $gateway "$query" "${CLIENTS:-8}" "${WARM:-60}" "${SECS:-30}" $windows) || true
      echo "$gateway_spec $name ($calls calls, $levels levels$floor) round $round: $(echo "$closed" | tr '\n' ' ')"
      cold=0
      steady=$(sed -n 's/^req\/s \([0-9]*\) .*/\1/p' <<< "$closed")
      for percent in ${RATES:-}; do
        [ "${steady:-0}" -gt 0 ] || break
        rate=$(awk -v r="$steady" -v p="$percent" 'BEGIN { printf "%.1f", r * p / 100 }')
        echo "$gateway_spec $name at $percent% ($rate req/s) round $round: $(PERSISTED=$persisted RATE=$rate taskset -c 1 java -cp "$work" Load \
          "http://127.0.0.1:$port/graphql" $gateway "$query" "${CLIENTS:-8}" "${WARM:-60}" "${SECS:-30}" 0)"
      done
      if [ "${SIGNED_IN:-0}" = 1 ]; then
        echo "$gateway_spec $name signed in round $round: $(PERSISTED=$persisted BEARER=$(cat "$work/token") taskset -c 1 java -cp "$work" Load \
          "http://127.0.0.1:$port/graphql" $gateway "$query" "${CLIENTS:-8}" "${WARM:-60}" "${SECS:-30}" 0 | tr '\n' ' ')"
      fi
    done
  done
  kill $gateway; wait $gateway 2>/dev/null || true
done
[ -n "${LATENCY_MS:-}" ] && tail -1 "$work/standin.log"
[ "${SIGNED_IN:-0}" = 1 ] && echo "provider: key set fetched $(grep -c 'key set fetched' "$work/issuer.log") time(s) in the whole run"
exit 0
