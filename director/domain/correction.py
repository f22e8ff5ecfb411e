"""Correcting a recorded game, and the later games a correction voids (RULES §3).

A correction can end the match sooner: a game corrected from a single to a gammon may bring a
team to N one pair earlier. The games recorded after that moment could not have been played
(the match was over), so the one correct step is to void them together with the correction.
`correct` says which games those are; the desk shows them before anything is written and the
service removes them in the same audited change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from director.domain.cube import LiveCubes
from director.domain.match import MatchOutcome, score_match
from director.domain.rules import MatchRules, Side
from director.domain.scoring import Game


@dataclass(frozen=True)
class Correction:
    games: tuple[Game, ...]  # the match's games once corrected, the voided ones left out
    voided: tuple[int, ...]  # positions (in the recorded order) of the games it voids
    outcome: MatchOutcome  # the match scored with `games`
    void_games: tuple[Game, ...] = ()  # the voided games themselves

    @property
    def problems(self) -> list[str]:
        return [str(p) for p in self.outcome.problems]

    def voided_text(self, names: tuple[str, str] = ("A", "B")) -> str:
        """'pair 3, board 1 (won by Blue Bar, bear-off); …' for the director to check."""
        return "; ".join(
            f"{g.where} (won by {names[0] if g.winner is Side.A else names[1]}, {g.end.value})"
            for g in self.void_games
        )


def correct(
    rules: MatchRules,
    games: Sequence[Game],
    index: int,
    corrected: Game,
    names: tuple[str, str] = ("A", "B"),
    live: Mapping[int, LiveCubes] | None = None,
    lost_on_time: Side | None = None,
) -> Correction:
    """The match with game `index` replaced by `corrected`.

    When the corrected match is decided before its last recorded game, every game after the
    decision is voided (a rule 4′ abandoned game of the deciding pair is kept: it belongs to
    the record). Any other rule a game breaks stays a problem of the outcome: voiding is only
    for games that came after the end of the match. A match lost on time (RULES §10) stays so
    after its games; a correction that decides it before the flag is a problem (undo the flag
    first)."""
    replaced = (*games[:index], corrected, *games[index + 1 :])
    keep = len(replaced)
    for k in range(index + 1, len(replaced)):
        state = score_match(rules, replaced[:k], names).pair_state
        if not state.match_live and not state.abandons(replaced[k]):
            keep = k
            break
    kept = replaced[:keep]
    outcome = score_match(rules, kept, names, live, lost_on_time=lost_on_time)
    return Correction(kept, tuple(range(keep, len(replaced))), outcome, replaced[keep:])
