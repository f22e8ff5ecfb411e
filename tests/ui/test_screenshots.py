"""The screenshot script renders every page and dialog of a demo event to real PNG files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from director.ui.screenshots import main
from tests.ui.app_helpers import OFFSCREEN_NOISE

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def distinct_colours(image: QImage) -> int:
    step = max(1, image.width() // 40)
    return len(
        {
            image.pixel(x, y)
            for x in range(0, image.width(), step)
            for y in range(0, image.height(), step)
        }
    )


def test_every_page_and_dialog_is_rendered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "shots"), "--size", "1024x700"]) == 0
    written = [Path(line) for line in capsys.readouterr().out.split()]
    names = {p.name.split("-", 1)[1] for p in written}
    for page in ("start.png", "teams.png", "rounds.png", "match-desk.png", "standings.png"):
        assert page in names
    for dialog in (
        "new-event-clock.png",
        "event-options.png",
        "csv-import-preview.png",
        "add-teams.png",
        "help-rules.png",
        "connect-to-server.png",
    ):
        assert dialog in names
    # the README shows these pictures: the script makes every one of them, under its name
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"docs/screenshots/(\d\d-[\w-]+\.png)", readme))
    shown = {n for n in shown if int(n[:2]) < 30}  # 30 and on: the phones (tests/web)
    assert shown and shown <= {p.name for p in written}
    # the individual night's pictures are named apart from the numbered ones (#28)
    individual = set(re.findall(r"docs/screenshots/(individual-[\w-]+\.png)", readme))
    assert individual == {"individual-rounds.png", "individual-standings.png",
                          "individual-match-report.png"}  # fmt: skip
    assert individual <= {p.name for p in written}
    for path in written:
        image = QImage(str(path))
        assert not image.isNull(), path
        assert distinct_colours(image) > 5, f"{path.name} looks blank"
    teams = QImage(str(next(p for p in written if p.name.endswith("-teams.png"))))
    assert (teams.width(), teams.height()) == (1024, 700)


@pytest.mark.parametrize("size", ["big", "١٠٢٤x٧٠٠", "1_024x700"])  # int() read the last two
def test_a_bad_size_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, size: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([str(tmp_path), "--size", size])
    assert exit_info.value.code == 2
    assert "is not WIDTHxHEIGHT" in capsys.readouterr().err
