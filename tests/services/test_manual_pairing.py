"""The director's own pairings through the services: each edit warned, audited, on disk."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.domain.pairing.model import Pairing
from director.services import manual_pairing, rounds
from director.services.audit import entries
from director.services.manual_pairing import Edit
from director.services.teams import edit_team
from director.store.engine import EventDatabase
from tests.event_files import read_back
from tests.services.test_rounds import add_teams, finish_round


def stored_pairings(path: Path, number: int) -> tuple[Pairing, ...]:
    return read_back(path, lambda s: manual_pairing.round_pairings(s, number))


def test_pair_two_teams_directly_is_written_warned_and_audited(
    db: EventDatabase, event_path: Path
) -> None:
    one, two, three, four, five = add_teams(db, 5)
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s, (Pairing(1, one, two), Pairing(2, three, four),
                                   Pairing(3, five, None)), reason="round 1 by hand")  # fmt: skip
    with db.Session() as s, s.begin():
        warnings = manual_pairing.edit_round(s, 1, Edit.PAIR, one, three, "same club at 2").value
    assert warnings == []
    assert stored_pairings(event_path, 1) == (
        Pairing(1, one, three), Pairing(2, two, four), Pairing(3, five, None))  # fmt: skip
    with db.Session() as s:
        [line] = [e for e in entries(s) if e.action == "edit pairings"]
    assert line.reason == "pair together: Team 1 and Team 3; same club at 2"


def test_moving_the_bye_to_a_team_that_had_one_is_warned(
    db: EventDatabase, event_path: Path
) -> None:
    add_teams(db, 5)
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s)
    finish_round(db, 1)
    with db.Session() as s, s.begin():
        second = rounds.pair_next_round(s).value
    first_bye = next(p.team_a for p in stored_pairings(event_path, 1) if p.team_b is None)
    with db.Session() as s:
        preview = manual_pairing.preview_edit(s, 2, Edit.BYE, first_bye)
    assert any("has the bye but already had a bye" in w for w in preview.warnings)
    assert stored_pairings(event_path, 2) == tuple(
        Pairing(m.table, m.team_a.id, m.team_b.id if m.team_b else None) for m in second.matches
    )  # a preview writes nothing
    with db.Session() as s, s.begin():
        warnings = manual_pairing.edit_round(
            s, 2, Edit.BYE, first_bye, None, "asked to sit out"
        ).value
    assert any("already had a bye" in w for w in warnings)
    assert (first_bye, None) in [(p.team_a, p.team_b) for p in stored_pairings(event_path, 2)]
    with db.Session() as s:
        [line] = [e for e in entries(s) if e.action == "edit pairings"]
    assert "give the bye: " in line.reason and "warnings:" in line.reason


def test_a_late_arrival_is_paired_with_the_bye_holder(db: EventDatabase, event_path: Path) -> None:
    """RULES §8 check-in: a team not present at pairing time is left out; when it arrives
    after publishing, the director pairs it directly with the team that had the bye."""
    ids = add_teams(db, 6)
    late = ids[-1]
    with db.Session() as s, s.begin():
        for team in ids[:-1]:
            edit_team(s, team, present=True)
        rounds.pair_next_round(s)
    holder = next(p.team_a for p in stored_pairings(event_path, 1) if p.team_b is None)
    with db.Session() as s:
        assert [t.id for t in manual_pairing.unpaired_teams(s, 1)] == [late]
        preview = manual_pairing.preview_edit(s, 1, Edit.PAIR, late, holder)
    assert preview.warnings == ()  # nobody left out, nobody twice, no bye any more
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="needs a reason"):
        manual_pairing.edit_round(s, 1, Edit.PAIR, late, holder, " ")
    with db.Session() as s, s.begin():
        manual_pairing.edit_round(s, 1, Edit.PAIR, late, holder, "arrived at 8:05")
    after = stored_pairings(event_path, 1)
    assert len(after) == 3 and all(p.team_b is not None for p in after)
    assert {late, holder} in [set(p.teams) for p in after]


def test_forbidden_pairs_are_audited_and_the_engine_keeps_them_apart(
    db: EventDatabase, event_path: Path
) -> None:
    one, two, three, four = add_teams(db, 4)
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="reason"):
        manual_pairing.set_forbidden(s, one, two, True, "")
    with db.Session() as s, s.begin():
        manual_pairing.set_forbidden(s, one, two, True, "same club")
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="already forbidden"):
        manual_pairing.set_forbidden(s, two, one, True, "again")
    with db.Session() as s:
        [pair] = manual_pairing.list_forbidden_pairs(s)
        assert pair.ids == (one, two)
        assert [e.action for e in entries(s)] == ["forbid pair"]
    with db.Session() as s, s.begin():
        info = rounds.pair_next_round(s).value
    assert all({m.team_a.id, m.team_b.id if m.team_b else None} != {one, two} for m in info.matches)
    with db.Session() as s:
        preview = manual_pairing.preview_edit(s, 1, Edit.PAIR, one, two)
    assert "Team 1 v Team 2 is a forbidden pair" in preview.warnings
    with db.Session() as s, s.begin():
        manual_pairing.set_forbidden(s, one, two, False, "the clubs merged")
    with db.Session() as s:
        assert manual_pairing.list_forbidden_pairs(s) == []
        assert [e.reason for e in entries(s) if e.action == "allow pair"] == ["the clubs merged"]


def test_a_team_that_never_checked_in_is_left_out_by_design_not_missing(
    db: EventDatabase, event_path: Path
) -> None:
    """RULES §8 check-in: once any team is marked present, only present teams are paired. Edit
    pairings warned "Team 5 is missing: it is active but not paired" for a team never checked
    in, wrote it to the audit, and `check-pairings` reported it and exited 1."""
    teams = add_teams(db, 5)
    with db.Session() as s, s.begin():
        for team in teams[:4]:
            edit_team(s, team, present=True)
        rounds.pair_next_round(s)
    with db.Session() as s:
        preview = manual_pairing.preview_edit(s, 1, Edit.SWAP, teams[0], teams[1])
    assert preview.warnings == ()
    with db.Session() as s, s.begin():
        warnings = manual_pairing.edit_round(s, 1, Edit.SWAP, teams[0], teams[1], "tables").value
    assert warnings == []
    with db.Session() as s:
        [line] = [e for e in entries(s) if e.action == "edit pairings"]
        assert "missing" not in line.reason
        assert rounds.check_pairings(s) == []
    finish_round(db, 1)
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s)
        assert rounds.check_pairings(s) == []
    proc = subprocess.run(
        [str(Path(sys.executable).with_name("tandem-director")), "check-pairings", str(event_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_present_team_left_unpaired_is_still_missing(db: EventDatabase) -> None:
    """The check-in leaves out only the teams not marked present."""
    teams = add_teams(db, 5)
    with db.Session() as s, s.begin():
        for team in teams:
            edit_team(s, team, present=True)
        rounds.pair_next_round(s)
    with db.Session() as s:
        bye = next(p.team_a for p in manual_pairing.round_pairings(s, 1) if p.team_b is None)
        after = tuple(p for p in manual_pairing.round_pairings(s, 1) if p.team_b is not None)
        assert any("is missing" in w for w in rounds.manual_warnings(s, 1, after)), (
            f"team {bye} left out"
        )


def test_forbidding_a_pair_that_sits_at_one_table_of_an_unstarted_round_is_warned(
    db: EventDatabase, event_path: Path
) -> None:
    """The forbidden pair was written without a word while its two teams sat at one table of
    a published round not yet started: the director learned it only from the players."""
    add_teams(db, 4)
    with db.Session() as s, s.begin():
        first = rounds.pair_next_round(s).value.matches[0]
    assert first.team_b is not None
    a, b = first.team_a.id, first.team_b.id
    with db.Session() as s, s.begin():
        warnings = manual_pairing.set_forbidden(s, a, b, True, "brothers").value
    assert warnings == [
        f"{first.team_a.name} and {first.team_b.name} meet at table {first.table} of round 1,"
        " which has not started: pair it again or edit it"
    ]
    with db.Session() as s:
        [line] = [e for e in entries(s) if e.action == "forbid pair"]
    assert line.reason == f"brothers; warnings: {warnings[0]}"
    with db.Session() as s, s.begin():  # allowing them again has nothing to warn of
        assert manual_pairing.set_forbidden(s, a, b, False, "a mistake").value == []


def test_pair_again_is_previewed_names_the_edit_it_drops_and_audits_both_pairings(
    db: EventDatabase, event_path: Path
) -> None:
    """'Pair again' published without a preview, silently dropped the swap made by hand, and
    the audit said only 'undo round', with no reason and not the new pairings."""
    one, _two, three, _four = add_teams(db, 4)
    with db.Session() as s, s.begin():
        engine = rounds.pair_next_round(s).value
        manual_pairing.edit_round(s, 1, Edit.SWAP, one, three, "same club")
    engine_pairings = tuple(
        Pairing(m.table, m.team_a.id, m.team_b.id if m.team_b else None) for m in engine.matches
    )
    swapped = stored_pairings(event_path, 1)
    with db.Session() as s:
        preview = rounds.preview_next_round(s, again=True)
    assert preview.number == 1 and set(preview.pairings) == set(engine_pairings)
    assert preview.replaces == swapped
    assert preview.dropped == ("swap places: Team 1 and Team 3; same club",)
    assert stored_pairings(event_path, 1) == swapped  # a preview writes nothing
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="needs a reason"):
        rounds.repair_round(s, 1, reason=" ", expected=preview.pairings)
    with db.Session() as s, s.begin():
        rounds.repair_round(s, 1, reason="the swap was wrong", expected=preview.pairings)
    assert set(stored_pairings(event_path, 1)) == set(engine_pairings)
    with db.Session() as s:
        lines = [e for e in entries(s) if e.target == "round 1"]
    assert [e.action for e in lines] == ["edit pairings", "pair again"]
    again = lines[-1]
    assert again.reason == (
        "the swap was wrong; drops the edits made by hand: swap places: Team 1 and Team 3;"
        " same club"
    )
    assert again.before and again.after and again.before != again.after


def test_pair_again_refuses_a_pairing_other_than_the_one_previewed(
    db: EventDatabase, event_path: Path
) -> None:
    teams = add_teams(db, 4)
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s)
    with db.Session() as s:
        preview = rounds.preview_next_round(s, again=True)
    with db.Session() as s, s.begin():  # another station forbids a pair the preview had
        p = next(p for p in preview.pairings if p.team_b is not None)
        manual_pairing.set_forbidden(s, p.team_a, p.team_b or 0, True, "family")
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="look at it again"):
        rounds.repair_round(s, 1, reason="again", expected=preview.pairings)
    assert len(teams) == 4
