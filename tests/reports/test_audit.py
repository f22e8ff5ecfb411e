"""The printed audit log: every change with its reason, typed text as typed, filterable (#12)."""

from __future__ import annotations

from director.domain.rules import End, Level
from director.domain.scoring import Game
from director.services import games, matches
from director.services.audit import entries, match_places
from director.store.engine import EventDatabase
from tests.reports.conftest import Render
from tests.reports.eventdata import Built
from tests.reports.pdfcheck import flat, page_sizes, page_texts

HOSTILE_REASON = "<b>sheet</b> & <para>said</para> gammon"


def correct_first_game(db: EventDatabase, match_id: int) -> None:
    with db.Session() as s, s.begin():
        info = matches.get_match(s, match_id)
        first = info.games[0]
        level = Level.GAMMON if first.level is not Level.GAMMON else Level.SINGLE
        corrected = Game(first.pair, first.board, first.winner, End.BEAR_OFF, cube=1, level=level)
        fixed = games.correction(info, info.game_ids[0], corrected)
        voids = [info.game_ids[i] for i in fixed.voided]
        games.correct_game(s, info.game_ids[0], corrected, HOSTILE_REASON, voids=voids)


def test_every_correction_and_forfeit_is_printed_with_its_reason(
    built: Built, db: EventDatabase, pdf: Render
) -> None:
    corrected = next(m for m in built.match_ids if m not in (built.forfeit_match,))
    correct_first_game(db, corrected)
    with db.Session() as s:
        lines = entries(s)
        places = {p.id: p for p in match_places(s)}
    whole = " ".join(flat(t) for t in page_texts(pdf("audit")))
    assert "Audit log" in whole and f"{len(lines)} entries, oldest first" in whole
    assert HOSTILE_REASON in whole  # typed text prints as typed, never as markup
    assert "did not show" in whole and "forfeit" in whole and "corrected at" in whole
    place = places[corrected]
    where = f"round {place.round}, table {place.table} ({place.names[0]} v {place.names[1]})"
    assert where in whole  # a match named by round, table and teams
    assert all(round(w) > round(h) for w, h in page_sizes(pdf("audit")))  # landscape


def test_the_log_of_one_match_has_only_its_lines(
    built: Built, db: EventDatabase, pdf: Render
) -> None:
    assert built.forfeit_match is not None
    corrected = next(m for m in built.match_ids if m != built.forfeit_match)
    correct_first_game(db, corrected)
    with db.Session() as s:
        label = {p.id: p for p in match_places(s)}[built.forfeit_match].label
    text = " ".join(flat(t) for t in page_texts(pdf("audit", match=built.forfeit_match)))
    assert f"Audit log: {label}" in text
    assert "1 entry, oldest first" in text
    assert "did not show" in text and HOSTILE_REASON not in text


def test_an_event_with_nothing_changed_says_so(db: EventDatabase, pdf: Render) -> None:
    text = " ".join(flat(t) for t in page_texts(pdf("audit")))
    assert "0 entries" in text and "Nothing has been corrected" in text
