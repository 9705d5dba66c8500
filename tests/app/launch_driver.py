"""`perftscope gui`'s launch as a user meets it on an empty compile cache, driven like a user
while the kernels are still being prepared. Run by tests/app/test_launch.py in a process of
its own (PERFTSCOPE_CACHE an empty folder, a settings folder of its own); prints one JSON
object with what it saw."""
import json
import sys

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from perftscope.app.launch import attach, start_preparation, wait_in_event_loop, window_shown

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def centre(view, name):
    from perftscope.core.board.position import parse_square
    return view.square_rect(parse_square(name)).center().toPoint()


def main():
    app = QApplication(sys.argv[:1])
    preparation, news = start_preparation(terminal=None)
    from perftscope.app.gui import MainWindow
    window = MainWindow(reference="python-chess", engine="none")
    attach(window, preparation, news)
    window.show()
    window_shown(app, preparation)
    seen = {"at_open": {"panel": window.run_panel.progress_text(),
                        "start_enabled": window.run_panel.start_button.isEnabled()}}
    # a FEN typed into the FEN field, then castling played on the board with the mouse
    board = window.board
    board.fen_edit.setText(KIWIPETE)
    QTest.keyClick(board.fen_edit, Qt.Key_Return)
    QTest.mouseClick(board.view, Qt.LeftButton, pos=centre(board.view, "e1"))
    QTest.mouseClick(board.view, Qt.LeftButton, pos=centre(board.view, "g1"))
    app.processEvents()
    seen["after_move"] = {"fen": board.position.fen(), "pool_ready": preparation.ready("pool"),
                          "board_kernels_ready": preparation.ready("board"),
                          "panel": window.run_panel.progress_text(),
                          "start_enabled": window.run_panel.start_button.isEnabled()}
    wait_in_event_loop(preparation, 900)
    app.processEvents()
    seen["prepared"] = {name: preparation.ready(name) for name in preparation.steps}
    seen["after_preparation"] = {"panel": window.run_panel.progress_text(),
                                 "start_enabled": window.run_panel.start_button.isEnabled(),
                                 "overlays": window.main_model.analysis is not None}
    results = []
    window.runs.finished.connect(results.append)
    window.run_panel.set_settings(depth=3, workers=2, hash_exp=16)
    QTest.mouseClick(window.run_panel.start_button, Qt.LeftButton)
    while window.runs.running:
        QTest.qWait(50)
    seen["run"] = {"fen": results[0].fen, "nodes": results[0].nodes} if results else None
    window.close()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
