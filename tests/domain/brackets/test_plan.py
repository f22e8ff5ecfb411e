"""RULES §11 bracket plans: the ready-made plans, their JSON, and strict validation."""

from __future__ import annotations

import json

import pytest

from director.domain.brackets.plan import (
    CONSOLATION,
    LAST_CHANCE,
    MAIN,
    PLANS,
    Bracket,
    BracketPlan,
    Feed,
    plan_from_json,
    plan_problems,
    plan_to_json,
    progressive_feeds,
    ready_made,
)
from director.domain.errors import UserError


def test_the_four_ready_made_plans() -> None:
    assert [p.name for p in PLANS] == [
        "single",
        "consolation",
        "progressive-consolation",
        "consolation-last-chance",
    ]
    assert [b.name for b in ready_made("single").brackets] == [MAIN]
    cons = ready_made("consolation").bracket(CONSOLATION)
    assert cons.feeds == (Feed(MAIN, 1, 1),) and not cons.progressive
    prog = ready_made("progressive-consolation").bracket(CONSOLATION)
    assert prog.progressive and prog.feeds[:3] == (Feed(MAIN, 1, 1), Feed(MAIN, 2, 2),
                                                   Feed(MAIN, 3, 4))  # fmt: skip
    last = ready_made("consolation-last-chance").bracket(LAST_CHANCE)
    assert last.feeds == (Feed(CONSOLATION, 1, 1),)
    assert all(plan_problems(p) == [] for p in PLANS)
    with pytest.raises(UserError, match="no bracket plan 'double'.*single, consolation"):
        ready_made("double")


def test_a_length_for_every_bracket_round_the_last_repeating() -> None:
    main = ready_made("consolation-last-chance").bracket(MAIN)
    assert [main.length(r) for r in range(1, 7)] == [7, 7, 9, 11, 11, 11]
    cons = ready_made("consolation-last-chance").bracket(CONSOLATION)
    assert [cons.length(r) for r in (1, 2, 3, 4)] == [5, 5, 7, 7]
    assert ready_made("consolation-last-chance").bracket(LAST_CHANCE).length(3) == 5


@pytest.mark.parametrize("plan", PLANS, ids=lambda p: p.name)
def test_every_plan_goes_to_json_and_back_unchanged(plan: BracketPlan) -> None:
    assert plan_from_json(plan_to_json(plan)) == plan


def test_a_directors_own_plan_with_a_play_off_round_trips() -> None:
    own = BracketPlan(
        "club night",
        (
            Bracket(MAIN, (5, 7, 9), third_place=True),
            Bracket("plate", (3, 5), progressive_feeds(MAIN, 4), third_place=True),
        ),
    )
    assert plan_problems(own) == []
    text = plan_to_json(own)
    assert json.loads(text)["brackets"][1]["third_place"] is True
    assert plan_from_json(text) == own


def raw(**changes: object) -> str:
    data: dict[str, object] = json.loads(plan_to_json(ready_made("consolation-last-chance")))
    brackets = data["brackets"]
    assert isinstance(brackets, list)
    for path, value in changes.items():
        where, _, key = path.partition("__")
        target: dict[str, object] = data if where == "top" else brackets[int(where[1:])]
        if value is ...:
            del target[key]
        else:
            target[key] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "not JSON: line 1"),
        ("[]", "plan: an object is needed"),
        (raw(top__name=...), "plan: name is missing"),
        (raw(top__colour="red"), "unknown field 'colour'"),
        (raw(top__brackets={}), "brackets: a list is needed"),
        (raw(b0__lengths=[7, "nine"]), r"brackets\[0\].lengths\[1\]: a whole number"),
        (raw(b0__lengths=[7, True]), r"brackets\[0\].lengths\[1\]: a whole number"),
        (raw(b0__lengths=[7, 0]), r"brackets\[0\] \(main\).lengths\[1\]: a match is at least 1"),
        (raw(b0__lengths=[]), r"lengths: give the match length of round 1"),
        (raw(b1__third_place="yes"), r"brackets\[1\].third_place: true or false"),
        (raw(b1__feeds=[]), r"brackets\[1\] \(consolation\).feeds: a bracket after the main"),
        (raw(b1__feeds=[{"source": "main", "round": 1}]), r"feeds\[0\]: into is missing"),
        (raw(b1__feeds=[{"source": "plate", "round": 1, "into": 1}]), "'plate' is not a bracket"),
        (raw(b1__feeds=[{"source": "main", "round": 2, "into": 1}]), "first feed takes round-1"),
        (raw(b0__feeds=[{"source": "main", "round": 1, "into": 1}]), "main bracket is seeded"),
        (raw(b2__name="consolation"), r"brackets\[2\] \(consolation\).name: the name is used"),
        (raw(b1__feeds=[{"source": "main", "round": 1, "into": 1},
                        {"source": "main", "round": 2, "into": 3}]),
         "consolation round 3 takes 2 losers of main round 2 against 1 survivors"),
        (raw(b1__feeds=[{"source": "main", "round": 1, "into": 1},
                        {"source": "main", "round": 3, "into": 2}]),
         "consolation round 2 takes 2 losers of main round 3 against 4 survivors"),
        (raw(b1__feeds=[{"source": "main", "round": 1, "into": 1},
                        {"source": "main", "round": 1, "into": 2}]),
         "feeds go in order of rounds"),
    ],
)  # fmt: skip
def test_a_bad_plan_file_is_refused_naming_the_field(text: str, words: str) -> None:
    with pytest.raises(UserError, match=words):
        plan_from_json(text)
