"""The app's resources: fonts (with their licences), icons, help pages, sounds, notices.

This folder is the package `director_resources` in every install (pyproject.toml maps the
name onto it; the PyInstaller spec does the same): read it through `director.resources`.
"""
