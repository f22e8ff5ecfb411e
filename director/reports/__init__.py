"""PDF reports: one module per document, all laid out by `styles` (reportlab platypus).

Reports read domain values only (snapshots the services gathered); `director.services.reports`
collects them and returns the PDF bytes.
"""
