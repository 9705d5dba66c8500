"""The main window: board and overlays, position library, the user's engine divided against
a reference, the finder's report, the engine log, a perft run with live graphs, the Test-engine,
Race and Suspect lines tabs. A view in git-cola's sense: it builds the widgets, lays them out and wires them
to the model (app.model.MainModel: what the board shows, what each result belongs to, the status
line) and to the controllers that do the work (app.dividing, app.finding, app.perft_runs,
app.engine_tests, app.race, app.locating, each long job through app.job_control.JobController, app.session_files,
app.everyday, app.menus, app.memory). It keeps no state
of its own, and the widgets know nothing of each other.

Every result remembers the position it was computed for: when the board shows another one
the result is greyed, with a button that puts its position back.
"""
from __future__ import annotations

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import (QCheckBox, QGroupBox, QLabel, QMainWindow, QScrollArea, QSplitter, QVBoxLayout,
                               QWidget)

from perftscope.core.board.position import START_FEN
from perftscope.core.race.runner import standard_positions
from perftscope.widgets import palette
from perftscope.widgets.board import BoardPanel
from perftscope.widgets.context import ContextBar, grey_caption
from perftscope.widgets.divide_export import DivideActions, install as install_row_menu
from perftscope.widgets.divide_tree import DivideModel, DivideTreePanel
from perftscope.widgets.elided import ElidedLabel
from perftscope.widgets.engine_log import EngineLogPanel
from perftscope.widgets.finder_panel import FinderPanel
from perftscope.widgets.graphs import LiveGraphs
from perftscope.widgets.library import LibraryPanel
from perftscope.widgets.overlays import OverlayLegend, layers_from_analysis
from perftscope.widgets.race_panel import RacePanel
from perftscope.widgets.reference import EngineChoice, EngineSelection
from perftscope.widgets.run_panel import RunPanel
from perftscope.widgets.suspects_panel import SuspectsPanel
from perftscope.widgets.tabs import FittingTabs
from perftscope.widgets.test_engine_panel import TestEnginePanel

from .bridge import Bridge, DivideService
from .dividing import DivideController
from .engine_tests import EngineTestController
from .everyday import BoardCommands, Notation
from .finding import FinderController
from .locating import LocateController
from .memory import WindowMemory, fit_on_screen
from .menus import Menus
from .model import MainModel
from .race import RaceController
from .perft_runs import RunController
from .session_files import SessionController

STYLE = """
QGroupBox { font-weight: bold; border: 1px solid %(frame)s; border-radius: 4px; margin-top: 8px; }
QGroupBox::title { subcontrol-origin: margin; left: 8px; padding: 0 3px; }
QGroupBox > QWidget { font-weight: normal; }
QTabWidget::pane { border: 1px solid %(frame)s; }
QStatusBar { border-top: 1px solid %(rule)s; }
""" % {"frame": palette.FRAME, "rule": palette.RULE}


def apply_style(app):
    """Fusion looks the same on every desktop and under xvfb; a light frame around groups."""
    from perftscope import resources
    from PySide6.QtGui import QIcon

    app.setStyle("Fusion")
    app.setStyleSheet(STYLE)
    app.setWindowIcon(QIcon(str(resources.DIR / "icons" / "perftscope.svg")))


def boxed(title: str, widget: QWidget) -> QGroupBox:
    box = QGroupBox(title)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(4, 6, 4, 4)
    layout.addWidget(widget)
    return box


class MainWindow(QMainWindow):
    """`engine`, `reference` and `timeout` choose the engines (None: the ones remembered)."""

    def __init__(self, fen: str = START_FEN, reference: str | None = None, engine: str | None = None,
                 settings: QSettings | None = None, timeout: float | None = None):
        super().__init__()
        self.setWindowTitle("perftscope")
        self.settings = settings or QSettings("perftscope", "perftscope")
        self.bridge = Bridge(parent=self)
        self.main_model = MainModel(self)
        self.engines = EngineSelection(self.settings, self)
        self.engines.set(engine=engine, reference=reference, timeout=timeout)
        self.divides = DivideService(self.bridge, self.engines.timeout)

        # the views
        self.board = BoardPanel()
        self.legend = OverlayLegend()
        self.library = LibraryPanel()
        self.model = DivideModel(self.divides.fetch)
        self.tree = DivideTreePanel(self.model, EngineChoice(self.engines))
        self.finder_panel = FinderPanel()
        self.engine_log = EngineLogPanel()
        self.run_panel = RunPanel()
        self.run_context = ContextBar("A perft run counts the position on the board with the core, "
                                      "perftscope's own move generator.")
        self.graphs = LiveGraphs()
        self.test_engine = TestEnginePanel(self.engines)
        self.race_panel = RacePanel(self.engines, standard_positions(), chess960=lambda: self.chess960.isChecked())
        self.suspects_panel = SuspectsPanel()
        self.exports = DivideActions(self.model, self)
        install_row_menu(self.tree, self.exports)
        self._layout()

        # the controllers, each given what it works on
        self.board_commands = BoardCommands(self.board, self.main_model, self)
        jobs = self.main_model.jobs
        self.finder = FinderController(self.bridge, self.divides, self.finder_panel, jobs["find"], parent=self)
        self.divider = DivideController(self.main_model, self.engines, self.divides, self.model, self.tree,
                                        self.finder, self.board_commands.set_fen, parent=self)
        self.runs = RunController(self.bridge, self.run_panel, self.graphs, self.run_context, self.main_model,
                                  parent=self)
        self.engine_tests = EngineTestController(self.bridge, self.test_engine, self.engines, jobs["test"],
                                                 chess960=self.chess960.isChecked, parent=self)
        self.races = RaceController(self.bridge, self.race_panel, jobs["race"], chess960=self.chess960.isChecked,
                                    parent=self)
        self.locating = LocateController(self.bridge, self.suspects_panel, self.engines, self.main_model,
                                         jobs["locate"], parent=self)
        self.sessions = SessionController(self.main_model, self.engines, self.divider)
        self.notation = Notation(self.settings, self.board, self.model, self.finder_panel, self.test_engine,
                                 parent=self)
        self.menus = Menus(self, self.board, self.board_commands, self.sessions, self.exports, self.notation)
        self.memory = WindowMemory(self.settings, self, self.legend, self.notation, self.run_panel,
                                   {"test_engine": self.test_engine, "race": self.race_panel,
                                    "suspects": self.suspects_panel}, divide_tree=self.tree)
        self.memory.restore_overlays()
        self._connect()
        self.memory.restore()
        self.board_commands.set_fen(fen)

    # --- layout ----------------------------------------------------------------------
    def _layout(self):
        legend = QScrollArea()
        legend.setWidget(self.legend)
        legend.setWidgetResizable(True)
        legend.setFrameShape(QScrollArea.NoFrame)
        centre = QSplitter(Qt.Vertical)
        centre.setObjectName("centre")              # named splitters are remembered (app.memory)
        centre.addWidget(self.board)
        centre.addWidget(boxed("Overlays", legend))
        centre.setStretchFactor(0, 1)
        centre.setSizes([640, 200])

        run_tab = QWidget()
        run_box = QVBoxLayout(run_tab)
        run_box.setContentsMargins(0, 0, 0, 0)
        run_box.addWidget(self.run_context)
        run_box.addWidget(self.run_panel)
        run_box.addWidget(self.graphs, 1)
        run_scroll = QScrollArea()                   # a short window scrolls the graphs, never clips them
        run_scroll.setWidget(run_tab)
        run_scroll.setWidgetResizable(True)
        run_scroll.setFrameShape(QScrollArea.NoFrame)
        self.run_tab = run_scroll                    # the tab's page
        race_scroll = QScrollArea()                  # the race's graphs and table scroll in a small window
        race_scroll.setWidget(self.race_panel)
        race_scroll.setWidgetResizable(True)
        race_scroll.setFrameShape(QScrollArea.NoFrame)
        self.race_tab = race_scroll
        # every tab stays in sight at 1024 px: short titles, whole, when the full ones do not fit
        self.tabs = FittingTabs()
        self.tabs.add(self.tree, "Divide", "Divide", "Divide: the engine against the reference, move by move")
        self.tabs.add(self.finder_panel, "Finder report", "Finder")
        self.tabs.add(self.engine_log, "Engine log", "Log")
        self.tabs.add(self.run_tab, "Perft run", "Perft")
        self.tabs.add(self.test_engine, "Test engine", "Test", "Test engine: suite and fuzz sessions")
        self.tabs.add(self.race_tab, "Race", "Race", "Race: engines raced beside the core and Stockfish")
        self.tabs.add(self.suspects_panel, "Suspect lines", "Lines",
                      "Suspect lines: which lines of the engine's source make it wrong (locate)")

        main = QSplitter(Qt.Horizontal)
        main.setObjectName("main")
        main.addWidget(boxed("Position library", self.library))
        main.addWidget(centre)
        main.addWidget(self.tabs)
        # the library keeps its width (first shown: _first_sizes), the board's column and the tabs
        # share the rest 5 to 6: at 1024 px the FEN field gets 370 px (the start position's FEN
        # whole at 10 px) and the tabs 440 (the Race tab needs 410)
        main.setStretchFactor(0, 0)
        main.setStretchFactor(1, 5)
        main.setStretchFactor(2, 6)
        main.setSizes([200, 600, 760])
        self.main_splitter = main
        self.setCentralWidget(main)
        self.message = ElidedLabel()           # a long message is cut short ("…"), whole in its tooltip
        self.waiting = QLabel()
        self.statusBar().addWidget(self.message, 1)
        self.statusBar().addPermanentWidget(self.waiting)
        self.chess960 = QCheckBox("Chess960")
        self.chess960.setToolTip("Castling is king takes rook (e1h1); the FEN is written in Shredder-FEN")
        self.statusBar().addPermanentWidget(self.chess960)
        self.resize(1560, 900)

    # --- wiring ----------------------------------------------------------------------
    def _connect(self):
        model = self.main_model
        self.board.positionChanged.connect(lambda pos: model.board_moved(pos, self.board.root(), self.board.start()))
        self.board.fenWritten.connect(model.root_written)
        self.board.positionChanged.connect(self._show_chess960)
        self.board.positionChanged.connect(self.library.show_position)
        model.showRequested.connect(self.board.set_position)
        model.changed.connect(self._show_model)
        model.messageChanged.connect(self._show_message)
        self.engines.changed.connect(lambda: model.engines_chosen(self.engines.readable_pair()))
        model.chosen = self.engines.readable_pair()
        model.jobs["locate"].changed.connect(self._show_model)       # a result arriving for another position
        self.legend.toggled.connect(self._show_layers)
        self.library.positionChosen.connect(self.board_commands.load)
        self.chess960.toggled.connect(self.board_commands.set_chess960)
        self.run_context.showRequested.connect(self.runs.show_position)
        self.exports.message.connect(model.say)
        self.exports.newRoot.connect(self.divider.new_root)
        self.divider.started.connect(lambda: self.tabs.setCurrentWidget(self.tree))
        jobs = model.jobs
        jobs["divide"].changed.connect(lambda: self.waiting.setText(jobs["divide"].status))
        self.runs.starting.connect(lambda: self.tabs.setCurrentWidget(self.run_tab))
        self.engine_tests.openRequested.connect(self.divider.open_finding)
        self.locating.starting.connect(lambda: self.tabs.setCurrentWidget(self.suspects_panel))
        # *Which line?* starts from the result's own engines and position (its Origin)
        self.exports.locateRequested.connect(self.divider.locate_row)
        self.finder_panel.locateRequested.connect(self.divider.locate_found)
        self.divider.locateRequested.connect(self.locating.locate)
        self.engine_tests.locateRequested.connect(self.locating.locate)
        self.races.locateRequested.connect(self.locating.locate)
        self.bridge.add_hook(self._tick)

    def _tick(self):
        """Once per bridge tick: the divide's engines, and the log when it is on screen."""
        self.divider.tick()
        if self.tabs.currentWidget() is self.engine_log:
            self.engine_log.show_logs(self.divides.logs())

    # --- showing the model ---------------------------------------------------------------
    def _show_model(self):
        """The board's caption and marks, the overlays, and every result greyed that was
        computed for another position than the board's."""
        model = self.main_model
        self.board.set_caption(model.caption)
        self.legend.show_mismatch(model.mark)
        self._show_layers()
        self.tree.set_stale(model.divide_stale)
        self.tree.context.set_other_engines(model.divide_other_engines)
        self.run_context.set_stale(model.run_stale)
        self.run_panel.set_stale(model.run_stale)
        grey_caption(self.suspects_panel.caption, model.locate_stale)
        self._show_message()

    def _show_layers(self):
        model = self.main_model
        layers = layers_from_analysis(model.analysis) if model.analysis is not None else {}
        self.legend.show_notes(layers)
        shown = [layers[k] for k in self.legend.enabled() if k in layers]
        if model.mark is not None:
            shown.append(model.mark)
        self.board.set_layers(shown)

    def _show_message(self):
        message = self.main_model.message
        text = f"⚠ {message.text}" if message.error else message.text
        if text and self.main_model.message_stale:
            self.message.setStyleSheet(f"color:{palette.STALE};")
            self.message.setText(f"(about another position) {text}")
        else:
            self.message.setStyleSheet(f"color:{palette.ERROR}; font-weight:bold;" if message.error else "")
            self.message.setText(text)

    def _show_chess960(self, pos):
        self.chess960.blockSignals(True)
        self.chess960.setChecked(pos.chess960)
        self.chess960.blockSignals(False)

    def busy(self) -> bool:
        """A divide, the finder or a perft run is still working."""
        return self.divider.busy() or self.runs.running or self.races.running or self.locating.running

    def showEvent(self, event):
        super().showEvent(event)
        if not getattr(self, "_sized", False):
            self._sized = True
            QTimer.singleShot(0, self._first_sizes)      # once the window has its size on the screen

    def _first_sizes(self):
        """Unless the splitters were left otherwise: the library 200 px at 1024 and a tenth of
        what is wider beyond that (257 px at 1600), the rest 5 to 6 between the board and the tabs."""
        if fit_on_screen(self):                       # now that its frame (title bar) is known
            QTimer.singleShot(0, self._first_sizes)   # the splitter's new width first
            return
        if "main" in self.memory.restored:
            return
        width = sum(self.main_splitter.sizes())
        library = 200 + max(0, width - 1024) // 10
        board = (width - library) * 5 // 11
        self.main_splitter.setSizes([library, board, width - library - board])

    def closeEvent(self, event):
        self.memory.remember()
        self.engine_tests.close()
        self.races.close()
        self.locating.close()
        self.finder.close()
        self.runs.stop()
        self.divides.close()
        self.bridge.shutdown()
        super().closeEvent(event)
