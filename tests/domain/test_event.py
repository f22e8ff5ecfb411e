"""The event's values as the services hand them out: where a match and a round stand."""

from __future__ import annotations

import pytest

from director.domain.errors import UserError
from director.domain.event import MatchInfo, PlayStatus, TeamInfo, round_status
from director.domain.match import score_match
from director.domain.rules import End, Level, MatchRules, Side
from director.domain.scoring import Game

RULES = MatchRules(match_length=3)
BLUE = TeamInfo(1, "Blue Bar", ("Ana", "Ben"))
RED = TeamInfo(2, "Gammonites", ("Cleo", "Dev"))


def match(
    *games: Game, team_b: TeamInfo | None = RED, forfeit: Side | None = None, id: int = 1
) -> MatchInfo:
    names = (BLUE.name, team_b.name if team_b else "bye")
    return MatchInfo(
        id=id,
        round=1,
        table=id,
        team_a=BLUE,
        team_b=team_b,
        rules=RULES,
        games=games,
        game_ids=tuple(range(1, len(games) + 1)),
        outcome=score_match(RULES, games, names),
        forfeit_by=forfeit,
    )


def win(pair: int, board: int, side: Side) -> Game:
    return Game(pair, board, side, End.BEAR_OFF, cube=2, level=Level.SINGLE)


def test_a_match_is_not_started_then_in_progress_then_finished() -> None:
    assert match().status is PlayStatus.NOT_STARTED
    assert match(win(1, 1, Side.A)).status is PlayStatus.IN_PROGRESS
    assert match(win(1, 1, Side.A), win(1, 2, Side.A)).status is PlayStatus.FINISHED  # 4–0
    assert match(forfeit=Side.B).status is PlayStatus.FINISHED
    assert match(team_b=None).status is PlayStatus.FINISHED  # a bye is decided when paired


def test_a_bye_is_named_and_has_no_second_team() -> None:
    bye = match(team_b=None)
    assert bye.is_bye and bye.names == ("Blue Bar", "bye")
    assert bye.team(Side.A) is BLUE and bye.team(Side.B) is None


def test_a_round_stands_where_its_matches_do_byes_aside() -> None:
    done = match(win(1, 1, Side.A), win(1, 2, Side.A))
    assert round_status([match(id=1), match(team_b=None, id=2)]) is PlayStatus.NOT_STARTED
    assert round_status([done, match(id=2)]) is PlayStatus.IN_PROGRESS
    assert round_status([done, match(team_b=None, id=2)]) is PlayStatus.FINISHED
    assert round_status([match(team_b=None)]) is PlayStatus.FINISHED  # only a bye


def test_a_team_is_withdrawn_once_it_has_a_last_round() -> None:
    assert not BLUE.withdrawn
    assert TeamInfo(3, "Late", ("Eve", "Finn"), withdrawn_after_round=0).withdrawn


def test_an_entrants_players_are_read_by_board() -> None:
    """#28: a Tandem team plays boards 1 and 2; an individual event's player board 1 alone,
    and nobody ("") plays its board 2; a board no format has is refused."""
    ana = TeamInfo(3, "Ana", ("Ana",))
    assert (BLUE.player(1), BLUE.player(2), ana.player(1), ana.player(2)) == (
        "Ana",
        "Ben",
        "Ana",
        "",
    )
    assert dict(BLUE.by_board) == {1: "Ana", 2: "Ben"} and dict(ana.by_board) == {1: "Ana"}
    with pytest.raises(UserError, match="there is no board 3"):
        BLUE.player(3)
