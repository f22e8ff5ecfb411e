"""Only the package list, which pyproject.toml cannot say: every `director` package found on
disk (namespace packages too: director/store has no __init__.py), plus `director_resources`
and its folders: the top-level resources/ folder, which `package-dir` in pyproject.toml maps
that name onto. Everything else is in pyproject.toml."""

from setuptools import find_namespace_packages, setup

director = find_namespace_packages(include=["director", "director.*"], exclude=["*.__pycache__"])
folders = find_namespace_packages("resources", exclude=["*__pycache__*"])
setup(packages=[*director, "director_resources", *(f"director_resources.{f}" for f in folders)])
