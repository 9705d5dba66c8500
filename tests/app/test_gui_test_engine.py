"""The Test-engine tab: a fuzz session shows findings live with their class and minimal
position, a click opens one in the divide tree along the finder's path, Stop ends a session."""
import copy
import time

import pytest
from PySide6.QtCore import Qt

from perftscope.app.gui import MainWindow
from perftscope.core.board.position import START_FEN
from perftscope.core.mismatch.verdicts import ILLEGAL


def click_row(qtbot, panel, row):
    """A mouse click on the row's first cell, as a user opens a finding."""
    panel.table.scrollToItem(panel.table.item(row, 0))
    rect = panel.table.visualItemRect(panel.table.item(row, 0))
    qtbot.mouseClick(panel.table.viewport(), Qt.LeftButton, pos=rect.center())


@pytest.fixture
def window(qtbot):
    w = MainWindow(START_FEN, reference="python-chess")
    qtbot.addWidget(w)
    w.show()
    return w


def test_fuzz_finding_shows_live_and_opens_in_the_divide_tree(qtbot, window, engine_path):
    panel = window.test_engine
    window.tabs.setCurrentWidget(panel)
    panel.engine.setText(f"perftree:{engine_path('ep_rank_pin')}")
    panel.reference.setText("core")                   # the divide's reference is python-chess here
    panel.mode.setCurrentIndex(1)                     # fuzz
    panel.seconds.setValue(8)
    panel.start_button.click()
    assert panel.stop_button.isEnabled() and not panel.start_button.isEnabled()
    qtbot.waitUntil(lambda: panel.table.rowCount() >= 1, timeout=60000)
    assert panel.table.item(0, 0).text() == "en passant through a rank pin"
    assert "ep_rank_pin.py against core" in panel.table.item(0, 0).toolTip()
    qtbot.waitUntil(lambda: not window.engine_tests.running, timeout=60000)
    assert "ep_rank_pin.py against core: fuzz seed 1" in panel.status.text()
    finding = panel.findings[0]
    assert finding.shrunk is not None and panel.table.item(0, 2).text() == finding.shrunk.fen
    # the moves column words each move from the engine's side
    assert panel.table.item(0, 1).text().startswith("illegal ")

    click_row(qtbot, panel, 0)                        # opens it in the divide tree
    assert window.tabs.currentWidget() is window.tree
    node = window.model.node(window.tree.view.currentIndex())
    assert node.verdict is ILLEGAL and node.moves == tuple(finding.path) + (finding.report.extra[0],)
    assert window.model.fen == finding.fen
    assert finding.report.extra[0] in window.message.text()
    assert "ep_rank_pin.py against core, depth 2: en passant through a rank pin" in window.message.text()

    # a single click opens it every time, the row selected already or not
    window.tabs.setCurrentWidget(panel)
    window.set_fen(START_FEN)
    click_row(qtbot, panel, 0)
    assert window.tabs.currentWidget() is window.tree and window.board.position.fen() != START_FEN

    # another position failing the same way shares the row, with a count
    rows = panel.table.rowCount()
    twin = copy.copy(finding)
    twin.count, twin.name = 1, "#99 another position"
    window.engine_tests._found(twin)
    assert panel.table.rowCount() == rows and finding.count == 2
    assert panel.table.item(0, 0).text() == "en passant through a rank pin ×2"
    assert panel.table.item(0, 3).text().endswith(" and 1 more")


def test_stop_ends_a_suite_session_at_once(qtbot, window, engine_path):
    panel = window.test_engine
    panel.engine.setText(f"perftree:{engine_path('correct')}")
    panel.reference.setText("core")
    panel.suite.setCurrentText("perftsuite.epd")
    panel.max_depth.setValue(3)
    panel.jobs.setValue(1)
    panel.start_button.click()
    qtbot.waitUntil(lambda: window.engine_tests.done >= 1, timeout=60000)
    assert "Testing correct.py against core" in panel.status.text()
    started = time.monotonic()
    panel.stop_button.click()
    qtbot.waitUntil(lambda: not window.engine_tests.running, timeout=10000)
    assert time.monotonic() - started < 5
    assert "(stopped)" in panel.status.text() and panel.start_button.isEnabled()
    assert panel.table.rowCount() == 0                # a cut-short position is not a finding


def test_a_bad_engine_is_a_message(qtbot, window):
    panel = window.test_engine
    panel.engine.setText("uci:/nonexistent/engine")
    panel.start_button.click()
    qtbot.waitUntil(lambda: not window.engine_tests.running, timeout=10000)
    assert "nonexistent" in panel.status.text() and panel.start_button.isEnabled()


def test_the_tab_starts_from_the_engines_chosen_for_the_divide(qtbot, window, engine_path):
    spec = f"perftree:{engine_path('ep_rank_pin')}"
    window.choice.engine.set_spec(spec)
    window.choice.reference.set_spec("stockfish")
    window.choice.changed.emit()
    assert window.test_engine.engine.text() == spec
    assert window.test_engine.reference.text() == "stockfish"
