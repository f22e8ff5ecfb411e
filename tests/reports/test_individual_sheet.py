"""The scoresheet of an individual match (RULES §10): one board, one row per game, the Crawford
column and rule, the match reserve; read back from the PDF's text."""

from __future__ import annotations

from director.domain.rules import ClockMode, EventOptions, Format, MatchRules, TimeControl
from director.services.events import update_event
from director.services.rounds import pair_next_round
from director.services.teams import add_player
from director.store.engine import EventDatabase
from tests.reports.conftest import Render
from tests.reports.pdfcheck import flat, page_texts


def individual_round(db: EventDatabase, length: int = 5) -> None:
    options = EventOptions(
        match=MatchRules(match_length=length, format=Format.INDIVIDUAL),
        time_control=TimeControl(120, 12, ClockMode.DELAY),
    )
    with db.Session() as s, s.begin():
        update_event(s, name="Thursday Individual", options=options)
        for name in ("Ana Kovač", "Cleo Varga"):
            add_player(s, name)
        pair_next_round(s)


def test_the_individual_sheet_has_a_row_per_game_and_the_crawford_column(
    db: EventDatabase, pdf: Render
) -> None:
    individual_round(db)
    (text,) = (flat(t) for t in page_texts(pdf("scoresheet", round=1)))
    assert "Ana Kovač" in text and "Cleo Varga" in text
    # the grid's headings in order: a game a row, no board column (one board)
    assert "Game Start A–B Away A / B Crawford Winner End Level Cube Points Score A Score B" in text
    assert "☐ draw" not in text  # no draws (RULES §10)
    for tandem in ("Pair", "One-cube", "Rule 4", "rule 5", "captain"):
        assert tandem not in text, tandem
    assert " 9 " in text.split("Initials A · B")[1]  # a match to 5 lasts 9 games at most
    assert "Crawford rule" in text and "post-Crawford" in text
    assert "2 min per match point (10 min for this match)" in text
    assert "a flag loses the match" in text


def test_the_individual_sheet_names_the_two_players_only(db: EventDatabase, pdf: Render) -> None:
    """The names box beside the result-slip QR codes: the two players, A and B, with no team,
    no board and no "Team A scans" under the codes (a player scans his own)."""
    individual_round(db)
    (text,) = (
        flat(t) for t in page_texts(pdf("scoresheet", round=1, slip_address="http://10.0.0.1:8080"))
    )
    names = text.split("Match to 5 points")[0].split("____:____")[1]
    assert names.split() == ["Player", "A", "Ana", "Kovač", "B", "Cleo", "Varga",
                             "Player", "A", "scans", "Player", "B", "scans"]  # fmt: skip
    for tandem in ("Team", "Board"):
        assert tandem not in text, tandem
