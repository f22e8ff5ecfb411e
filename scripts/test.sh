#!/usr/bin/env bash
# Install the app and its test tools into .venv, start a throw-away PostgreSQL server for the
# multi-station tests, then run lint, types and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test]'
export QT_QPA_PLATFORM=offscreen
source scripts/postgres.sh
start_test_postgres
trap stop_test_postgres EXIT
.venv/bin/ruff check director tests
.venv/bin/ruff format --check director tests
.venv/bin/mypy
set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
# pytest exits 5 when it ran no test: that is a failure here, not a pass
if [ "$status" -eq 5 ]; then echo "no tests ran" >&2; exit 1; fi
exit "$status"
