"""Tandem Director: run a backgammon club's events (Tandem, individual, knockout) on one laptop."""

# The one place of the version (pyproject.toml reads it from here): a literal, because
# importlib.metadata and the packages it loads cost a sixth of the app's start-up.
__version__ = "0.2.0"
