"""What the director asked to print: a report kind, its round or match, and the paper."""

from __future__ import annotations

from dataclasses import dataclass, replace

from director.domain.met import MetParameters
from director.domain.rules import Paper
from director.services.reports import report, suggested_file_name, title_of

PAPER_NAMES = {Paper.A4: "A4", Paper.LETTER: "Letter", Paper.A3: "A3"}


def needs_round(kind: str) -> bool:
    return report(kind).of_round


def needs_match(kind: str) -> bool:
    return report(kind).of_match


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
            after = "after " if report(self.kind).after_round else ""
            return f"{title} – {after}round {self.round}"
        return title

    @property
    def file_name(self) -> str:
        return suggested_file_name(self.kind, self.round, self.match)

    def on_paper(self, paper: Paper) -> ReportRequest:
        return replace(self, paper=paper)
