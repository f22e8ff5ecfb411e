"""Pairings sheet, team list / check-in sheet and the MET handout."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from director.domain.errors import UserError
from director.domain.met import MetParameters, match_equity_table
from director.services.matches import list_matches
from director.services.reports import render
from director.services.teams import edit_team, list_teams, withdraw_team
from director.store.engine import EventDatabase
from tests.reports.conftest import Render
from tests.reports.eventdata import Built, build_event
from tests.reports.pdfcheck import flat, page_texts, pdf_text


def test_pairings_list_tables_teams_and_boards(
    built: Built, pdf: Render, db: EventDatabase
) -> None:
    with db.Session() as session:
        matches = list_matches(session, 2)
    text = pdf_text(pdf("pairings", round=2))
    assert "Round 2" in text
    for m in matches:
        assert m.team_b is not None
        # each team: its seed and match points going in, then its boards
        a, b = (
            re.escape(t.name) + rf" seed {t.seed} · \d+ MP going in" for t in (m.team_a, m.team_b)
        )
        row = (
            rf"{m.table} {a} 1 {re.escape(m.team_a.players[0])} 2 "
            rf"{re.escape(m.team_a.players[1])} v {b} 1 {re.escape(m.team_b.players[0])} 2 "
            rf"{re.escape(m.team_b.players[1])}"
        )
        assert re.search(row, text), row


def test_pairings_show_the_bye_and_an_index_for_a_big_round(db: EventDatabase, pdf: Render) -> None:
    with db.Session() as session, session.begin():
        build_event(session, teams=15, rounds=1, forfeit=False, unfinished=False)
        matches = list_matches(session, 1)
    bye = next(m for m in matches if m.is_bye)
    data = pdf("pairings")
    text = pdf_text(data)
    assert f"Bye: {bye.team_a.name}" in text
    assert "Round 1: find your table" in page_texts(data)[-1]  # a page of its own
    for m in matches:
        if not m.is_bye:
            assert m.team_b is not None
            assert f"{m.team_a.name} {m.table}" in text and f"{m.team_b.name} {m.table}" in text


def test_pairings_refuse_an_unknown_round(built: Built, pdf: Render) -> None:
    with pytest.raises(UserError, match="there is no round 5: the rounds are 1 to 3"):
        pdf("pairings", round=5)
    with pytest.raises(UserError, match="--round does not apply"):
        pdf("teams", round=1)
    with pytest.raises(UserError, match="--match does not apply"):
        pdf("pairings", match=1)


def test_team_list_ticks_paid_and_present(built: Built, pdf: Render, db: EventDatabase) -> None:
    with db.Session() as session, session.begin():
        teams = list_teams(session)
        edit_team(session, teams[0].id, paid=True, present=True)
        edit_team(session, teams[1].id, paid=True)
        withdraw_team(session, teams[2].id)
    text = pdf_text(pdf("teams"))
    assert f"{len(teams)} teams · 2 paid · 1 present" in text
    assert "Paid" in text and "Present" in text
    assert f"{teams[0].name} (withdrawn" not in text
    assert f"{teams[2].name} (withdrawn after round 3)" in text
    first = re.search(re.escape(teams[0].players[1]) + r" Club \d (\S) (\S)", text)
    second = re.search(re.escape(teams[1].players[1]) + r" Club \d (\S) (\S)", text)
    assert first and first.groups() == ("☑", "☑")
    assert second and second.groups() == ("☑", "☐")


def test_met_handout_prints_the_domain_table_model_and_parameters(
    db: EventDatabase,
) -> None:
    params = MetParameters(gammon_rate=0.3, backgammon_rate=0.02, size=8)
    with db.Session() as session:
        data = render(session, "met", generated=datetime(2025, 5, 6, 7, 8), met_parameters=params)
    text = pdf_text(data)
    assert "Gammon rate g = 0.3" in text and "backgammon rate b = 0.02" in text
    assert "table size 8 × 8" in text
    assert flat(params.model_text(datetime(2025, 5, 6).date())) in text
    table = match_equity_table(params)
    for i, row in enumerate(table, start=1):
        cells = " ".join(f"{v * 100:.1f}%" for v in row)
        assert f"{i} {cells}" in text
    assert len(page_texts(data)) == 1


def test_a_big_met_continues_in_blocks(db: EventDatabase) -> None:
    params = MetParameters(size=25)
    with db.Session() as session:
        text = pdf_text(render(session, "met", met_parameters=params))
    table = match_equity_table(params)
    assert f"{table[24][24] * 100:.1f}%" in text
    assert "need 17 18 19 20 21 22 23 24 25" in text  # the second block of columns
