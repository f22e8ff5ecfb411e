"""The result-slip QR codes on each scoresheet (issue 18), one per team (issue 26): printed
when an address is given or stored, each opens that match's slip as its team and no other;
read back from the rendered page."""

from __future__ import annotations

import pytest

from director.domain.errors import UserError
from director.domain.rules import Scoring
from director.services.reports import render, set_slip_address
from director.services.slips import match_for_token, side_of_token
from director.store.engine import EventDatabase, open_database
from tests.reports.conftest import Render
from tests.reports.eventdata import Built
from tests.reports.pdfcheck import flat, page_texts, qr_codes
from tests.reports.test_scoresheet import Names, both_papers, one_page_sheets, two_matches

ADDRESS = "http://192.168.1.20:8080/"


def printed(db: EventDatabase, **options: object) -> bytes:
    """Scoresheets rendered as the app and the CLI do when they print a QR code: committed."""
    with db.Session() as session, session.begin():
        return render(session, "scoresheet", **options)  # type: ignore[arg-type]


def test_each_sheet_opens_its_own_matchs_slip(built: Built, db: EventDatabase) -> None:
    data = printed(db, round=3, slip_address="http://192.168.1.20:8080")  # no slash: added
    texts = [flat(t) for t in page_texts(data)]
    codes = [qr_codes(data, page) for page in range(len(texts))]
    assert all(len(c) == 2 for c in codes), codes
    links = [link for c in codes for link in c]
    assert len(set(links)) == len(links)
    target = str(db.target)
    db.close()
    again = open_database(target)  # the tokens were committed with the print
    try:
        with again.Session() as session:
            for pair, text in zip(codes, texts, strict=True):
                for link, side in zip(pair, "AB", strict=True):
                    assert link.startswith(f"{ADDRESS}slip/")
                    token = link.removeprefix(f"{ADDRESS}slip/")
                    match = match_for_token(session, token)
                    assert f"Round 3, table {match.table}" in text
                    assert side_of_token(session, token).value == side
                assert "Team A scans" in text and "Team B scans" in text
    finally:
        again.close()


def test_no_code_without_an_address_and_the_stored_one_when_set(
    built: Built, db: EventDatabase, pdf: Render
) -> None:
    plain = pdf("scoresheet", round=3)
    assert qr_codes(plain) == [] and "Result slip" not in flat(page_texts(plain)[0])
    with db.Session() as session, session.begin():
        assert set_slip_address(session, "http://10.0.0.7:8080").value == "http://10.0.0.7:8080/"
    assert qr_codes(printed(db, round=3))[0].startswith("http://10.0.0.7:8080/slip/")
    with db.Session() as session, session.begin():
        set_slip_address(session, "")
    assert qr_codes(printed(db, round=3)) == []


def test_a_finished_round_takes_no_slips_so_its_sheets_have_no_code(
    built: Built, db: EventDatabase
) -> None:
    data = printed(db, round=2, slip_address=ADDRESS)
    assert all(qr_codes(data, page) == [] for page in range(len(page_texts(data))))


@pytest.mark.parametrize(
    "address",
    ["ftp://192.168.1.20/", "192.168.1.20:8080", "http://", "http://host:port/", "http://a/?x=1"],
)
def test_an_address_that_is_not_one_is_refused(
    built: Built, db: EventDatabase, address: str
) -> None:
    with pytest.raises(UserError, match="is not the address of the table service"):
        printed(db, round=3, slip_address=address)
    with db.Session() as session, pytest.raises(UserError):
        set_slip_address(session, address)


@both_papers
@one_page_sheets
def test_the_code_keeps_a_match_on_one_page(
    db: EventDatabase, paper: str, length: int, scoring: Scoring, names: Names
) -> None:
    matches = two_matches(db, length, scoring, names, unfinished=True)
    data = printed(db, round=1, paper=paper, slip_address=ADDRESS)
    texts = [flat(t) for t in page_texts(data)]
    assert len(texts) == len(matches) == 2
    for page, text in enumerate(texts):
        assert "continued" not in text and "Team A captain" in text
        assert len(qr_codes(data, page)) == 2
