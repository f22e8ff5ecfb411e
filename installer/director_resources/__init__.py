"""The app's resources (fonts, icons, help pages, sounds) inside a built app.

The PyInstaller spec copies the repository's `resources/` folder here, next to this file, so
`importlib.resources.files("director_resources")` is a real folder in the bundle
(`director.resources.resource_path` asks for it first).
"""
