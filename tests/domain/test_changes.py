"""`Changes`: what a change changed, as every page reads it (here or at another station)."""

from __future__ import annotations

from director.domain.changes import Area, Changes


def test_a_match_change_names_its_match_and_nothing_around_it() -> None:
    changes = Changes.match(12)
    assert changes.matches == {12} and changes.touches(Area.RESULTS)
    assert changes.concerns(12) and not changes.concerns(13)
    assert not changes.structure()
    assert changes.only_matches() == {12}


def test_a_clock_change_is_its_match_s_too() -> None:
    assert Changes.clock(7).concerns(7) and not Changes.clock(7).touches(Area.RESULTS)
    assert Changes.clock(7).only_matches() == {7}


def test_the_structure_concerns_every_match() -> None:
    for area in (Area.EVENT, Area.TEAMS, Area.ROUNDS):
        changes = Changes.of(area)
        assert changes.structure() and changes.concerns(99)
        assert changes.only_matches() is None
    assert not Changes.of(Area.SLIPS).structure()


def test_changes_add_up_and_nothing_is_false() -> None:
    both = Changes.match(1) | Changes.of(Area.TEAMS) | Changes.clock(2)
    assert both.areas == {Area.RESULTS, Area.TEAMS, Area.CLOCKS} and both.matches == {1, 2}
    assert both.only_matches() is None  # the teams changed too: more than the two matches
    assert not Changes() and Changes.of(Area.AUDIT)
    assert (Changes.match(1) | Changes.of(Area.AUDIT)).only_matches() == {1}


def test_a_slip_names_its_match_s_slips_not_its_games() -> None:
    slip = Changes.of(Area.SLIPS, slips=(4,))
    assert slip.slips == {4} and slip.touches(Area.SLIPS) and slip
    assert not slip.matches and not slip.concerns(4)  # the match's games are as they were
    assert (slip | Changes.match(4)).slips == {4}
