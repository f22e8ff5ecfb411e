"""The draw of a bracket plan for a field, paired match by match (RULES §11).

`Draw(plan, field)` lays out every match the plan can need for this field (entrants' ids, best
seed first): the main bracket in standard bracket order with byes to the top seeds, each fed
bracket's round 1 in the order of its source's round-1 positions (losers of neighbouring
source matches meet: they never met each other), and each later feed's losers meeting the fed
bracket's survivors in reverse order, or reversed within each half (alternately, as a double
elimination's losers bracket does), so that a loser does not meet the player they beat in the
source's earlier round where the numbers allow.
A bracket that would hold fewer than two entrants is left out.

`Draw.progress(results, withdrawn)` replays the results (`Result`: a match's key and its
winner, `forfeit` when it was not played) and says of every match whether it waits for a
feeding match, is ready to be paired (both feeders finished: pairing by match, not by round),
is finished, or is a bye. A withdrawn entrant is left out of every match not yet finished (its
opponent has a bye), a forfeit is a win for the opponent, and a player who reached their first
match by byes and lost it counts as a loser of round 1 (RULES §11).

How the rest calls it: the store keeps, per match, its `MatchKey` (bracket, round in it, slot
number), players, length and result; `services/rounds.py` builds `Draw(plan, field)` from the
event's plan and seeds, calls `progress(results, withdrawn)` after every result and stores
`ready()` as newly paired matches, each with its `length` (and the event's scoring, cube and
clock rules) fixed at pairing; the desk, the draw sheets, the projector and the phones read
`Progress.nodes`, `Progress.seats(i)` (each side an entrant's id, or `Vacant`: a bye or not
known yet, never a word a name could be) and `Progress.places(bracket)`. `checker.check_draw`
checks the stored matches independently.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum

from director.domain.brackets.plan import LARGEST_FIELD, BracketPlan
from director.domain.errors import UserError
from director.domain.pairing.knockout import bracket_order
from director.domain.wording import BYE_WORD, NOT_KNOWN_WORD

_PENDING = -1  # an input not known yet (ids are positive)
# the kinds of a match's two inputs: a seed position, or the winner, loser (of a semi-final,
# for the play-off), round-1 loser (byes followed) or later loser of another match
SEED, WINNER, LOSER, FIRST_LOSER, LATER_LOSER = range(5)


@dataclass(frozen=True, slots=True, order=True)
class MatchKey:
    bracket: str
    round: int
    number: int  # the slot in its round, from the top of the sheet; the play-off for third is 2

    def __str__(self) -> str:
        return f"{self.bracket} round {self.round} match {self.number}"


@dataclass(frozen=True, slots=True)
class Result:
    key: MatchKey
    winner: int
    forfeit: bool = False  # a win for the opponent, not played (RULES §8)


class Status(StrEnum):
    WAITING = "waiting"  # a feeding match is not finished (the player known so far is shown)
    READY = "ready"  # both players known: pair it
    DONE = "done"
    BYE = "bye"  # one player, who goes through
    EMPTY = "empty"  # nobody


class Vacant(Enum):
    """A side of a match that no entrant holds, told apart from every entrant by its type: a
    player may be called "bye" or "…", the words a draw shows for these (`words`)."""

    BYE = "nobody"  # nobody comes: the entrant on the other side goes through
    NOT_KNOWN = "not known"  # a feeding match is not finished yet (it may leave nobody)

    @property
    def words(self) -> str:
        """What the draw sheets, the Rounds page and the projector show in the side's place."""
        return BYE_WORD if self is Vacant.BYE else NOT_KNOWN_WORD


Seat = int | Vacant  # an entrant's id, or why no entrant is there


def shown(name: str | Vacant) -> str:
    """An entrant's name as typed, or the words for a side nobody holds ("bye", "…")."""
    return name.words if isinstance(name, Vacant) else name


@dataclass(frozen=True, slots=True)
class Node:
    key: MatchKey
    inputs: tuple[tuple[int, int], tuple[int, int]]  # (kind, seed position or node index)
    length: int
    parent: int | None  # the node the winner goes to
    final: bool
    third_place: bool = False


@dataclass(frozen=True, slots=True)
class Pairing:
    key: MatchKey
    player_a: int
    player_b: int
    length: int


@dataclass(frozen=True, slots=True)
class Places:
    bracket: str
    winner: int | None
    runner_up: int | None
    third: tuple[int, ...]  # shared unless the plan has a play-off
    fourth: int | None
    complete: bool


def _size(n: int) -> int:
    size = 2
    while size < n:
        size *= 2
    return size


class Draw:
    """Every match of `plan` for `field` (ids, best seed first), as a graph of feeds."""

    def __init__(self, plan: BracketPlan, field: Sequence[int]) -> None:
        if len(field) < 2:
            raise UserError("a knockout needs at least two entrants")
        if len(set(field)) != len(field) or min(field) < 1:
            raise UserError("each entrant appears once, by a positive id")
        self.plan = plan
        self.field = tuple(field)
        size = _size(len(field))
        order = bracket_order(size)
        self.positions: tuple[int | None, ...] = tuple(
            field[s - 1] if s <= len(field) else None for s in order
        )
        self.nodes: list[Node] = []
        self.index: dict[MatchKey, int] = {}
        self.rounds: dict[str, int] = {}
        # the last round of each bracket whose losers may feed another: not its final (its
        # runners-up), nor its semi-finals when they play off for third
        self.feeding: dict[str, int] = {}
        self.problems: list[str] = []
        self._build(size)

    # -- layout ---------------------------------------------------------------------------

    def _add(self, key: MatchKey, inputs: tuple[tuple[int, int], tuple[int, int]],
             final: bool = False, third: bool = False) -> int:  # fmt: skip
        length = self.plan.bracket(key.bracket).length(key.round)
        self.nodes.append(Node(key, inputs, length, None, final, third))
        self.index[key] = len(self.nodes) - 1
        for kind, arg in inputs:
            if kind == WINNER:
                self.nodes[arg] = _with_parent(self.nodes[arg], len(self.nodes) - 1)
        return len(self.nodes) - 1

    def round_nodes(self, bracket: str, round_no: int) -> list[int]:
        out, j = [], 1
        while (i := self.index.get(MatchKey(bracket, round_no, j))) is not None:
            if not self.nodes[i].third_place:
                out.append(i)
            j += 1
        return out

    def round_title(self, bracket: str, round_no: int) -> str:
        """Final, Semi-final, Quarter-final (each from a round that halves the one before),
        else "Round N": a round that takes later losers keeps its number."""
        rest = [len(self.round_nodes(bracket, r))
                for r in range(round_no, self.rounds[bracket] + 1)]  # fmt: skip
        if len(rest) == 1:
            return "Final"
        if rest[:3] == [4, 2, 1]:
            return "Quarter-final"
        if rest[:2] == [2, 1]:
            return "Semi-final"
        return f"Round {round_no}"

    def _build(self, size: int) -> None:
        main = self.plan.brackets[0]
        prev = [self._add(MatchKey(main.name, 1, j + 1), ((SEED, 2 * j), (SEED, 2 * j + 1)))
                for j in range(size // 2)]  # fmt: skip
        r = 1
        while len(prev) > 1:
            r += 1
            prev = [self._add(MatchKey(main.name, r, j + 1),
                              ((WINNER, prev[2 * j]), (WINNER, prev[2 * j + 1])))
                    for j in range(len(prev) // 2)]  # fmt: skip
        self._finish(main.name, r, prev)
        for bracket in self.plan.brackets[1:]:
            self._build_fed(bracket.name)

    def _finish(self, name: str, rounds: int, last: list[int]) -> None:
        self.rounds[name] = rounds
        final = last[0]
        self.nodes[final] = _final(self.nodes[final])
        semis = [arg for kind, arg in self.nodes[final].inputs if kind == WINNER]
        self.feeding[name] = rounds - 1
        if self.plan.bracket(name).third_place and len(semis) == 2:
            self._add(MatchKey(name, rounds, 2), ((LOSER, semis[0]), (LOSER, semis[1])),
                      third=True)  # fmt: skip
            self.feeding[name] = rounds - 2

    def _build_fed(self, name: str) -> None:
        bracket = self.plan.bracket(name)
        source = bracket.feeds[0].source
        if self.feeding.get(source, 0) < 1:
            return  # round 1 of the source is its final or plays off for third: nobody to take
        first = self.round_nodes(source, 1)
        if len(first) < 2:
            return
        prev = [self._add(MatchKey(name, 1, j + 1),
                          ((FIRST_LOSER, first[2 * j]), (FIRST_LOSER, first[2 * j + 1])))
                for j in range(len(first) // 2)]  # fmt: skip
        later = {f.into: f for f in bracket.feeds[1:] if f.round <= self.feeding[source]}
        r = 1
        while True:
            r += 1
            feed = later.pop(r, None)
            if feed is not None:
                losers = self.round_nodes(source, feed.round)
                if len(losers) != len(prev):
                    self.problems.append(
                        f"{name} round {r} takes {len(losers)} losers of {source} round "
                        f"{feed.round} against {len(prev)} survivors (field of {len(self.field)})"
                    )
                    return
                m = len(losers)
                fed = [losers[_fed_order(m, j, feed.round)] for j in range(m)]
                prev = [
                    self._add(MatchKey(name, r, j + 1), ((WINNER, prev[j]), (LATER_LOSER, fed[j])))
                    for j in range(m)
                ]
            elif len(prev) > 1:
                prev = [self._add(MatchKey(name, r, j + 1),
                                  ((WINNER, prev[2 * j]), (WINNER, prev[2 * j + 1])))
                        for j in range(len(prev) // 2)]  # fmt: skip
            else:
                break
        for into, feed in sorted(later.items()):
            self.problems.append(f"{name} has no round {into} to take {source} round "
                                 f"{feed.round}'s losers (field of {len(self.field)})")  # fmt: skip
        self._finish(name, r - 1, prev)

    # -- state ----------------------------------------------------------------------------

    def progress(self, results: Iterable[Result] = (), withdrawn: Sequence[int] = ()) -> Progress:
        """The state after `results`, with the entrants in `withdrawn` (first to go first)."""
        if self.problems:  # the plan's feeds do not fit this field (`plan_problems` says so)
            raise UserError("; ".join(self.problems))
        by_key: dict[int, Result] = {}
        for given in results:
            if given.key not in self.index:
                raise UserError(f"{given.key}: there is no such match in this draw")
            by_key[self.index[given.key]] = given
        gone = {p: i for i, p in enumerate(withdrawn)}
        n = len(self.nodes)
        status: list[Status] = [Status.EMPTY] * n
        players: list[tuple[int | None, int | None]] = [(None, None)] * n
        winner: list[int | None] = [None] * n
        loser: list[int | None] = [None] * n
        winner_fresh = [False] * n  # the winner has only had byes in this bracket so far
        loser_fresh = [False] * n
        nodes = self.nodes

        def first_loser(j: int) -> int | None:
            """The round-1 loser of node j: its loser, or its bye's player who lost next."""
            if status[j] is Status.DONE:
                return loser[j]
            if status[j] is not Status.BYE:
                return _PENDING if status[j] is not Status.EMPTY else None
            p = winner[j]
            k = nodes[j].parent
            while k is not None:
                s = status[k]
                if s is Status.DONE:
                    feeds = nodes[k].key.round <= self.feeding[nodes[k].key.bracket]
                    return p if loser[k] == p and feeds else None
                if s is Status.BYE and winner[k] == p:
                    k = nodes[k].parent
                    continue
                if s in (Status.WAITING, Status.READY):
                    return None if p in gone else _PENDING
                return None
            return None

        for i, node in enumerate(nodes):
            got: list[tuple[int | None, bool]] = []
            for kind, arg in node.inputs:
                if kind == SEED:
                    got.append((self.positions[arg], True))
                elif kind == FIRST_LOSER:
                    got.append((first_loser(arg), True))
                elif status[arg] in (Status.WAITING, Status.READY):
                    got.append((_PENDING, False))
                elif kind == WINNER:
                    got.append((winner[arg], winner_fresh[arg]))
                elif kind == LATER_LOSER:
                    fed = status[arg] is Status.DONE and not loser_fresh[arg]
                    got.append((loser[arg] if fed else None, False))
                else:  # the play-off's semi-final losers
                    got.append((loser[arg], False))
            (pa, fa), (pb, fb) = got
            res = by_key.get(i)
            if _PENDING in (pa, pb):
                if res is not None:
                    raise UserError(f"{node.key}: a result for a match not paired yet")
                status[i] = Status.WAITING
                players[i] = (None if pa == _PENDING else pa, None if pb == _PENDING else pb)
                continue
            if res is not None:
                if pa is None or pb is None or res.winner not in (pa, pb):
                    raise UserError(f"{node.key}: the winner {res.winner} does not play in it")
                status[i] = Status.DONE
                players[i] = (pa, pb)
                winner[i] = res.winner
                loser[i] = pb if res.winner == pa else pa
                loser_fresh[i] = fb if res.winner == pa else fa
                continue
            if pa is not None and pb is not None and (pa in gone or pb in gone):
                # a withdrawn player leaves a bye; of two, the later to go passes on alone and
                # leaves at the next match they would play (a bye already used stays as it was)
                if pb not in gone or (pa in gone and gone[pa] < gone[pb]):
                    pa, fa = None, False
                else:
                    pb, fb = None, False
            players[i] = (pa, pb)
            if pa is not None and pb is not None:
                status[i] = Status.READY
            elif pa is not None or pb is not None:
                status[i] = Status.BYE
                winner[i] = pa if pa is not None else pb
                winner_fresh[i] = fa if pa is not None else fb
        return Progress(self, tuple(status), tuple(players), tuple(winner), tuple(loser))


def _fed_order(m: int, j: int, source_round: int) -> int:
    """Which of a source round's m losers meets the fed bracket's survivor j (from 0): the
    losers in reverse order after an even source round, reversed within each half after an odd
    one. Either keeps a round-2 loser from the player they beat in round 1; alternating the two
    brings back two players who met eight times less often than reversing every feed (161
    rematches against 1,307 in 150 random progressive nights of 8 to 256 players)."""
    if source_round % 2 == 0 or m == 1:
        return m - 1 - j
    half = m // 2
    return (j // half) * half + half - 1 - j % half


def _with_parent(node: Node, parent: int) -> Node:
    return Node(node.key, node.inputs, node.length, parent, node.final, node.third_place)


def _final(node: Node) -> Node:
    return Node(node.key, node.inputs, node.length, node.parent, True, node.third_place)


@dataclass(frozen=True)
class Progress:
    """Where every match of a draw stands after the results so far."""

    draw: Draw
    status: tuple[Status, ...]
    players: tuple[tuple[int | None, int | None], ...]
    winner: tuple[int | None, ...]
    loser: tuple[int | None, ...]

    def of_index(self, i: int) -> tuple[Status, tuple[int | None, int | None]]:
        return self.status[i], self.players[i]

    def seats(self, i: int) -> tuple[Seat, Seat]:
        """Both sides of match `i`: each entrant's id, else `Vacant.NOT_KNOWN` while a feeding
        match is not finished and `Vacant.BYE` once nobody comes."""
        vacant = Vacant.NOT_KNOWN if self.status[i] is Status.WAITING else Vacant.BYE
        a, b = self.players[i]
        return (vacant if a is None else a), (vacant if b is None else b)

    def ready(self) -> list[Pairing]:
        """The matches to pair now: both players known and no result yet."""
        out = []
        for i, node in enumerate(self.draw.nodes):
            if self.status[i] is Status.READY:
                a, b = self.players[i]
                assert a is not None and b is not None
                out.append(Pairing(node.key, a, b, node.length))
        return out

    def of(self, key: MatchKey) -> tuple[Status, tuple[int | None, int | None], int | None]:
        i = self.draw.index[key]
        return self.status[i], self.players[i], self.winner[i]

    @property
    def complete(self) -> bool:
        return not any(s in (Status.WAITING, Status.READY) for s in self.status)

    def places(self, bracket: str) -> Places:
        """Winner, runner-up and third (shared by the losing semi-finalists, or the play-off's
        winner with its loser fourth) of one bracket; `None` where not known yet."""
        draw = self.draw
        if bracket not in draw.rounds:
            return Places(bracket, None, None, (), None, True)
        final = draw.round_nodes(bracket, draw.rounds[bracket])[0]
        done = self.status[final] in (Status.DONE, Status.BYE, Status.EMPTY)
        semis = [arg for kind, arg in draw.nodes[final].inputs if kind == WINNER]
        third = tuple(p for j in semis if (p := self.loser[j]) is not None)
        fourth = None
        playoff = draw.index.get(MatchKey(bracket, draw.rounds[bracket], 2))
        if playoff is not None:
            done = done and self.status[playoff] not in (Status.WAITING, Status.READY)
            third = tuple(p for p in (self.winner[playoff],) if p is not None)
            fourth = self.loser[playoff]
        return Places(bracket, self.winner[final], self.loser[final], third, fourth, done)


def shape_problems(plan: BracketPlan) -> list[str]:
    """The plan's feeds checked against the brackets' shapes for every field up to 256."""
    out: list[str] = []
    size = 2
    while size <= LARGEST_FIELD:
        out += Draw(plan, range(1, size + 1)).problems
        size *= 2
    return out
