"""The rules of Tandem backgammon, pure Python: no Qt, no SQLAlchemy, no I/O."""
