#!/usr/bin/env bash
# Smoke test of the built (frozen) app, as a club laptop without Python would run it.
#
#   bash scripts/smoke_frozen.sh            build with installer/build.py, then test the bundle
#   TANDEM_SMOKE_NO_BUILD=1 bash scripts/smoke_frozen.sh    test the bundle already in dist/
#
# Linux (the other systems' bundles are checked by .github/workflows/installers.yml).
# installer/check_bundle.py compares the bundle's output with the unfrozen app's and runs the
# GUI offscreen through the hidden `--smoke-test` flag, which fails on any Qt warning or
# missing resource; the checks below are Linux's own. Exits non-zero at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
APP=$PWD/dist/tandem-director
BIN=$APP/tandem-director
export QT_QPA_PLATFORM=offscreen
WORK=$(mktemp -d /tmp/tandem-smoke.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

pass() { echo "frozen smoke: ok   $*"; }
fail() { echo "frozen smoke: FAIL $*" >&2; exit 1; }

[ "$(uname -s)" = Linux ] || fail "this script tests the Linux bundle; see installer/README.md"
if [ "${TANDEM_SMOKE_NO_BUILD:-0}" != 1 ]; then
  [ -x "$PY" ] || python3 -m venv .venv
  started=$(date +%s)
  "$PY" installer/build.py
  echo "frozen smoke: build took $(($(date +%s) - started)) s"
fi
[ -x "$BIN" ] || fail "no bundle at $APP (run python installer/build.py)"

# 1. the bundle against the source: CLI output, resources, migrations, fonts, the GUI
"$PY" installer/check_bundle.py "$BIN"

# 2. the PostgreSQL driver, when the test server runs (scripts/test.sh starts one)
if [ -n "${TANDEM_TEST_PG_URL:-}" ]; then
  set +e
  "$BIN" check "$TANDEM_TEST_PG_URL" >"$WORK/pg.frozen" 2>&1
  echo "status $?" >>"$WORK/pg.frozen"
  .venv/bin/tandem-director check "$TANDEM_TEST_PG_URL" >"$WORK/pg.source" 2>&1
  echo "status $?" >>"$WORK/pg.source"
  set -e
  grep -q "is not a Tandem Director event" "$WORK/pg.frozen" || fail "PostgreSQL: $(cat "$WORK/pg.frozen")"
  cmp -s "$WORK/pg.frozen" "$WORK/pg.source" || fail "PostgreSQL: the bundle answers differently"
  pass "PostgreSQL server reached through the bundled psycopg"
fi

# 3. no library of the bundle misses another one of the bundle (a file the spec dropped);
# system libraries a desktop has (PulseAudio, GTK) may be missing on this server
find "$APP/_internal" -type f \( -name '*.so' -o -name '*.so.*' \) -print0 |
  xargs -0 -n 50 ldd 2>/dev/null | grep 'not found' | sort -u >"$WORK/ldd" || true
if grep -E 'lib(Qt6|pyside6|shiboken6|python3)' "$WORK/ldd" >&2; then
  fail "bundled libraries that are not in the bundle"
fi
pass "bundled libraries resolve ($(wc -l <"$WORK/ldd") system ones absent here)"

# 4. install.sh for one user: menu entry, icon, .tandem file type; then uninstall
home=$WORK/home
HOME=$home XDG_DATA_HOME=$home/.local/share "$APP/install.sh" --user >/dev/null
installed=$home/.local/opt/tandem-director
desktop=$home/.local/share/applications/tandem-director.desktop
[ "$("$home/.local/bin/tandem-director" --version)" = "$("$BIN" --version)" ] || fail "installed app"
grep -qx "Exec=\"$installed/tandem-director\" %f" "$desktop" || fail "desktop Exec: $(grep Exec= "$desktop")"
grep -qx "MimeType=application/x-tandem-event;" "$desktop" || fail "desktop MimeType"
[ -f "$home/.local/share/icons/hicolor/256x256/apps/tandem-director.png" ] || fail "icon"
if command -v update-mime-database >/dev/null; then
  grep -q 'application/x-tandem-event:\*\.tandem' "$home/.local/share/mime/globs2" || fail "MIME glob"
fi
HOME=$home XDG_DATA_HOME=$home/.local/share "$installed/install.sh" --uninstall --user >/dev/null
left=$(find "$home" -name 'tandem-director*' | wc -l)
[ ! -e "$installed" ] && [ "$left" = 0 ] || fail "uninstall left $left files"
pass "install.sh --user and --uninstall"

echo "frozen smoke: the Linux bundle ($(du -sh "$APP" | cut -f1)) passed"
