"""Write the third-party notices from the installed distributions.

    python installer/notices.py [OUT]     (default resources/notices/THIRD-PARTY-NOTICES.txt)

Walks the installed `tandem-director[postgres]` and everything it requires (markers evaluated
for this computer), and writes for each distribution its name, version and licence, followed
by the licence files it ships (PEP 639 `dist-info/licenses/`, or LICENSE/COPYING beside its
metadata). PySide6 and shiboken6 ship no licence file: the LGPL-3.0 (the licence the app uses
Qt under) and the GPL-3.0 it builds on are added from resources/notices/texts/. The Python
interpreter (the frozen app carries it) and the fonts in resources/fonts come first.

The committed file is generated in the development venv; the release build writes a fresh one
from its own venv into the bundle (installer/tandem-director.spec), so the bundle names the
versions it carries. The About box shows the file (Details).
"""

from __future__ import annotations

import importlib.metadata as md
import re
import sys
import sysconfig
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
NOTICES = ROOT / "resources" / "notices"
DEFAULT_OUT = NOTICES / "THIRD-PARTY-NOTICES.txt"
APP = "tandem-director"
EXTRAS = ("postgres",)  # the release bundle carries the PostgreSQL driver
LICENCE_FILE = re.compile(r"^(LICEN[CS]E|COPYING|NOTICE)", re.IGNORECASE)
# distributions that ship no licence text: the texts kept in resources/notices/texts
STORED_TEXTS = {
    "pyside6": ("LGPL-3.0.txt", "GPL-3.0.txt"),
    "pyside6-essentials": ("LGPL-3.0.txt", "GPL-3.0.txt"),
    "pyside6-addons": ("LGPL-3.0.txt", "GPL-3.0.txt"),
    "shiboken6": ("LGPL-3.0.txt", "GPL-3.0.txt"),
}
QT_NOTE = (
    "Qt and Qt for Python are used under the GNU Lesser General Public License v3 (below, "
    "with the GPL v3 it refers to). The Qt libraries are kept as separate, replaceable files "
    "in the app's folder; their source is published by The Qt Company."
)
RULE = "=" * 78


def requirement_closure(name: str, extras: tuple[str, ...] = ()) -> list[md.Distribution]:
    """The installed distribution `name` and all it requires, in a stable order."""
    found: dict[str, md.Distribution] = {}

    def walk(dist_name: str, with_extras: tuple[str, ...]) -> None:
        key = canonicalize_name(dist_name)
        if key in found:
            return
        dist = md.distribution(dist_name)
        found[key] = dist
        for text in dist.requires or []:
            req = Requirement(text)
            wanted = [e for e in ("", *with_extras)]
            if req.marker is not None and not any(
                req.marker.evaluate({"extra": e}) for e in wanted
            ):
                continue
            try:
                walk(req.name, tuple(sorted(req.extras)))
            except md.PackageNotFoundError:
                continue  # an optional part this computer has no use for

    walk(name, extras)
    return [found[k] for k in sorted(found)]


def licence_of(dist: md.Distribution) -> str:
    meta = dist.metadata
    expression = meta.get("License-Expression")
    if expression:
        return str(expression)
    text = (meta.get("License") or "").strip()
    if text and "\n" not in text and len(text) < 80:
        return text
    classifiers = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or []]
    licences = [c for c in classifiers if "License" in c or "licence" in c.lower()]
    return "; ".join(licences) or "see the licence text below"


def licence_files(dist: md.Distribution) -> list[tuple[str, str]]:
    """(name, text) of each licence file the distribution ships in its metadata folder."""
    out = []
    for file in dist.files or []:
        parts = Path(str(file)).parts
        in_metadata = len(parts) >= 2 and parts[0].endswith(".dist-info")
        if in_metadata and ("licenses" in parts or LICENCE_FILE.match(parts[-1])):
            path = Path(str(dist.locate_file(file)))
            if path.is_file():
                out.append((Path(*parts[1:]).as_posix(), path.read_text(encoding="utf-8")))
    return sorted(out)


def section(title: str, body: str) -> str:
    return f"{RULE}\n{title}\n{RULE}\n\n{body.strip()}\n\n"


def python_licence() -> str:
    path = Path(sysconfig.get_paths()["stdlib"]) / "LICENSE.txt"
    return path.read_text(encoding="utf-8") if path.is_file() else "PSF-2.0"


def font_licences() -> list[tuple[str, str]]:
    """(family, licence text) of each font the app ships: resources/fonts/LICENSE-NAME.txt."""
    folder = ROOT / "resources" / "fonts"
    return [
        (path.stem.removeprefix("LICENSE-"), path.read_text(encoding="utf-8"))
        for path in sorted(folder.glob("LICENSE-*.txt"))
    ]


def web_licences() -> list[tuple[str, str]]:
    """(library, licence text) of each script the phone pages ship: resources/web/LICENSE-*."""
    folder = ROOT / "resources" / "web"
    return [
        (path.stem.removeprefix("LICENSE-"), path.read_text(encoding="utf-8"))
        for path in sorted(folder.glob("LICENSE-*.txt"))
    ]


def notices() -> str:
    app = md.distribution(APP)
    dists = [d for d in requirement_closure(APP, EXTRAS) if canonicalize_name(d.name) != APP]
    version = ".".join(map(str, sys.version_info[:3]))
    out = [
        f"Tandem Director {app.version}: licences\n\n"
        "Tandem Director is free software under the MIT licence (first below). It is built on\n"
        "the following software, each under its own licence, whose texts follow:\n\n",
        *(f"  {d.name} {d.version}: {licence_of(d)}\n" for d in dists),
        f"  Python {version}: PSF-2.0 (the packaged app carries the interpreter)\n",
        *(f"  {name} fonts (resources/fonts)\n" for name, _ in font_licences()),
        *(f"  {name} (resources/web)\n" for name, _ in web_licences()),
        "\nGenerated by installer/notices.py from the installed distributions.\n\n",
        section("Tandem Director: MIT", (ROOT / "LICENSE").read_text(encoding="utf-8")),
        *(section(f"{name} fonts", text) for name, text in font_licences()),
        *(section(name, text) for name, text in web_licences()),
        section(f"Python {version}: PSF-2.0", python_licence()),
    ]
    stored_done: set[str] = set()
    for dist in dists:
        key = canonicalize_name(dist.name)
        title = f"{dist.name} {dist.version}: {licence_of(dist)}"
        files = licence_files(dist)
        if key in STORED_TEXTS:
            texts = [t for t in STORED_TEXTS[key] if t not in stored_done]
            stored_done.update(texts)
            body = QT_NOTE
            if texts:
                body += "".join(
                    f"\n\n--- {t} ---\n\n" + (NOTICES / "texts" / t).read_text(encoding="utf-8")
                    for t in texts
                )
            else:
                body += "\n\n(The licence texts are above, under PySide6.)"
            out.append(section(title, body))
        elif files:
            body = "\n\n".join(f"--- {name} ---\n\n{text.strip()}" for name, text in files)
            out.append(section(title, body))
        else:
            out.append(section(title, f"{dist.name} ships no licence file; its licence: "
                                      f"{licence_of(dist)}."))  # fmt: skip
    return "".join(out).rstrip() + "\n"


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else DEFAULT_OUT
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(notices(), encoding="utf-8", newline="\n")
    print(f"notices: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
