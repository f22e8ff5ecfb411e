"""A round's papers: pairings with the score going in, the results sheet, blank sheets, the
final standings' signature line."""

from __future__ import annotations

from director.domain.match import Result
from director.services.matches import list_matches
from director.store.engine import EventDatabase
from tests.reports.conftest import Render
from tests.reports.eventdata import Built, build_event
from tests.reports.pdfcheck import flat, page_texts, pdf_text


def test_pairings_give_seed_score_going_in_match_length_and_clock(
    built: Built, pdf: Render, db: EventDatabase
) -> None:
    text = pdf_text(pdf("pairings", round=2))
    assert "Match to 5 points · Standard scoring · 2 min + 12 s Fischer increment" in text
    assert "seed 1" in text and "MP going in" in text
    with db.Session() as session:
        first = [m for m in list_matches(session, 1) if m.team_b is not None]
    # after round 1 a winner has 2 match points going into round 2
    assert any(m.outcome.result in (Result.A, Result.B) for m in first)
    assert "2 MP going in" in text


def test_results_of_a_round_winner_first(built: Built, pdf: Render, db: EventDatabase) -> None:
    data = pdf("results", round=1)
    texts = page_texts(data)
    assert len(texts) == 1
    text = flat(texts[0])
    assert "Results of round 1" in text
    with db.Session() as session:
        for m in list_matches(session, 1):
            if m.team_b is None:
                assert "bye" in text
                continue
            final = m.outcome.final
            high, low = max(final.a, final.b), min(final.a, final.b)
            assert f"{high}–{low}" in text
            winner = {Result.A: m.team_a.name, Result.B: m.team_b.name}.get(m.outcome.result)
            if winner:
                assert f"{winner} wins" in text


def test_blank_and_spare_sheets_need_no_round(db: EventDatabase, pdf: Render) -> None:
    texts = [flat(t) for t in page_texts(pdf("blank-scoresheet"))]
    assert len(texts) == 2
    assert "Blank scoresheet" in texts[0] and "Team A captain" in texts[0]
    assert "Start A–B" in texts[0] and "One-cube · cube board" in texts[0]
    assert "Spare scoresheet — any match" in texts[1] and "Notes" in texts[1]


def test_final_standings_carry_the_directors_signature_line(db: EventDatabase, pdf: Render) -> None:
    with db.Session() as session, session.begin():
        build_event(session, teams=4, rounds=3, forfeit=False, unfinished=False)
    text = pdf_text(pdf("standings"))
    assert "Final standings" in text and "Signature: ____" in text
