"""Standings, crosstable and board statistics, checked against tallies made from the matches."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from director.domain.errors import UserError
from director.domain.match import Result
from director.domain.rules import DEFAULT_TIE_BREAKS
from director.domain.standings import TIE_BREAK_DEFINITIONS
from director.services.matches import list_matches
from director.services.teams import list_teams
from director.store.engine import EventDatabase
from tests.reports.conftest import Render
from tests.reports.eventdata import Built, build_event
from tests.reports.pdfcheck import flat, page_sizes, page_texts, pdf_text


def match_points(db: EventDatabase, through: int) -> Counter[str]:
    """2 a win (forfeits and byes too), 1 a draw, by team name: an independent tally."""
    points: Counter[str] = Counter()
    with db.Session() as session:
        for m in list_matches(session):
            if m.round is None or m.round > through:
                continue
            if m.team_b is None:
                points[m.team_a.name] += 2
            elif m.forfeit_by is not None:
                points[m.team(m.forfeit_by.other).name] += 2  # type: ignore[union-attr]
            elif m.outcome.result is Result.A:
                points[m.team_a.name] += 2
            elif m.outcome.result is Result.B:
                points[m.team_b.name] += 2
            elif m.outcome.result is Result.DRAW:
                points[m.team_a.name] += 1
                points[m.team_b.name] += 1
    return points


def test_standings_rows_have_the_right_match_points_in_rank_order(
    built: Built, pdf: Render, db: EventDatabase
) -> None:
    text = pdf_text(pdf("standings"))
    assert "Standings during round 3 (2 of 3 matches decided)" in text  # one is unfinished
    expected = match_points(db, 3)
    with db.Session() as session:
        teams = list_teams(session)
    # each row: rank, team name, players, played, W, D, L, MP, ...
    rows = []
    for team in teams:
        found = re.search(
            re.escape(team.name)
            + r" "
            + re.escape(f"{team.players[0]} · {team.players[1]}")
            + r" (\d+) (\d+) (\d+) (\d+) (\d+(?:\.5)?)",
            text,
        )
        assert found, team.name
        assert float(found.group(5)) == expected[team.name], team.name
        rows.append((text.index(team.name), float(found.group(5))))
    in_print_order = [mp for _, mp in sorted(rows)]
    assert in_print_order == sorted(in_print_order, reverse=True)


def test_standings_name_every_tie_break_and_define_it(built: Built, pdf: Render) -> None:
    text = pdf_text(pdf("standings"))
    for heading in ("MP", "Buchholz", "Diff", "Pts for", "H2H", "Seed"):
        assert heading in text
    for tie_break in DEFAULT_TIE_BREAKS:
        definition = TIE_BREAK_DEFINITIONS[tie_break].partition(": ")[2]
        assert definition in text, tie_break
    assert "Match points: win 2, draw 1, loss 0" in text


def test_standings_after_an_earlier_round(built: Built, pdf: Render, db: EventDatabase) -> None:
    text = pdf_text(pdf("standings", round=1))
    assert "Standings after round 1" in text
    assert sum(match_points(db, 1).values()) == 2 * 3  # three decided matches in round 1
    with pytest.raises(UserError, match="there is no round 4"):
        pdf("standings", round=4)


def test_crosstable_cells_are_each_teams_results(
    built: Built, pdf: Render, db: EventDatabase
) -> None:
    text = pdf_text(pdf("crosstable"))
    with db.Session() as session:
        matches = [m for m in list_matches(session) if m.team_b is not None]
    for m in matches:
        if m.forfeit_by is not None or not m.outcome.finished:
            continue
        s = m.outcome.final
        code = {Result.A: ("W", "L"), Result.B: ("L", "W"), Result.DRAW: ("D", "D")}
        a_code, b_code = code[m.outcome.result]
        assert f"{a_code} {s.a}–{s.b}" in text
        assert f"{b_code} {s.b}–{s.a}" in text
    assert "+ v" in text and "− v" in text  # the forfeit, from both sides
    assert "? v" in text  # the unfinished match
    for r in (1, 2, 3):
        assert f"R{r}" in text


def test_the_crosstable_title_says_what_the_numbers_are(built: Built, pdf: Render) -> None:
    """#12: a part-played round 3 was titled "Crosstable after round 3", over a "?" cell."""
    during = "Crosstable during round 3 (2 of 3 matches decided)"
    assert pdf_text(pdf("crosstable")).count(during) == 2  # and whole in the page header
    standings = "Standings during round 3 (2 of 3 matches decided)"
    assert pdf_text(pdf("standings")).count(standings) == 2  # the header cut it short
    assert "Crosstable after round 2" in pdf_text(pdf("crosstable", round=2))
    assert during in pdf_text(pdf("event"))


def test_a_long_event_prints_its_crosstable_on_landscape_pages(
    db: EventDatabase, pdf: Render
) -> None:
    with db.Session() as session, session.begin():
        build_event(session, teams=10, rounds=9, forfeit=False, unfinished=False)
    data = pdf("crosstable")
    assert all(w > h for w, h in page_sizes(data))
    assert "R9" in pdf_text(data)


def test_board_statistics_count_each_players_games(
    built: Built, pdf: Render, db: EventDatabase
) -> None:
    games: Counter[tuple[str, str]] = Counter()  # (player, team)
    won: Counter[tuple[str, str]] = Counter()
    with db.Session() as session:
        for m in list_matches(session):
            if m.team_b is None:
                continue
            for line in m.outcome.lines:
                g = line.game
                winner, loser = m.team(g.winner), m.team(g.winner.other)
                assert winner is not None and loser is not None
                games[winner.players[g.board - 1], winner.name] += 1
                games[loser.players[g.board - 1], loser.name] += 1
                won[winner.players[g.board - 1], winner.name] += 1
    texts = [flat(t) for t in page_texts(pdf("boards"))]
    text = " ".join(texts)
    assert "Board 1" in text and "Board 2" in text
    for (player, team), count in games.items():
        found = re.search(f"{re.escape(player)} {re.escape(team)} " + r"(\d+) (\d+) (\d+) ", text)
        assert found, player
        assert (int(found.group(1)), int(found.group(2))) == (count, won[player, team]), player
