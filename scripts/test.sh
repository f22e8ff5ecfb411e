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
source scripts/chromium.sh  # the browser tests of the players' pages (issue 18)
start_test_postgres
source scripts/xvfb.sh && start_test_xvfb  # the `wm` focus tests' X server and window manager
trap 'stop_test_postgres; stop_test_xvfb' EXIT
log=$(mktemp)
lint_log=$(mktemp)
# lint, formatting, dead code and types, beside the tests (they print when the tests are done)
(
  set -e
  .venv/bin/ruff check director tests
  .venv/bin/ruff format --check director tests
  .venv/bin/vulture  # dead code (pyproject.toml [tool.vulture], scripts/vulture_whitelist.py)
  .venv/bin/mypy
) >"$lint_log" 2>&1 &
lint_pid=$!
# the tests on TANDEM_TEST_WORKERS processes (pytest-xdist; 0, for now the default: in this
# one; with 4 on a busy 2-core machine the suite took 34 min against 49, but timing tests of
# the clock's focus and of SIGHUP failed there, see the README): most of the
# suite's time is spent waiting on browsers, servers and child processes. Each module runs
# on one worker (--dist loadscope): its module-wide set-up is made once, and the `wm` focus
# tests (the *_wm.py modules) run on one worker, never sharing the X display at once
# (tests/conftest.py).
set +e
# --durations: the 25 slowest steps, printed at the end, say where CI's time goes
.venv/bin/python -m pytest -n "${TANDEM_TEST_WORKERS:-0}" --dist loadscope --durations=25 "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
wait "$lint_pid"
lint_status=$?
set -e
cat "$lint_log"
rm -f "$lint_log"
if [ "$lint_status" -ne 0 ]; then echo "lint, formatting, dead code or types failed" >&2; fi
# pytest exits 5 when it ran no test: that is a failure here, not a pass
if [ "$status" -eq 5 ]; then echo "no tests ran" >&2; exit 1; fi
if [ "$status" -eq 0 ] && [ "$lint_status" -ne 0 ]; then status=$lint_status; fi
# --- the frozen app (installer/README.md): after the unit tests pass, build the one-folder app
# with PyInstaller and smoke-test the bundle (about 1.5 min). It runs on a full test run;
# TANDEM_SMOKE_FROZEN=0 skips it, TANDEM_SMOKE_FROZEN=1 forces it with pytest arguments too.
if [ "$status" -eq 0 ] && [ "${TANDEM_SMOKE_FROZEN:-$([ $# -eq 0 ] && echo 1 || echo 0)}" != 0 ]; then
  bash scripts/smoke_frozen.sh || status=$?
fi
# the test runner's own closing line comes last, so whoever reads the log sees the count
grep -E '^=+ .*(passed|failed|error).* in [0-9.]+s' "$log" | tail -1 || true
rm -f "$log"
exit "$status"
