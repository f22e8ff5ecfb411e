"""Headless Chromium for the phone-clock tests: Debian's chromium and chromedriver via Selenium
(no browser download), and the page's static files read from the package."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from director.resources import resource_path

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
HERE = Path(__file__).parent


def static_text(name: str) -> str:
    return resource_path("web", name).read_text(encoding="utf-8")


def new_driver(
    width: int = 390, height: int = 844, extra: tuple[str, ...] = ()
) -> webdriver.Chrome:
    """A phone-sized headless Chromium (390 × 844 CSS px, an ordinary phone)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-extensions",
        f"--window-size={width},{height}",
        *extra,
    ):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture(scope="module")
def engine_page() -> Iterator[webdriver.Chrome]:
    """A blank page with the clock engine and the test harness loaded."""
    driver = new_driver()
    try:
        driver.get("about:blank")
        driver.execute_script(static_text("clock_engine.js"))
        driver.execute_script((HERE / "clock_harness.js").read_text(encoding="utf-8"))
        yield driver
    finally:
        driver.quit()


def phone(driver: webdriver.Chrome, width: int = 390, height: int = 844) -> webdriver.Chrome:
    """Make the page a touch phone: its size, a touch screen, touch events from CDP."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True},
    )
    driver.execute_cdp_cmd(
        "Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5}
    )
    return driver


def centre(driver: webdriver.Chrome, element_id: str) -> tuple[float, float]:
    box = driver.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2];",
        element_id,
    )
    return float(box[0]), float(box[1])


def touch_down(driver: webdriver.Chrome, element_id: str, finger: int = 1) -> None:
    x, y = centre(driver, element_id)
    driver.execute_cdp_cmd(
        "Input.dispatchTouchEvent",
        {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": finger}]},
    )


def touch_up(driver: webdriver.Chrome) -> None:
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def tap(driver: webdriver.Chrome, element_id: str) -> None:
    touch_down(driver, element_id)
    touch_up(driver)
