"""The in-app help: every page loads, every option is explained, links between pages work."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QKeySequence
from pytestqt.qtbot import QtBot

from director.domain.rules import TIME_CONTROL_PRESETS, MatchRules, Scoring, TieBreak
from director.reports.scoresheet import forfeit_text
from director.ui.clock.keys import ACTIONS
from director.ui.desk.match_desk import CORRECT_KEY, NEXT_TABLE_KEYS, RECORD_KEYS, UNDO_KEY
from director.ui.help import TOPICS, HelpWindow, help_text
from director.ui.option_form import CUSTOM
from director.ui.option_texts import EXPLANATIONS
from director.ui.option_widgets import tie_break_name
from tests.ui.app_helpers import OFFSCREEN_NOISE

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


@pytest.mark.parametrize("key", [key for key, _title, _file in TOPICS])
def test_every_topic_is_shown_as_formatted_text(qtbot: QtBot, key: str) -> None:
    window = HelpWindow()
    qtbot.addWidget(window)
    window.show_topic(key)
    assert window.topic == key
    shown = window.browser.toPlainText()
    first_heading = re.search(r"^# (.+)$", help_text(key), re.MULTILINE)
    assert first_heading is not None
    assert shown.startswith(first_heading.group(1))
    assert "**" not in shown and "](" not in shown  # Markdown was rendered, not shown raw


def test_the_options_page_explains_every_option_and_choice() -> None:
    text = " ".join(help_text("options").split())  # a name may wrap across lines
    for label, _explanation, _default in EXPLANATIONS.values():
        assert f"**{label}**" in text, label
    for scoring in Scoring:
        assert scoring.variant.label in text
    for tie_break in TieBreak:
        assert tie_break_name(tie_break).lower() in text.lower()
    assert f"*{CUSTOM}*" in text
    assert next(iter(TIME_CONTROL_PRESETS)) in text  # the default preset, by its name


def test_the_rules_page_names_the_rule_book_terms() -> None:
    text = " ".join(help_text("rules").lower().split())
    for term in (
        "one-cube pair",
        "cube board",
        "rule 4′",
        "rule 5′",
        "pip squeeze",
        "pin game",
        "chasing the girls",
        "buchholz",
        "fischer",
        "bronstein",
        "simple delay",
    ):
        assert term in text, term


def test_the_rules_page_gives_pin_games_time_forfeit_as_the_scoresheet_does() -> None:
    """RULES §6.4: 3 × or 1 × the pip count by the checkers borne off, and rule 5′ lowers it."""
    text = " ".join(help_text("rules").split())
    pin = text.split("**6.4 Pin game:**")[1].split("- **6.5")[0]
    sheet = forfeit_text(MatchRules(150, Scoring.PIN_GAME, agreed_lower_forfeit=False))
    rule = sheet.split(": ", 1)[1].rstrip(".")  # "3 × pip count when … otherwise 1 × pip count"
    assert rule in pin
    assert "rule 5′, where the event has it, lowers the 3 × to 2 × or 1 ×" in pin


def test_a_link_to_another_help_page_opens_it(qtbot: QtBot) -> None:
    window = HelpWindow()
    qtbot.addWidget(window)
    window.show_topic("start")
    window.browser.anchorClicked.emit(QUrl("options.md"))
    assert window.topic == "options"
    assert window.browser.toPlainText().startswith("The event options")


def test_the_keys_page_lists_the_keys_of_every_page_and_the_clock() -> None:
    keys = help_text("keys")
    for key in (*RECORD_KEYS, UNDO_KEY, CORRECT_KEY, *NEXT_TABLE_KEYS, "Ctrl+Shift+P"):
        assert f"| {key} |" in keys, key
    for action in ACTIONS:
        name = QKeySequence(action.default).toString()
        shown = {"Return": "Enter"}.get(name, name)
        assert f"| {shown} |" in keys, action.name


def test_the_help_describes_brackets_as_the_app_names_them(qtbot: QtBot) -> None:
    """#29 (RULES §11): the rules page explains the bracket plans by their names, pairing the
    ready matches with the button's words, the draw sheets by the report's title and a match
    length for each bracket round; the options page names the plan's place in the dialog."""
    from director.domain.brackets.plan import PLANS
    from director.services.reports import report
    from director.ui.rounds_page import RoundsPage

    rules = " ".join(help_text("rules").split())
    assert "## 11. Knockout brackets" in help_text("rules")  # numbered as the rule book
    for plan in PLANS:
        assert f"*{plan.name}*" in rules, plan.name
    assert report("bracket").title in rules
    assert RoundsPage.PAIR_READY in rules
    for words in ("match length for each bracket round", "Save as template", "as soon as both"):
        assert words in rules, words
    options = " ".join(help_text("options").split())
    assert "**Bracket plan**" in options


def test_the_help_describes_both_formats() -> None:
    """#28: the rules page explained Tandem alone (its §10 was the knockout, the rule book's
    §11); an individual event's rules were only in Getting started and the clock page. The
    rules page gives §10 under the rule book's number, with the Crawford rule's worked example
    and the match reserve; Getting started and the options name both formats."""
    rules = help_text("rules")
    assert "## 1. Teams, matches and pairs" in rules
    assert "## 10. Individual events" in rules
    text = " ".join(rules.split())
    for words in (
        "Crawford game",
        "post-Crawford",
        "4–2",
        "4–3",
        "double match point",
        "reserve",
        "loses the match",
        "no draws",
        "player[,club][,rating][,seed]",
    ):
        assert words in text, words
    start = " ".join(help_text("start").split())
    assert "## An individual night" in help_text("start") and "Tandem" in start
    options = " ".join(help_text("options").split())
    assert "*Tandem*" in options and "*Individual*" in options
