"""The phone's clock engine (director/web/static/clock_engine.js, run in headless Chromium)
equals the domain's engine (director/domain/clock.py) on the same random press logs (RULES §7).

Each example is a batch of random sessions, run through the domain in Python and through the
page's port in one `execute_script` call; every step's read-out (both boards, to the
nanosecond, the delay left and the face's text), the logged events, the final state, the
replay of either log and of a damaged log (refused with the same words) must be equal. Modes
Fischer, Bronstein and simple delay; pauses inside a delay; adjustments; flags (noticed at
once or late); the next pair's reset; a reopened page with a new monotonic origin.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from selenium import webdriver

from director.domain.clock import NS_PER_SECOND, format_remaining
from tests.web.clock_browser import engine_page
from tests.web.clock_sessions import individual_sessions, one_board, run_python, sessions

__all__ = ["engine_page"]

BATCH = 25


def run_page(driver: webdriver.Chrome, batch: list[dict[str, object]]) -> list[object]:
    answer = driver.execute_script("return runClockSessions(arguments[0]);", batch)
    return list(json.loads(answer))


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(sessions(), min_size=BATCH, max_size=BATCH))
def test_rules_7_page_engine_equals_domain_engine(
    engine_page: webdriver.Chrome, batch: list[dict[str, object]]
) -> None:
    expected = [run_python(s) for s in batch]  # also adds the logs the page replays
    got = run_page(engine_page, batch)
    for session, want, have in zip(batch, expected, got, strict=True):
        assert have == want, json.dumps(session)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(st.tuples(sessions(), st.sampled_from((1, 2))), min_size=BATCH, max_size=BATCH))
def test_rules_7_a_phones_one_board_clock_logs_what_the_domain_logs_for_that_board(
    engine_page: webdriver.Chrome, batch: list[tuple[dict[str, Any], int]]
) -> None:
    """A phone times one board: its clock's log and state equal the domain's for that board
    (the other board left alone), reloads and all."""
    phones = [one_board(s, n) for s, n in batch]
    expected = [run_python(s) for s in phones]
    got = run_page(engine_page, phones)
    for session, want, have in zip(phones, expected, got, strict=True):
        assert have == want, json.dumps(session)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(individual_sessions(), min_size=BATCH, max_size=BATCH))
def test_rules_10_an_individual_matchs_phone_clock_logs_what_the_domain_logs(
    engine_page: webdriver.Chrome, batch: list[dict[str, Any]]
) -> None:
    """An individual match's phone clock (RULES §10): board 1 alone on the match reserve with
    a simple delay, each recorded game pausing it and a tap starting the next game (`startGame`:
    a first mover and a resume, with no increment or refund for a move not played), reloads
    and flags, under the simple delay and Fischer and Bronstein: its log and state equal the
    domain's."""
    expected = [run_python(s) for s in batch]
    got = run_page(engine_page, batch)
    for session, want, have in zip(batch, expected, got, strict=True):
        assert have == want, json.dumps(session)


def test_the_individual_sessions_reach_every_rule() -> None:
    """The individual generator is not vacuous: games end and start again with both reserves
    kept, a tap of the side on move and of the other side (in every mode: under Fischer the
    tap once cost an increment), flags in the delay mode."""
    seen: Counter[str] = Counter()

    @settings(max_examples=300, derandomize=True, database=None, deadline=None)
    @given(individual_sessions())
    def collect(s: dict[str, Any]) -> None:
        out = run_python(s)
        seen.update(e["kind"] for e in out["events"])
        for (_, op), (accepted, _read) in zip(s["steps"], out["steps"][1:], strict=True):
            if accepted is True:
                seen[op[0]] += 1
                seen[f"{op[0]} {s['tc']['mode']}"] += 1

    collect()
    wanted = ["next-game", "game-starts", "flag", "press", "resume", "reload", "restore"]
    wanted += [f"game-starts {mode}" for mode in ("fischer", "bronstein", "delay")]
    assert {w: seen[w] for w in wanted if seen[w] < 3} == {}
    assert seen["reset"] == seen["stop"] == 0  # a match clock is never reset (RULES §10)


def test_the_sessions_reach_every_rule() -> None:
    """The generator is not vacuous: a fixed sample flags in every mode, pauses inside a simple
    delay, adjusts, reopens the page (from logs out of time order across boards too) and
    damages logs that the replay refuses."""
    seen: Counter[str] = Counter()

    @settings(max_examples=500, derandomize=True, database=None, deadline=None)
    @given(sessions())
    def collect(s: dict[str, Any]) -> None:
        out = run_python(s)
        mode = s["tc"]["mode"]
        seen.update(f"flag {mode}" for e in out["events"] if e["kind"] == "flag")
        seen.update(f"press {mode}" for e in out["events"] if e["kind"] == "press")
        for (_, op), (accepted, read) in zip(s["steps"], out["steps"][1:], strict=True):
            if accepted is True:
                seen[op[0]] += 1
            if op[0] == "pause" and accepted and mode == "delay":
                seen.update(
                    "pause in a delay"
                    for r in read
                    if isinstance(r, dict) and r["board"]["phase"] == "paused" and r["delay"] != "0"
                )
        seen["reload out of time order"] += s.get("reloads out of time order", 0)
        if str(out["replayed_tampered"]).startswith("error: "):
            seen["damaged log refused"] += 1

    collect()
    wanted = [
        f"{what} {mode}" for what in ("flag", "press") for mode in ("fischer", "bronstein", "delay")
    ]
    wanted += ["pause in a delay", "adjust", "resume", "reload", "next-pair", "damaged log refused"]
    wanted += ["game-starts"]
    wanted += ["reload out of time order"]
    # at least twice each: in one CI run a sample of 300 flagged under a simple delay only
    # twice (the generator had gained Fischer, Bronstein and game starts), so 500 are drawn
    assert {w: seen[w] for w in wanted if seen[w] < 2} == {}


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.integers(0, 3 * 3600 * NS_PER_SECOND) | st.integers(0, 21 * NS_PER_SECOND),
        min_size=50,
        max_size=50,
    )
)
def test_rules_7_faces_show_the_same_text(engine_page: webdriver.Chrome, values: list[int]) -> None:
    got = engine_page.execute_script(
        "return arguments[0].map((v) => ClockEngine.formatRemaining(BigInt(v)));",
        [str(v) for v in values],
    )
    assert got == [format_remaining(v) for v in values]
