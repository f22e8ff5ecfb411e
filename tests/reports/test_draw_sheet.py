"""Draw sheets (#29, RULES §11): every bracket of the plan with its rounds, their lengths, the
names, the results and the byes, and each bracket's places; read back with pypdf and rendered
with pypdfium2."""

from __future__ import annotations

from pathlib import Path

from director.domain.brackets.plan import Bracket, BracketPlan, ready_made
from director.domain.event import MatchInfo
from director.domain.rules import PairingSystem
from director.services.bracket_pairing import DrawState, draw_state
from director.services.matches import list_matches
from director.services.reports import render
from director.services.rounds import pair_next_round
from director.services.simulate import SimulationSettings, simulate_event
from tests.reports.pdfcheck import A3, ink, page_sizes, page_texts, pdf_text

NIGHT = BracketPlan("club night", (
    Bracket("main", (7, 9, 11)),
    Bracket("consolation", (5, 7), ready_made("consolation").brackets[1].feeds),
    Bracket("last-chance", (5,), ready_made("consolation-last-chance").brackets[2].feeds),
))  # fmt: skip


def night(
    tmp_path: Path, players: int, to_play: int | None = None
) -> tuple[bytes, DrawState, list[MatchInfo]]:
    settings = SimulationSettings(teams=players, system=PairingSystem.KNOCKOUT, plan=NIGHT,
                                  forfeit_rate=0.0, seed=11, rounds_to_play=to_play)  # fmt: skip
    db = simulate_event(str(tmp_path / "night.tandem"), settings)
    try:
        if to_play is not None:
            with db.Session() as session, session.begin():
                pair_next_round(session)  # paired, not played
        with db.Session() as session:
            data = render(session, "bracket")
            state = draw_state(session)
            matches = list_matches(session)
    finally:
        db.close()
    return data, state, matches


def test_a_24_player_night_prints_every_bracket_with_its_lengths_names_and_places(
    tmp_path: Path, invariant: None
) -> None:
    data, state, matches = night(tmp_path, 24)
    texts = page_texts(data)
    assert len(texts) == 3  # one landscape page per bracket up to 32 players
    assert all(w > h for w, h in page_sizes(data))
    main, consolation, last = (" ".join(t.split()) for t in texts)
    assert "Main bracket" in main and "Round 1 · to 7" in main and "Final · to 11" in main
    assert "Round 2 · to 9" in main
    assert "Semi-final · to 11" in main and "Quarter-final · to 11" in main
    assert "Consolation bracket" in consolation and "Round 1 · to 5" in consolation
    assert "Final · to 7" in consolation
    assert "Last chance bracket" in last and "to 5" in last
    assert "bye" in main  # 24 in a bracket of 32: the top 8 seeds have byes
    for bracket, text in (("main", main), ("consolation", consolation), ("last-chance", last)):
        places = state.progress.places(bracket)
        assert places.complete and places.winner is not None
        champion = state.teams[places.winner].name
        assert f"1 {champion}" in text
        assert all(f"3= {state.teams[p].name}" in text for p in places.third)
    every = pdf_text(data)
    assert all(t.name in every for t in state.teams.values())
    final = next(m for m in matches if (m.bracket, m.bracket_round) == ("main", 5))
    assert final.team_b is not None
    assert f"{final.team_a.name} {final.outcome.final.a}" in main
    assert f"{final.team_b.name} {final.outcome.final.b}" in main
    for page in range(len(texts)):
        assert ink(data, page) > 0.005


def test_a_night_under_way_shows_who_is_known_and_the_tables_being_played(
    tmp_path: Path, invariant: None
) -> None:
    data, _, _ = night(tmp_path, 12, to_play=1)
    text = pdf_text(data)
    assert "table 1" in text  # a match paired and not finished
    assert "…" in text  # a player not known yet


def test_a_bracket_of_64_takes_a_page_per_32_players_and_one_for_the_rounds_after(
    tmp_path: Path, invariant: None
) -> None:
    settings = SimulationSettings(teams=64, system=PairingSystem.KNOCKOUT, seed=3,
                                  plan=ready_made("single"), forfeit_rate=0.0)  # fmt: skip
    db = simulate_event(str(tmp_path / "big.tandem"), settings)
    try:
        with db.Session() as session:
            data = render(session, "bracket")
    finally:
        db.close()
    texts = [" ".join(t.split()) for t in page_texts(data)]
    assert len(texts) == 3
    assert "(1 of 3)" in texts[0] and "(3 of 3)" in texts[2]
    assert "Final · to 11" in texts[2] and "Final" not in texts[0].replace("Quarter-final", "")


A3_LANDSCAPE = (A3[1], A3[0])  # 420 × 297 mm in points


def test_on_a3_a_bracket_of_64_is_one_page_with_every_name(tmp_path: Path, invariant: None) -> None:
    settings = SimulationSettings(teams=64, system=PairingSystem.KNOCKOUT, seed=3,
                                  plan=ready_made("single"), forfeit_rate=0.0)  # fmt: skip
    db = simulate_event(str(tmp_path / "big.tandem"), settings)
    try:
        with db.Session() as session:
            data = render(session, "bracket", paper="a3")
            names = [t.name for t in draw_state(session).teams.values()]
    finally:
        db.close()
    assert page_sizes(data) == [A3_LANDSCAPE]  # the whole bracket on one A3 page
    text = " ".join(page_texts(data)[0].split())
    assert "Main bracket" in text and "(1 of" not in text
    assert "Round 1 · to" in text and "Final · to" in text
    assert all(name in text for name in names)
    assert ink(data, 0) > 0.005
