#!/usr/bin/env bash
# Run every benchmark and print its figures (benchmarks are measurements, not pass/fail tests).
# A private PostgreSQL server is started for the multi-station figures, as for the tests.
# Each script can also run alone: .venv/bin/python tests/benchmarks/bench_NAME.py --help
# (bench_individual.py: an individual night of 1,000 players beside 1,000 Tandem teams, #28)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install -q -e '.[test]'
fi
export QT_QPA_PLATFORM=offscreen
source scripts/postgres.sh
start_test_postgres
trap stop_test_postgres EXIT
# every script runs and prints its figures, also after one whose figures are out of bounds;
# the run then ends with the names of those and a failing status
out_of_bounds=()
for script in tests/benchmarks/bench_*.py; do
  echo "== $script"
  .venv/bin/python "$script" || out_of_bounds+=("$script")
done
if [ ${#out_of_bounds[@]} -gt 0 ]; then
  echo "out of bounds or failed: ${out_of_bounds[*]}" >&2
  exit 1
fi
