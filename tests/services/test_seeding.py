"""Seeding by rating (#12): imported teams without a seed are seeded by their rating."""

from __future__ import annotations

import pytest

from director.domain.errors import UserError
from director.services import rounds
from director.services.audit import entries
from director.services.teams import edit_team, import_teams, list_teams, seed_by_rating
from director.store.engine import EventDatabase

CSV = """team,player1,player2,club,rating
Low,L1,L2,,1400
Unrated,U1,U2,,
Top,T1,T2,,2100
Middle,M1,M2,,1800
"""


def test_an_imported_list_is_seeded_by_rating_not_file_order(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        import_teams(s, CSV)
    with db.Session() as s:
        assert [t.name for t in list_teams(s)] == ["Top", "Middle", "Low", "Unrated"]
    with db.Session() as s, s.begin():
        first = rounds.pair_next_round(s).value  # round 1 by seed: 1 v 3, 2 v 4
    assert [m.names for m in first.matches] == [("Top", "Low"), ("Middle", "Unrated")]


def test_a_seed_in_the_file_stands(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        import_teams(s, "team,player1,player2,rating,seed\nA,a1,a2,1000,1\nB,b1,b2,2000,\n")
    with db.Session() as s:
        assert [(t.name, t.seed) for t in list_teams(s)] == [("A", 1), ("B", 2)]


def test_seed_again_by_rating_before_round_1_audited_then_refused(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        import_teams(s, CSV)
        low = next(t for t in list_teams(s) if t.name == "Low")
        edit_team(s, low.id, rating=2500)  # a corrected rating
    with db.Session() as s, s.begin():
        seeded = seed_by_rating(s).value
    assert [(t.name, t.seed) for t in seeded] == [
        ("Low", 1), ("Top", 2), ("Middle", 3), ("Unrated", 4)]  # fmt: skip
    with db.Session() as s:
        [line] = [e for e in entries(s) if e.action == "seed by rating"]
    assert f'"{low.id}": 1' in line.after
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s)
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="round 1 is paired"):
        seed_by_rating(s)
