"""What the director asked to print: a report kind, its round or match, and the paper."""

from __future__ import annotations

from dataclasses import dataclass, replace

from director.domain.met import MetParameters
from director.domain.rules import Paper
from director.services.reports import (
    MATCH_KINDS,
    ROUND_KINDS,
    suggested_file_name,
    title_of,
)

# standings and crosstable are "after round R"; the other round reports are "of round R"
AFTER_ROUND_KINDS = ("standings", "crosstable")
# a report of one round's matches cannot be made before a round is paired
NEEDS_A_PAIRED_ROUND = ("scoresheet", "match-report", "pairings", "results")
PAPER_NAMES = {Paper.A4: "A4", Paper.LETTER: "Letter"}


def needs_round(kind: str) -> bool:
    return kind in ROUND_KINDS


def needs_match(kind: str) -> bool:
    return kind in MATCH_KINDS


@dataclass(frozen=True)
class ReportRequest:
    """One report to render: `round`/`match` None mean the whole event or the latest round
    (as `services.reports.render` reads them); `paper` None means the event's paper."""

    kind: str
    round: int | None = None
    match: int | None = None
    paper: Paper | None = None
    match_label: str = ""  # "table 2: Alpha v Beta", for the title when one match is asked
    met: MetParameters | None = None  # the MET handout's model (default RULES §9's)
    slip_address: str = ""  # scoresheets: the table service's address, for the slip QR codes

    @property
    def title(self) -> str:
        title = title_of(self.kind)
        if self.match is not None:
            return f"{title} – {self.match_label or f'match {self.match}'}"
        if self.round is not None:
            after = "after " if self.kind in AFTER_ROUND_KINDS else ""
            return f"{title} – {after}round {self.round}"
        return title

    @property
    def file_name(self) -> str:
        return suggested_file_name(self.kind, self.round, self.match)

    def on_paper(self, paper: Paper) -> ReportRequest:
        return replace(self, paper=paper)
