"""Connect to an event shared on a PostgreSQL server, so several stations enter results."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy.exc import SQLAlchemyError

from director.domain.errors import UserError
from director.store.engine import EventDatabase, open_database
from director.store.targets import SERVER_SCHEMES
from director.ui.style import error_label, hint, show_error
from director.ui.waiting import busy, waited
from director.ui.window_parts import shown_target

EXAMPLE = "postgresql://director:secret@club-server/spring_tandem"


class ConnectDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.database: EventDatabase | None = None
        self.setWindowTitle("Connect to a server")
        self.setMinimumWidth(560)
        self.url = QLineEdit(self)
        self.url.setPlaceholderText(EXAMPLE)
        self.error = error_label(self)
        buttons = QDialogButtonBox(self)
        self.connect_button = QPushButton("Connect", self)
        self.connect_button.setProperty("role", "primary")
        self.connect_button.setDefault(True)
        buttons.addButton(self.connect_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.url.textEdited.connect(lambda _text: show_error(self.error, ""))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 18, 20, 14)
        layout.addWidget(QLabel("Database address (URL)", self))
        layout.addWidget(self.url)
        layout.addWidget(self.error)
        layout.addWidget(
            hint(
                "Every station connects to the same PostgreSQL database; each change is saved on "
                f"the server at once. The address looks like {EXAMPLE}.",
                self,
            )
        )
        layout.addSpacing(8)
        layout.addWidget(buttons)

    def accept(self) -> None:
        url = self.url.text().strip()
        if not url.startswith(SERVER_SCHEMES):
            show_error(self.error, f"A server address starts with postgresql://, e.g. {EXAMPLE}")
            return
        try:
            with busy():
                self.database = waited(lambda: open_database(url))  # the window keeps painting
        except UserError as exc:
            show_error(self.error, str(exc).replace(url, shown_target(url)))  # no password
            return
        except (SQLAlchemyError, ImportError, ValueError) as exc:
            # an address the driver cannot parse, a missing driver, a refused login
            detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            show_error(self.error, f"cannot connect with this address ({detail})")
            return
        super().accept()
