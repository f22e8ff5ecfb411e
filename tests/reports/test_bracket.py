"""The knockout bracket: rounds named from the final back, standings by elimination round."""

from __future__ import annotations

from pathlib import Path

from director.domain.rules import PairingSystem
from director.reports.bracket import round_name
from director.services.reports import render
from director.services.results import list_matches
from director.services.simulate import SimulationSettings, simulate_event
from tests.reports.pdfcheck import flat, page_texts


def test_round_names_count_back_from_the_final() -> None:
    assert [round_name(r, 4) for r in (1, 2, 3, 4)] == [
        "Round of 16", "Quarter-final", "Semi-final", "Final",
    ]  # fmt: skip


def test_an_eight_team_knockout_prints_its_bracket_and_elimination_standings(
    tmp_path: Path, invariant: None
) -> None:
    settings = SimulationSettings(teams=8, rounds=3, system=PairingSystem.KNOCKOUT,
                                  forfeit_rate=0.0, seed=5)  # fmt: skip
    db = simulate_event(str(tmp_path / "ko.tandem"), settings)
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
