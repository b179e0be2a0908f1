#!/bin/bash
# A DynamoDB endpoint's own CPU per request: our engine and AWS's DynamoDB Local side by side, each
# server alone on core 1, the load on core 0.
# usage: src/bench/engine-cpu/run.sh SERVER [SERVER...]   (each in turn, a fresh process and table each)
#   a SERVER is KIND:JAR, then optionally the server's own java options, in one argument:
#     engine:target/moviegraph.jar                  our engine, from the current jar (EngineServer.java)
#     local:/tmp/prev-main/target/moviegraph.jar    DynamoDB Local, from a jar that embeds it (the
#                                                   previous main's; LocalServer.java)
#     "engine:target/moviegraph.jar -XX:StartFlightRecording=filename=/tmp/engine.jfr"
# env: ITEMS (items loaded first, in partitions of 20; default 4000), CONNECTIONS (keep-alive
#      connections, one load thread each; default 16), WARM (s of warm-up per operation, default 20),
#      SECS (s timed per operation, default 20), OPS (default get,query,put,transact),
#      MILLION (PutItems after the first pass, then the operations again: fresh against after; default
#      0, none), MILLION_KEYS (which keys the MILLION puts write: "new", the default, puts MILLION/2 new
#      items and then overwrites each once, so the table grows; "loaded" overwrites the ITEMS loaded
#      items round and round, so the table keeps its size and only the writes and their stream records
#      pile up), DATA_DIR (1: the server keeps its data in a folder on /dev/shm, the engine's journal or
#      DynamoDB Local's SQLite file; default: in memory), HEAP (the server's -Xmx; default 4g, or 12g
#      with a MILLION: both servers keep a NEW_IMAGE stream's records for 24 hours, and the engine
#      keeps them on the heap, about 2.6 KB per write of these items, some 3 million writes in a run),
#      ENGINE_COMMAND (1: start the engine as `java -jar JAR engine --port P [--data-dir D]` instead of
#      through EngineServer.java), HISTO (1: at the end, the server's live objects by class)
# The machine's load averages (uptime) are printed when the run starts and after each server, and each
# result row ends with the one-minute load average at the end of its window.
# Each timed window's start and end go to stderr ("window put 21:45:59.455 21:46:19.457"); with a
# server recorded by JFR, `java src/bench/engine-cpu/Profile.java FILE.jfr put=FROM-TO ...` says where
# its time went in those windows (top frames, the engine's own frames, GC pauses).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/load"
javac -d "$work/load" "$here/Bench.java"
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(java -version 2>&1 | head -1)"
echo "start: $(date -u '+%F %T UTC'), uptime: $(uptime)"
million_keys=${MILLION_KEYS:-new}
heap=${HEAP:-4g}; [ -z "${HEAP:-}" ] && [ "${MILLION:-0}" -gt 0 ] && heap=12g
echo "server heap -Xmx$heap; ITEMS=${ITEMS:-4000} CONNECTIONS=${CONNECTIONS:-16} WARM=${WARM:-20} SECS=${SECS:-20}" \
  "MILLION=${MILLION:-0}$([ "${MILLION:-0}" -gt 0 ] && echo " MILLION_KEYS=$million_keys")"
n=0
for spec in "$@"; do
  read -r kind_jar server_opts <<< "$spec"
  kind=${kind_jar%%:*}; jar=${kind_jar#*:}
  n=$((n + 1)); port=$((8800 + n))
  data=(); [ "${DATA_DIR:-0}" = 1 ] && data=("$work/data-$n")
  log="$work/server-$n.log"; : > "$log"
  case "$kind" in
    engine)
      if [ "${ENGINE_COMMAND:-0}" = 1 ]; then
        dir_args=(); [ ${#data[@]} -gt 0 ] && dir_args=(--data-dir "${data[0]}")
        taskset -c 1 java -Xmx$heap ${server_opts:-} -jar "$jar" engine --port $port "${dir_args[@]}" > "$log" 2>&1 &
      else
        mkdir -p "$work/engine-$n"
        javac -d "$work/engine-$n" -cp "$jar" "$here/EngineServer.java"
        taskset -c 1 java -Xmx$heap ${server_opts:-} -cp "$jar:$work/engine-$n" EngineServer $port "${data[@]}" > "$log" 2>&1 &
      fi ;;
    local)
      mkdir -p "$work/local-$n"
      javac -d "$work/local-$n" -cp "$jar" "$here/LocalServer.java"
      taskset -c 1 java -Xmx$heap ${server_opts:-} -cp "$jar:$work/local-$n" LocalServer $port "${data[@]}" > "$log" 2>&1 &
      ;;
    *) echo "unknown server kind $kind (engine, local)" >&2; exit 2 ;;
  esac
  server=$!
  endpoint=""
  for _ in $(seq 1 1200); do
    kill -0 $server 2>/dev/null || { cat "$log" >&2; echo "$spec did not start" >&2; exit 1; }
    endpoint=$(sed -n 's/^\(ready\|engine listening on\) \(http[^ ]*\).*/\2/p' "$log" | head -1)
    [ -n "$endpoint" ] && break
    sleep 0.1
  done
  [ -n "$endpoint" ] || { cat "$log" >&2; echo "$spec did not start" >&2; exit 1; }
  echo "$spec: pid $server at $endpoint${data:+, data in ${data[0]}}"
  label=$kind; [ "${DATA_DIR:-0}" = 1 ] && label="$kind (data dir)"
  taskset -c 0 java -cp "$work/load" Bench "$label" "$endpoint" $server "${ITEMS:-4000}" "${CONNECTIONS:-16}" \
    "${WARM:-20}" "${SECS:-20}" "${MILLION:-0}" "${OPS:-get,query,put,transact}" "$million_keys"
  if [ "${HISTO:-0}" = 1 ]; then
    echo "$spec: live objects after a full GC (jmap -histo:live), top 12:"
    jmap -histo:live $server | head -15
  fi
  echo "$spec: server RSS $(sed -n 's/^VmRSS:[[:space:]]*//p' /proc/$server/status), GC: $(jstat -gcutil $server 2>/dev/null | tail -1)"
  echo "$spec: done $(date -u '+%F %T UTC'), uptime: $(uptime)"
  kill $server; wait $server 2>/dev/null || true
done
exit 0
