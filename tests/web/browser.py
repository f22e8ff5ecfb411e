"""Headless Chromium from Debian, driven by Selenium, and the real `serve` command.

Selenium is given the browser and the driver explicitly (scripts/chromium.sh installs them):
it never downloads anything. Each `phone()` is its own browser with its own profile, so its
own storage: two phones at one table are two of them.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = os.environ.get("TANDEM_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("TANDEM_CHROMEDRIVER", "/usr/bin/chromedriver")
PHONE = (390, 844)  # CSS pixels of a common phone


@contextmanager
def phone(size: tuple[int, int] = PHONE, dark: bool = False) -> Iterator[webdriver.Chrome]:
    os.environ["SE_OFFLINE"] = "true"
    with tempfile.TemporaryDirectory(prefix="tandem-phone-") as profile:
        options = Options()
        options.binary_location = CHROMIUM
        for arg in (
            "--headless=new",
            "--no-sandbox",  # CI runs as root
            "--disable-dev-shm-usage",
            "--disable-gpu",
            "--no-first-run",
            f"--user-data-dir={profile}",
            f"--window-size={size[0]},{size[1]}",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ):
            options.add_argument(arg)
        if dark:
            options.add_argument("--force-dark-mode")
            options.add_argument("--blink-settings=preferredColorScheme=0")
        driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
        try:
            driver.set_window_size(*size)
            yield driver
        finally:
            driver.quit()


def wait_for(driver: webdriver.Chrome, check: Callable[[Any], Any], timeout: float = 10) -> Any:
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(check)


def text_of(driver: webdriver.Chrome, css: str) -> str:
    """The element's text read in one step (the pages redraw on every push)."""
    text = driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", css
    )
    return str(text)


class Served:
    """`tandem-director serve FILE` as a child process; `restart()` kills it and starts again."""

    def __init__(self, event: Path, port: int = 0) -> None:
        self.event = event
        self.port = port
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self) -> str:
        command = [sys.executable, "-m", "director.cli", "serve", str(self.event)]
        command += ["--host", "127.0.0.1", "--port", str(self.port)]
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline().strip()
        match = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/", first)
        assert match, f"serve printed {first!r}"
        self.port = int(match.group(1))  # a restart comes back on the same port
        self.url = first
        return first

    def kill(self) -> None:
        """As a crash or a pulled plug: no clean shutdown."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
            if self.proc.stdout:
                self.proc.stdout.close()
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            finally:
                if self.proc.poll() is None:
                    self.proc.kill()
                    self.proc.wait()
                if self.proc.stdout:
                    self.proc.stdout.close()
                self.proc = None


def click(driver: webdriver.Chrome, css: str, timeout: float = 10) -> None:
    """Click the element once it is there, in one step (the pages redraw on every push)."""
    wait_for(
        driver,
        lambda d: d.execute_script(
            "const e = document.querySelector(arguments[0]); if (e) e.click(); return !!e;", css
        ),
        timeout,
    )


HOLD_NEXT_ANSWER = """
// The next GET of the path arguments[0] goes to the server at once, but its answer reaches
// the page only on window.heldRelease(): an answer overtaken on the Wi-Fi by a newer one.
const path = arguments[0];
const real = window.fetch;
window.held = "waiting";
window.fetch = async (url, options) => {
  const method = (options && options.method) || "GET";
  const asked = new URL(url, location.href).pathname;
  if (window.held !== "waiting" || method !== "GET" || asked !== path) return real(url, options);
  window.held = "asked";
  const answer = await real(url, options);
  const body = await answer.text(); // read in full: the server's state when it was asked
  window.held = "answered";
  await new Promise((resolve) => { window.heldRelease = resolve; });
  window.held = "released";
  return new Response(body, { status: answer.status, headers: answer.headers });
};
"""


def hold_next_answer(driver: webdriver.Chrome, path: str) -> None:
    """Hold back the answer to the page's next GET of `path` (see HOLD_NEXT_ANSWER)."""
    driver.execute_script(HOLD_NEXT_ANSWER, path)


def release_held_answer(driver: webdriver.Chrome) -> None:
    """Hand the held answer to the page, and wait until the page has it."""
    wait_for(driver, lambda d: d.execute_script("return window.held") == "answered")
    driver.execute_script("window.heldRelease();")
    wait_for(driver, lambda d: d.execute_script("return window.held") == "released")
    driver.execute_async_script("setTimeout(arguments[0], 300)")  # the page has drawn it
