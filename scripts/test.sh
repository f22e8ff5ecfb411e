#!/usr/bin/env bash
# Install the app and its test tools into .venv, start a throw-away PostgreSQL server for the
# multi-station tests, then run lint, types and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
# uv (one of the test tools) installs the same packages from the same registry as pip, in
# seconds rather than about a minute; pip only brings uv itself. --compile-bytecode: the .pyc
# files pip writes (uv writes none; without them, where PYTHONDONTWRITEBYTECODE is set, every
# `tandem-director` the tests run compiled its libraries again: 0.77 s of CPU, not 0.32 s)
[ -x .venv/bin/uv ] || .venv/bin/python -m pip install -q uv
.venv/bin/uv pip install -q --compile-bytecode --python .venv/bin/python -e '.[test]'
# the app's and the tests' bytecode, once: every CLI child process, server and pytest-xdist
# worker then reads it instead of compiling the sources (each one would, where
# PYTHONDONTWRITEBYTECODE is set: about 0.15 s of every `tandem-director` the tests run)
.venv/bin/python -m compileall -q -j 0 director tests >/dev/null
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
# the tests on TANDEM_TEST_WORKERS processes (pytest-xdist; 2 by default, 0 runs them all in
# this one): most of the suite's time is spent waiting on browsers, servers and child
# processes, so two workers keep both cores of a CI machine busy. Each module runs on one
# worker (--dist loadscope): its module-wide set-up is made once. The `serial` tests (the
# clock's timings, the window manager's focus, a signal inside an opening) time what they
# test, so they run afterwards in one process, with the machine to themselves.
# --durations: the 25 slowest steps of each run, printed at its end, say where the time goes.
workers=${TANDEM_TEST_WORKERS:-2}
set +e
if [ "$workers" = 0 ]; then
  .venv/bin/python -m pytest -n 0 --durations=25 "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
else
  .venv/bin/python -m pytest -n "$workers" --dist loadscope --durations=25 -m "not serial" "$@" 2>&1 | tee "$log"
  parallel=${PIPESTATUS[0]}
  .venv/bin/python -m pytest -n 0 --durations=25 -m serial "$@" 2>&1 | tee -a "$log"
  serial=${PIPESTATUS[0]}
  # 5 is "no tests ran": fine for one of the two runs (`bash scripts/test.sh tests/domain`
  # has no serial test), a failure when both ran none
  if [ "$parallel" -eq 5 ] && [ "$serial" -eq 5 ]; then status=5
  elif [ "$parallel" -ne 0 ] && [ "$parallel" -ne 5 ]; then status=$parallel
  elif [ "$serial" -ne 0 ] && [ "$serial" -ne 5 ]; then status=$serial
  else status=0
  fi
fi
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
# the test runners' own closing lines come last, so whoever reads the log sees the counts
grep -E '^=+ .*(passed|failed|error|deselected).* in [0-9.]+s' "$log" || true
rm -f "$log"
exit "$status"
