"""The bracket plan of a knockout (RULES §11) in the event dialog: a ready-made plan, one of
the director's saved templates (kept in the app's settings, by name), or one imported from its
JSON file; the chosen plan is shown in one line, exported, or saved as a template.

The dialog stores the plan with `services.brackets.set_plan` when it creates or changes the
event (only matches not started take new lengths; the brackets cannot change once a round is
paired: the service says so, and the dialog shows its refusal).
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QPushButton,
    QWidget,
)

from director.domain.brackets.plan import (
    MAX_PLAN_BYTES,
    PLANS,
    BracketPlan,
    describe,
    plan_from_json,
    plan_to_json,
)
from director.domain.errors import UserError
from director.store.files import atomic_write_text, read_limited
from director.ui.style import error_label, hint, show_error

PLAN_FILES = "Bracket plans (*.json)"
TEMPLATES_KEY = "bracket_plans/templates"  # a JSON list of the saved plans' JSON


class PlanChooser(QWidget):
    """A combo of the ready-made plans (and the imported one), Import…/Export…, the plan in
    words and a message beside it for a file that is not a plan."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None, settings: QSettings | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.plans: list[BracketPlan] = list(PLANS)
        self.combo = QComboBox(self)
        self.combo.setObjectName("bracket_plan")
        for plan in self.plans:
            self.combo.addItem(plan.name, plan.name)
        for plan in self.templates():
            self.plans.append(plan)
            self.combo.addItem(f"{plan.name} (template)", plan.name)
        self.import_button = QPushButton("Import…", self)
        self.export_button = QPushButton("Export…", self)
        self.save_button = QPushButton("Save as template", self)
        self.save_button.setToolTip("Keep this plan on this computer, by its name, for next time")
        self.save_button.setEnabled(settings is not None)
        self.summary = hint("", self)
        self.summary.setObjectName("bracket_plan_summary")
        self.error = error_label(self)
        self.error.setObjectName("bracket_plan_error")
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.combo, 1)
        row.addWidget(self.import_button)
        row.addWidget(self.export_button)
        row.addWidget(self.save_button)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addLayout(row, 0, 0)
        grid.addWidget(self.summary, 1, 0)
        grid.addWidget(self.error, 2, 0)
        self.combo.currentIndexChanged.connect(self._chosen)
        self.import_button.clicked.connect(self._ask_import)
        self.export_button.clicked.connect(self._ask_export)
        self.save_button.clicked.connect(self.save_template)
        self._chosen()

    def templates(self) -> list[BracketPlan]:
        """The saved templates; one the settings no longer hold as a plan is left out."""
        if self.settings is None:
            return []
        try:
            raw = json.loads(str(self.settings.value(TEMPLATES_KEY, "[]")))
        except ValueError:
            return []
        out = []
        for text in raw if isinstance(raw, list) else []:
            try:
                out.append(plan_from_json(str(text)))
            except UserError:
                continue
        return out

    def save_template(self) -> None:
        """Keep the chosen plan as a template under its name (replacing one of that name)."""
        if self.settings is None:
            return
        plan = self.plan()
        kept = [p for p in self.templates() if p.name != plan.name]
        saved = [plan_to_json(p) for p in (*kept, plan)]
        self.settings.setValue(TEMPLATES_KEY, json.dumps(saved))
        self.settings.sync()
        show_error(self.error, "")
        self.summary.setText(f"{describe(plan)} (saved as a template)")

    def plan(self) -> BracketPlan:
        return self.plans[max(0, self.combo.currentIndex())]

    def set_plan(self, plan: BracketPlan) -> None:
        for i, known in enumerate(self.plans):
            if known == plan:
                self.combo.setCurrentIndex(i)
                return
        self.plans.append(plan)
        self.combo.addItem(f"{plan.name} (imported)", plan.name)
        self.combo.setCurrentIndex(len(self.plans) - 1)

    def import_file(self, path: str) -> bool:
        """Read a plan's JSON file and choose it; False (and the reason beside) when it is not
        one."""
        try:
            name = Path(path).name
            data = read_limited(path, "a bracket plan's file", MAX_PLAN_BYTES, shown=name)
            plan = plan_from_json(data.decode("utf-8"))
        except UnicodeDecodeError:
            show_error(self.error, "Not imported: the file is not UTF-8 text")
            return False
        except UserError as problem:
            show_error(self.error, f"Not imported: {problem}")
            return False
        show_error(self.error, "")
        self.set_plan(plan)
        return True

    def export_file(self, path: str) -> None:
        try:
            atomic_write_text(path, plan_to_json(self.plan()) + "\n")
        except UserError as problem:  # the place cannot take it (atomic_write says why)
            show_error(self.error, f"Not exported: {problem}")
            return
        show_error(self.error, "")

    def _chosen(self) -> None:
        self.summary.setText(describe(self.plan()))
        self.changed.emit()

    def _ask_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import a bracket plan", "", PLAN_FILES)
        if path:
            self.import_file(path)

    def _ask_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Export the bracket plan", f"{self.plan().name}.json", PLAN_FILES
        )
        if path:
            self.export_file(path)
