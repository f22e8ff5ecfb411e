"""A bracket plan (RULES §11) as data: the brackets, which losers feed which bracket and
round, the match length of every bracket round, and a play-off for third or not.

A plan is frozen dataclasses, so a template is one value: the ready-made `PLANS` (`single`,
`consolation`, `progressive-consolation`, `consolation-last-chance`) and the director's own,
kept by name and exported and imported as JSON (`plan_to_json`, `plan_from_json`: strict, a
bad file is a `UserError` naming the field). `Bracket.lengths` gives the length of round 1,
2, …; rounds past the last listed play the last length.

A fed bracket's first `Feed` takes its source's round-1 losers into its round 1, in the order
of their positions there (a player who reached their first match by byes and lost it counts
as a round-1 loser: RULES §11's bye in main round 1 lost in round 2). Every later feed takes
the losers of a later source round into a round of the fed bracket where they meet that
bracket's survivors one to one (a double elimination's losers bracket: losers of main round
q into consolation round 2q − 2 in `progressive-consolation`). The losers of a bracket's final
never feed another bracket: they are its runners-up; nor do its losing semi-finalists when
the bracket has a play-off for third (they play it).

How the rest calls it: the event stores the plan's JSON (`plan_to_json`) with the event and
in the club's templates; the event dialog offers `PLANS` and the saved templates, checks an
edited plan with `plan_problems` and shows each problem beside its field; the draw is built
by `domain.brackets.draw.Draw(plan, field)`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from director.domain.errors import UserError
from director.domain.wording import cut, quoted

MAIN = "main"
CONSOLATION = "consolation"
LAST_CHANCE = "last-chance"
LARGEST_FIELD = 256  # a plan is checked for every field up to this size
MAX_NAME = 100  # characters of a plan's or a bracket's name, as a team's
MAX_PLAN_BYTES = 1_000_000  # of a plan's file: a few hundred bytes; 256 entrants' feeds far below


@dataclass(frozen=True, slots=True)
class Feed:
    """The losers of `source`'s round `round` enter this bracket in round `into`."""

    source: str
    round: int
    into: int


@dataclass(frozen=True, slots=True)
class Bracket:
    name: str
    lengths: tuple[int, ...]  # match length of round 1, 2, …; later rounds the last
    feeds: tuple[Feed, ...] = ()  # none for the main bracket
    third_place: bool = False  # a play-off between the losing semi-finalists

    def length(self, round_no: int) -> int:
        return self.lengths[min(round_no, len(self.lengths)) - 1]

    @property
    def progressive(self) -> bool:
        return len(self.feeds) > 1


@dataclass(frozen=True, slots=True)
class BracketPlan:
    name: str
    brackets: tuple[Bracket, ...]  # the main bracket first; a bracket is fed by earlier ones

    def bracket(self, name: str) -> Bracket:
        for b in self.brackets:
            if b.name == name:
                return b
        raise KeyError(name)


def progressive_feeds(source: str, rounds: int = 8) -> tuple[Feed, ...]:
    """Round-1 losers into round 1, then round q's losers into round 2q − 2."""
    return (Feed(source, 1, 1), *(Feed(source, q, 2 * q - 2) for q in range(2, rounds + 1)))


PLANS: tuple[BracketPlan, ...] = (
    BracketPlan("single", (Bracket(MAIN, (7, 7, 9, 11)),)),
    BracketPlan(
        "consolation",
        (Bracket(MAIN, (7, 7, 9, 11)), Bracket(CONSOLATION, (5, 5, 7), (Feed(MAIN, 1, 1),))),
    ),
    BracketPlan(
        "progressive-consolation",
        (Bracket(MAIN, (7, 7, 9, 11)), Bracket(CONSOLATION, (5, 5, 7), progressive_feeds(MAIN))),
    ),
    BracketPlan(
        "consolation-last-chance",
        (
            Bracket(MAIN, (7, 7, 9, 11)),
            Bracket(CONSOLATION, (5, 5, 7), (Feed(MAIN, 1, 1),)),
            Bracket(LAST_CHANCE, (5,), (Feed(CONSOLATION, 1, 1),)),
        ),
    ),
)


def ready_made(name: str) -> BracketPlan:
    for plan in PLANS:
        if plan.name == name:
            return plan
    names = ", ".join(p.name for p in PLANS)
    raise UserError(f"there is no bracket plan {quoted(name)} (ready-made: {names})")


def describe(plan: BracketPlan) -> str:
    """'consolation: main 7/7/9/11, consolation 5/5/7 (round-1 losers of main)': the plan in
    one line, as the CLI prints it and the event dialog shows it."""
    parts = []
    for b in plan.brackets:
        lengths = "/".join(str(n) for n in b.lengths)
        fed = ""
        if b.feeds:
            first = b.feeds[0]
            fed = f" (round-1 losers of {first.source}" + (
                ", later losers too)" if b.progressive else ")"
            )
        third = ", play-off for third" if b.third_place else ""
        parts.append(f"{b.name} {lengths}{fed}{third}")
    return f"{plan.name}: " + ", ".join(parts)


def plan_problems(plan: BracketPlan) -> list[str]:
    """Everything wrong with a plan, each naming its field; empty when it can be played."""
    out: list[str] = []
    if not plan.name.strip():
        out.append("name: a plan needs a name")
    names = [("name", plan.name)] + [
        (f"brackets[{i}].name", b.name) for i, b in enumerate(plan.brackets)
    ]
    long = [f"{at}: at most {MAX_NAME} characters" for at, name in names if len(name) > MAX_NAME]
    if long:  # every later message names them: a 300,000-character name was echoed whole
        return long
    if not plan.brackets:
        return [*out, "brackets: a plan needs its main bracket"]
    seen: list[str] = []
    for i, b in enumerate(plan.brackets):
        where = f"brackets[{i}] ({cut(b.name)})"
        if not b.name.strip():
            out.append(f"brackets[{i}].name: a bracket needs a name")
        if b.name in seen:
            out.append(f"{where}.name: the name is used twice")
        if not b.lengths:
            out.append(f"{where}.lengths: give the match length of round 1 at least")
        out += [f"{where}.lengths[{j}]: a match is at least 1 point, not {cut(str(n))}"
                for j, n in enumerate(b.lengths) if n < 1]  # fmt: skip
        if i == 0 and b.feeds:
            out.append(f"{where}.feeds: the main bracket is seeded, not fed")
        if i > 0 and not b.feeds:
            out.append(f"{where}.feeds: a bracket after the main one needs the losers it takes")
        for j, f in enumerate(b.feeds):
            at = f"{where}.feeds[{j}]"
            if f.source not in seen:
                out.append(f"{at}.source: {quoted(f.source)} is not a bracket before this one")
            if j == 0 and (f.round, f.into) != (1, 1):
                out.append(f"{at}: the first feed takes round-1 losers into round 1")
            if j > 0 and (f.round <= b.feeds[j - 1].round or f.into <= b.feeds[j - 1].into):
                out.append(f"{at}: feeds go in order of rounds, each later than the one before")
            if j > 0 and f.source != b.feeds[0].source:
                out.append(f"{at}.source: a bracket's feeds all come from one bracket")
        seen.append(b.name)
    if not out:
        from director.domain.brackets.draw import shape_problems  # the draw knows the shapes

        out += shape_problems(plan)
    return out


def _int(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{field}: a whole number is needed, not {quoted(value)}")
    return value


def _keys(value: object, field: str, required: set[str], optional: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise UserError(f"{field}: an object is needed, not {type(value).__name__}")
    missing = sorted(required - value.keys())
    if missing:
        raise UserError(f"{field}: {missing[0]} is missing")
    unknown = sorted(value.keys() - required - optional)
    if unknown:
        raise UserError(f"{field}: unknown field {quoted(unknown[0])}")
    return value


def _list(value: object, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise UserError(f"{field}: a list is needed, not {type(value).__name__}")
    return value


def _str(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise UserError(f"{field}: text is needed, not {quoted(value)}")
    return value


def plan_to_json(plan: BracketPlan) -> str:
    return json.dumps(
        {
            "name": plan.name,
            "brackets": [
                {
                    "name": b.name,
                    "lengths": list(b.lengths),
                    "feeds": [
                        {"source": f.source, "round": f.round, "into": f.into} for f in b.feeds
                    ],  # fmt: skip
                    "third_place": b.third_place,
                }
                for b in plan.brackets
            ],
        },
        indent=2,
        ensure_ascii=False,
    )


def plan_from_json(text: str) -> BracketPlan:
    """A plan from its JSON; a `UserError` naming the first bad field, or every plan problem."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise UserError(f"the bracket plan is not JSON: line {e.lineno}: {e.msg}") from None
    top = _keys(data, "plan", {"name", "brackets"}, set())
    brackets: list[Bracket] = []
    for i, raw in enumerate(_list(top["brackets"], "brackets")):
        at = f"brackets[{i}]"
        b = _keys(raw, at, {"name", "lengths"}, {"feeds", "third_place"})
        feeds = []
        for j, rf in enumerate(_list(b.get("feeds", []), f"{at}.feeds")):
            fa = f"{at}.feeds[{j}]"
            f = _keys(rf, fa, {"source", "round", "into"}, set())
            feeds.append(Feed(_str(f["source"], f"{fa}.source"), _int(f["round"], f"{fa}.round"),
                              _int(f["into"], f"{fa}.into")))  # fmt: skip
        third = b.get("third_place", False)
        if not isinstance(third, bool):
            raise UserError(f"{at}.third_place: true or false, not {quoted(third)}")
        lengths = tuple(_int(n, f"{at}.lengths[{k}]")
                        for k, n in enumerate(_list(b["lengths"], f"{at}.lengths")))  # fmt: skip
        brackets.append(Bracket(_str(b["name"], f"{at}.name"), lengths, tuple(feeds), third))
    plan = BracketPlan(_str(top["name"], "name"), tuple(brackets))
    problems = plan_problems(plan)
    if problems:
        raise UserError("; ".join(problems))
    return plan
