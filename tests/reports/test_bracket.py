"""The knockout bracket of an older knockout (paired round by round, before bracket plans were
stored): rounds named from the final back, standings by elimination round. A knockout paired
match by match prints its draw sheets (tests/reports/test_draw_sheet.py)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import update

from director.domain.event import MatchInfo
from director.domain.rules import PairingSystem
from director.reports.bracket import round_name, winner
from director.services.matches import list_matches
from director.services.reports import render
from director.services.simulate import SimulationSettings, simulate_event
from director.store import models
from director.store.engine import EventDatabase
from tests.reports.pdfcheck import flat, page_texts


def test_round_names_count_back_from_the_final() -> None:
    assert [round_name(r, 4) for r in (1, 2, 3, 4)] == [
        "Round of 16", "Quarter-final", "Semi-final", "Final",
    ]  # fmt: skip


def older(db: EventDatabase) -> EventDatabase:
    """The event as a knockout from before revision 0010 keeps it: no plan stored."""
    with db.Session() as session, session.begin():
        session.execute(update(models.Event).values(bracket_plan=""))
    return db


def test_an_eight_team_knockout_prints_its_bracket_and_elimination_standings(
    tmp_path: Path, invariant: None
) -> None:
    settings = SimulationSettings(teams=8, rounds=3, system=PairingSystem.KNOCKOUT,
                                  forfeit_rate=0.0, seed=5)  # fmt: skip
    db = older(simulate_event(str(tmp_path / "ko.tandem"), settings))
    try:
        with db.Session() as session:
            data = render(session, "bracket")
            final = [m for m in list_matches(session) if m.round == 3]
    finally:
        db.close()
    text = " ".join(flat(t) for t in page_texts(data))
    for name in ("Quarter-final", "Semi-final", "Final", "Knockout standings"):
        assert name in text
    assert len(final) == 1 and final[0].team_b is not None
    result = final[0].outcome
    won_a = result.final.a > result.final.b
    champion = final[0].team_a if won_a else final[0].team_b
    finalist = final[0].team_b if won_a else final[0].team_a
    standings = text.split("Went out in")[1]
    assert standings.index(f"1 {champion.name}") < standings.index(f"2 {finalist.name}")
    assert standings.count("3=") == 2 and standings.count("5=") == 4
    assert "Buchholz" not in text


def test_the_consolation_bracket_holds_the_first_round_losers_and_names_its_own_rounds(
    tmp_path: Path, invariant: None
) -> None:
    settings = SimulationSettings(teams=8, rounds=3, system=PairingSystem.KNOCKOUT,
                                  forfeit_rate=0.0, seed=5, consolation=True)  # fmt: skip
    db = older(simulate_event(str(tmp_path / "ko.tandem"), settings))
    try:
        with db.Session() as session:
            data = render(session, "bracket")
            matches = list_matches(session)
    finally:
        db.close()
    first = [m for m in matches if m.round == 1]
    losers = {(m.team_b if winner(m) is m.team_a else m.team_a).name for m in first}  # type: ignore[union-attr]
    assert len(losers) == 4
    text = " ".join(flat(t) for t in page_texts(data))
    main, rest = text.split("Consolation bracket", 1)
    consolation, standings = rest.split("Knockout standings", 1)
    # its own two rounds, named from its own final back (not the main bracket's names)
    assert consolation.strip().startswith("Semi-final Final")
    assert "Quarter-final" not in consolation
    played = {n for n in losers if n in consolation}
    assert played == losers
    cons_final = max(matches, key=lambda m: (m.round, m.table))  # round 3, after the main final
    assert {cons_final.team_a.name, cons_final.team_b.name} <= losers  # type: ignore[union-attr]
    champion = winner(cons_final)
    assert champion is not None and f"Consolation winner: {champion.name}" in consolation
    # a consolation win changes no knockout place: the first-round losers share 5th
    assert all(f"5= {name} Quarter-final" in standings for name in losers)


def test_the_bracket_report_reads_each_matchs_stored_bracket(
    tmp_path: Path, invariant: None
) -> None:
    """#29: the report reads the bracket each match stores (revision 0010), not its table."""
    from director.reports.bracket import split

    settings = SimulationSettings(teams=12, rounds=4, system=PairingSystem.KNOCKOUT,
                                  forfeit_rate=0.0, seed=7, consolation=True)  # fmt: skip
    db = simulate_event(str(tmp_path / "ko.tandem"), settings)
    try:
        with db.Session() as session:
            matches = list_matches(session)
    finally:
        db.close()
    by_round: dict[int, list[MatchInfo]] = {}
    for m in matches:
        assert m.round is not None and m.bracket in ("main", "consolation")
        by_round.setdefault(m.round, []).append(m)
    main, consolation = split(by_round)
    assert {m.id for ms in main.values() for m in ms} == {
        m.id for m in matches if m.bracket == "main"
    }
    # seeds 1-4 had byes: one who loses in main round 2 is a round-1 loser (RULES §11)
    assert [sorted(m.slot or 0 for m in consolation[n]) for n in sorted(consolation)] == [
        [1, 2, 3, 4],
        [1, 2],
        [1],
    ]
    assert {m.bracket_round for ms in consolation.values() for m in ms} == {1, 2, 3}
