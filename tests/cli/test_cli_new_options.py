"""`new`'s event options that the command line lacked (#25): rule 5′ off (RULES §5) and the
event's paper size, each checked where it matters: on import, on a phone's slip, on reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from director.domain.rules import Side
from director.services import slips
from director.services.events import get_event
from director.store.engine import open_database
from tests.cli.test_cli_core import EXAMPLE, fails_cleanly, run


def event_without_rule_5_prime(tmp_path: Path) -> Path:
    event = tmp_path / "e.tandem"
    made = run("new", str(event), "--name", "E", "--length", "5", "--no-agreed-lower-forfeit")
    assert made.returncode == 0, made.stderr
    teams = tmp_path / "teams.csv"
    teams.write_text("team,player1,player2\nBlue Bar,Ana,Ben\nGammonites,Cleo,Dev\n")
    assert run("import-teams", str(event), str(teams)).returncode == 0
    assert run("pair", str(event)).returncode == 0
    return event


def test_new_can_make_an_event_without_rule_5_prime(tmp_path: Path) -> None:
    event = event_without_rule_5_prime(tmp_path)
    db = open_database(str(event))
    with db.Session() as session:
        assert get_event(session).options.match.agreed_lower_forfeit is False
    db.close()
    made = run("new", str(tmp_path / "f.tandem"), "--name", "F", "--length", "5")
    assert made.returncode == 0
    db = open_database(str(tmp_path / "f.tandem"))
    with db.Session() as session:  # the rule book's default stays: rule 5′ on
        assert get_event(session).options.match.agreed_lower_forfeit is True
    db.close()


def test_an_event_without_rule_5_prime_refuses_an_agreed_level_on_import(tmp_path: Path) -> None:
    event = event_without_rule_5_prime(tmp_path)
    assert any("agreed_level" in g for g in json.loads(EXAMPLE.read_text())["games"])
    fails_cleanly(run("import-match", str(event), str(EXAMPLE)), "does not apply rule 5′")


def test_an_event_without_rule_5_prime_refuses_an_agreed_level_on_a_slip(tmp_path: Path) -> None:
    event = event_without_rule_5_prime(tmp_path)
    db = open_database(str(event))
    try:
        with db.Session() as s, s.begin():
            (match_id,) = slips.round_tokens(s)
            token = slips.token_for(s, match_id, Side.A)
        assert token is not None
        game = {"pair": 1, "board": 1, "winner": "A", "end": "time", "cube": 1,
                "loser_borne_off": 0, "agreed_level": "gammon"}  # fmt: skip
        with db.Session() as s, s.begin(), pytest.raises(slips.SlipRefused) as refused:
            slips.submit_slip(s, token, "a" * 32, "b" * 32, game)
        assert refused.value.code is slips.Refusal.RULES
        assert "this event does not apply rule 5′" in str(refused.value)
    finally:
        db.close()


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_new_sets_the_events_paper(tmp_path: Path, paper: str) -> None:
    event = tmp_path / "e.tandem"
    made = run("new", str(event), "--name", "E", "--length", "5", "--paper", paper)
    assert made.returncode == 0, made.stderr
    db = open_database(str(event))
    with db.Session() as session:
        assert get_event(session).options.paper.value == paper
    db.close()


def test_new_refuses_a_paper_it_does_not_know(tmp_path: Path) -> None:
    fails_cleanly(
        run("new", str(tmp_path / "e.tandem"), "--name", "E", "--length", "5", "--paper", "a5"),
        "--paper",
    )
