"""The players' pages with a right-to-left team (#24): a name set inside other words is its
own bidi paragraph, so the words and numbers after it stay after it, in a real browser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from director.services import rounds
from director.services.teams import add_team
from director.store.engine import EventDatabase, open_database
from tests.web.browser import Served, phone, wait_for

ARABIC = "فريق القاهرة"

# the left edge of each character of `word` and of `after` inside the element's text
EDGES = """
const [css, word, after] = arguments;
const node = document.querySelector(css);
if (!node) return null;
const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
const edges = (needle) => {
  for (let t = walker.currentNode; t; t = walker.nextNode()) {
    const at = t.nodeType === 3 ? t.data.indexOf(needle) : -1;
    if (at < 0) continue;
    const out = [];
    for (let i = at; i < at + needle.length; i++) {
      const range = document.createRange();
      range.setStart(t, i); range.setEnd(t, i + 1);
      out.push(range.getBoundingClientRect().left);
    }
    return out;
  }
  return null;
};
const name = edges(word);
walker.currentNode = node;
return [name, edges(after)];
"""


@pytest.fixture
def desk(event_path: Path) -> Iterator[EventDatabase]:
    db = open_database(str(event_path))
    yield db
    db.close()


def test_words_after_a_right_to_left_name_stay_after_it(
    desk: EventDatabase, event_path: Path
) -> None:
    """The pairings card read "3 فريق القاهرة-away": the away number after an Arabic name ran
    into its right-to-left run. Each name is isolated (FSI … PDI) in the words around it."""
    with desk.Session() as s, s.begin():
        add_team(s, ARABIC, ("محمد علي", "أحمد حسن"))
        add_team(s, "Blue", ("Ann", "Bob"))
        match_id = next(m.id for m in rounds.pair_next_round(s).value.matches if m.team_b)
    served = Served(event_path)
    try:
        url = served.start()
        with phone() as driver:
            driver.get(url)
            card = f'article[data-match="{match_id}"]'
            wait_for(driver, lambda d: d.find_elements("css selector", f"{card} .away"))
            team = next(
                f"{card} .side:nth-of-type({n}) .team"
                for n in (2, 3)
                if ARABIC
                in driver.execute_script(
                    "return document.querySelector(arguments[0]).textContent",
                    f"{card} .side:nth-of-type({n}) .team",
                )
            )
            away = driver.execute_script(
                "return document.querySelector(arguments[0]).textContent.trim()", f"{team} .away"
            )
            name, number = driver.execute_script(EDGES, team, ARABIC, away[0])
            assert max(name) < min(number), (name, number, away)
            words = ARABIC.split()
            first, second = (driver.execute_script(EDGES, team, w, w)[0] for w in words)
            assert min(first) > max(second)  # the name itself reads right to left
    finally:
        served.stop()
