"""The Reports menu: choose a report (and its round or match), preview it, print it, save it.

`menu.ReportsMenu` is the menu the main window shows; `chooser.ReportChooser` asks for the
round or match a report needs; `preview.ReportPreview` shows the PDF from
`services.reports.render` and prints it (`printing`) or saves it. Rendering runs in a worker
thread with its own session (`render_job`), so a big report never freezes the window.
"""
