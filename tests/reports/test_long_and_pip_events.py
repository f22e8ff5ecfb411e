"""Pip-squeeze standings print game points and adjusted totals, each defined; long events
print every round across pages; titles say what the numbers are after; nothing is orphaned."""

from __future__ import annotations

import re

from director.domain.match import Result
from director.domain.rules import Level, Scoring
from director.domain.scoring import Game
from director.services.matches import list_matches
from director.store.engine import EventDatabase
from tests.reports.conftest import Render
from tests.reports.eventdata import build_event
from tests.reports.pdfcheck import flat, page_texts, pdf_text


def test_pip_squeeze_standings_print_game_points_and_adjusted_totals(
    db: EventDatabase, pdf: Render
) -> None:
    with db.Session() as session, session.begin():
        build_event(
            session, teams=4, rounds=2, scoring=Scoring.KILLER_PIP_SQUEEZE,
            forfeit=False, unfinished=False,
        )  # fmt: skip
    with db.Session() as session:
        matches = list_matches(session)
    game_for: dict[str, int] = {}
    adjusted_for: dict[str, int] = {}
    for m in matches:
        assert m.team_b is not None
        for team, gp, adj in ((m.team_a, m.outcome.score.a, m.outcome.final.a),
                              (m.team_b, m.outcome.score.b, m.outcome.final.b)):  # fmt: skip
            game_for[team.name] = game_for.get(team.name, 0) + gp
            adjusted_for[team.name] = adjusted_for.get(team.name, 0) + adj
    assert game_for != adjusted_for  # the pip points changed some totals: the test can tell
    text = pdf_text(pdf("standings"))
    for heading in ("Adj diff", "Adj for", "GP diff", "GP for"):
        assert heading in text
    assert "Adj for = Points for on adjusted totals" in text
    assert "GP for = Game points for: game points won in all finished matches" in text
    rows = text.split("Rank")[1]
    for name, game in game_for.items():
        row = rows.split(name)[1][:120]
        numbers = [int(n.replace("−", "-")) for n in re.findall(r"[+−]?\d+", row)]
        assert adjusted_for[name] in numbers and game in numbers, (name, row)
    cross = pdf_text(pdf("crosstable"))
    assert "gp " in cross and "adjusted totals" in cross


def test_39_rounds_print_every_round_with_the_team_column(db: EventDatabase, pdf: Render) -> None:
    # a 40-team round robin's 39 rounds; 8 teams meeting again and again keep the test short
    with db.Session() as session, session.begin():
        build_event(session, teams=8, rounds=39, match_length=1, forfeit=False, unfinished=False)
    texts = [flat(t) for t in page_texts(pdf("crosstable"))]
    text = " ".join(texts)
    for n in (1, 20, 39):
        assert f"R{n}" in text
    assert "Rounds 1–" in text and "–39" in text
    # each table of rounds starts with the rank and team headings, on every page it runs over
    chunks = re.findall(r"Rounds (\d+)–(\d+) Rank Team", text)
    assert chunks[0][0] == "1" and chunks[-1][1] == "39" and len(chunks) >= 3
    assert sum("Rank Team" in t for t in texts) >= len(texts) - 1
    event = pdf_text(pdf("event"))
    assert "Crosstable after round 39" in event and "R39" in event


def test_standings_after_the_last_round_with_a_result(db: EventDatabase, pdf: Render) -> None:
    from director.store import models

    with db.Session() as session, session.begin():
        built = build_event(session, teams=4, rounds=2, forfeit=False, unfinished=False)
        row = models.Round(number=3, published=True)  # paired, nothing played yet
        session.add(row)
        session.flush()
        from director.services.matches import create_match

        create_match(session, built.team_ids[0], built.team_ids[1], round_id=row.id, table=1)
    text = pdf_text(pdf("standings"))
    assert "Standings after round 2" in text and "after round 3" not in text
    cover = flat(page_texts(pdf("event"))[0])
    assert "Leader after round 2" in cover
    assert "4 teams · 3 rounds paired" in cover


def test_the_cover_says_winner_and_final_standings_once_the_event_is_over(
    db: EventDatabase, pdf: Render
) -> None:
    with db.Session() as session, session.begin():
        build_event(session, teams=4, rounds=3, forfeit=False, unfinished=False)
    data = pdf("event")
    cover = flat(page_texts(data)[0])
    assert "Winner:" in cover and "Leader" not in cover
    assert "Final standings" in pdf_text(data)
    assert "Final standings" in pdf_text(pdf("standings"))


def test_backgammon_fits_the_level_column_and_the_winner_scores_first(
    db: EventDatabase, pdf: Render
) -> None:
    from director.domain.rules import End, Side
    from director.services.games import record_game
    from director.services.matches import create_match
    from director.services.teams import add_team

    with db.Session() as session, session.begin():
        a = add_team(session, "Blue Bar", ("Ann", "Bob")).value.id
        b = add_team(session, "Red Rum", ("Cy", "Di")).value.id
        match = create_match(session, a, b).value
        record_game(session, match.id, Game(1, 1, Side.B, End.BEAR_OFF, level=Level.BACKGAMMON))
        record_game(session, match.id, Game(1, 2, Side.B, End.BEAR_OFF, level=Level.BACKGAMMON))
        assert match.id
    with db.Session() as session:
        assert list_matches(session)[0].outcome.result is Result.B
    text = flat(page_texts(pdf("match-report", match=match.id))[0])
    assert " backgammon " in text  # one word, not broken across the cell's lines
    assert "Red Rum wins 6–0." in text


def test_letter_64_teams_leaves_no_row_or_legend_alone(db: EventDatabase, pdf: Render) -> None:
    from director.services.teams import list_teams

    with db.Session() as session, session.begin():
        build_event(session, teams=64, rounds=2, match_length=1, forfeit=False, unfinished=False)
    with db.Session() as session:
        names = [t.name for t in list_teams(session)]
    for kind in ("pairings", "standings", "crosstable"):
        for page in [flat(t) for t in page_texts(pdf(kind, paper="letter"))]:
            body = page.split("Generated ")[0]
            # every page holds at least two of the table's rows: never a lone row or legend
            assert sum(1 for n in names if f"{n} " in body) >= 2, (kind, body[:300])
