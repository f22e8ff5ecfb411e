"""The match report: every game, the running and away scores, the rules applied, the result."""

from __future__ import annotations

from dataclasses import replace

from director.domain.match import Result
from director.domain.rules import End, Level, Scoring, Side
from director.domain.scoring import Game
from director.services.events import get_event, update_event
from director.services.games import record_game
from director.services.matches import create_match, get_match, list_matches
from director.services.teams import add_team
from director.store.engine import EventDatabase
from tests.reports.conftest import Render
from tests.reports.eventdata import Built, build_event
from tests.reports.pdfcheck import flat, page_texts


def test_every_game_score_and_result_of_a_round(
    built: Built, pdf: Render, db: EventDatabase
) -> None:
    with db.Session() as session:
        matches = list_matches(session, 1)
    texts = [flat(t) for t in page_texts(pdf("match-report", round=1))]
    assert len(texts) == len(matches)
    for match, text in zip(matches, texts, strict=True):
        n = match.rules.match_length
        for line in match.outcome.lines:
            assert str(line.score) in text
            assert f"{max(0, n - line.score.a)} / {max(0, n - line.score.b)}" in text
        assert match.outcome.result in (Result.A, Result.B, Result.DRAW)
        final = match.outcome.final
        result = match.outcome.result
        winner = {Result.A: match.names[0], Result.B: match.names[1]}.get(result)
        high, low = max(final.a, final.b), min(final.a, final.b)
        expected = f"{winner} wins {high}–{low}." if winner else "Draw,"  # the winner's first
        assert f"Result: {expected}" in text


def test_forfeit_and_unfinished_matches_say_so(built: Built, pdf: Render) -> None:
    assert built.forfeit_match is not None and built.unfinished_match is not None
    text = flat(page_texts(pdf("match-report", match=built.forfeit_match))[0])
    assert "did not play" in text
    assert "wins by forfeit, a win with 0–0 game points (RULES §8)" in text
    text = flat(page_texts(pdf("match-report", match=built.unfinished_match))[0])
    assert "Result: Unfinished" in text


def test_time_forfeits_name_rule_5_and_5_prime(db: EventDatabase, pdf: Render) -> None:
    with db.Session() as session, session.begin():
        a = add_team(session, "Ελληνική Ομάδα", ("Ελένη Α", "Νίκος Β")).value.id
        b = add_team(session, "R&D <Team>", ("Łukasz", "Дмитрий")).value.id
        match = create_match(session, a, b).value
        games = [
            Game(1, 1, Side.A, End.TIME, loser_borne_off=0),  # rule 5: 3 × cube
            Game(1, 2, Side.B, End.TIME, loser_borne_off=0, agreed_level=Level.GAMMON),
            Game(2, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE),
            Game(2, 2, Side.A, End.RESIGN, level=Level.SINGLE),
        ]
        for game in games:
            record_game(session, match.id, game)
        assert get_match(session, match.id).outcome.result is Result.A
    text = flat(page_texts(pdf("match-report", match=match.id))[0])
    assert "Match " in text  # a match outside the rounds is named by its id
    assert "time forfeit, rule 5: no checker borne off, 3 × cube" in text
    assert "time forfeit, rule 5′: agreed gammon instead of backgammon" in text
    assert "one-cube pair: team A is 2-away" in text  # pair 2 started at 3–2
    assert "Result: Ελληνική Ομάδα wins 5–2." in text


def test_rule_4_prime_marks_the_abandoned_game(db: EventDatabase, pdf: Render) -> None:
    with db.Session() as session, session.begin():
        options = get_event(session).options
        rules = replace(options.match, match_length=3, winner_required=True)
        update_event(session, options=replace(options, match=rules))
        a = add_team(session, "Дмитрий & Co", ("Дмитрий", "Ελένη")).value.id
        b = add_team(session, "R&D <Team>", ("Łukasz", "Zoë")).value.id
        decided_early, decided_late = (
            create_match(session, a, b).value,
            create_match(session, b, a).value,
        )
        for game in (
            Game(1, 1, Side.A, End.BEAR_OFF, level=Level.GAMMON),
            Game(1, 2, Side.B, End.BEAR_OFF, level=Level.SINGLE),
            Game(2, 2, Side.A, End.BEAR_OFF, level=Level.SINGLE),  # 3–1: the match is over
        ):
            record_game(session, decided_early.id, game)
        for game in (
            Game(1, 1, Side.A, End.BEAR_OFF, level=Level.GAMMON),
            Game(1, 2, Side.A, End.BEAR_OFF, level=Level.SINGLE),  # 3–0 on the pair's 2nd game
        ):
            record_game(session, decided_late.id, game)
    early = flat(page_texts(pdf("match-report", match=decided_early.id))[0])
    assert "Winner required (rule 4′)" in early
    assert "abandoned (rule 4′): not played out, scores nothing" in early
    assert "Result: Дмитрий & Co wins 3–1." in early
    late = flat(page_texts(pdf("match-report", match=decided_late.id))[0])
    assert "abandoned (rule 4′): not played out" not in late
    assert "Result: R&D <Team> wins 3–0." in late


def test_pip_squeeze_shows_pip_points_and_adjusted_totals(db: EventDatabase, pdf: Render) -> None:
    with db.Session() as session, session.begin():
        build_event(session, teams=4, rounds=1, scoring=Scoring.KILLER_PIP_SQUEEZE,
                    forfeit=False, unfinished=False)  # fmt: skip
        matches = list_matches(session, 1)
    texts = [flat(t) for t in page_texts(pdf("match-report", round=1))]
    for match, text in zip(matches, texts, strict=True):
        o = match.outcome
        assert "Pip points" in text and "Extra game points" in text
        row = f"Adjusted total {o.final.a} {o.final.b}"
        assert row in text
        pips = [str(v).replace("-", "−") for v in (o.pip_points.a, o.pip_points.b)]
        assert f"Pip points {pips[0]} {pips[1]}" in text
