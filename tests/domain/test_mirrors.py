"""Every domain module has its mirror test file (tests/domain/pairing/test_swiss.py tests
director/domain/pairing/swiss.py), or is named here with the test file that covers it."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = ROOT / "director" / "domain"
TESTS = ROOT / "tests" / "domain"
# a module whose behaviour a neighbour's tests cover through it, and that neighbour
TESTED_ELSEWHERE = {
    "pairing/checker_swiss.py": "pairing/checker.py",
    "pairing/checker_brackets.py": "pairing/checker.py",
    "pairing/swiss_matching.py": "pairing/swiss.py",
}


def modules() -> list[str]:
    return sorted(
        p.relative_to(DOMAIN).as_posix() for p in DOMAIN.rglob("*.py") if p.name != "__init__.py"
    )


def mirror(module: str) -> Path:
    path = Path(module)
    return TESTS / path.parent / f"test_{path.name}"


def test_every_domain_module_has_its_mirror_test_file() -> None:
    missing = [m for m in modules() if not mirror(m).exists() and m not in TESTED_ELSEWHERE]
    assert missing == [], f"add tests/domain/…/test_<module>.py for: {', '.join(missing)}"


def test_a_module_tested_elsewhere_is_used_by_a_module_with_its_mirror() -> None:
    for module, user in TESTED_ELSEWHERE.items():
        assert not mirror(module).exists(), f"{module} has its mirror now: drop it from the list"
        assert mirror(user).exists(), (module, user)
        dotted = "director.domain." + module.removesuffix(".py").replace("/", ".")
        used = (DOMAIN / user).read_text(encoding="utf-8")
        by_test = mirror(user).read_text(encoding="utf-8")
        assert dotted in used or dotted in by_test, (module, user)
