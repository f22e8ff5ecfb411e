"""The team scoreline of a match: scores, away scores, the Tandem MET equity, the result."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from director.domain.event import MatchInfo
from director.domain.met import (
    MetError,
    MetParameters,
    equity_at,
    equity_with_one_game_left,
)
from director.domain.rules import CubeRule, Side
from director.domain.wording import isolated
from director.ui.desk.words import result_text
from director.ui.elided import ElidedLabel, short_names
from director.ui.plain import esc, plain_label, rich_label, tooltip

MET_PARAMETERS = MetParameters()


@lru_cache(maxsize=4096)
def team_a_equity(need_a: int, need_b: int) -> float:
    """The MET entry of this score (the table is rebuilt per size, so remember each answer)."""
    return equity_at(MET_PARAMETERS, need_a, need_b)


@lru_cache(maxsize=4096)
def team_a_equity_in_pair(need_a: int, need_b: int, cube: int) -> float:
    """The chance in the middle of a pair, one game left on `cube` (RULES §9's model)."""
    return equity_with_one_game_left(MET_PARAMETERS, need_a, need_b, cube)


def needs(match: MatchInfo) -> tuple[int, int]:
    """Points each team still needs; at least 1 while the match is unfinished."""
    n = match.rules.match_length
    return (
        max(1, n - match.outcome.score[Side.A]),
        max(1, n - match.outcome.score[Side.B]),
    )


def away_text(match: MatchInfo, side: Side) -> str:
    """'3-away', or 'reached 5' for a team with N points: there is no '0-away'."""
    away = match.outcome.away(side)
    if away == 0:
        return f"reached {match.rules.match_length}"
    return f"{away}-away"


def crawford_text(match: MatchInfo) -> str:
    """Where a one-board match stands under the Crawford rule (RULES §10), for the scoreline."""
    rule = match.outcome.cube_rule
    n = match.rules.match_length
    if rule.crawford:
        return "<b>Crawford game</b>: neither player may double"
    if rule.post_crawford and match.rules.scoring.variant.has_cube:
        return "<b>post-Crawford</b>: either player may double"
    if not match.rules.scoring.variant.has_cube or n < 2:
        return esc(rule.reason)
    return f"Crawford rule: no doubling in the game after a player first reaches {n - 1}"


class Scoreline(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name_a = ElidedLabel()  # a long name is shortened, never widens the window
        self.name_b = ElidedLabel()
        self.score = QLabel()
        self.score.setObjectName("score")
        self.away_a = QLabel()
        self.away_b = QLabel()
        self.equity = rich_label()
        self.equity.setObjectName("equity")
        self.equity.setWordWrap(True)
        self.result = plain_label()
        self.result.setObjectName("result")
        self.result.setWordWrap(True)
        for label in (self.name_a, self.name_b):
            label.setStyleSheet("font-size: 15pt; font-weight: bold;")
        # beside the score whatever the name's script: Qt mirrors a plain AlignRight for a
        # right-to-left name, which put it at the far edge
        beside = Qt.AlignmentFlag.AlignAbsolute | Qt.AlignmentFlag.AlignVCenter
        self.name_a.setAlignment(beside | Qt.AlignmentFlag.AlignRight)
        self.name_b.setAlignment(beside | Qt.AlignmentFlag.AlignLeft)
        self.away_a.setAlignment(Qt.AlignmentFlag.AlignAbsolute | Qt.AlignmentFlag.AlignRight)
        self.score.setStyleSheet("font-size: 26pt; font-weight: bold; padding: 0 14px;")
        self.score.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.result.setStyleSheet("font-size: 13pt; font-weight: bold; color: #1e6b34;")
        self.equity.setToolTip(MET_PARAMETERS.model_text())
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(2)
        grid.addWidget(self.name_a, 0, 0)
        grid.addWidget(self.score, 0, 1, 2, 1)
        grid.addWidget(self.name_b, 0, 2)
        grid.addWidget(self.away_a, 1, 0)
        grid.addWidget(self.away_b, 1, 2)
        grid.addWidget(self.equity, 0, 3, 2, 1)
        grid.addWidget(self.result, 2, 0, 1, 4)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(2, 1)
        grid.setColumnStretch(3, 1)

    def show_match(self, match: MatchInfo | None) -> None:
        if match is None:
            for label in (self.name_a, self.name_b, self.score, self.away_a, self.away_b):
                label.clear()
            self.equity.clear()
            self.result.clear()
            return
        outcome = match.outcome
        self.name_a.setText(match.names[0])
        self.name_b.setText(match.names[1])
        final = outcome.final  # game points in play; the adjusted totals once over (§6.3)
        self.score.setText(f"{final.a} – {final.b}")
        length = match.rules.match_length
        self.away_a.setText(f"{away_text(match, Side.A)} (match to {length})")
        self.away_b.setText(away_text(match, Side.B))
        self.equity.setText(self.equity_text(match, short_names(self.equity, match.names)))
        self.result.setText(self.result_line(match, short_names(self.result, match.names)))
        self.result.setToolTip(tooltip(self.result_line(match, match.names)))

    @staticmethod
    def equity_text(match: MatchInfo, names: tuple[str, ...]) -> str:
        """The MET line; `names`: the teams' names as shown (a long one shortened)."""
        if match.outcome.finished or match.is_bye or match.forfeit_by is not None:
            return ""
        if match.rules.event_format.cube_rule is CubeRule.CRAWFORD:
            return crawford_text(match)  # the Tandem MET models pairs, not a one-board match
        if not match.rules.scoring.variant.has_cube:
            # RULES §9's model plays every pair on a 1-cube and a 2-cube.
            return f"No Tandem MET for {match.rules.scoring.variant.label}: its model needs a cube"
        left = match.pair_state.game_left()
        try:
            if left is None:  # a pair's start: the table's entry
                need_a, need_b = needs(match)
                a = team_a_equity(need_a, need_b)
                head = f"Tandem MET at {need_a}-away v {need_b}-away"
            else:  # mid-pair: a team may have reached N and not won yet (rule 4)
                board, cube = left
                length, score = match.rules.match_length, match.outcome.score
                a = team_a_equity_in_pair(length - score.a, length - score.b, cube)
                aways = " v ".join(away_text(match, side) for side in Side)
                head = f"Tandem MET with board {board} to play on a {cube}-cube, {aways}"
        except MetError as refusal:
            return f"No Tandem MET here: {refusal}"
        # each name its own bidi paragraph: "57.3%" stays after an Arabic name
        name_a, name_b = (esc(isolated(name)) for name in names)
        return f"{head}:<br><b>{name_a} {a:.1%}</b> · {name_b} {1 - a:.1%}"

    @staticmethod
    def result_line(match: MatchInfo, names: tuple[str, ...]) -> str:
        """The result in words; `names`: the teams' names as shown."""
        if match.is_bye:
            return f"{isolated(names[0])} has a bye"
        if match.forfeit_by is not None:
            loser = names[0] if match.forfeit_by is Side.A else names[1]
            return f"Won by forfeit: {isolated(loser)} did not play"
        if not match.outcome.finished:
            return ""
        paper = " (typed from the paper scoresheet: no games)" if match.outcome.from_paper else ""
        return f"Result: {result_text(match.outcome, (names[0], names[1]))}{paper}"
