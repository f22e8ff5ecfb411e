"""Names the dead-code check (vulture, configured in pyproject.toml) must not report.

Each is used by something vulture cannot see: Qt or reportlab calling an override, SQLAlchemy
calling an event listener or filling a column, a library reading an attribute we set. Vulture
reads this file as source and never runs it. Add a name here only with its reason.
"""

# ruff: noqa
# Qt calls these overrides
CenteredCheckDelegate.paint
CenteredCheckDelegate.editorEvent
DurationBox.textFromValue
DurationBox.valueFromText
DurationBox.validate
CubeSpin.validate
CubeSpin.stepBy
TeamFilter.filterAcceptsRow
TeamFilter.lessThan
# SQLAlchemy calls the listener that `listens_for` registers (store/upgrade.py)
_pragmas
# columns of the schema: written, or kept for the file format, and read by SQL and by FORMATS
created_at
paired_at
published_at
started_at
pair_id
token_id
pip_a
pip_b
recorded_at
# a pair's live cube columns, read and written by board number (store/convert.py, getattr)
cube1_value
cube1_owner
cube1_offered_by
cube2_value
cube2_owner
cube2_offered_by
# a library reads what we set: reportlab's font embedding, Python's warnings, uvicorn's server
makeToUnicodeCMap
start_font  # reportlab's paragraph parser calls it for <font> (reports/shaping.py)
showwarning
# reportlab's LinePlot reads the attributes the club's rating chart sets (reports/club.py)
strokeColor
strokeWidth
valueMin
valueMax
valueStep
labelTextFormat
should_exit
force_exit
# the open dialog stays reachable from its preview (ui/reports/preview.py)
file_dialog
print_dialog
# the mirror of resources/web/clock.js's constant of the same name and meaning
COMMAND_LIFE_NS
# pytest runs an autouse fixture for every test that never names it (tests/ui/conftest.py)
_application
# pytest-xdist's scheduler calls it on the subclass in tests/conftest.py (a work unit per module)
ModuleScheduling._split_scope
# SQLAlchemy calls a `validates` method when the name is set (store/models.py: the name's key)
_keep_name_key
# asyncio calls a Protocol's data_received (tests/benchmarks/bench_phone_room.py: each viewer)
_Viewer.data_received
