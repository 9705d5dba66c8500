import json

import pytest
from PySide6.QtGui import QImage

from perftscope.app.cli import main
from perftscope.app.gui import MainWindow
from perftscope.core.board.position import START_FEN, Position
from perftscope.core.mismatch.verdicts import ILLEGAL
from perftscope.widgets.overlays import Arrow

POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@pytest.fixture(scope="module", autouse=True)
def _compiled():
    """Compile the kernels the window runs before any test times it: on a fresh machine the
    first pool run and analysis compile for tens of seconds, which no GUI test is about."""
    from perftscope.core.board.analysis import analyze
    from perftscope.core.counting.pool import perft
    pos = Position.from_fen(START_FEN)
    perft(pos, 3, workers=1)
    perft(pos, 3, workers=1, hash_exp=16)
    perft(pos, 3, workers=1, divide=True)
    analyze(pos)


@pytest.fixture
def window(qtbot):
    def make(fen=START_FEN, reference="python-chess", engine="core", timeout=None):
        w = MainWindow(fen, reference=reference, engine=engine, timeout=timeout)
        qtbot.addWidget(w)
        w.show()
        return w
    return make


def status(w):
    return w.message.text()


def test_find_first_mismatch_lands_on_the_position_where_the_lists_differ(qtbot, window, engine_path):
    # the planted engine lets a pawn take en passant through a rank pin: an illegal move it generates
    w = window(POSITION_3, "core", f"perftree:{engine_path('ep_rank_pin')}")
    w.divider.find_mismatch(3)
    qtbot.waitUntil(lambda: not w.finder.running, timeout=60000)
    report = w.divider.report
    assert report is not None and report.extra and not report.missing
    node = w.model.node(w.tree.view.currentIndex())
    # the selected row is the move only the engine generates, below the finder's path
    assert node.moves == tuple(report.path) + (report.extra[0],)
    assert node.verdict is ILLEGAL and node.row.reference is None
    bad = report.extra[0]
    assert bad[2:4] in ("e3", "g3") and bad[:2] == "f4"          # an en-passant capture
    assert bad not in Position.from_fen(POSITION_3).play(report.path).legal_moves()
    # the board shows the position where the lists differ, with the move marked on it
    assert w.board.position == Position.from_fen(POSITION_3).play(report.path)
    marks = [s for layer in w.board.view.layers if layer.key == "mismatch" for s in layer.shapes]
    assert any(isinstance(s, Arrow) for s in marks)
    assert "first mismatch" in status(w) and f"{bad} illegal" in status(w)
    # every level the finder walked is in the tree, expanded
    for i in range(len(report.path)):
        assert w.tree.view.isExpanded(w.model.find(report.path[:i + 1]))


def test_selecting_a_row_shows_its_position_with_overlays(qtbot, window):
    fen = "4k3/3n4/8/8/8/8/4B3/4K3 w - - 0 1"
    w = window(fen)
    w.divider.divide(2)
    qtbot.waitUntil(lambda: w.model.root.state == "loaded", timeout=20000)
    assert "agree" in status(w)
    w.tree.view.setCurrentIndex(w.model.find(["e2b5"]))
    assert w.board.position == Position.from_fen(fen).push("e2b5")
    pins = [layer for layer in w.board.view.layers if layer.key == "pins"]
    assert pins and pins[0].arrows() == {(33, 60)}          # b5 through d7 to e8
    w.legend.set_enabled("pins", False)
    assert not [layer for layer in w.board.view.layers if layer.key == "pins"]


def test_overlay_choices_are_remembered_between_sessions(qtbot, window):
    w = window()
    w.legend.set_enabled("pins", False)
    w.legend.set_enabled("king_zone", True)
    again = window()
    assert "pins" not in again.legend.enabled() and "king_zone" in again.legend.enabled()
    for key in list(again.legend.enabled()):
        again.legend.set_enabled(key, False)
    assert window().legend.enabled() == set()


def test_a_new_divide_stops_the_one_still_running(qtbot, window):
    w = window(KIWIPETE, "python-chess", "core")
    w.divider.divide(5)                                   # minutes for python-chess
    qtbot.wait(300)
    first = list(w.divides._jobs)
    w.divider.divide(2)
    qtbot.waitUntil(lambda: all(job.done.is_set() for job in first), timeout=5000)
    qtbot.waitUntil(lambda: w.model.root.state == "loaded", timeout=20000)
    assert w.model.totals() == (2039, 2039)


def test_engine_errors_show_in_the_window_and_it_keeps_working(qtbot, window):
    w = window(reference="uci:/nonexistent/engine")
    w.divider.divide(2)
    qtbot.waitUntil(lambda: "nonexistent" in status(w), timeout=10000)
    assert w.model.root.state == "failed"
    w.engines.set(reference="python-chess")
    w.divider.divide(2)
    qtbot.waitUntil(lambda: w.model.root.state == "loaded", timeout=10000)
    assert w.model.totals() == (400, 400)


@pytest.mark.parametrize("action", ["divide", "find_mismatch"])
def test_stop_ends_a_slow_divide_or_search_and_the_tree_keeps_working(qtbot, window, action):
    # python-chess needs minutes for divide 5 of Kiwipete
    w = window(KIWIPETE, "python-chess", "core")
    getattr(w.divider, action)(5)
    qtbot.waitUntil(w.tree.can_stop, timeout=5000)
    qtbot.wait(300)                              # let the engines get going
    if action == "find_mismatch":
        # a Job like the others: its activity (the engine call waited for) is its tab's status line
        qtbot.waitUntil(lambda: "waiting for python-chess: call 1, " in w.finder_panel.status.text(), timeout=5000)
        assert w.finder_panel.stop_button.isEnabled()
    w.tree.stop()
    assert w.model.root.state == "failed"
    assert "stopped" in status(w) and "stopped" in w.tree.summary.text()
    if action == "find_mismatch":
        # Stop went to the search's job: its engine call ended, the report so far arrives, stopped
        qtbot.waitUntil(lambda: not w.finder.running, timeout=5000)
        assert w.finder.report is not None and w.finder.report.cancelled
        assert "stopped before the end" in w.finder_panel.text() and not w.finder_panel.stop_button.isEnabled()
        assert status(w) == "search stopped: nothing was found before"     # the search's words, not a divide's
    # the engines really stop: every job of the service ends soon after
    qtbot.waitUntil(lambda: all(job.done.is_set() for job in list(w.divides._jobs)), timeout=5000)
    w.divider.divide(2)
    qtbot.waitUntil(lambda: w.model.root.state == "loaded", timeout=20000)
    assert w.model.totals() == (2039, 2039)
    qtbot.waitUntil(lambda: not w.tree.can_stop(), timeout=2000)


def test_bad_fen_in_the_window_is_a_message_not_a_crash(qtbot, window):
    w = window()
    assert not w.board_commands.set_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1")
    assert "FEN field 1" in status(w)
    assert w.board.position == Position.from_fen(START_FEN)


def test_library_click_loads_the_position(qtbot, window):
    w = window()
    group = w.library.tree.topLevelItem(0)
    item = group.child(1)
    w.library.tree.itemClicked.emit(item, 0)
    assert w.board.position.fen() == w.library._entry(item).full_fen
    assert "Loaded" in status(w)


def test_screenshot_saves_the_whole_window_after_the_divide(qtbot, tmp_path, capsys):
    path = tmp_path / "window.png"
    code = main(["gui", "--fen", POSITION_3, "--divide", "2", "--reference", "python-chess",
                 "--overlays", "all", "--screenshot", str(path)])
    assert code == 0
    image = QImage(str(path))
    assert image.width() >= 1200 and image.height() >= 700
    assert capsys.readouterr().out.strip() == str(path)


@pytest.mark.parametrize("args, message", [
    (["--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], "kings"),
    (["--reference", "lc0"], "--reference 'lc0'"),
    (["--overlays", "pins,threats"], "unknown layer 'threats'"),
    (["--divide", "0"], "--divide: depth must be between 1 and 10"),
    (["--engine", "perftree:"], "--engine 'perftree:'"),
    (["--find", "2", "--engine", "none"], "--find: no engine to debug"),
])
def test_bad_arguments_exit_2_with_one_line(args, message, capsys, tmp_path):
    shot = tmp_path / "never.png"
    assert main(["gui", *args, "--screenshot", str(shot)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not shot.exists()


def test_no_display_explains_how_to_run_it(monkeypatch, capsys):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    assert main(["gui"]) == 2
    err = capsys.readouterr().err
    assert "no display" in err and "xvfb-run" in err and err.count("\n") == 1


def test_with_no_display_a_session_is_still_saved_offscreen(monkeypatch, tmp_path, capsys):
    """--save-session and --screenshot show nothing, so they need no X server: a CI job saves
    both without xvfb-run."""
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    session, shot = tmp_path / "s.json", tmp_path / "s.png"
    assert main(["gui", "--fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "--divide", "1",
                 "--save-session", str(session), "--screenshot", str(shot), "--size", "1300x900"]) == 0
    assert json.loads(session.read_text())["fen"].startswith("4k3/8/8/8/8/8/8/4K2R w K")
    assert not QImage(str(shot)).isNull()


def start_long_run(qtbot, w, workers=2):
    # perft 8 of the start position: 85 G nodes, tens of seconds on two workers, far longer than
    # any test waits (perft 7 now ends in about a second: the 50 ms event-loop test watches 2 s)
    w.board_commands.set_fen(START_FEN)
    w.run_panel.set_settings(depth=8, workers=workers, hash_exp=-1)
    w.run_panel.request_start()
    qtbot.waitUntil(lambda: w.graphs.t.size >= 3 and w.graphs.nps.values().max() > 0, timeout=30000)


def test_stop_cancels_a_run_and_the_graphs_kept_its_counters(qtbot, window):
    w = window()
    start_long_run(qtbot, w)
    assert w.runs.running and not w.run_panel.can_start()
    assert w.graphs.worker_nodes.shape == (2,) and w.graphs.nps.values().max() > 0
    with qtbot.waitSignal(w.runs.finished, timeout=5000) as signal:
        w.run_panel.request_stop()
    assert signal.args[0].cancelled and signal.args[0].nodes is None
    assert not w.runs.running and w.run_panel.can_start()
    assert w.run_panel.progress_text() == "stopped"


def test_a_finished_run_shows_nodes_time_and_rate(qtbot, window):
    w = window()
    w.run_panel.set_settings(depth=4)
    with qtbot.waitSignal(w.runs.finished, timeout=30000) as signal:
        w.run_panel.request_start()
    result = signal.args[0]
    assert result.nodes == 197281 and not result.cancelled
    assert "197,281" in w.run_panel.status_text() and "nps" in w.run_panel.status_text()


def runqueue_wait() -> float:
    """Seconds this thread has spent runnable but waiting for a CPU (Linux schedstat)."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except OSError:
        return 0.0


def max_timer_stall(qtbot, seconds: float) -> float:
    """The longest wait between two firings of a 5 ms timer over `seconds`, less the time
    the scheduler kept the GUI thread off a busy CPU in that wait: other processes on a
    shared machine are not the event loop being blocked, a long paint or a held GIL is."""
    import time

    from PySide6.QtCore import QTimer
    beats = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: beats.append((time.perf_counter(), runqueue_wait())))
    timer.start()
    qtbot.wait(int(seconds * 1000))
    timer.stop()
    assert len(beats) > 20
    return max((t1 - t0) - (q1 - q0) for (t0, q0), (t1, q1) in zip(beats, beats[1:]))


@pytest.mark.alone           # a bound of 50 ms
def test_the_event_loop_answers_within_50_ms_during_a_long_run(qtbot, window):
    import gc
    gc.collect()              # earlier tests' windows are garbage: their collection is not this run's
    gc.freeze()               # nor is scanning the objects earlier tests left alive: a full collection
    try:                      # then walks this window's heap, as it would in a freshly started app
        w = window()
        w.tabs.setCurrentWidget(w.graphs.parentWidget())      # the live graphs are on screen and repainting
        start_long_run(qtbot, w)
        stall = max_timer_stall(qtbot, 2.0)
        w.runs.stop()
    finally:
        gc.unfreeze()
    qtbot.waitUntil(lambda: not w.runs.running, timeout=5000)
    assert stall < 0.050, f"the GUI thread was blocked {stall * 1000:.0f} ms during the run"


def test_the_window_opens_on_a_real_x_server_under_xvfb(tmp_path):
    """What `make run` does on a desktop: the xcb platform plugin, not offscreen. Catches a
    missing system library (the plugin aborts the process without it)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    shot = tmp_path / "window.png"
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    env["XDG_CONFIG_HOME"] = str(tmp_path)          # leave the user's settings alone
    perftscope = str(Path(sys.executable).parent / "perftscope")
    proc = subprocess.run(["xvfb-run", "-a", perftscope, "gui", "--screenshot", str(shot)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    image = QImage(str(shot))
    assert not image.isNull() and image.width() > 600 and image.height() > 400


def test_the_application_has_its_icon(qapp):
    from perftscope.app.gui import apply_style
    apply_style(qapp)
    icon = qapp.windowIcon()
    assert not icon.isNull() and not icon.pixmap(32, 32).toImage().isNull()
