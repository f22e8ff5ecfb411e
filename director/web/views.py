"""The public data of the players' pages as JSON-ready values, read through the services.

Each function takes a session (a worker thread's) and returns what `/api/...` answers and what
the hub pushes on the channel of the same name. Names people typed travel as JSON strings:
the pages put them on screen as text, never as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from director.domain.cube import CubeRegime
from director.domain.errors import UserError
from director.domain.event import MatchInfo, TeamInfo, round_status
from director.domain.match_reserve import clock_text
from director.domain.met import MetParameters, match_equity_table
from director.domain.records import game_json
from director.domain.rules import CubeRule, End, EventOptions, PairingSystem, Side, TieBreak
from director.domain.scoring import agreed_level_offered
from director.domain.standings import (
    match_points_definition,
    result_legend,
    tie_break_definitions,
)
from director.domain.wording import counted
from director.services import phone_clocks
from director.services import standings as standings_service
from director.services.events import get_event
from director.services.matches import get_match, list_matches
from director.services.rounds import progress
from director.services.teams import entrant_format, team_map


def _team(team: TeamInfo | None, one_board: bool = False) -> dict[str, Any] | None:
    if team is None:
        return None
    # one board: the player is the entrant, named once (RULES §10)
    players = [] if one_board else list(team.players)
    return {"id": team.id, "name": team.name, "players": players, "club": team.club}


def match_summary(match: MatchInfo, clocks_started: bool = False) -> dict[str, Any]:
    """One table of the pairings: teams, scoreline, away scores, the cube rule of the pair,
    and whether its phone clocks were started for the pair being played."""
    outcome = match.outcome
    live = not match.is_bye and match.forfeit_by is None and not outcome.finished
    record = match.rules.event_format
    return {
        "id": match.id,
        "round": match.round,
        "table": match.table,
        "team_a": _team(match.team_a, record.one_board),
        "team_b": _team(match.team_b, record.one_board),
        "entrant": record.entrant,  # who plays: a team or a player
        "unit": record.unit,  # what the match is a sequence of: pairs, or games
        "boards": list(record.boards),
        "crawford": live and outcome.cube_rule.crawford,  # RULES §10: no doubling in it
        "bye": match.is_bye,
        "forfeit_by": match.forfeit_by.value if match.forfeit_by else None,
        "score": {"A": outcome.final.a, "B": outcome.final.b},
        "away": {"A": outcome.away(Side.A), "B": outcome.away(Side.B)} if live else None,
        "pair": outcome.current_pair,
        "one_cube_pair": live and outcome.cube_rule.regime is CubeRegime.ONE_CUBE,
        "cube_rule": outcome.cube_rule.reason if live else "",
        "status": match.status.value,
        "result": outcome.result.value,
        "games": len(match.games),
        "clocks_started": live and clocks_started,
    }


def pairings(session: Session, round_number: int | None = None) -> dict[str, Any]:
    """`/api/pairings`: the current round (or the one asked for) with live scores."""
    return round_pairings(session, round_number)[0]


def round_pairings(
    session: Session, round_number: int | None = None
) -> tuple[dict[str, Any], list[MatchInfo]]:
    """The pairings, and the round's matches they were built from: the change watcher builds
    the changed matches' details from the same read, not with a read of each."""
    last, _ = progress(session)
    number = round_number or last
    event = get_event(session)
    matches = list_matches(session, number) if number else []
    started = phone_clocks.started_pairs(session, [m.id for m in matches])
    return {
        "event": event.name,
        "round": number or None,
        "rounds": event.options.rounds,
        "status": round_status(matches).value if matches else "not paired",
        "match_length": event.options.match.match_length,
        "matches": [match_summary(m, started.get(m.id) == m.outcome.current_pair) for m in matches],
    }, matches


def match_detail(session: Session, match_id: int) -> dict[str, Any]:
    """`/api/matches/N`: one match with every game, its points and the score after it."""
    return match_detail_of(get_match(session, match_id))


def match_detail_of(match: MatchInfo) -> dict[str, Any]:
    """`match_detail` of a match already read."""
    out = match_summary(match)
    out["games_list"] = [
        {
            **game_json(line.game),
            "points": line.points,
            "pip_points": line.pip_points,
            "counted": line.counted,
            "score": {"A": line.score.a, "B": line.score.b},
        }
        for line in match.outcome.lines
    ]
    out["scoring"] = match.rules.scoring.value
    out["match_length"] = match.rules.match_length
    out["winner_required"] = match.rules.winner_required
    return out


def standings(session: Session) -> list[dict[str, object]]:
    """`/api/standings`: exactly what `tandem-director standings --json` prints."""
    return standings_service.standings_json(standings_service.standings(session))


def tie_breaks(order: Sequence[TieBreak], entrant: str = "team") -> list[dict[str, str]]:
    """The tie-breaks in the event's order: each one's key in the standings rows (snake_case,
    as `standings --json` writes it), its name in the rule book's words and its definition
    (in the words of the event's entrants)."""
    said = tie_break_definitions(entrant)
    return [
        {
            "key": standings_service.tie_break_key(tb),
            "name": tb.value,
            "definition": said[tb],
        }
        for tb in order
    ]


def standings_page(session: Session) -> dict[str, Any]:
    """The standings page: the rows, the tie-breaks in order and their definitions."""
    view = standings_service.standings(session)
    entrant = entrant_format(session).entrant
    # `standings --json`'s rows, each with its place as the desk and the paper show it ("2=")
    rows = [
        {**row, "place": line.row.place}
        for row, line in zip(standings_service.standings_json(view), view.lines, strict=True)
    ]
    return {
        "rows": rows,
        "tie_breaks": tie_breaks(view.tie_breaks, entrant),
        "definitions": view.definitions,
        "through_round": view.through_round,
        "heading": view.heading,  # what the numbers are: "during round 3 (4 of 8 matches decided)"
        "entrant": entrant,  # "team" or "player": the name column's head
    }


def crosstable(session: Session) -> dict[str, Any]:
    """`/api/crosstable`: every team's result against each opponent, round by round."""
    view = standings_service.standings(session)
    cells = standings_service.event_crosstable(session)
    teams = team_map(session)
    rounds = sorted({r for team in cells.values() for r in team})
    rank = {line.team.id: line.row.rank for line in view.lines}
    rows = []
    for line in view.lines:
        team_cells = cells.get(line.team.id, {})
        rows.append(
            {
                "rank": line.row.rank,
                "team": line.team.name,
                "match_points": line.row.match_points,
                "rounds": {
                    str(r): {
                        "opponent": teams[c.opponent].name if c.opponent is not None else None,
                        "opponent_rank": rank.get(c.opponent) if c.opponent is not None else None,
                        "result": c.result,
                        "for": c.points_for,
                        "against": c.points_against,
                    }
                    for r, c in sorted(team_cells.items())
                },
            }
        )
    record = entrant_format(session)
    return {
        "rounds": rounds,
        "rows": rows,
        "entrant": record.entrant,
        "legend": result_legend(record.draws),  # the results' letters: no D without draws
    }


def met(gammon_rate: float = 0.28, backgammon_rate: float = 0.0, size: int = 6) -> dict[str, Any]:
    """`/api/met`: the Tandem match equity table (RULES §9), as `met --json` plus its model."""
    params = MetParameters(gammon_rate, backgammon_rate, size)
    return {
        "size": params.size,
        "gammon_rate": params.gammon_rate,
        "backgammon_rate": params.backgammon_rate,
        "table": match_equity_table(params),
        "model": params.model_text(),
    }


def _rule_lines(options: EventOptions) -> list[str]:
    m, tc = options.match, options.time_control
    if not m.event_format.pair_end_rules:  # one board, game after game (RULES §10)
        return _one_board_rule_lines(options)
    lines = [
        f"Matches are played to {counted(m.match_length, 'point')}, two boards per team; "
        "every point won on either board counts for the team.",
        f"Scoring: {m.scoring.variant.label}.",
    ]
    if m.winner_required:
        lines.append(
            "Winner required (rule 4′): the match ends as soon as a finished game brings a team "
            "to the match length; the other game of that pair is abandoned. No draws."
        )
    else:
        lines.append(
            "After each pair of games: if exactly one team has reached the match length it "
            "wins; if both reached it in the same pair, the match is a draw. The second game of "
            "a pair is always played out. Knockout rounds always need a winner."
        )
    if m.scoring.variant.has_cube:
        near = "2-away or 1-away" if m.one_cube_threshold == 2 else "1-away"
        lines.append(
            f"One-cube pairs: when a pair starts with a team {near}, only one of its two games "
            "may use the cube — the first board to double; on the other the cube is dead."
        )
        if m.no_cube_at_one_away:
            lines.append("In a pair that starts with a team 1-away, neither board may double.")
    else:
        lines.append(m.scoring.variant.summary)
    if m.scoring.variant.has_levels:  # rule 5 with the variant's stake (RULES §5, §6.4)
        stake = m.scoring.variant.stake
        lines.append(
            f"A game that runs out of time is lost: the opponent scores 3 × {stake} when the "
            f"flagged player has borne off no checker, 1 × {stake} otherwise."
            + (
                " When both players agree, the director may score a gammon or a single instead "
                "(rule 5′)."
                if agreed_level_offered(m, End.TIME)
                else ""
            )
        )
    lines.append(f"Clock: {tc.base_seconds} s per player per game + {tc.increment_seconds} s, "
                 f"{tc.mode.label}.")  # fmt: skip
    # "Match points: win 2, draw 1, …"
    lines.append(match_points_definition(options.match_points, m.event_format.draws))
    lines.append(
        "Ties in the standings are broken in this order: "
        + ", ".join(tb.value for tb in options.tie_breaks)
        + "."
    )
    return lines


def rules(session: Session) -> dict[str, Any]:
    """`/api/rules`: the event's rules in plain words, and each tie-break's definition."""
    event = get_event(session)
    record = event.options.match.event_format
    return {
        "event": event.name,
        "venue": event.venue,
        "date": event.event_date,
        "lines": _rule_lines(event.options),
        "tie_breaks": tie_breaks(event.options.tie_breaks, record.entrant),
        "entrant": record.entrant,  # who enters: "team" or "player"
        "met": record.met,  # whether RULES §9's match equity table (of pairs) fits its matches
    }


def _one_board_rule_lines(options: EventOptions) -> list[str]:
    """The rules of a format whose match is one board, game after game, with one reserve per
    player for the match (RULES §10): no teams, pairs, draws, one-cube rule or rule 5."""
    m, n = options.match, options.match.match_length
    lines = [
        f"Matches are played to {counted(n, 'point')}, player against player, one game at a "
        f"time; the match ends the moment a game brings a player to {n}; no draws.",
        f"Scoring: {m.scoring.variant.label}.",
    ]
    if not m.scoring.variant.has_cube:
        lines.append(m.scoring.variant.summary)
    elif n == 1:
        lines.append("A match to 1 point has no doubling.")
    elif m.event_format.cube_rule is CubeRule.CRAWFORD:
        lines.append(
            f"Crawford rule: nobody doubles in the game after a player first reaches {n - 1} "
            "(the Crawford game); post-Crawford games double as usual."
        )
    lines.append(
        f"Clock: {clock_text(options.time_control, m)}, paused between games and never reset "
        "in the match; a flag loses the match."
    )
    lines.append(match_points_definition(options.match_points, m.event_format.draws))
    lines.append(
        "Ties in the standings are broken in this order: "
        + ", ".join(tb.value for tb in options.tie_breaks)
        + "."
    )
    return lines


# the channels the change watcher refreshes, and what each one carries


def brackets(session: Session) -> dict[str, Any]:
    """`/api/brackets`: a knockout's brackets (RULES §11) as the draw sheets show them, and each
    entrant's next match and where a loss sends them; empty lists outside a knockout."""
    from director.domain.brackets.draw import Status
    from director.domain.brackets.next_match import next_match
    from director.services.bracket_pairing import draw_state

    event = get_event(session)
    out: dict[str, Any] = {"event": event.name, "knockout": False, "brackets": [], "entrants": []}
    if event.options.pairing_system is not PairingSystem.KNOCKOUT:
        return out
    out["knockout"] = True
    try:
        state = draw_state(session)
    except UserError as why:  # too few entrants yet, or an older knockout paired by rounds
        out["note"] = str(why)
        return out
    draw, progress = state.draw, state.progress
    name = {t.id: t.name for t in state.teams.values()}

    def entry(p: int | None) -> dict[str, Any] | None:
        return None if p is None else {"id": p, "name": name[p]}

    for bracket in state.plan.brackets:
        if bracket.name not in draw.rounds:
            continue
        rounds_out = []
        for r in range(1, draw.rounds[bracket.name] + 1):
            matches_out = []
            for i in draw.round_nodes(bracket.name, r):
                status, players = progress.of_index(i)
                key = draw.nodes[i].key
                stored = state.stored.get(key)
                score = None  # from the stored scoreline, as the Rounds page and the sheets
                if stored is not None and stored.team_b is not None and status is Status.DONE:
                    by_id = {stored.team_a: stored.final[0], stored.team_b: stored.final[1]}
                    score = [by_id.get(p) if p is not None else None for p in players]
                matches_out.append({
                    "number": key.number,
                    "status": status.value,
                    "players": [entry(p) for p in players],
                    "bye": status is Status.BYE,
                    "winner": progress.winner[i],
                    "forfeit": bool(stored and stored.forfeit),
                    "score": score,
                    "table": stored.table if stored is not None and stored.team_b else None,
                })  # fmt: skip
            rounds_out.append({"round": r, "title": draw.round_title(bracket.name, r),
                               "length": bracket.length(r), "matches": matches_out})  # fmt: skip
        places = progress.places(bracket.name)
        out["brackets"].append({
            "name": bracket.name,
            "rounds": rounds_out,
            "places": {"winner": entry(places.winner if places.complete else None),
                       "runner_up": entry(places.runner_up),
                       "third": [entry(p) for p in places.third],
                       "fourth": entry(places.fourth)},
        })  # fmt: skip
    for team in sorted(state.teams.values(), key=lambda t: (t.seed, t.id)):
        if team.id not in draw.field:
            continue
        nm = next_match(progress, team.id)
        nxt: dict[str, Any] = {"match": None, "ready": False, "table": None, "opponent": None,
                               "if_lost": None, "if_lost_opponent": None}  # fmt: skip
        if nm.match is not None:
            _, players, _ = progress.of(nm.match)
            other = next((p for p in players if p is not None and p != team.id), None)
            stored = state.stored.get(nm.match)
            nxt = {
                "match": str(nm.match),
                "ready": nm.ready,
                "table": stored.table if stored is not None else None,
                "opponent": name[other] if other is not None else None,
                "if_lost": str(nm.if_lost) if nm.if_lost is not None else None,
                # who waits in that slot; None: not known yet, and maybe nobody (a bye)
                "if_lost_opponent": name.get(nm.if_lost_against or 0),
            }
        out["entrants"].append({"id": team.id, "name": team.name, "next": nxt})
    return out


CHANNEL_VIEWS = {
    "pairings": pairings,
    "brackets": brackets,
    "standings": standings_page,
    "crosstable": crosstable,
    "rules": rules,
}
