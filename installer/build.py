"""Build Tandem Director for this computer's system: `python installer/build.py`.

Writes the one-folder app to dist/tandem-director/ (on macOS also dist/Tandem Director.app)
and prints its size and the build time. It builds in the release venv, build/release-venv
(made when missing, `--fresh` makes it anew): the app installed from this checkout as a
wheel with only its runtime dependencies (and the PostgreSQL driver) plus PyInstaller, so
the bundle never carries a library of the development venv.

Packages for handing out, each on its own system (see installer/README.md):
  --tarball    Linux: dist/tandem-director-VERSION-linux-ARCH.tar.gz (unpack, run install.sh)
  --appimage   Linux: dist/Tandem_Director-VERSION-ARCH.AppImage (needs appimagetool)
  --setup      Windows: dist/tandem-director-VERSION-setup.exe (needs Inno Setup's ISCC)
  --dmg        macOS: dist/Tandem-Director-VERSION.dmg (hdiutil)
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INSTALLER = ROOT / "installer"
SPEC = INSTALLER / "tandem-director.spec"
DIST = ROOT / "dist"
WORK = ROOT / "build" / "installer"
RELEASE_VENV = Path(os.environ.get("TANDEM_RELEASE_VENV", ROOT / "build" / "release-venv"))
ICONS = WORK / "icons"
NAME = "tandem-director"
APP = DIST / NAME
PYINSTALLER = "pyinstaller>=6.10"
LINUX_ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
MIME_ICON = "application-x-tandem-event"  # the file manager's icon for a .tandem file


def log(text: str) -> None:
    print(f"build: {text}", flush=True)


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def uv_binary() -> str | None:
    """uv, when the Python running this script has it (the test tools' venv does: CI's
    scripts/smoke_frozen.sh); else None, and pip installs."""
    try:
        from uv import find_uv_bin
    except ImportError:
        return None
    try:
        return str(find_uv_bin())
    except FileNotFoundError:
        return None


def in_release_venv() -> bool:
    return Path(sys.prefix).resolve() == RELEASE_VENV.resolve()


def ensure_release_venv(fresh: bool) -> None:
    """Run inside the release venv: the app installed from this checkout like a user's
    `pip install .` (not editable), its runtime dependencies with the PostgreSQL driver, and
    PyInstaller; nothing of the development venv (test tools, their libraries). Every build
    (a release, CI on a tag, scripts/smoke_frozen.sh) makes its bundle from the same venv."""
    if in_release_venv() or os.environ.get("TANDEM_BUILD_ANY_PYTHON") == "1":
        return
    python = venv_python(RELEASE_VENV)
    if fresh:
        shutil.rmtree(RELEASE_VENV, ignore_errors=True)
    if not python.exists():
        log(f"making the release venv {RELEASE_VENV}")
        subprocess.run([sys.executable, "-m", "venv", str(RELEASE_VENV)], check=True)
    log(f"installing {NAME}[postgres] from {ROOT} (not editable) and {PYINSTALLER}")
    uv = uv_binary()
    if uv is not None:  # the same install, .pyc files too, from uv's cache in seconds (pip: 25 s)
        command = [uv, "pip", "install", "-q", "--compile-bytecode", "--python", str(python)]
        # --reinstall-package rebuilds the app from this checkout, never from uv's cache
        command += ["--reinstall-package", NAME, f"{ROOT}[postgres]", PYINSTALLER]
        subprocess.run(command, check=True)
    else:
        pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        subprocess.run([*pip, "--force-reinstall", "--no-deps", str(ROOT)], check=True)
        subprocess.run([*pip, f"{ROOT}[postgres]", PYINSTALLER], check=True)
    # a child, not os.execv: on Windows execv returns to the shell before the build is done
    again = [str(python), str(Path(__file__).resolve()), *sys.argv[1:]]
    done = subprocess.run(again, check=False)  # its status is this script's status
    sys.exit(done.returncode)


def app_version() -> str:
    import importlib.metadata

    return importlib.metadata.version(NAME)


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def draw_icons() -> None:
    command = [sys.executable, str(INSTALLER / "icons.py"), str(ICONS)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def run_pyinstaller(clean: bool) -> None:
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN"]
    command += ["--distpath", str(DIST), "--workpath", str(WORK / "pyinstaller"), str(SPEC)]
    if clean:
        command.insert(3, "--clean")
    env = {**os.environ, "TANDEM_ICON_DIR": str(ICONS), "QT_QPA_PLATFORM": "offscreen"}
    # run outside the checkout, so the repo's own egg-info never shadows the installed metadata
    subprocess.run(command, check=True, env=env, cwd=WORK)


def add_linux_integration(app: Path = APP, icons: Path = ICONS) -> None:
    """install.sh, the desktop entry, the MIME type and the icons, inside the app folder: the
    tarball is that folder, and the installed copy keeps install.sh for --uninstall."""
    share = app / "share"
    shutil.rmtree(share, ignore_errors=True)
    (share / "applications").mkdir(parents=True)
    (share / "mime" / "packages").mkdir(parents=True)
    shutil.copy2(INSTALLER / "linux" / f"{NAME}.desktop", share / "applications")
    shutil.copy2(INSTALLER / "linux" / f"{NAME}.xml", share / "mime" / "packages")
    for size in LINUX_ICON_SIZES:
        for kind, name in (("apps", NAME), ("mimetypes", MIME_ICON)):
            folder = share / "icons" / "hicolor" / f"{size}x{size}" / kind
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copy2(icons / f"{NAME}-{size}.png", folder / f"{name}.png")
    scalable = share / "icons" / "hicolor" / "scalable" / "apps"
    scalable.mkdir(parents=True)
    shutil.copy2(ROOT / "resources" / "icons" / f"{NAME}.svg", scalable)
    shutil.copy2(INSTALLER / "linux" / "install.sh", app / "install.sh")
    (app / "install.sh").chmod(0o755)


def machine() -> str:
    name = platform.machine().lower()
    return {"amd64": "x86_64", "arm64": "aarch64"}.get(name, name)


def make_tarball(version: str) -> Path:
    out = DIST / f"{NAME}-{version}-linux-{machine()}.tar.gz"
    with tarfile.open(out, "w:gz", compresslevel=6) as tar:
        tar.add(APP, arcname=NAME)
    return out


def make_appimage(version: str) -> Path:
    """An AppDir around the app folder, squashed by appimagetool (not in Debian or PyPI: give
    its path in APPIMAGETOOL or put it on PATH; see installer/README.md)."""
    appdir = WORK / "Tandem_Director.AppDir"
    shutil.rmtree(appdir, ignore_errors=True)
    shutil.copytree(APP, appdir / "usr" / "lib" / NAME, symlinks=True)
    shutil.copy2(INSTALLER / "linux" / "AppRun", appdir / "AppRun")
    (appdir / "AppRun").chmod(0o755)
    shutil.copy2(INSTALLER / "linux" / f"{NAME}.desktop", appdir)
    shutil.copy2(ICONS / f"{NAME}-256.png", appdir / f"{NAME}.png")
    shutil.copy2(ICONS / f"{NAME}-256.png", appdir / ".DirIcon")
    share = appdir / "usr" / "share"
    shutil.copytree(APP / "share", share)
    tool = os.environ.get("APPIMAGETOOL") or shutil.which("appimagetool")
    if tool is None:
        raise SystemExit(
            f"build: the AppDir is ready in {appdir}, but appimagetool was not found (it is "
            "not in Debian's or PyPI's packages): set APPIMAGETOOL=/path/to/appimagetool, "
            "see installer/README.md"
        )
    out = DIST / f"Tandem_Director-{version}-{machine()}.AppImage"
    env = {**os.environ, "ARCH": machine(), "VERSION": version}
    subprocess.run([tool, "--no-appstream", str(appdir), str(out)], check=True, env=env)
    return out


def make_setup(version: str) -> Path:
    iscc = os.environ.get("ISCC") or shutil.which("iscc") or shutil.which("ISCC")
    default = Path(os.environ.get("PROGRAMFILES(X86)", r"C:\Program Files (x86)"))
    if iscc is None and (default / "Inno Setup 6" / "ISCC.exe").is_file():
        iscc = str(default / "Inno Setup 6" / "ISCC.exe")
    if iscc is None:
        raise SystemExit("build: Inno Setup's ISCC.exe was not found (choco install innosetup)")
    script = INSTALLER / "windows" / "tandem-director.iss"
    icon = ICONS / f"{NAME}.ico"
    defines = [f"/DAppVersion={version}", f"/DSourceDir={APP}", f"/DIconFile={icon}"]
    subprocess.run([iscc, *defines, f"/O{DIST}", str(script)], check=True)
    return DIST / f"{NAME}-{version}-setup.exe"


def make_dmg(version: str) -> Path:
    out = DIST / f"Tandem-Director-{version}.dmg"
    script = INSTALLER / "macos" / "make_dmg.sh"
    subprocess.run(["bash", str(script), str(DIST / "Tandem Director.app"), str(out)], check=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clean", action="store_true", help="rebuild PyInstaller's cache too")
    parser.add_argument("--tarball", action="store_true", help="Linux: also make the tarball")
    parser.add_argument("--appimage", action="store_true", help="Linux: also make an AppImage")
    parser.add_argument("--setup", action="store_true", help="Windows: also make setup.exe")
    parser.add_argument("--dmg", action="store_true", help="macOS: also make the .dmg")
    parser.add_argument("--fresh", action="store_true", help="make the release venv anew")
    args = parser.parse_args()
    system = platform.system()
    wrong = {"tarball": "Linux", "appimage": "Linux", "setup": "Windows", "dmg": "Darwin"}
    for option, needs in wrong.items():
        if getattr(args, option) and system != needs:
            parser.error(f"--{option} builds on {needs.replace('Darwin', 'macOS')} only")
    ensure_release_venv(args.fresh)
    version = app_version()
    started = time.monotonic()
    WORK.mkdir(parents=True, exist_ok=True)
    draw_icons()
    log(f"PyInstaller: {NAME} {version} for {system} {machine()}")
    run_pyinstaller(args.clean)
    if system == "Linux":
        add_linux_integration()
    built = time.monotonic() - started
    executable = APP / (f"{NAME}.exe" if system == "Windows" else NAME)
    if not executable.is_file():
        raise SystemExit(f"build: {executable} was not made")
    log(f"built {APP} in {built:.0f} s")
    log(f"bundle size: {folder_size(APP) / 2**20:.1f} MiB ({APP})")
    packages = []
    if args.tarball:
        packages.append(make_tarball(version))
    if args.appimage:
        packages.append(make_appimage(version))
    if args.setup:
        packages.append(make_setup(version))
    if args.dmg:
        packages.append(make_dmg(version))
    for package in packages:
        log(f"package: {package} ({package.stat().st_size / 2**20:.1f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
