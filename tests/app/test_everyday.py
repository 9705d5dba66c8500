"""The window's everyday features: paste, undo, the editor, notation, divide export, the
tree's row menu, Help/About, remembered settings, runs without a table."""
import csv
import io
import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog

from perftscope.app import help
from perftscope.app.gui import MainWindow
from perftscope.core.board.position import START_FEN, Position
from perftscope.core.mismatch.verdicts import ILLEGAL
from perftscope.widgets.divide_export import csv_text, json_text, level, row_fen, stockfish_text
from perftscope.widgets.notation import san_or_uci
from perftscope.core.engines.oracle import Request

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
EP_PIN = "8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1"


@pytest.fixture(scope="module", autouse=True)
def _compiled():
    from perftscope.app.warmup import warm
    warm()


@pytest.fixture
def window(qtbot):
    def make(fen=START_FEN):
        w = MainWindow(fen, reference="python-chess", engine="core")
        qtbot.addWidget(w)
        w.show()
        return w
    return make


def test_paste_fen_loads_a_good_one_and_names_the_field_of_a_bad_one(qtbot, window):
    w = window()
    QApplication.clipboard().setText(f"  {KIWIPETE}\n")
    assert w.board_commands.paste_fen() and w.board.position.fen() == KIWIPETE
    QApplication.clipboard().setText("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert not w.board_commands.paste_fen()
    assert "field 1" in w.message.text() and w.board.position.fen() == KIWIPETE


def test_undo_restores_the_fen_through_the_edit_menu(qtbot, window):
    w = window()
    assert not w.menus.undo.isEnabled()
    w.board.play("e2e4")
    w.board_commands.set_fen(KIWIPETE)
    assert w.menus.undo.isEnabled() and w.menus.undo.shortcut().toString() == "Ctrl+Z"
    w.menus.undo.trigger()
    assert w.board.fen_edit.text() == Position.from_fen(START_FEN).push("e2e4").fen()
    w.menus.undo.trigger()
    assert w.board.position.fen() == START_FEN and not w.menus.undo.isEnabled()
    w.menus.redo.trigger()
    assert w.board.moves == ["e2e4"]


def test_edit_position_puts_the_set_up_position_on_the_board(qtbot, window):
    w = window()

    def set_up(dialog):
        dialog.load("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
        dialog.side.setCurrentIndex(1)
        dialog.accept()
    w.board_commands.edit_position(set_up)
    assert w.board.position.fen() == "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1"

    def refuse(dialog):
        dialog.clear()
        dialog.accept()                     # refused: no kings
        assert "king" in dialog.error.text()
    dialog = w.board_commands.edit_position(refuse)
    assert dialog.result() != QDialog.Accepted
    assert w.board.position.fen() == "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1"


def divided(qtbot, w, depth=2):
    w.divider.divide(depth)
    qtbot.waitUntil(lambda: w.model.root.state == "loaded", timeout=30000)
    return [n.row for n in w.model.root.children]


def test_copy_divide_yields_stockfishs_format(qtbot, window):
    import chess

    w = window(KIWIPETE)
    rows = divided(qtbot, w)
    QApplication.clipboard().clear()
    w.exports.copy_stockfish()
    text = QApplication.clipboard().text()
    lines = text.split("\n")
    board = chess.Board(KIWIPETE)
    assert len(rows) == board.legal_moves.count() == 48
    # 'move: count' per root move, a blank line, the total: as `go perft 2` prints it
    assert lines[-3:] == ["", "Nodes searched: 2039", ""]
    counts = dict(line.split(": ") for line in lines[:-3])
    assert set(counts) == {m.uci() for m in board.legal_moves}
    for move in ("e1g1", "a2a3", "d5e6"):
        board.push_uci(move)
        assert int(counts[move]) == board.legal_moves.count()
        board.pop()


def test_divide_saves_as_csv_and_json(qtbot, window, tmp_path):
    w = window(KIWIPETE)
    rows = divided(qtbot, w, 1)
    w.exports.save(path=str(tmp_path / "d.json"))
    data = json.loads((tmp_path / "d.json").read_text())
    assert data["fen"] == KIWIPETE and data["depth"] == 1 and len(data["rows"]) == 48
    assert all(r["engine"] == r["reference"] == 1 for r in data["rows"])
    w.exports.save(path=str(tmp_path / "d.csv"))
    lines = (tmp_path / "d.csv").read_text().splitlines()
    assert lines[0].startswith("fen,moves,depth,move,engine") and len(lines) == 49
    assert lines[1].endswith(",1,1,0,agrees,")
    assert csv_text(KIWIPETE, [], 1, rows, "core", "python-chess") == (tmp_path / "d.csv").read_text()
    assert json.loads(json_text(KIWIPETE, [], 1, rows, "a", "b"))["rows"] == data["rows"]


def test_row_menu_copies_fen_and_path_and_makes_a_new_root(qtbot, window):
    w = window(KIWIPETE)
    divided(qtbot, w, 2)
    node = w.model.node(w.model.find(["e1g1"]))
    menu = w.exports.menu_for(node)
    actions = {a.text(): a for a in menu.actions() if a.text()}
    actions["Copy this row's FEN"].trigger()
    assert QApplication.clipboard().text() == Position.from_fen(KIWIPETE).push("e1g1").fen()
    assert row_fen(w.model, node) == QApplication.clipboard().text()
    actions["Copy the move path (with its root FEN)"].trigger()
    assert QApplication.clipboard().text() == f"position fen {KIWIPETE} moves e1g1"
    actions["Copy the FEN before this move"].trigger()
    assert QApplication.clipboard().text() == KIWIPETE
    actions["Copy the move (e1g1)"].trigger()
    assert QApplication.clipboard().text() == "e1g1"
    actions["Make this row the new root"].trigger()
    assert w.board.position == Position.from_fen(KIWIPETE).push("e1g1")
    qtbot.waitUntil(lambda: w.model.root.state == "loaded", timeout=30000)
    assert w.model.root.depth == 1 and w.model.fen == Position.from_fen(KIWIPETE).push("e1g1").fen()


def test_an_illegal_rows_menu_copies_where_it_is_generated_its_path_and_itself(qtbot, engine_path):
    # e4d3 is the planted engine's illegal en passant: there is no position after it
    w = MainWindow(EP_PIN, reference="core", engine=f"perftree:{engine_path('ep_rank_pin')}")
    qtbot.addWidget(w)
    divided(qtbot, w, 2)
    parent = w.model.node(w.model.find(["d2d4"]))
    w.model.fetchMore(w.model.index_of(parent))             # what expanding the row asks
    qtbot.waitUntil(lambda: parent.state == "loaded", timeout=30000)
    node = w.model.node(w.model.find(["d2d4", "e4d3"]))
    assert node.verdict is ILLEGAL
    menu = w.exports.menu_for(node)
    actions = {a.text(): a for a in menu.actions() if a.text()}
    assert "Copy this row's FEN" not in actions and "Make this row the new root" not in actions
    actions["Copy the FEN before this move"].trigger()
    assert QApplication.clipboard().text() == "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"
    actions["Copy the move path (with its root FEN)"].trigger()
    assert QApplication.clipboard().text() == f"position fen {EP_PIN} moves d2d4 e4d3"
    actions["Copy the move (e4d3)"].trigger()
    assert QApplication.clipboard().text() == "e4d3"
    # and the exports keep the verdict and its reason
    moves, depth, rows = level(w.model, parent)
    exported = json.loads(json_text(w.model.fen, moves, depth, rows, "ep_rank_pin.py", "core"))["rows"]
    illegal = next(r for r in exported if r["move"] == "e4d3")
    assert illegal["verdict"] == "illegal" and illegal["engine"] == 1 and illegal["reference"] is None
    assert illegal["reason"] == "en passant e4d3 exposes king a4 to queen h4 along rank 4"
    table = list(csv.reader(io.StringIO(csv_text(w.model.fen, moves, depth, rows, "ep_rank_pin.py", "core"))))
    assert table[0][-2:] == ["verdict", "reason"]
    assert next(r for r in table if r[3] == "e4d3")[-2:] == ["illegal", illegal["reason"]]
    assert {r[-2] for r in table[1:] if r[3] != "e4d3"} == {"agrees"}


def test_a_move_that_is_not_legal_keeps_its_uci_in_san_mode():
    # python-chess writes any king move e1c1 as a castling, legal or not (here O-O-O, elsewhere O-O+)
    assert san_or_uci("8/8/8/2R1B2b/6nN/8/5P2/4K1k1 w - - 2 2", [], "e1c1") == "e1c1"
    assert san_or_uci("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", [], "e1c1") == "O-O-O"
    assert san_or_uci(START_FEN, ["e2e4"], "e7e5") == "e5"
    # a Chess960 castling is the king taking its rook
    assert san_or_uci("8/8/8/4B2b/6nN/8/5P2/2R1K2k w C - 0 1", [], "e1c1") == "O-O-O#"


def test_stockfish_text_leaves_out_moves_the_side_does_not_play():
    from perftscope.core.mismatch.finder import Row
    rows = [Row("e2e4", 20, 20), Row("e1g1", 5, None), Row("a2a3", None, 20)]
    assert stockfish_text(rows) == "e2e4: 20\na2a3: 20\n\nNodes searched: 40\n"
    assert stockfish_text(rows, "engine") == "e2e4: 20\ne1g1: 5\n\nNodes searched: 25\n"


def test_settings_survive_a_new_window(qtbot, window):
    w = window()
    w.menus.san.trigger()                         # SAN is on by default: now UCI
    w.run_panel.set_settings(depth=7, workers=1, hash_exp=-1)
    w.legend.set_enabled("pins", False)
    w.resize(796, 580)         # inside the offscreen screen (800x600): restoreGeometry clamps to it
    # the window's minimum decides the width it gets: with the app's Fusion style (set by an
    # earlier test's `perftscope gui` in the same process) that is a few pixels over 796
    size = (w.width(), w.height())
    assert size[0] <= 800 and size[1] == 580
    main = w.findChild(type(w.centralWidget()), "main")
    main.setSizes([200, 500, 400])
    sizes = main.sizes()
    # the run settings of the Test engine and Race tabs, a position of the user's own among them
    w.test_engine.choose(mode="fuzz", suite="chess960.perft", seconds=75, seed=9)
    w.race_panel.add_engine("python-chess")
    w.race_panel.add_engine("uci:/usr/games/stockfish")
    w.race_panel.by_depth.setChecked(True)
    w.race_panel.depth.setValue(5)
    w.race_panel.seconds.setValue(12.5)
    w.race_panel.add_fen(EP_PIN)
    w.race_panel.position_list.item(0).setCheckState(Qt.Unchecked)
    w.race_panel.core.setChecked(False)
    race = w.race_panel.settings()
    # and the Suspect lines tab's
    w.suspects_panel.source.setText("/home/me/engine/src")
    w.suspects_panel.depth.setValue(4)
    w.suspects_panel.seconds.setValue(90)
    w.suspects_panel.runs.setValue(30)
    w.suspects_panel.mutants.setValue(120)
    w.suspects_panel.build.setText("make -j2")
    w.tree.set_depth(4)                                      # the Divide depth
    w.close()
    again = window()
    assert again.tree.depth() == 4
    assert again.test_engine.choices() == {"mode": "fuzz", "suite": "chess960.perft", "max_depth": 2,
                                           "jobs": 2, "depth": 2, "seconds": 75.0, "seed": 9}
    assert again.race_panel.specs() == ["python-chess", "uci:/usr/games/stockfish"]
    assert again.suspects_panel.options() == {"sources": ("/home/me/engine/src",), "depth": 4, "seconds": 90.0,
                                              "runs": 30, "mutants": 120, "build": "make -j2"}
    assert again.race_panel.settings() == race
    assert race.depth == 5 and race.seconds is None and race.yardsticks in ((), ("stockfish",))
    assert [p.fen for p in race.positions][-1] == EP_PIN and len(race.positions) == 5
    assert not again.menus.san.isChecked() and not again.board.san
    depth, workers, hash_exp = again.run_panel.settings()
    assert depth == 7 and workers == 1
    assert hash_exp == -1
    assert "pins" not in again.legend.enabled()
    assert (again.width(), again.height()) == size
    assert again.findChild(type(again.centralWidget()), "main").sizes() == sizes


def test_help_lists_the_shortcuts_and_about_the_versions(qtbot, window):
    import chess
    import numba

    w = window()
    text = help.help_html(w)
    for keys in ("Ctrl+Z", "Ctrl+V", "Ctrl+E", "Ctrl+F", "F1"):
        assert keys in text
    # the roles as the window names them: your engine is debugged, the reference is the truth
    words = " ".join(text.split())
    assert "the <i>Engine</i> selector is the engine you are debugging" in words
    assert "the <i>Reference</i> is the truth it is compared with" in words
    assert "<b>Test engine</b> tab" in words and "or your own engine" not in words
    about = dict(help.about_rows())
    assert about["numba"] == numba.__version__ and about["python-chess"] == chess.__version__
    assert about["slider attacks"].split()[0] in ("pext", "magic") and "numba-" in about["compile cache"]
    dialog = help.show_text(w, "About perftscope", help.about_html())
    assert numba.__version__ in dialog.browser.toPlainText()
    dialog.close()


def test_a_run_without_a_table_says_so_and_keeps_its_final_figures(qtbot, window):
    w = window()
    w.run_panel.set_settings(workers=1, hash_exp=-1)
    with qtbot.waitSignal(w.runs.finished, timeout=30000) as done:
        w.runs.start_at(4)
    assert done.args[0].nodes == 197281
    assert w.graphs.no_table.isVisible() and not w.graphs.hit_plot.isVisible()
    caption = w.graphs.caption.text()
    assert "197,281" in caption and START_FEN in caption and "1 worker" in caption and "no table" in caption
    w.run_panel.set_settings(hash_exp=18)
    with qtbot.waitSignal(w.runs.finished, timeout=30000):
        w.runs.start_at(4)
    assert not w.graphs.no_table.isVisible() and w.graphs.hit_plot.isVisible()


def test_the_notation_toggle_reaches_the_divide_tree(qtbot, window):
    w = window(KIWIPETE)
    divided(qtbot, w, 1)
    index = w.model.find(["e1g1"])
    assert w.model.data(index) == "O-O"                  # SAN by default
    assert w.model.data(w.model.find(["e5f7"])) == "Nxf7"
    w.menus.san.trigger()
    assert w.model.data(index) == "e1g1" and not w.board.san


def test_san_reaches_the_finder_report(qtbot, window, engine_path):
    """The notation toggle covers the finder's report too: SAN beside the UCI engines print."""
    from perftscope.core.mismatch.finder import find_mismatch
    from perftscope.core.engines.oracles import make_oracle

    w = window()
    report = find_mismatch(make_oracle(f"perftree:{engine_path('ep_rank_pin')}"), make_oracle("core"),
                           Request.of("8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1"), 2)
    assert report.path == ["d2d4"] and report.extra == ["e4d3"]
    w.finder_panel.show_report(report)
    assert w.menus.san.isChecked()               # SAN by default
    text = w.finder_panel.text()
    assert "path: d2d4 (d4)" in text
    w.menus.san.trigger()                        # UCI
    assert "path: d2d4" in w.finder_panel.text() and "(d4)" not in w.finder_panel.text()


def test_san_reaches_the_test_engine_findings(qtbot, window, engine_path):
    """The notation toggle covers the Test-engine tab's findings, rows already shown included."""
    from perftscope.core.mismatch.finder import find_mismatch
    from perftscope.core.mismatch.findings import Finding
    from perftscope.core.engines.oracles import make_oracle
    from perftscope.core.mismatch.verdicts import NOT_GENERATED

    fen = "8/P7/8/8/8/8/8/k6K w - - 0 1"
    w = window()
    report = find_mismatch(make_oracle(f"perftree:{engine_path('no_underpromotion')}"), make_oracle("core"),
                           Request.of(fen), 1)
    assert report.missing == ["a7a8n"] and not report.extra
    w.test_engine.add_finding(Finding(fen=fen, depth=1, kind="promotion", report=report, name="fuzz #1"),
                              "no_underpromotion.py", "core")
    moves = w.test_engine.table.item(0, 1).text
    assert w.menus.san.isChecked()                # SAN by default, beside the UCI
    assert moves() == f"{NOT_GENERATED.word} a7a8n (a8=N)"
    w.menus.san.trigger()                         # UCI
    assert moves() == f"{NOT_GENERATED.word} a7a8n"
    w.menus.san.trigger()
    assert moves() == f"{NOT_GENERATED.word} a7a8n (a8=N)"


def test_the_library_deselects_its_entry_once_the_board_shows_another_position(qtbot, window):
    w = window()
    group = w.library.tree.topLevelItem(0)
    item = next(group.child(i) for i in range(group.childCount()) if "Kiwipete" in group.child(i).text(0))
    w.library.tree.setCurrentItem(item)
    w.library.tree.itemClicked.emit(item, 0)
    assert w.board.position.fen().startswith("r3k2r/p1ppqpb1") and w.library.tree.currentItem() is item
    assert "Kiwipete" in w.library.note.text()
    w.board_commands.set_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1")
    assert w.library.tree.currentItem() is None and w.library.note.text() == ""
