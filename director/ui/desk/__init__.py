"""The match desk: one match on one page (boards, cubes, scoreline, games)."""

from director.ui.desk.match_desk import MatchDeskPage

__all__ = ["MatchDeskPage"]
