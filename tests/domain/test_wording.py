"""Counts in words: the noun agrees with the number."""

from director.domain.wording import counted


def test_one_is_singular_every_other_count_plural() -> None:
    assert counted(1, "round") == "1 round"
    assert [counted(n, "round") for n in (0, 3)] == ["0 rounds", "3 rounds"]
    assert counted(2, "rematch", "rematches") == "2 rematches"
    assert counted(1, "rematch", "rematches") == "1 rematch"
