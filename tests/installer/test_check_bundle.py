"""check_bundle's test-tool check: the tools it looks for are pyproject.toml's test extra (so a
tool added there is looked for too), and it finds one in a bundle's library folder by its
package folder, its extension module or its metadata."""

from __future__ import annotations

from pathlib import Path

from tests.installer.helpers import load_script

check_bundle = load_script("check_bundle")


def library(folder: Path, *entries: str) -> Path:
    for entry in entries:
        path = folder / entry
        if entry.endswith((".so", ".py")):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"")
        else:
            path.mkdir(parents=True)
    return folder


def test_the_tools_looked_for_are_the_test_extras_the_app_does_not_need() -> None:
    tools = check_bundle.test_tools()
    assert {"pytest", "pytest-qt", "hypothesis", "pypdf", "pypdfium2", "zxing-cpp"} <= set(tools)
    assert "pyinstaller" not in tools  # it builds the release bundle too
    assert "psycopg" not in tools  # in the test extra, and the app's own [postgres]
    assert "reportlab" not in tools and "pyside6" not in tools
    assert "pytestqt" in tools["pytest-qt"]  # the import name, read from the installed tool


def test_a_release_library_folder_holds_no_test_tool(tmp_path: Path) -> None:
    internal = library(
        tmp_path, "PySide6", "reportlab", "reportlab-4.4.0.dist-info", "psycopg_binary",
        "uharfbuzz/_harfbuzz.cpython-311-x86_64-linux-gnu.so", "director_resources",
    )  # fmt: skip
    assert list(check_bundle.test_tools_in(internal)) == []


def test_test_tools_are_found_by_folder_extension_module_or_metadata(tmp_path: Path) -> None:
    internal = library(
        tmp_path, "PySide6", "pypdfium2_raw", "zxingcpp.cpython-311-x86_64-linux-gnu.so",
        "hypothesis-6.100.0.dist-info", "pytest_qt-4.5.0.dist-info",
    )  # fmt: skip
    assert list(check_bundle.test_tools_in(internal)) == [
        "hypothesis", "pypdfium2", "pytest-qt", "zxing-cpp",
    ]  # fmt: skip
