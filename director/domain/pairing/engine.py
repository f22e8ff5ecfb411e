"""One entry point for the service layer: pair a round with the event's system."""

from __future__ import annotations

from collections.abc import Sequence

from director.domain.pairing.knockout import knockout_rounds, pair_knockout
from director.domain.pairing.model import MatchResult, PairingOptions, RoundPairing, TeamEntry
from director.domain.pairing.round_robin import pair_round_robin, round_robin_rounds
from director.domain.pairing.swiss import pair_swiss
from director.domain.rules import PairingSystem


def pair_round(
    teams: Sequence[TeamEntry],
    results: Sequence[MatchResult],
    options: PairingOptions,
    round_no: int,
) -> RoundPairing:
    """The pairings of ``round_no``; ``results`` are those of the earlier rounds."""
    if options.system is PairingSystem.SWISS:
        return pair_swiss(teams, results, options, round_no)
    if options.system is PairingSystem.ROUND_ROBIN:
        return pair_round_robin(teams, round_no, options.double_round_robin)
    return pair_knockout(teams, results, round_no, options.consolation)


def planned_rounds(teams: Sequence[TeamEntry], options: PairingOptions) -> int:
    """How many rounds the event has; 0 for a Swiss played until one team is clear."""
    if options.system is PairingSystem.SWISS:
        return options.rounds
    if options.system is PairingSystem.ROUND_ROBIN:
        n = sum(1 for t in teams if t.takes_part)
        return round_robin_rounds(n, options.double_round_robin)
    return knockout_rounds(sum(1 for t in teams if t.active_in(1)), options.consolation)
