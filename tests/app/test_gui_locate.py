"""The Suspect lines tab: `locate` run through the window's JobController on the planted Python
engine of tests/engines/locate; the planted line ranked first, a click scrolls the source to it
and puts a failing position on the board; Stop ends the run at once; the *Which line?* entry
points start it on their position."""
import time

import pytest
from PySide6.QtCore import Qt

from perftscope.app.gui import MainWindow
from perftscope.core.board.position import Position
from perftscope.core.engines.oracle import Request

from ..core.locate.test_locate import HERE, PROMOTES, planted

ENGINE = f"perftree:{HERE / 'movegen.py'}"


@pytest.fixture
def window(qtbot):
    w = MainWindow(PROMOTES, engine=ENGINE)
    qtbot.addWidget(w)
    w.show()
    w.suspects_panel.mutants.setValue(0)          # the spectrum's ranking; test_the_fix_... runs mutants
    return w


def test_the_planted_line_is_ranked_first_and_a_click_shows_it(qtbot, window):
    panel = window.suspects_panel
    panel.depth.setValue(1)
    panel.runs.setValue(10)
    panel.start_button.click()
    assert window.tabs.currentWidget() is panel and panel.stop_button.isEnabled()
    qtbot.waitUntil(lambda: not window.locating.running, timeout=90000)
    state = window.main_model.jobs["locate"]
    result = state.result
    assert result is not None and not state.error, state.status
    assert result.subject.fen == PROMOTES and result.subject.engines == ("movegen.py", "core")
    assert PROMOTES in panel.caption.text() and "movegen.py against core" in panel.caption.text()
    line = planted("movegen.py", "# PLANTED:")
    first = [row for row, s in enumerate(panel.suspects) if s.rank == 1]
    hit = [row for row in first if panel.suspects[row].file == "movegen.py"
           and panel.suspects[row].line <= line <= panel.suspects[row].last]
    assert hit, [s.where for s in panel.suspects[:5]]
    assert "ranked first" in panel.status.text()
    row = hit[0]
    assert panel.table.item(row, 1).text() == panel.suspects[row].where
    # the move-aware step ranked it: the twin without the pawn on b7 makes no b7b8n, and the row says so
    assert panel.table.item(row, 0).text().endswith("*")
    assert "ran where b7b8n should have been generated" in panel.table.item(row, 6).text()

    assert not panel.caption.text().startswith("computed for another position")
    window.board_commands.set_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1")       # the board elsewhere
    assert panel.caption.text().startswith("computed for another position — Suspect lines of")
    panel.table.scrollToItem(panel.table.item(row, 1))
    rect = panel.table.visualItemRect(panel.table.item(row, 1))
    qtbot.mouseClick(panel.table.viewport(), Qt.LeftButton, pos=rect.center())
    assert panel.shown_line() == panel.suspects[row].line
    assert line in panel.visible_lines()
    assert f"{line:>3} " in panel.source_view.document().findBlockByNumber(line - 1).text()
    marked = {selection.cursor.blockNumber() + 1 for selection in panel.source_view.extraSelections()}
    assert line in marked and 1 not in marked          # the shebang runs in every run: not marked
    shown = window.main_model.position
    assert panel.caption.text().startswith("Suspect lines of")     # a position the result ran: its own
    failing = [r for r in result.runs if r.failed
               and Position.from_fen(r.fen).play(" ".join(r.moves)) == shown]
    assert failing, shown.fen()
    assert line in failing[0].lines[panel.suspects[row].path]


def test_stop_ends_the_run_at_once(qtbot, window):
    panel = window.suspects_panel
    panel.depth.setValue(2)
    panel.seconds.setValue(120)
    panel.start_button.click()
    state = window.main_model.jobs["locate"]
    qtbot.waitUntil(lambda: state.done >= 2, timeout=60000)          # covered runs going
    stopped = time.monotonic()
    panel.stop_button.click()
    qtbot.waitUntil(lambda: not window.locating.running, timeout=10000)
    assert time.monotonic() - stopped < 5
    assert panel.start_button.isEnabled() and not panel.stop_button.isEnabled()
    assert state.result.stopped and len(state.result.runs) < 20
    assert "stopped" in panel.status.text()


# what the selector holds by the time Which line? is asked: a correct engine, which would agree
OTHER = f"perftree:{HERE.parent / 'correct.py'}"


def test_which_line_in_the_finder_report_locates_its_position(qtbot, window):
    """With the engines of the search, whatever the selector holds by then (another engine would
    agree: "nothing to locate", a false verdict)."""
    said = []
    window.main_model.messageChanged.connect(lambda: said.append(window.main_model.message.text))
    window.divider.find_mismatch(2)
    qtbot.waitUntil(lambda: not window.divider.busy(), timeout=30000)
    report = window.divider.report
    assert report.missing == ["b7b8n"]
    # while it searched, nothing said the divide was done and asked for the search already running
    assert not [text for text in said if "Find first mismatch" in text], said
    assert window.message.text().startswith("⚠ first mismatch after")
    assert window.finder_panel.which_line.isEnabled()
    window.engines.set(engine=OTHER)
    assert window.message.text() == ""              # it spoke of movegen.py's result: gone with it
    window.suspects_panel.runs.setValue(2)
    window.finder_panel.which_line.click()
    assert window.locating.running and window.tabs.currentWidget() is window.suspects_panel
    given = window.main_model.jobs["locate"].given
    assert (given.fen, given.moves, given.depth) == (PROMOTES, tuple(report.path), 1)
    assert str(given.engine) == ENGINE
    # while it runs, the tab says whose lines it is finding (not the selector's correct.py)
    assert window.suspects_panel.caption.text() == f"Suspect lines of locate · {PROMOTES} · movegen.py against core"
    qtbot.waitUntil(lambda: not window.locating.running, timeout=60000)
    result = window.main_model.jobs["locate"].result
    assert result.subject.engines[0] == "movegen.py" and not result.agree


def action(menu, starts: str):
    found = [a for a in menu.actions() if a.text().startswith(starts)]
    return found[0] if found else None


def test_which_line_on_a_differing_divide_row_and_a_finding_row(qtbot, window):
    """The divide tree's menu offers it on a differing row only (the position the move is
    generated in, at depth 1, for a move the engine does not generate); the Test engine tab's
    finding rows offer it on the finding's position."""
    window.suspects_panel.runs.setValue(2)
    window.divider.divide(1)
    qtbot.waitUntil(lambda: window.model.root.state == "loaded", timeout=20000)
    missing = window.model.node(window.model.find(["b7b8n"]))
    agreeing = window.model.node(window.model.find(["e1d1"]))
    assert action(window.exports.menu_for(agreeing), "Which line?") is None
    window.engines.set(engine=OTHER)                 # the tree keeps the engines it was divided with
    assert "movegen.py against core — <b>not the engines chosen now</b>" in window.tree.context.text()
    menu = window.exports.menu_for(missing)
    action(menu, "Which line?").trigger()
    assert window.locating.running and window.tabs.currentWidget() is window.suspects_panel
    given = window.main_model.jobs["locate"].given
    assert (given.fen, given.moves, given.depth) == (PROMOTES, (), 1)
    assert str(given.engine) == ENGINE
    # while it runs, the tab says whose lines it is finding (not the selector's correct.py)
    assert window.suspects_panel.caption.text() == f"Suspect lines of locate · {PROMOTES} · movegen.py against core"
    qtbot.waitUntil(lambda: not window.locating.running, timeout=60000)
    assert window.main_model.jobs["locate"].result.suspects

    from perftscope.core.engines.pair import EnginePair
    from perftscope.core.mismatch.findings import investigate
    panel = window.test_engine
    assert panel.row_menu(0) is None                  # no finding row yet
    engine, reference = EnginePair.parse(ENGINE, "core", 30.0).make_both()
    try:
        finding = investigate(engine, reference, Request.of(PROMOTES), 2, "fuzz #1")
    finally:
        engine.close()
        reference.close()
    assert finding.kind == "promotion"
    window.engines.set(engine=ENGINE)
    found_by_a_session(window, EnginePair.parse(ENGINE, "core", 30.0), finding)
    assert panel.found_with.text() == "found with movegen.py against core" and not panel.engines_stale
    window.engines.set(engine=OTHER)                 # chosen since: the finding is still movegen.py's
    assert panel.engines_stale and "found with movegen.py against core</b>, not the engines chosen now" \
        in panel.found_with.text()
    menu = panel.row_menu(0)
    action(menu, "Which line?").trigger()
    given = window.main_model.jobs["locate"].given
    assert window.locating.running and (given.fen, given.depth) == (PROMOTES, 2)
    assert str(given.engine) == ENGINE and given.timeout == 30.0
    window.locating.stop()
    qtbot.waitUntil(lambda: not window.locating.running, timeout=10000)


def found_by_a_session(window, pair, finding):
    """`finding` delivered to the Test engine tab as a session on `pair` delivers it."""
    from perftscope.core.job import Subject
    state = window.main_model.jobs["test"]
    state.begin(Subject(engines=(pair.engine_name, pair.reference_name)), "", given=pair)
    window.engine_tests.found(finding)
    state.end(None, "")


def test_the_fix_is_shown_beside_its_line_and_saved_as_a_patch(qtbot, tmp_path, monkeypatch):
    """An off-by-one planted in a copy of movegen.py: the tab shows the confirmed fix's diff beside
    the source, marks its line, and Save patch… writes the diff."""
    from PySide6.QtWidgets import QFileDialog

    from ..core.locate.test_locate_mutants import LONG_CASTLING_THROUGH_CHECK, line_of, planted_python
    from perftscope.core.locate import confirmation
    monkeypatch.setattr(confirmation, "FUZZ_SECONDS", 1.0)      # a second of the fix's focused fuzz, not 20
    engine = planted_python(tmp_path, ("attacked(board, row + 3, not white)", "attacked(board, row + 2, not white)"))
    w = MainWindow(LONG_CASTLING_THROUGH_CHECK, engine=f"perftree:{engine}")
    qtbot.addWidget(w)
    w.show()
    panel = w.suspects_panel
    panel.runs.setValue(16)
    panel.mutants.setValue(20)                    # as core/locate/test_locate_mutants.py's, which finds it
    panel.start_button.click()
    qtbot.waitUntil(lambda: not w.locating.running, timeout=180000)
    state = w.main_model.jobs["locate"]
    assert state.result is not None and not state.error, state.status
    line = line_of(engine, "row + 2, not white")
    assert panel.fix is not None and (panel.fix.file, panel.fix.line) == ("movegen.py", line)
    assert "+        if not attacked(board, row + 3, not white):" in panel.fix_view.toPlainText()
    assert f"Fix at movegen.py:{line}" in panel.fix_label.text() and panel.save_patch.isEnabled()
    assert f"{line} " in panel.source_view.toPlainText().split("\n")[line - 1] and \
        " fix │" in panel.source_view.toPlainText().split("\n")[line - 1]
    assert "a fix at movegen.py" in state.status
    saved = tmp_path / "saved.patch"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(saved), ""))
    panel.save_patch.click()
    assert saved.read_text() == panel.fix.diff
    # the patch applies to the engine and makes it the one without the bug
    fixed = tmp_path / "fixed"
    fixed.mkdir()
    (fixed / "movegen.py").write_text(engine.read_text())
    import subprocess
    subprocess.run(["patch", "-p1", "-s", "-i", str(saved)], cwd=fixed, check=True)
    assert "attacked(board, row + 3, not white)" in (fixed / "movegen.py").read_text()
