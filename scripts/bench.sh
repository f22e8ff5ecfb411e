#!/usr/bin/env bash
# Run every benchmark and print its figures (benchmarks are measurements, not pass/fail tests).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || bash scripts/test.sh --co -q >/dev/null
export QT_QPA_PLATFORM=offscreen
for script in tests/benchmarks/bench_*.py; do
  echo "== $script"
  .venv/bin/python "$script" "$@"
done
