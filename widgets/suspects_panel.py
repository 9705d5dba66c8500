"""The Suspect lines tab: `perftscope locate` in the window. The source folder (optional: locate
finds it for scripts), depth, seconds, runs, mutants and a native engine's build command,
Start/Stop, the runs' progress; then the ranked suspects (where, Ochiai, DStar, failing/passing
runs that ran it, the evidence) above the engine's source file, the ranked lines marked and
scored in it, and beside it the fix: the confirmed change's diff with *Save patch…* (or why
there is none). A click on a suspect scrolls the source there, shows its line's fix if it has
one, and asks (`suspectChosen`) for one of its failing positions on the board.
It only shows things: app/locating.py runs the core.locate.job.LocateJob and feeds it."""
from __future__ import annotations

import html
import os

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import (QFileDialog, QFormLayout, QHBoxLayout, QHeaderView, QLabel,
                               QLineEdit, QPlainTextEdit, QPushButton, QSizePolicy, QSplitter, QTableWidgetItem,
                               QTextEdit, QVBoxLayout, QWidget)

from . import palette
from .cells import row_table
from .elided import ElidedLabel
from .spin import spin_box
from .start_stop import StartStop
from .wrapped import WrappedWords

COLUMNS = ("#", "Where", "Ochiai", "DStar", "Failing", "Passing", "Evidence", "Line")
MARK = QColor(255, 214, 150)        # a ranked line in the source
FIRST = QColor(255, 160, 120)       # a line ranked first (alone or tied)
CHOSEN = QColor(255, 240, 120)      # the suspect clicked
MARKED = 10                         # suspects ranked up to this are marked in the source (all are scored),
#                                     but not the lines every run ran: they tell the runs apart in nothing


def dstar_text(value: float) -> str:
    return "∞" if value >= 1e9 else f"{value:.3g}"


class SuspectsPanel(StartStop, QWidget):
    """`startRequested(options)`: {"sources": (folder,) or (), "depth", "seconds", "runs" (None:
    no cap)}; `suspectChosen(suspect)` when a suspect row is clicked. It watches the window's
    "locate" JobState."""
    startRequested = Signal(object)
    stopRequested = Signal()
    suspectChosen = Signal(object)
    locateOther = Signal(object)          # an Elsewhere: the other bug's position a fix for this bug left

    def __init__(self, parent=None):
        super().__init__(parent)
        self.suspects: list = []
        self.result = None
        self._watched = None            # what of the watched state is shown (a Subject, a result)
        self.shown_path: str | None = None      # the source file in the view
        self.source = QLineEdit()
        self.source.setPlaceholderText("found from the engine for scripts")
        self.source.setToolTip("The folder of the engine's source files (empty: found from the engine)")
        browse = QPushButton("…")
        browse.setFixedWidth(28)
        browse.clicked.connect(self._browse)
        source_row = QHBoxLayout()
        source_row.addWidget(self.source, 1)
        source_row.addWidget(browse)
        self.depth = spin_box(1, 8, 2, "the depth the finder looks for the failing position at")
        self.seconds = spin_box(1, 3600, 40, "no covered run is started after this long", " s")
        self.runs = spin_box(0, 100_000, 0, "no covered run is started once this many have been (0: no cap)")
        self.runs.setSpecialValueText("no cap")
        self.mutants = spin_box(-1, 100_000, -1, "mutants of the suspect lines run at most (as time allows: as many as "
                                "the mutation's seconds hold; 0: rank by spectra alone)")
        self.mutants.setSpecialValueText("as time allows")
        self.build = QLineEdit()
        self.build.setPlaceholderText("a native engine's build command, e.g. make (run in a copy of its source)")
        self.build.setToolTip("How a native engine is rebuilt for each mutant, in a copy of its source folder "
                              "(empty: the engine file's `build`). Your files are never touched.")
        build_row = QHBoxLayout()
        build_row.addWidget(self.build, 1)
        build_row.addWidget(QLabel("Mutants"))
        build_row.addWidget(self.mutants)
        form = QFormLayout()
        form.addRow("Source", source_row)
        form.addRow("Build", build_row)
        numbers = QHBoxLayout()
        for label, box in (("Depth", self.depth), ("Seconds", self.seconds), ("Runs", self.runs)):
            numbers.addWidget(QLabel(label))
            numbers.addWidget(box)
        numbers.addStretch(1)
        form.addRow(numbers)
        self.start_button = QPushButton("Start")
        self.start_button.setToolTip("Locate on the board's position with the engine chosen in the Divide tab")
        self.stop_button = QPushButton("Stop")
        self.stop_button.setEnabled(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)
        self.status = QLabel("Choose the engine in the Divide tab, put the position on the board, then Start.")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.caption = QLabel()               # the Subject of the result shown, or being found
        self.caption.setWordWrap(True)
        self.caption.setStyleSheet(f"color: {palette.MUTED}")
        self.caption.setTextInteractionFlags(Qt.TextSelectableByMouse)

        self.table = row_table(COLUMNS)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeToContents)
        header.setStretchLastSection(True)
        self.source_view = QPlainTextEdit()
        self.source_view.setReadOnly(True)
        self.source_view.setLineWrapMode(QPlainTextEdit.NoWrap)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.TypeWriter)
        self.source_view.setFont(mono)
        self.file_label = QLabel()
        self.file_label.setWordWrap(True)     # a long path must not widen the window beyond a small screen
        source_box = QWidget()
        source_layout = QVBoxLayout(source_box)
        source_layout.setContentsMargins(0, 0, 0, 0)
        source_layout.addWidget(self.file_label)
        source_layout.addWidget(self.source_view, 1)
        self.fix_words = WrappedWords()       # the fix and its checks: whole where there is room, else scrolled
        self.fix_label = self.fix_words.label
        self.fix_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.fix_view = QPlainTextEdit()
        self.fix_view.setReadOnly(True)
        self.fix_view.setLineWrapMode(QPlainTextEdit.NoWrap)
        self.fix_view.setFont(mono)
        # the words on the fix get the height they need first, the diff the rest (it scrolls), three lines at least
        self.fix_view.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Ignored)
        self.fix_view.setMinimumHeight(3 * QFontMetrics(mono).lineSpacing() + 2 * self.fix_view.frameWidth())
        self.save_patch = QPushButton("Save patch…")
        self.save_patch.setEnabled(False)
        self.save_patch.setToolTip("Write the fix shown as a unified diff (apply it with `patch -p1` or `git apply`)")
        self.save_patch.clicked.connect(self._save_patch)
        self.locate_other = QPushButton("Locate the other bug")
        self.locate_other.setToolTip("Locate again, with the same engines and settings, from the position where the "
                                     "engine is wrong with or without this fix")
        self.locate_other.clicked.connect(lambda: self.fix is not None and self.locateOther.emit(self.fix.other_bug))
        self.fix = None                       # the core.locate.mutation.Fix shown
        fix_box = self._fix_box = QWidget()
        fix_layout = QVBoxLayout(fix_box)
        fix_layout.setContentsMargins(0, 0, 0, 0)
        fix_layout.addWidget(self.fix_words)
        fix_layout.addWidget(self.fix_view, 1)
        fix_buttons = QHBoxLayout()
        fix_buttons.addStretch(1)
        fix_buttons.addWidget(self.locate_other)
        fix_buttons.addWidget(self.save_patch)
        fix_layout.addLayout(fix_buttons)
        beside = QSplitter(Qt.Horizontal)
        beside.addWidget(source_box)
        beside.addWidget(fix_box)
        beside.setStretchFactor(0, 3)
        beside.setStretchFactor(1, 2)
        self._beside = beside
        split = QSplitter(Qt.Vertical)
        split.addWidget(self.table)
        split.addWidget(beside)
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 1)
        self._split = split

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        layout.addWidget(self.caption)
        layout.addWidget(split, 1)
        # one line: in a small window every line of height is the source's
        hint = ElidedLabel("Click a suspect: the source scrolls to it and the board shows a failing position that ran it.")
        hint.setStyleSheet(f"color: {palette.MUTED}")
        layout.addWidget(hint)

        self.start_button.clicked.connect(self._start)
        self.stop_button.clicked.connect(self.stopRequested)
        self.table.clicked.connect(lambda index: self.choose(index.row()))
        self.show_fix(None)

    def options(self) -> dict:
        folder = self.source.text().strip()
        return {"sources": (folder,) if folder else (), "depth": self.depth.value(),
                "seconds": float(self.seconds.value()), "runs": self.runs.value() or None,
                "mutants": None if self.mutants.value() < 0 else self.mutants.value(),
                "build": self.build.text().strip()}

    def choices(self) -> dict:
        """The tab's settings as plain data to remember between sessions (app.memory)."""
        return {"source": self.source.text().strip(), "depth": self.depth.value(),
                "seconds": self.seconds.value(), "runs": self.runs.value(), "mutants": self.mutants.value(),
                "build": self.build.text().strip()}

    def set_choices(self, choices: dict):
        """Put back what choices() returned; a value of the wrong kind is left as it is."""
        if isinstance(choices.get("source"), str):
            self.source.setText(choices["source"])
        if isinstance(choices.get("build"), str):
            self.build.setText(choices["build"])
        for key, box in (("depth", self.depth), ("seconds", self.seconds), ("runs", self.runs),
                         ("mutants", self.mutants)):
            value = choices.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                box.setValue(int(value))

    def _start(self):
        self.startRequested.emit(self.options())

    def _browse(self):
        folder = QFileDialog.getExistingDirectory(self, "The engine's source folder", self.source.text())
        if folder:
            self.source.setText(folder)

    def set_running(self, running: bool):
        super().set_running(running)
        for w in (self.source, self.depth, self.seconds, self.runs, self.mutants, self.build):
            w.setEnabled(not running)

    NARROW = 700        # px: a tab narrower than this stacks the source above the fix, each the whole width

    def resizeEvent(self, event):
        super().resizeEvent(event)
        stacked = self.width() < self.NARROW
        if (self._beside.orientation() == Qt.Vertical) != stacked:
            self._beside.setOrientation(Qt.Vertical if stacked else Qt.Horizontal)
            self._beside.setStretchFactor(0, 2 if stacked else 3)     # the source above all
            self._beside.setStretchFactor(1, 1 if stacked else 2)
            self._share_beside()

    def _share_beside(self):
        """Stacked, the source all the height the fix leaves: a fix and its diff two fifths, what the
        mutants said without one its lines alone."""
        total = sum(self._beside.sizes())
        if total and self._beside.orientation() == Qt.Vertical:
            box = self._fix_box
            # with a fix: two fifths, or what its words need beside the diff's least, up to half
            words = self.fix_words
            wanted = box.minimumSizeHint().height() + max(0, words.needed() - words.minimumSizeHint().height())
            fix = box.sizeHint().height() if self.fix is None else max(total * 2 // 5, wanted)
            fix = min(fix, total // 2)
            self._beside.setSizes([total - fix, fix])

    def _favour_source(self):
        """The suspects' table a few rows tall (it scrolls), the source and the fix the rest."""
        sizes = self._split.sizes()
        total = sum(sizes)
        if not total or not self.table.rowCount():
            return
        rows = sum(self.table.rowHeight(r) for r in range(min(self.table.rowCount(), 4)))
        table = min(total // 3, self.table.horizontalHeader().height() + rows + 2 * self.table.frameWidth()
                    + self.table.horizontalScrollBar().sizeHint().height())
        self._split.setSizes([table, total - table])
        self._share_beside()

    # --- the state watched -----------------------------------------------------------------
    def show_state(self, state):
        """The "locate" JobState: while it runs, what it locates (its Subject, the last result
        cleared); once done, its result."""
        super().show_state(state)
        if state.running:
            if state.subject is not None and self._watched is not state.subject:
                self._watched = state.subject
                self.clear()
                self.show_subject(state.subject)
        elif state.result is not None and state.result is not self.result:
            self._watched = state.result
            self.show_result(state.result)

    def clear(self):
        self.suspects, self.result, self.shown_path = [], None, None
        self.table.setRowCount(0)
        self.source_view.clear()
        self.file_label.clear()
        self.caption.clear()
        self.show_fix(None)

    def show_subject(self, subject):
        """The engines and position (a core.job.Subject) of the suspect lines shown, or being found:
        a *Which line?* locates its result's engines, whatever the selector holds meanwhile."""
        self.caption.setText(f"Suspect lines of {subject.caption()}")

    def show_result(self, result):
        """A core.locate.job.LocateResult: its suspects ranked, the first one's file shown."""
        self.clear()
        self.result = result
        self.show_subject(result.subject)
        self.suspects = list(result.suspects)
        self.table.setRowCount(len(self.suspects))
        ranks = [s.rank for s in self.suspects]
        for row, s in enumerate(self.suspects):
            tied = ranks.count(s.rank)
            rank = f"{s.rank}= of {tied}" if tied > 1 else f"{s.rank}"
            cells = (f"{rank}{'*' if s.way else ''}", s.where, f"{s.score:.3f}", dstar_text(s.dstar),
                     f"{s.failed}/{result.failed}", f"{s.passed}/{result.passed}", s.evidence, s.text)
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(f"{s.where}: {s.text}\nOchiai {s.score:.4f}, DStar {dstar_text(s.dstar)}; "
                                f"ran in {s.failed} of {result.failed} failing and {s.passed} of "
                                f"{result.passed} passing runs ({s.evidence})"
                                + ("\n*: ran only on the way to the wrong move" if s.way else ""))
                if s.rank == 1 and col in (0, 1):
                    item.setForeground(Qt.darkRed)
                self.table.setItem(row, col, item)
        if self.suspects:
            self._favour_source()
            self.show_source(self.suspects[0].path)
            self.scroll_to(self.suspects[0].line)
        self.show_fix(self._fix_of(self.suspects[0]) if self.suspects else None)

    def _fix_of(self, suspect):
        """The confirmed fix of `suspect`'s lines, else its fix for this bug (the engine having
        another), else None."""
        result = self.result
        if result is None or suspect is None:
            return None
        return next((f for f in result.offered if f.path == suspect.path and suspect.line <= f.line <= suspect.last),
                    None)

    def show_fix(self, fix):
        """`fix` (a core.locate.mutation.Fix) beside the source, or what the mutants said when
        there is none."""
        self.fix = fix
        self.save_patch.setEnabled(fix is not None)
        for shown in (self.fix_view, self.save_patch):      # without a fix, the room is the source's
            shown.setVisible(fix is not None)
        self.locate_other.setVisible(fix is not None and fix.fixes_this_bug)
        self._share_beside()
        if fix is not None and fix.fixes_this_bug:
            other = fix.other_bug
            self.fix_words.setText(
                f"<b>A fix for this bug at {html.escape(fix.file)}:{fix.line}</b>: {html.escape(fix.change)} "
                f"— not for the engine: it has another bug<br>"
                f"<span style='color: {palette.MUTED}'>It {html.escape(fix.said())}, {html.escape(fix.beyond())}."
                f"</span><br>The engine is also wrong at {fix.other_positions} of the positions checked, the same way "
                f"with or without this change (another bug), for instance at <b>{html.escape(other.fen)}</b> depth "
                f"{other.depth}: {html.escape(other.verdict)}"
                + (f" <span style='color: {palette.MUTED}'>({html.escape(other.topic)})</span>" if other.topic else "")
                + ("" if other.alone else " — this bug shows there too: apply this fix before locating there")
                + (f"<br>{html.escape(fix.judged_by_mirror())}" if fix.mirrored else ""))
            self.fix_view.setPlainText(fix.diff)
        elif fix is not None:
            other = fix.out_of_game()       # the engine's other bug, where it shows only out of any game
            self.fix_words.setText(f"<b>Fix at {html.escape(fix.file)}:{fix.line}</b>: {html.escape(fix.change)}<br>"
                                   f"<span style='color: {palette.MUTED}'>{html.escape(fix.said())}, and agrees at "
                                   f"{html.escape(', '.join(fix.checked_by))}</span>"
                                   + (f"<br>{html.escape(other[:1].upper() + other[1:])}" if other else ""))
            self.fix_view.setPlainText(fix.diff)
        if fix is not None:
            sizes = self._beside.sizes()
            if self._beside.orientation() == Qt.Horizontal and sum(sizes) and sizes[1] < 0.4 * sum(sizes):
                # the diff readable beside the source
                self._beside.setSizes([int(0.55 * sum(sizes)), sum(sizes) - int(0.55 * sum(sizes))])
            return
        self.fix_view.clear()
        result = self.result
        mutation = None if result is None else result.mutation
        if mutation is None:
            self.fix_words.setText("The fix: mutants of the suspect lines run after the ranking (Mutants above 0).")
        elif not mutation.tried:
            self.fix_words.setText(f"No mutant ran: {html.escape(mutation.note or 'none could be made')}")
        elif result.offered:
            self.fix_words.setText("No fix on this line: click the line the fix is on.")
        else:
            top = result.suspects[0] if result.suspects else None
            said = mutation.no_fix()
            self.fix_words.setText(html.escape(said[0].upper() + said[1:])
                                   + (f": it belongs at <b>{html.escape(top.where)}</b>" if top and not mutation.cut
                                      else "")
                                   + ("" if mutation.cut else f" ({mutation.tried} mutants run)"))

    def _save_patch(self):
        if self.fix is None:
            return
        name = os.path.splitext(os.path.basename(self.fix.file))[0]
        path, _ = QFileDialog.getSaveFileName(self, "Save the fix as a patch", f"{name}-fix.patch",
                                              "Patches (*.patch *.diff);;All files (*)")
        if not path:
            return
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(self.fix.diff)
        except OSError as e:
            self.fix_words.setText(f"cannot write {html.escape(path)}: {html.escape(e.strerror or str(e))}")

    def show_source(self, path: str, chosen=None):
        """The file at `path`, each line numbered, the ranked ones scored and marked."""
        if path != self.shown_path:
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    lines = f.read().split("\n")
            except OSError as e:
                self.file_label.setText(f"cannot read {path}: {e.strerror or e}")
                self.source_view.clear()
                self.shown_path = None
                return
            scores: dict[int, str] = {}
            for s in self.suspects:
                if s.path == path:
                    for n in range(s.line, s.last + 1):
                        scores.setdefault(n, f"{s.rank:>3}· {s.score:.3f}")
            for f in (self.result.offered if self.result is not None else []):
                if f.path == path:
                    scores[f.line] = f"{scores.get(f.line, '')[:4]} fix"
            width = len(str(len(lines)))
            self.source_view.setPlainText("\n".join(f"{n:>{width}} {scores.get(n, ''):>11} │ {text}"
                                                    for n, text in enumerate(lines, 1)))
            self.shown_path = path
            name = next((s.file for s in self.suspects if s.path == path), path)
            self.file_label.setText(f"<b>{html.escape(name)}</b>: each ranked line with its rank and Ochiai, "
                                    f"the first {MARKED} ranks marked (not the lines every run ran)")
            self.file_label.setToolTip(path)
        selections = []
        for s in self.suspects:
            telling = s.rank <= MARKED and (self.result is None or s.passed < self.result.passed)
            if s.path != path or not (telling or s is chosen):
                continue
            colour = CHOSEN if s is chosen else FIRST if s.rank == 1 else MARK
            for n in range(s.line, s.last + 1):
                selections.append(self._line_selection(n, colour))
        self.source_view.setExtraSelections(selections)

    def _line_selection(self, line: int, colour: QColor):
        selection = QTextEdit.ExtraSelection()
        fmt = QTextCharFormat()
        fmt.setBackground(colour)
        fmt.setProperty(QTextFormat.FullWidthSelection, True)
        selection.format = fmt
        cursor = QTextCursor(self.source_view.document().findBlockByNumber(line - 1))
        selection.cursor = cursor
        return selection

    def choose(self, row: int):
        """Show suspect `row` in its file, scrolled to it, and ask for a failing position of it."""
        if not 0 <= row < len(self.suspects):
            return
        suspect = self.suspects[row]
        self.table.selectRow(row)
        self.show_source(suspect.path, suspect)
        self.scroll_to(suspect.line)
        fix = self._fix_of(suspect)
        if fix is not None or self.fix is None:
            self.show_fix(fix)
        self.suspectChosen.emit(suspect)

    def scroll_to(self, line: int):
        block = self.source_view.document().findBlockByNumber(line - 1)
        cursor = QTextCursor(block)
        self.source_view.setTextCursor(cursor)
        self.source_view.centerCursor()

    def shown_line(self) -> int:
        """The line the source view's cursor is on (1-based)."""
        return self.source_view.textCursor().blockNumber() + 1

    def visible_lines(self) -> range:
        """The lines of the source on screen."""
        view = self.source_view
        first = view.cursorForPosition(view.viewport().rect().topLeft()).blockNumber() + 1
        last = view.cursorForPosition(view.viewport().rect().bottomLeft()).blockNumber() + 1
        return range(first, last + 1)

