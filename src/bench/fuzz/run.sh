#!/bin/bash
# Fuzzes the engine with Jazzer: every @FuzzTest under src/engine/test/dev/moviegraph/engine/fuzz (or the ones
# named), one after another, each for DURATION, on one core; then says what each found.
# usage: src/bench/fuzz/run.sh [DURATION] [Class#method ...]
#   DURATION as Jazzer reads it (30m, the default; 90s, 2h); targets default to every fuzz test, e.g.
#   ExpressionFuzzTest#updateExpression, EngineRequestFuzzTest#request
# env: CORE (the one core the fuzzer runs on, default 1)
# Per target: executions, executions a second, coverage (libFuzzer's cov/ft), the corpus kept so far
# (.cifuzz-corpus/CLASS/METHOD, not committed: each run goes on from it), and OK or the finding. A finding's
# input is moved into the test's inputs (CLASSInputs/METHOD/), where `mvn test` replays it: commit it with its
# fix. The full fuzzer output of each target is kept in target/fuzz/CLASS#METHOD.log.
set -euo pipefail
cd "$(dirname "$0")/../../.."
mkdir -p target/fuzz
duration=${1:-30m}
shift || true
core=${CORE:-1}
fuzz_dir=src/engine/test/dev/moviegraph/engine/fuzz
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for file in "$fuzz_dir"/*.java; do
    class=$(basename "$file" .java)
    for method in $(grep -A4 '@FuzzTest' "$file" | sed -n 's/^ *void \([A-Za-z0-9_]*\)(.*/\1/p'); do
      targets+=("$class#$method")
    done
  done
fi
echo "fuzzing ${#targets[@]} targets for $duration each on core $core: ${targets[*]}"
echo "start: $(date -u '+%F %T UTC'), $(java -version 2>&1 | head -1), uptime: $(uptime)"
mvn -B -q test-compile -Dexec.skip=true > target/fuzz/compile.log 2>&1 || { cat target/fuzz/compile.log; exit 1; }
printf '%-45s %12s %8s %6s %7s %8s  %s\n' target runs exec/s cov ft corpus result
for target in "${targets[@]}"; do
  class=${target%#*}; method=${target#*#}
  log=target/fuzz/$target.log
  inputs=$fuzz_dir/${class}Inputs/$method
  mkdir -p "$inputs"
  touch target/fuzz/.started
  status=0
  JAZZER_FUZZ=1 taskset -c "$core" mvn -B surefire:test -Dtest="$target" -Dsurefire.failIfNoSpecifiedTests=false \
    -Djazzer.max_duration="$duration" > "$log" 2>&1 || status=$?
  # Jazzer writes a finding's input under src/test/resources (its convention's inputs folder), or else in the
  # project's root: moved beside the test, where this build keeps the inputs.
  jazzer_inputs=src/test/resources/dev/moviegraph/engine/fuzz/${class}Inputs/$method
  found=()
  for file in $(find . "$inputs" "$jazzer_inputs" -maxdepth 1 -newer target/fuzz/.started -type f \
      \( -name 'crash-*' -o -name 'timeout-*' -o -name 'slow-unit-*' -o -name 'oom-*' \) 2>/dev/null | sort -u); do
    [ "$(dirname "$file")" = "$inputs" ] || mv "$file" "$inputs/"
    found+=("$inputs/$(basename "$file")")
  done
  rmdir -p "$jazzer_inputs" 2>/dev/null || true
  stats=$(grep -a -E '^#[0-9]+' "$log" | tail -1 || true)
  runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
  [ -n "$runs" ] || runs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<< "$stats")
  field() { sed -n "s|.* $1: \([0-9]*\).*|\1|p" <<< "$stats"; }
  corpus=$(find ".cifuzz-corpus/dev.moviegraph.engine.fuzz.$class/$method" -type f 2>/dev/null | wc -l)
  if [ ${#found[@]} -gt 0 ]; then result="FOUND ${found[*]}"
  elif [ $status -ne 0 ]; then result="FAILED (exit $status; see $log)"
  else result=OK; fi
  printf '%-45s %12s %8s %6s %7s %8s  %s\n' "$target" "${runs:-?}" "$(field exec/s)" "$(field cov)" "$(field ft)" \
    "$corpus" "$result"
  if [ ${#found[@]} -gt 0 ] || [ $status -ne 0 ]; then
    grep -a -m1 -A12 -E '== Java Exception|FuzzTestFinding|timed out|Timeout' "$log" | sed 's/^/    /' || true
  fi
done
echo "end: $(date -u '+%F %T UTC'), uptime: $(uptime)"
