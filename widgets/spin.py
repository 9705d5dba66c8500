"""A whole-number box with its range, value, tooltip and unit in one call."""
from __future__ import annotations

from PySide6.QtWidgets import QSpinBox


def spin_box(low: int, high: int, value: int, tip: str, suffix: str = "") -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setValue(value)
    spin.setToolTip(tip)
    spin.setSuffix(suffix)
    return spin
