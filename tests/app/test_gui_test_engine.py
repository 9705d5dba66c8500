"""The Test-engine tab: a fuzz session shows findings live with their class and minimal
position, a click opens one in the divide tree along the finder's path, Stop ends a session."""
import copy
import re
import time

import pytest
from PySide6.QtCore import Qt

from perftscope.app.gui import MainWindow
from perftscope.core.board.position import START_FEN
from perftscope.core.mismatch.verdicts import ILLEGAL
from perftscope.widgets.reference import EngineChoice


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
    window.engines.set(engine=f"perftree:{engine_path('ep_rank_pin')}",
                       reference="core")              # the window opened with python-chess
    panel.choose(mode="fuzz", seconds=8)
    panel.request_start()
    assert panel.can_stop() and not panel.can_start()
    qtbot.waitUntil(lambda: panel.table.rowCount() >= 1, timeout=60000)
    # (with " ×2" where a loaded machine found the bug twice before the view's first refresh)
    assert re.fullmatch(r"en passant through a rank pin( ×\d+)?", panel.table.item(0, 0).text())
    assert "ep_rank_pin.py against core" in panel.table.item(0, 0).toolTip()
    qtbot.waitUntil(lambda: not window.engine_tests.running, timeout=60000)
    assert "ep_rank_pin.py against core: fuzz seed 1" in panel.status_text()
    finding = panel.findings[0]
    assert finding.shrunk is not None and panel.table.item(0, 2).text() == finding.shrunk.fen
    # the moves column words each move from the engine's side
    assert panel.table.item(0, 1).text().startswith("illegal ")

    window.engines.set(reference="python-chess")      # chosen again after the session
    click_row(qtbot, panel, 0)                        # opens it in the divide tree, with its engines
    assert window.tabs.currentWidget() is window.tree
    node = window.model.node(window.tree.view.currentIndex())
    assert node.verdict is ILLEGAL and node.moves == tuple(finding.path) + (finding.report.extra[0],)
    assert window.model.fen == finding.fen
    assert window.engines.specs() == (f"perftree:{engine_path('ep_rank_pin')}", "core")
    assert finding.report.extra[0] in window.message.text()
    assert "ep_rank_pin.py against core, depth 2: en passant through a rank pin" in window.message.text()
    assert "(set to the finding's: Reference core, depth 2)" in window.message.text()

    # a single click opens it every time, the row selected already or not
    window.tabs.setCurrentWidget(panel)
    window.board_commands.set_fen(START_FEN)
    click_row(qtbot, panel, 0)
    assert window.tabs.currentWidget() is window.tree and window.board.position.fen() != START_FEN

    # another position failing the same way shares the row, with a count
    rows, before = panel.table.rowCount(), finding.count
    twin = copy.copy(finding)
    twin.count, twin.name = 1, "#99 another position"
    window.engine_tests.found(twin)
    assert panel.table.rowCount() == rows and finding.count == before + 1
    assert panel.table.item(0, 0).text() == f"en passant through a rank pin ×{before + 1}"
    assert panel.table.item(0, 3).text().endswith(f" and {before} more")


def test_stop_ends_a_suite_session_at_once(qtbot, window, engine_path):
    panel = window.test_engine
    window.engines.set(engine=f"perftree:{engine_path('correct')}", reference="core")
    panel.choose(mode="suite", suite="perftsuite.epd", max_depth=3, jobs=1)
    panel.request_start()
    qtbot.waitUntil(lambda: window.main_model.jobs["test"].done >= 1, timeout=60000)
    assert "Testing correct.py against core" in panel.status_text()
    started = time.monotonic()
    panel.request_stop()
    qtbot.waitUntil(lambda: not window.engine_tests.running, timeout=10000)
    assert time.monotonic() - started < 5
    assert "(stopped)" in panel.status_text() and panel.can_start()
    assert panel.table.rowCount() == 0                # a cut-short position is not a finding


def test_a_bad_engine_is_a_message(qtbot, window):
    panel = window.test_engine
    window.engines.set(engine="uci:/nonexistent/engine")
    panel.request_start()
    qtbot.waitUntil(lambda: not window.engine_tests.running, timeout=10000)
    assert "nonexistent" in panel.status_text() and panel.can_start()


def test_the_tab_shows_the_engines_chosen_for_the_divide(qtbot, window, engine_path):
    """One engine selection, two views of it: what is chosen in one tab is what the other shows."""
    spec = f"perftree:{engine_path('ep_rank_pin')}"
    divide_choice = window.tree.findChild(EngineChoice)
    divide_choice.engine.set_spec(spec)
    divide_choice.engine.edited.emit(spec)          # as the user leaving the path field
    divide_choice.reference.kind.setCurrentIndex(divide_choice.reference.kind.findData("stockfish"))
    divide_choice.timeout.setValue(7)
    assert window.engines.specs() == (spec, "stockfish") and window.engines.timeout == 7
    assert window.test_engine.choice.specs() == (spec, "stockfish")
    assert window.test_engine.choice.seconds() == 7
    # and back: the Test-engine tab's choice is the divide's
    window.test_engine.choice.timeout.setValue(9)
    assert divide_choice.seconds() == 9 and window.engines.timeout == 9


def test_a_session_waits_for_an_engine_call_no_longer_than_the_chosen_timeout(qtbot, window, engine_path):
    """The timeout chosen beside the engine reaches the session: a hang is a timeout finding
    after 2 s, not a wait of the oracles' default ten minutes. (Two timed-out calls: ~5 s.)"""
    panel = window.test_engine
    # it answers right (so it can be learned how it prints) and hangs on fuzz position 2 (3 pieces)
    window.engines.set(engine=f"uci:{engine_path('uci_hang_endgame')}", reference="core", timeout=2)
    panel.choose(mode="fuzz", seconds=60)
    started = time.monotonic()
    panel.request_start()
    qtbot.waitUntil(lambda: bool(panel.findings), timeout=30000)
    assert panel.findings[0].kind == "timeout" and "2 s" in panel.findings[0].error
    assert time.monotonic() - started < 20
    panel.request_stop()
    qtbot.waitUntil(lambda: not window.engine_tests.running, timeout=10000)


def test_a_hanging_engine_in_a_fuzz_session_is_a_timeout_finding_and_the_session_goes_on(qtbot, window, engine_path):
    # hang_on_ep.py never answers where en passant is legal (position 13 of seed 1); the timeout
    # chosen beside the Engine selector reaches the session, which goes on past the hang: stopped
    # once it has, whatever the machine's load. 3 s, not 1: at a load of 6 on 2 cores a call that
    # answers in 0.1 s on a quiet machine once took over a second, a timeout of its own at #6
    panel = window.test_engine
    window.tabs.setCurrentWidget(panel)
    window.engines.set(engine=f"perftree:{engine_path('hang_on_ep')}", reference="core", timeout=3)
    panel.choose(mode="fuzz", seconds=600, seed=1)
    panel.request_start()
    job = window.main_model.jobs["test"]
    qtbot.waitUntil(lambda: bool(panel.findings) and job.done > 15, timeout=120000)
    panel.request_stop()
    qtbot.waitUntil(lambda: not window.engine_tests.running, timeout=10000)
    # every hang is one timeout finding, counted (timeouts are not shrunk, so all are alike): one
    # on a quiet machine, more where a loaded one went past the next hang before the stop
    assert [f.kind for f in panel.findings] == ["timeout"]
    hung = panel.findings[0]
    assert panel.table.item(0, 0).text() == "timeout" + (f" ×{hung.count}" if hung.count > 1 else "")
    assert "no answer within 3 s" in panel.table.item(0, 1).text()
    assert hung.name.startswith("#13 ")          # and the wait above saw it go on past #13


def test_the_chess960_box_makes_a_fuzz_session_chess960(qtbot, window, engine_path):
    """As the divide tab reads the board's Chess960, the Test-engine tab reads the box: the
    pinned-rook castling bug only Chess960 positions show is found."""
    from perftscope.core.board.position import Position
    panel = window.test_engine
    window.engines.set(engine=f"perftree:{engine_path('c960_pinned_rook')}", reference="core")
    window.chess960.setChecked(True)
    panel.choose(mode="fuzz", seconds=12, depth=1)
    panel.request_start()
    qtbot.waitUntil(lambda: not window.engine_tests.running, timeout=90000)
    assert "fuzz seed 1 (Chess960)" in panel.status_text(), panel.status_text()
    assert panel.table.rowCount() >= 1, panel.status_text()
    found = panel.findings[0]           # the session ended: its count stays as shown
    assert panel.table.item(0, 0).text() == "castling through or into attack" + (
        f" ×{found.count}" if found.count > 1 else "")    # found twice in 12 s on a loaded machine
    assert all(Position.from_fen(f.fen).chess960 for f in panel.findings)
