"""Where phones reach the table service: the machine's real interface addresses, first the one
a phone on the same network reaches (#25). The old list came from getaddrinfo(gethostname()),
which on stock Debian and Ubuntu (127.0.1.1 in /etc/hosts) and on this test machine (the host
name is 127.0.0.1) gives only a loopback address.

Checked against the operating system's own listing: Linux's `ip` command."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from director.web.server import PROBE, local_addresses

IP = shutil.which("ip")
needs_ip = pytest.mark.skipif(IP is None, reason="the check reads Linux's `ip` listing")


def ip_json(*args: str) -> list[dict[str, object]]:
    assert IP is not None
    out = subprocess.run([IP, "-j", *args], capture_output=True, text=True, check=True).stdout
    data: list[dict[str, object]] = json.loads(out)
    return data


def system_addresses() -> set[str]:
    """Every IPv4 address of an interface that is up, loopback aside."""
    found = set()
    for link in ip_json("-4", "addr", "show", "up"):
        for info in link.get("addr_info", []):  # type: ignore[attr-defined]
            if info.get("family") == "inet" and not info["local"].startswith("127."):
                found.add(info["local"])
    return found


def routed_address() -> str | None:
    """The source address the system picks for the network beyond this machine."""
    try:
        (route,) = ip_json("route", "get", PROBE)
    except subprocess.CalledProcessError:
        return None  # no route at all
    src = route.get("prefsrc")
    return src if isinstance(src, str) else None


@needs_ip
def test_every_interface_address_is_listed_with_the_routed_one_first() -> None:
    addresses = local_addresses()
    assert set(addresses) - {"127.0.0.1"} == system_addresses()
    assert addresses[-1] == "127.0.0.1"  # this computer itself, last
    routed = routed_address()
    if routed is not None and not routed.startswith("127."):
        assert addresses[0] == routed


@needs_ip
def test_serve_on_every_address_prints_the_reachable_one_first(event_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "director.cli", "serve", str(event_path), "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    with proc:
        assert proc.stdout is not None
        lines = [proc.stdout.readline().strip()]
        while not lines[-1].startswith("serving"):
            lines.append(proc.stdout.readline().strip())
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 0
    hosts = [line.removeprefix("also at ").split("//")[1].split(":")[0] for line in lines[:-1]]
    assert set(hosts) == system_addresses() | {"127.0.0.1"}
    routed = routed_address()
    if routed is not None and not routed.startswith("127."):
        assert hosts[0] == routed
