"""The blank scoresheet: one page per match, the header a table needs, the scoring's columns."""

from __future__ import annotations

import pytest

from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.rules import MatchRules, Scoring
from director.reports.scoresheet import forfeit_text
from director.services.matches import list_matches
from director.store.engine import EventDatabase
from tests.reports.conftest import Render
from tests.reports.eventdata import SPECIAL_TEAMS, Built, build_event
from tests.reports.pdfcheck import flat, ink, page_texts


def test_one_page_per_match_with_teams_players_and_rules(
    built: Built, pdf: Render, db: EventDatabase
) -> None:
    with db.Session() as session:
        matches = list_matches(session, 2)
    texts = [flat(t) for t in page_texts(pdf("scoresheet", round=2))]
    assert len(texts) == len(matches)
    for match, text in zip(matches, texts, strict=True):
        assert match.team_b is not None
        assert f"Round 2, table {match.table}" in text
        for name in (match.team_a.name, match.team_b.name, *match.team_a.players,
                     *match.team_b.players):  # fmt: skip
            assert name in text
        assert "Match to 5 points" in text
        assert "One-cube pair when a team is 2-away or 1-away" in text
        assert "Rule 4: when both games of a pair are over" in text
        assert "Time control: 2 min + 12 s Fischer increment" in text
        assert "Team A captain" in text and "Team B captain" in text
        for heading in ("Pair", "Board", "Winner", "End", "Level", "Cube", "Points"):
            assert heading in text
        assert "Pip" not in text  # standard scoring has no pip columns
    assert ink(pdf("scoresheet", round=2)) > 0.02


def test_one_match_by_id_and_the_latest_round_by_default(built: Built, pdf: Render) -> None:
    match_id = built.match_ids[0]
    one = flat(page_texts(pdf("scoresheet", match=match_id))[0])
    assert "Round 1, table 1" in one
    latest = [flat(t) for t in page_texts(pdf("scoresheet"))]
    assert all("Round 3" in t for t in latest)


def test_unknown_round_or_match_is_refused(built: Built, pdf: Render) -> None:
    with pytest.raises(UserError, match="there is no round 7: the rounds are 1 to 3"):
        pdf("scoresheet", round=7)
    with pytest.raises(UserError, match="there is no match 999"):
        pdf("scoresheet", match=999)
    with pytest.raises(UserError, match=f"match {built.match_ids[0]} is not in round 2"):
        pdf("scoresheet", match=built.match_ids[0], round=2)


def test_byes_have_no_scoresheet(db: EventDatabase, pdf: Render) -> None:
    with db.Session() as session, session.begin():
        build_event(session, teams=5, rounds=1, forfeit=False, unfinished=False)
    texts = page_texts(pdf("scoresheet", round=1))
    assert len(texts) == 2  # five teams: two matches and a bye


@pytest.mark.parametrize(
    ("scoring", "present", "absent"),
    [
        (
            Scoring.KILLER_PIP_SQUEEZE,
            ["Pip pts", "Pips A / B", "End-of-match conversion", "Adjusted total",
             "0 below 15, otherwise margin ÷ 15 rounded up"],
            [],
        ),
        (
            Scoring.SIMPLE_PIP_SQUEEZE,
            ["Pip pts", "Pips A / B", "Left W/L", "End-of-match conversion",
             "margin ÷ 15, rounded down"],
            [],
        ),
        (Scoring.PIN_GAME, ["Pip count", "No doubling cube", "3 × pip count"], ["Cube", "Pips A"]),
        (Scoring.CHASING_THE_GIRLS, ["No doubling cube", "1 point"], ["Level", "Pip"]),
    ],
)  # fmt: skip
def test_columns_follow_the_scoring(
    db: EventDatabase, pdf: Render, scoring: Scoring, present: list[str], absent: list[str]
) -> None:
    length = 150 if scoring is Scoring.PIN_GAME else 5
    with db.Session() as session, session.begin():
        build_event(session, teams=4, rounds=1, scoring=scoring, match_length=length)
    texts = [flat(t) for t in page_texts(pdf("scoresheet", round=1))]
    assert len(texts) == 2
    for text in texts:
        for word in present:
            assert word in text, word
        for word in absent:
            assert word not in text, word


PIN_FORFEIT = (
    "Time forfeit (rule 5, RULES §6.4): 3 × pip count when the flagged player has borne off no "
    "checker, otherwise 1 × pip count"
)


def test_rules_6_4_the_pin_game_sheet_says_when_a_time_forfeit_is_3_or_1_times_the_pips(
    db: EventDatabase, pdf: Render
) -> None:
    with db.Session() as session, session.begin():
        build_event(session, teams=2, rounds=1, scoring=Scoring.PIN_GAME, match_length=150)
    text = flat(page_texts(pdf("scoresheet", round=1))[0])
    assert f"{PIN_FORFEIT}; rule 5′ (agreed lower forfeit) allowed." in text


@pytest.mark.parametrize(
    ("scoring", "sentence"),
    [
        (Scoring.STANDARD, "Time forfeit (rule 5): 3 × cube when the flagged player has borne "
         "off no checker, otherwise 1 × cube."),
        (Scoring.PIN_GAME, f"{PIN_FORFEIT}."),
        (Scoring.CHASING_THE_GIRLS, "Time forfeit: 1 point (RULES §6.5)."),
    ],
)  # fmt: skip
@pytest.mark.parametrize("option", [True, False])
def test_rule_5_prime_is_printed_where_the_event_and_the_scoring_allow_it(
    scoring: Scoring, sentence: str, option: bool
) -> None:
    said = forfeit_text(MatchRules(150, scoring, agreed_lower_forfeit=option))
    if option and scoring is not Scoring.CHASING_THE_GIRLS:  # RULES §6.5: no rule 5′
        sentence = sentence[:-1] + "; rule 5′ (agreed lower forfeit) allowed."
    assert said == sentence


def test_winner_required_prints_rule_4_prime_and_no_draw_box(
    db: EventDatabase, pdf: Render
) -> None:
    with db.Session() as session, session.begin():
        build_event(session, teams=4, rounds=1, winner_required=True)
    text = flat(page_texts(pdf("scoresheet", round=1))[0])
    assert "Winner required (rule 4′)" in text
    assert "draw" not in text.split("Result:")[1]


def test_a_long_match_continues_on_a_second_page(db: EventDatabase, pdf: Render) -> None:
    with db.Session() as session, session.begin():
        build_event(session, teams=2, rounds=1, match_length=25, forfeit=False, unfinished=False)
    texts = [flat(t) for t in page_texts(pdf("scoresheet", round=1))]
    assert len(texts) == 2
    # a titled continuation sheet: whole pairs, up to pair 25, the grid's headings again
    assert "(continued, from pair" in texts[1] and " 25 " in texts[1]
    assert "Winner" in texts[1]
    assert "Team A captain" in texts[1] and "Team A captain" not in texts[0]


def test_no_round_yet_is_a_clear_error(pdf: Render) -> None:
    with pytest.raises(UserError, match="no round is paired yet"):
        pdf("scoresheet")


LONG_NAMES = (
    ("The Extraordinarily Long-Named Backgammon Society of Greater Upper Wolverhampton",
     ("Maximilian Alexander von Hohenzollern-Sigmaringen",
      "Anastasia Konstantinovna Rimskaya-Korsakova")),
    ("Société Nationale des Joueurs de Trictrac et de Jacquet de la Haute-Savoie",
     ("Jean-Baptiste Grenouille de la Fontaine-Saint-Michel",
      "Marie-Antoinette Josèphe Jeanne de Lorraine")),
)  # fmt: skip


Names = tuple[tuple[str, tuple[str, str]], ...]

# the longest sheets one page must hold, on both papers: the match length, the scoring and the
# team names (none: the usual special ones)
one_page_sheets = pytest.mark.parametrize(
    ("length", "scoring", "names"),
    [
        (11, Scoring.STANDARD, ()),
        (7, Scoring.KILLER_PIP_SQUEEZE, ()),
        (7, Scoring.SIMPLE_PIP_SQUEEZE, ()),
        (5, Scoring.STANDARD, LONG_NAMES),
    ],
)
both_papers = pytest.mark.parametrize("paper", ["a4", "letter"])


def two_matches(
    db: EventDatabase, length: int, scoring: Scoring, names: Names, *, unfinished: bool
) -> list[MatchInfo]:
    """Four teams, one round of two matches under these rules; returns the matches."""
    with db.Session() as session, session.begin():
        build_event(
            session, teams=4, rounds=1, match_length=length, scoring=scoring,
            forfeit=False, unfinished=unfinished, names=names or SPECIAL_TEAMS,
        )  # fmt: skip
        return list_matches(session, 1)


@both_papers
@one_page_sheets
def test_one_page_per_match_up_to_11_points_on_both_papers(
    db: EventDatabase, pdf: Render, paper: str, length: int, scoring: Scoring, names: Names
) -> None:
    two_matches(db, length, scoring, names, unfinished=False)
    texts = [flat(t) for t in page_texts(pdf("scoresheet", round=1, paper=paper))]
    assert len(texts) == 2  # two matches, one page each
    for text in texts:
        assert "continued" not in text
        assert f" {length} " in text.split("Pair")[-1]  # the last pair's row is on the page
        assert "Team A captain" in text and "Notes" in text


def test_a_continuation_sheet_is_titled_and_holds_whole_pairs(
    db: EventDatabase, pdf: Render
) -> None:
    with db.Session() as session, session.begin():
        build_event(session, teams=2, rounds=1, match_length=17, forfeit=False, unfinished=False)
    texts = [flat(t) for t in page_texts(pdf("scoresheet", round=1, paper="letter"))]
    assert len(texts) == 2
    first = int(texts[1].split("from pair ")[1].split(")")[0])
    assert 1 < first <= 17
    assert "Match scoresheet — Round 1, table 1 (continued, from pair" in texts[1]
    # pairs are numbered once, on one sheet each: the first sheet ends where the next begins
    grid_one = texts[0].split("Initials A · B")[1].split("Final score")[0]
    assert f" {first - 1} " in grid_one and f" {first} " not in grid_one


def test_the_tandem_sheet_has_pair_start_away_one_cube_initials_and_notes(
    built: Built, pdf: Render
) -> None:
    text = flat(page_texts(pdf("scoresheet", round=1))[0])
    for field in ("Start A–B", "Away A / B", "One-cube · cube board", "Initials A · B",
                  "Notes · disputes · appeals", "Started at", "Time control", "Round", "Table",
                  "Director (entered)", "Finished at"):  # fmt: skip
        assert field in text, field


def test_no_one_cube_rule_where_it_can_never_apply(db: EventDatabase, pdf: Render) -> None:
    with db.Session() as session, session.begin():
        build_event(
            session, teams=2, rounds=1, one_cube_threshold=1, no_cube_at_one_away=True,
            forfeit=False, unfinished=False,
        )  # fmt: skip
    text = flat(page_texts(pdf("scoresheet", round=1))[0])
    assert "No doubling on either board in a pair that starts with a team 1-away" in text
    assert "One-cube pair when" not in text and "One-cube ·" not in text


def test_a_one_point_match_has_no_cube_column_and_no_pass(db: EventDatabase, pdf: Render) -> None:
    with db.Session() as session, session.begin():
        build_event(session, teams=2, rounds=1, match_length=1, forfeit=False, unfinished=False)
    text = flat(page_texts(pdf("scoresheet", round=1))[0])
    assert "A match to 1 point has no doubling" in text
    assert "Cube" not in text and "P pass" not in text and "O P R T" not in text
    assert "O R T" in text
