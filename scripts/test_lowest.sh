#!/usr/bin/env bash
# The test suite at the lowest versions pyproject.toml allows: every direct dependency (the
# app's and the test tools') at its declared minimum, resolved by uv's
# `--resolution lowest-direct` into a venv of its own (.venv-lowest), with the private
# PostgreSQL server. A minimum that is not true fails here. .ci/run runs it after
# scripts/test.sh; arguments pass through to pytest. (ruff and mypy run once, in test.sh.)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${TANDEM_LOWEST_VENV:-.venv-lowest}
[ -x .venv/bin/uv ] || .venv/bin/python -m pip install -q uv
started=$(date +%s)
rm -rf "$VENV"
"$PY" -m venv "$VENV"
# --compile-bytecode: the .pyc files pip would write (uv writes none): without them, where
# PYTHONDONTWRITEBYTECODE is set, each worker and child process compiles its libraries again
.venv/bin/uv pip install -q --compile-bytecode --python "$VENV/bin/python" \
  --resolution lowest-direct -e '.[test]'
echo "lowest: installed in $(($(date +%s) - started)) s:" \
  "$("$VENV/bin/python" -m pip list --format=freeze 2>/dev/null |
     grep -iE '^(pyside6|sqlalchemy|alembic|reportlab|networkx|platformdirs|uharfbuzz|python-bidi|starlette|uvicorn|segno|psycopg)==' |
     tr '\n' ' ')"
export QT_QPA_PLATFORM=offscreen
source scripts/postgres.sh
start_test_postgres
source scripts/xvfb.sh && start_test_xvfb  # the `wm` focus tests' X server and window manager
trap 'stop_test_postgres; stop_test_xvfb' EXIT
set +e
"$VENV/bin/python" -m pytest -p no:cacheprovider "$@"
status=$?
set -e
# pytest exits 5 when it ran no test: that is a failure here, not a pass
if [ "$status" -eq 5 ]; then echo "lowest: no tests ran" >&2; exit 1; fi
exit "$status"
