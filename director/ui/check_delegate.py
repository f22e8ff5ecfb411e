"""A tick box drawn in the middle of its cell; a click anywhere in the cell, or Space, toggles it.

Qt draws an item's check box at the left edge, which looks lost in a narrow "Paid" column.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QEvent, QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

Index = QModelIndex | QPersistentModelIndex
TOGGLE_KEYS = (Qt.Key.Key_Space, Qt.Key.Key_Select)


class CenteredCheckDelegate(QStyledItemDelegate):
    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        state = opt.checkState
        opt.features &= ~QStyleOptionViewItem.ViewItemFeature.HasCheckIndicator
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        box = QStyleOptionViewItem(opt)
        box.rect = self._check_rect(opt)
        box.state = opt.state & ~QStyle.StateFlag.State_HasFocus
        box.state |= {
            Qt.CheckState.Checked: QStyle.StateFlag.State_On,
            Qt.CheckState.PartiallyChecked: QStyle.StateFlag.State_NoChange,
        }.get(state, QStyle.StateFlag.State_Off)
        style.drawPrimitive(
            QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck, box, painter, opt.widget
        )

    @staticmethod
    def _check_rect(option: QStyleOptionViewItem) -> QRect:
        style = option.widget.style() if option.widget is not None else QApplication.style()
        size = style.pixelMetric(QStyle.PixelMetric.PM_IndicatorWidth, option, option.widget)
        rect = QRect(0, 0, size, size)
        rect.moveCenter(option.rect.center())
        return rect

    def editorEvent(
        self,
        event: QEvent,
        model: QAbstractItemModel,
        option: QStyleOptionViewItem,
        index: Index,
    ) -> bool:
        if not index.flags() & Qt.ItemFlag.ItemIsUserCheckable:
            return False
        if isinstance(event, QMouseEvent):
            if event.type() == QEvent.Type.MouseButtonDblClick:
                return True  # a double click is two toggles, not an edit
            if event.type() != QEvent.Type.MouseButtonRelease:
                return False
            if event.button() != Qt.MouseButton.LeftButton:
                return False
        elif not (
            isinstance(event, QKeyEvent)
            and event.type() == QEvent.Type.KeyPress
            and event.key() in TOGGLE_KEYS
        ):
            return False
        checked = Qt.CheckState(index.data(Qt.ItemDataRole.CheckStateRole)) == Qt.CheckState.Checked
        new = Qt.CheckState.Unchecked if checked else Qt.CheckState.Checked
        return model.setData(index, new.value, Qt.ItemDataRole.CheckStateRole)
