#!/usr/bin/env bash
# The app as `pip install` gives it: build the wheel, install it (not editable) into a fresh
# venv with its dependencies, and from there, outside the checkout, run every command of
# `tandem-director` and the GUI smoke test (`--smoke-test`: an event in the main window,
# every page, the help, the clocks, every report). A command that opens a window or a server
# for good (clock, serve) is asked for its --help; the smoke test opens the clock window.
# .ci/run runs this after scripts/test.sh. Exits non-zero at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-python3}
WORK=$(mktemp -d /tmp/tandem-wheel.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export QT_QPA_PLATFORM=offscreen
started=$(date +%s)
fail() { echo "wheel: FAIL $*" >&2; exit 1; }

"$PY" -m pip wheel -q --no-deps -w "$WORK/dist" "$ROOT" >/dev/null
wheel=$(ls "$WORK"/dist/tandem_director-*.whl)
"$PY" -m venv "$WORK/venv with space"
V="$WORK/venv with space/bin"
# uv: the same install as pip's, from its cache in seconds rather than minutes; with the .pyc
# files pip writes (without them, where PYTHONDONTWRITEBYTECODE is set, each command below
# compiled its libraries again: `standings` 0.77 s of CPU instead of 0.32 s)
[ -x "$ROOT/.venv/bin/uv" ] || "$ROOT/.venv/bin/python" -m pip install -q uv
"$ROOT/.venv/bin/uv" pip install -q --compile-bytecode --python "$V/python" "$wheel[postgres]"
echo "wheel: installed $(basename "$wheel") in $(($(date +%s) - started)) s"
cd "$WORK"  # the checkout's director/ must not be the one imported
where=$("$V/python" -c 'import director.resources as r; print(r.resource_root())')
case "$where" in "$WORK/venv with space/"*) ;; *) fail "resources read from $where" ;; esac

T="$V/tandem-director"
ran=()
run() {  # run COMMAND ARGS...: must succeed
  ran+=("$1")
  "$T" "$@" >"$WORK/out" 2>&1 || { cat "$WORK/out" >&2; fail "tandem-director $*"; }
}
run --version
run met --json
run new club.tandem --name "Club night" --length 5 --time 2+12
printf 'team,player1,player2\nBlue Bar,Ana,Ben\nGammonites,Cleo,Dev\nRed Rooks,Eli,Fay\nGold,Gus,Hal\n' > teams.csv
run import-teams club.tandem teams.csv
run export-teams club.tandem out.csv
run pair club.tandem --preview
run pair club.tandem
run standings club.tandem --json
run check-pairings club.tandem
run simulate sim.tandem --teams 6 --rounds 2 --seed 7
run check sim.tandem
run result club.tandem --round 1 --table 1 --score 5-2
run report event sim.tandem -o event.pdf
run export-match sim.tandem 1 m.tandem-match.json
run clock-log sim.tandem 1 --json
run replay m.tandem-match.json --json
# import-match fills a paired match of two registered teams under the record's own rules
# (FORMATS): an event with the record's rules and its two teams, paired, takes it
"$V/python" - m.tandem-match.json > records.args 2> records.csv <<'PY'
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
print(f"--length {r['match_length']} --scoring {r['scoring']} "
      f"--one-cube-threshold {r['one_cube_threshold']}"
      + (" --winner-required" if r["winner_required"] else "")
      + (" --no-cube-at-one-away" if r["no_cube_at_one_away"] else ""))
sys.stderr.write("team,player1,player2\n")
for side in "AB":
    team = r["teams"][side]
    sys.stderr.write(",".join([team["name"], *team["players"]]) + "\n")
PY
# shellcheck disable=SC2046  # the options are words
run new records.tandem --name "Records" --date 2026-03-05 $(cat records.args)
run import-teams records.tandem records.csv
run pair records.tandem
run import-match records.tandem m.tandem-match.json
# the club: a register, the records event published to it (shown, then written), its figures
run club new weekly.club
run club publish records.tandem weekly.club --yes
run club rebuild weekly.club records.tandem --yes
run club ratings weekly.club --json
run club person weekly.club '#1'
run club season weekly.club 2026 --from 2026-01-01 --to 2026-12-31
run club link records.tandem weekly.club --yes
run new seeded.tandem --name "Seeded" --length 5
run import-teams seeded.tandem teams.csv
run club link seeded.tandem weekly.club --yes
run club seed seeded.tandem weekly.club
run club report weekly.club person card.pdf --person '#1'
# a knockout's bracket plan, shown and changed before its first round
run new knockout.tandem --name "Cup" --length 5 --format knockout --plan single
run plan knockout.tandem --set consolation --reason wheel
run plan knockout.tandem --json
run backup sim.tandem --reason wheel
run backups sim.tandem
# `backups` ends with: restore the newest good one with: tandem-director restore "F" "B"
backup=$(sed -n 's/^restore the newest good one with: .* "\(.*\)"$/\1/p' "$WORK/out")
[ -f "$backup" ] || fail "backups named no backup: $(cat "$WORK/out")"
run restore sim.tandem "$backup"
run upgrade sim.tandem
for windowed in clock serve; do
  if "$T" "$windowed" --help >/dev/null 2>&1; then ran+=("$windowed"); fi
done
run --smoke-test gui
[ "$(ls gui/*.pdf | wc -l)" -gt 5 ] || fail "the smoke test wrote no reports"

# every command the parser knows was run
missing=$("$V/python" - "${ran[@]}" <<'PY'
import argparse, sys
from director.cli.command_line import build_parser
parser = build_parser()
names = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
print(" ".join(sorted(set(names) - set(sys.argv[1:]))))
PY
)
[ -z "$missing" ] || fail "commands not run from the wheel: $missing"
echo "wheel: every command and the GUI smoke test ran from the installed wheel ($(($(date +%s) - started)) s)"
