"""The club's PDFs: gather the register's values and lay them out (`reports/club.py`).

`CLUB_REPORTS` holds one record per document (its kind, title and builder); the CLI's
`club report` and the Club page read it. `club_report(session, kind, ...)` returns the bytes.
The register's services and reportlab load inside the builders: the CLI reads `CLUB_KINDS`
to build its parser.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from director.domain.errors import UserError
from director.domain.rules import Paper
from director.domain.wording import quoted

if TYPE_CHECKING:
    from reportlab.platypus import Flowable
    from sqlalchemy.orm import Session

    from director.reports.styles import Layout


@dataclass(frozen=True)
class _Ask:
    session: Session
    person: str | None
    season: str | None
    box: Layout


@dataclass(frozen=True)
class ClubReport:
    kind: str  # the word the CLI and the file names use
    title: str
    build: Callable[[_Ask], list[Flowable]]
    of_person: bool = False  # it needs --person
    of_season: bool = False  # it takes --season (default: the latest)


def _ratings(ask: _Ask) -> list[Flowable]:
    from director.domain.rating import recompute
    from director.reports.club import rating_list
    from director.services import club

    ranked = recompute(club.club_results(ask.session)).ranked()
    return rating_list(ranked, club.person_names(ask.session), ask.box)


def _season(ask: _Ask) -> list[Flowable]:
    from director.reports.club import season_standings
    from director.services import club

    season, rows = club.season_table(ask.session, ask.season)
    return season_standings(season, rows, club.person_names(ask.session), ask.box)


def _person(ask: _Ask) -> list[Flowable]:
    from director.reports.club import Card, person_card
    from director.services import club

    assert ask.person is not None
    view = club.person_view(ask.session, club.find_person(ask.session, ask.person))
    card = Card(
        view.id, view.name, view.club, view.country, view.aliases, view.standing, view.history,
        tuple((e.event_date, e.name, e.matches) for e in view.events), view.records,
        view.rivals, view.names,
    )  # fmt: skip
    return person_card(card, ask.box)


CLUB_REPORTS: tuple[ClubReport, ...] = (
    ClubReport("ratings", "Rating list", _ratings),
    ClubReport("season", "Season standings", _season, of_season=True),
    ClubReport("person", "Person's card", _person, of_person=True),
)
CLUB_KINDS = tuple(r.kind for r in CLUB_REPORTS)


def club_report(
    session: Session,
    kind: str,
    *,
    club_name: str,
    person: str | None = None,
    season: str | None = None,
    paper: Paper | str = Paper.A4,
    generated: datetime | None = None,
) -> bytes:
    """The PDF of one of the club's documents; `club_name` heads every page."""
    from director.reports import styles

    chosen = next((r for r in CLUB_REPORTS if r.kind == kind), None)
    if chosen is None:
        raise UserError(
            f"there is no club report {quoted(kind)}: choose one of {', '.join(CLUB_KINDS)}"
        )
    if chosen.of_person and not (person or "").strip():
        raise UserError(f"the {kind} report needs --person (a name, alias or #id)")
    if person is not None and not chosen.of_person:
        raise UserError(f"the {kind} report is not about one person: --person does not apply")
    if season is not None and not chosen.of_season:
        raise UserError(f"the {kind} report is not about a season: --season does not apply")
    sheet = Paper(paper)
    info = styles.ReportInfo(club_name, "", sheet, styles.generation_time(generated))
    story = chosen.build(_Ask(session, person, season, styles.layout(sheet)))
    return styles.build_pdf(info, chosen.title, story)
