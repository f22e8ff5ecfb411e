"""The use-cases: functions that take a Session, validate through the domain and return values.

The GUI and the CLI call only these. The caller owns the session and its transaction
(`with db.Session() as s, s.begin(): ...`), so a result is committed when the block ends.
"""
