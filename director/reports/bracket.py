"""The knockout bracket: one column per round, named Final, Semi-final, Quarter-final; the
consolation bracket below; and the knockout standings, by the round a team went out in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from director.domain.event import MatchInfo, TeamInfo
from director.domain.match import Result
from director.domain.rules import Side
from director.domain.wording import isolated
from director.reports.styles import Layout, Section, esc, grid, heads, rich, text

NOTE = (
    "Knockout standings: the winner, the finalist, then the teams that went out in each "
    "earlier round (equal places: “=”). Winner required (rule 4′): no draws."
)


def round_name(round_number: int, rounds: int) -> str:
    """Final, Semi-final, Quarter-final, then "Round of 16" and so on."""
    left = rounds - round_number
    names = {0: "Final", 1: "Semi-final", 2: "Quarter-final"}
    return names.get(left, f"Round of {2 ** (left + 1)}")


def winner(match: MatchInfo) -> TeamInfo | None:
    if match.team_b is None:
        return match.team_a
    if match.forfeit_by is not None:
        return match.team_b if match.forfeit_by is Side.A else match.team_a
    if match.outcome.result is Result.A:
        return match.team_a
    if match.outcome.result is Result.B:
        return match.team_b
    return None


def split(
    rounds: Mapping[int, Sequence[MatchInfo]],
) -> tuple[dict[int, list[MatchInfo]], dict[int, list[MatchInfo]]]:
    """(main, consolation) matches by round, as each match stores its bracket (RULES §11); a
    match without one (none is stored before revision 0010 outside a knockout) is read as
    before: a match of teams already out of the main bracket is a consolation match."""
    out: set[int] = set()
    main: dict[int, list[MatchInfo]] = {}
    consolation: dict[int, list[MatchInfo]] = {}
    for number in sorted(rounds):
        for m in sorted(rounds[number], key=lambda m: (m.slot or 0, m.table)):
            ids = {m.team_a.id} | ({m.team_b.id} if m.team_b else set())
            second = m.bracket != "main" if m.bracket is not None else bool(ids & out)
            (consolation if second else main).setdefault(number, []).append(m)
        for m in main.get(number, []):
            w = winner(m)
            for t in (m.team_a, m.team_b):
                if t is not None and w is not None and t.id != w.id:
                    out.add(t.id)
    return main, consolation


def consolation_rounds(consolation: Mapping[int, Sequence[MatchInfo]]) -> int:
    """How many rounds the consolation bracket has: its columns are named from its own final
    back (its first round is the event's round 2, RULES' knockout with consolation)."""
    first = consolation[min(consolation)]
    teams = sum(1 + (m.team_b is not None) for m in first)
    return max(1, (teams - 1).bit_length())


def consolation_winner(consolation: Mapping[int, Sequence[MatchInfo]]) -> TeamInfo | None:
    """The winner of the consolation final, once it is played."""
    if len(consolation) < consolation_rounds(consolation):
        return None
    final = consolation[max(consolation)]
    return winner(final[0]) if len(final) == 1 else None


def _box(match: MatchInfo) -> Flowable:
    w = winner(match)
    lines = []
    for side, team in ((Side.A, match.team_a), (Side.B, match.team_b)):
        if team is None:
            lines.append("<i>bye</i>")
            continue
        score = match.outcome.final.a if side is Side.A else match.outcome.final.b
        shown = "+" if match.forfeit_by is not None and w is team else str(score)
        name = esc(team.name)
        lines.append(f"<b>{name} {shown}</b>" if w is team else f"{name} {shown}")
    return rich("<br/>".join(lines), "cell")


def bracket_table(by_round: Mapping[int, Sequence[MatchInfo]], total: int, box: Layout) -> Flowable:
    numbers = sorted(by_round)
    first = len(by_round[numbers[0]])
    slots = max(first, 1)
    data: list[list[object]] = [heads(*(round_name(i + 1, total) for i in range(len(numbers))))]
    data += [["" for _ in numbers] for _ in range(slots)]
    style: list[tuple[object, ...]] = [("VALIGN", (0, 1), (-1, -1), "MIDDLE")]
    for col, number in enumerate(numbers):
        matches = list(by_round[number])
        span = max(1, slots // max(len(matches), 1))
        for i, m in enumerate(matches):
            row = 1 + i * span
            if row > slots:
                break
            data[row][col] = _box(m)
            if span > 1:
                style.append(("SPAN", (col, row), (col, min(slots, row + span - 1))))
    widths = box.columns(*([1.0] * len(numbers)))
    return grid(data, widths, extra=style, padding=3)


def elimination_standings(main: Mapping[int, Sequence[MatchInfo]]) -> list[tuple[str, TeamInfo]]:
    """(place, team): the winner, the finalist, then by the round each team went out in."""
    went_out: dict[int, tuple[int, TeamInfo]] = {}
    alive: dict[int, TeamInfo] = {}
    for number in sorted(main):
        for m in main[number]:
            w = winner(m)
            for t in (m.team_a, m.team_b):
                if t is None:
                    continue
                if w is not None and t.id != w.id:
                    went_out[t.id] = (number, t)
                    alive.pop(t.id, None)
                else:
                    alive[t.id] = t
    out: list[tuple[str, TeamInfo]] = []
    place = 1
    if len(alive) == 1:
        out.append(("1", next(iter(alive.values()))))
        place = 2
    for number in sorted({r for r, _ in went_out.values()}, reverse=True):
        group = sorted((t for r, t in went_out.values() if r == number), key=lambda t: t.seed)
        label = str(place) if len(group) == 1 else f"{place}="
        out += [(label, t) for t in group]
        place += len(group)
    return out


def story(
    rounds: Mapping[int, Sequence[MatchInfo]], total_rounds: int, box: Layout
) -> list[Flowable]:
    out: list[Flowable] = [Section("Knockout bracket"), text("Knockout bracket", "title")]
    played = {n: ms for n, ms in rounds.items() if ms}
    if not played:
        return [*out, text("No knockout round is paired yet.", "body")]
    main, consolation = split(played)
    total = max(total_rounds, *main)
    out.append(bracket_table(main, total, box))
    if consolation:
        out += [Spacer(0, 5 * mm), text("Consolation bracket", "h2")]
        out.append(bracket_table(consolation, consolation_rounds(consolation), box))
        champion = consolation_winner(consolation)
        if champion is not None:
            out.append(text(f"Consolation winner: {isolated(champion.name)}", "body"))
    out += [Spacer(0, 5 * mm), text("Knockout standings", "h2")]
    rows: list[list[object]] = [heads("Place", "Team", "Went out in")]
    names = {t.id: round_name(r, total) for ms in main.values() for m in ms
             for t in (m.team_a, m.team_b) if t is not None for r in [m.round or 0]}  # fmt: skip
    for place, team in elimination_standings(main):
        out_in = "—" if place == "1" else names.get(team.id, "")
        rows.append([place, text(team.name, "cell"), out_in])
    out.append(grid(rows, box.columns(10, 60, 30), zebra=True))
    out.append(text(NOTE, "small"))
    return out
