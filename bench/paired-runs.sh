#!/usr/bin/env bash
# Paired before/after figures on a shared machine: each benchmark runs on two checkouts in turn
# (before, after, before, after…) so that both sides meet the same load, with the load average
# written before each run. Figures taken at different times are not compared.
#
#   bench/paired-runs.sh BEFORE_DIR AFTER_DIR [ROUNDS=3] [OUT_DIR=/tmp/sf-paired] [BENCHES="api web loyalty"]
#   node bench/paired-table.mjs OUT_DIR        # medians, spread and change per figure
#
# BEFORE_DIR and AFTER_DIR are worktrees with node_modules and a built web app (npm run build).
# bench:web runs AFTER_DIR's bench-web.ts in both (copied beside BEFORE_DIR's as bench-web-now.ts),
# so both sides are measured with the same ruler; bench and bench:loyalty run each side's own script.
# A run that fails or outlives RUN_TIMEOUT seconds (default 1200) is noted in OUT_DIR/runs.txt and
# skipped by the table: bench-web.ts waits forever for a browser it did not close after a failed step.
set -euo pipefail
before=$(realpath "$1"); after=$(realpath "$2"); rounds=${3:-3}; out=${4:-/tmp/sf-paired}
benches=${5:-api web loyalty}
mkdir -p "$out"
cp "$after/apps/web/scripts/bench-web.ts" "$before/apps/web/scripts/bench-web-now.ts"
cp "$after/apps/web/scripts/bench-web.ts" "$after/apps/web/scripts/bench-web-now.ts"
run() { # bench side dir round
  local bench=$1 side=$2 dir=$3 round=$4 log="$out/$1-$2-$4.log"
  echo "$(date -u +%H:%M:%S) $bench $side round $round, load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/runs.txt"
  local limit=${RUN_TIMEOUT:-1200}
  {
    echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    case $bench in
      api) (cd "$dir" && timeout --kill-after=30 "$limit" npm run --silent bench) ;;
      web) (cd "$dir/apps/web" && timeout --kill-after=30 "$limit" node --import tsx scripts/bench-web-now.ts --full --no-build --lighthouse-runs=0 --runs=5) ;;
      loyalty) (cd "$dir" && timeout --kill-after=30 "$limit" npm run --silent bench:loyalty) ;;
    esac
  } >"$log" 2>&1 || echo "  FAILED: see $log" | tee -a "$out/runs.txt"
}
for bench in $benches; do
  for round in $(seq 1 "$rounds"); do
    run "$bench" before "$before" "$round"
    run "$bench" after "$after" "$round"
  done
done
rm -f "$before/apps/web/scripts/bench-web-now.ts" "$after/apps/web/scripts/bench-web-now.ts"
