"""Pictures of report pages for the docs: the crosstable and standings of a round under way,
and a team list in every script a club's names use.

    .venv/bin/python scripts/report_screenshots.py docs/screenshots

The demo club night (round 3 under way) gives the crosstable and the standings; the team list
is printed as on a computer with no Chinese, Japanese or Korean font of its own, so every name
is in a font the app ships. Pages are rendered with pypdfium2 (reportlab's invariant mode: a
fixed date).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from reportlab import rl_config

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from director.domain.rules import EventOptions
from director.reports import fonts
from director.services.events import create_event
from director.services.reports import render
from director.services.teams import add_team
from director.store.engine import create_database, open_database
from director.ui.demo import build_demo_event

NAMES = (
    ("فريق النيل", ("محمد علي", "فاطمة حسن")),
    ("צוות ירושלים", ("דוד כהן", "שרה לוי")),
    ("दिल्ली डबल", ("सीता शर्मा", "राम कुमार")),
    ("ทีมกรุงเทพ", ("สมชาย ใจดี", "มาลี สุข")),
    ("東京チーム", ("渡辺 蓮", "さくら")),
    ("北京队", ("王小明", "李伟")),
    ("香港雙打", ("陳大文", "黃美玲")),
    ("서울 팀", ("김민준", "이서연")),
    ("Dice 🎲 Club", ("Zoë O'Neill", "Łukasz Kowalski")),
)


def save_page(data: bytes, path: Path, scale: float = 1.4) -> None:
    document = pdfium.PdfDocument(data)
    try:
        document[0].render(scale=scale).to_pil().save(path)
    finally:
        document.close()
    print(path)


def main(out: Path) -> None:
    rl_config.invariant = 1
    fonts.KNOWN_SYSTEM_FONTS = ()  # as on a computer without a CJK font of its own
    fonts._fontconfig_files = lambda: iter(())
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        db = open_database(str(build_demo_event(Path(folder) / "demo")))
        with db.Session() as s:
            save_page(render(s, "crosstable"), out / "report-crosstable-during-round.png")
            save_page(render(s, "standings"), out / "report-standings-during-round.png")
        db.close()
        db = create_database(str(Path(folder) / "scripts.tandem"))
        with db.Session() as s, s.begin():
            create_event(s, "Kyiv–Tel Aviv–Cairo–Beijing–Tokyo Friendship Tandem", EventOptions())
            for name, players in NAMES:
                add_team(s, name, players, club="Club")
        with db.Session() as s:
            save_page(render(s, "teams"), out / "report-scripts-rtl-cjk.png", scale=1.0)
        db.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
