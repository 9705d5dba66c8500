"""The finder's whole report in a panel of its own: where it went, each level's differing
moves, the moves the engine does not generate and the ones it generates illegally with the
reason for each, warnings about unreachable positions, the inconsistent-engine diagnosis, and
an engine failure with the levels found before it. Selectable, so it can be copied.
"""
from __future__ import annotations

import html

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from perftscope.core.mismatch.verdicts import ILLEGAL, NOT_GENERATED, classify

from . import palette
from .elided import ElidedLabel
from .notation import beside_uci


def _count(value) -> str:
    return "—" if value is None else f"{value:,}"


def report_html(report, name=None) -> str:
    """The report as HTML, every finding worded from the engine's side (core.mismatch.verdicts).
    name(fen, moves, uci) writes a move of the path and of the levels (the SAN/UCI toggle)
    beside the UCI the engines print: "d2d4 (d4)"; default: UCI alone."""
    e = html.escape
    name = beside_uci(name)
    path = [name(report.root_fen, report.path[:i], m) for i, m in enumerate(report.path)]
    engine, reference = e(report.engine), e(report.reference)
    parts = [f"<p><b>{engine}</b> against <b>{reference}</b> (the reference), depth {report.depth}<br>"
             f"from <tt>{e(report.root_fen)}</tt></p>"]
    for warning in report.fen_warnings:
        parts.append(f"<p style='color:{palette.YELLOW}'>⚠ {e(warning)}</p>")
    for reason in report.unreachable:
        parts.append(f"<p style='color:{palette.YELLOW}'>⚠ this position cannot arise in a real game "
                     f"({e(reason)}): engines legitimately disagree here</p>")
    if report.error:
        what = report.failure.word if report.failure is not None else "failed"
        parts.append(f"<p style='color:{palette.ERROR}'><b>✗ {engine} {what}</b>: {e(report.error)}<br>"
                     + (f"command: <tt>{e(report.command)}</tt><br>" if report.command else "")
                     + "the levels below were found before it stopped</p>")
    parts.append(f"<p>path: <b>{e(' '.join(path)) or '(none)'}</b><br>"
                 f"position: <tt>{e(report.fen)}</tt></p>")
    if report.cancelled:
        parts.append("<p><i>stopped before the end</i></p>")
    elif report.agree:
        parts.append(f"<p style='color:{palette.GOOD}'><b>✔ {engine} agrees with {reference}</b></p>")
    elif report.note:
        title = "only totals to compare" if report.totals_only else "inconsistent engine"
        parts.append(f"<p style='color:{palette.BAD}'><b>{title}</b>: {e(report.note)}</p>")
    for verdict, moves, colour in ((NOT_GENERATED, report.missing, palette.NOT_GENERATED),
                                   (ILLEGAL, report.extra, palette.ILLEGAL)):
        if not moves:
            continue
        # in UCI like the reasons written after them
        items = "".join(f"<li><b>{e(m)}</b> {e(report.explanations.get(m, ''))}</li>" for m in moves)
        parts.append(f"<p style='color:{colour}'><b>{verdict.label}</b>: {e(verdict.by(report.engine))}</p>"
                     f"<ul>{items}</ul>")
    if report.state_trace is not None:
        parts.append(f"<p style='color:{palette.BAD}'><b>state after a move</b>: "
                     f"{e(report.state_trace.sentence(report.engine))}</p>")
    for level in report.levels:
        rows = level.differing
        lines = "".join(
            f"<tr><td>{e(name(level.fen, (), r.move))}{' ←' if r.move == level.chosen else ''}</td>"
            f"<td align=right>{_count(r.engine)}</td><td align=right>{_count(r.reference)}</td>"
            f"<td>{classify(r.engine, r.reference).word}</td></tr>" for r in rows)
        agreeing = len(level.rows) - len(rows)
        parts.append(f"<p>depth {level.depth} · <tt>{e(level.fen)}</tt><br>{'1 move agrees' if agreeing == 1 else f'{agreeing} moves agree'}</p>"
                     + (f"<table cellspacing=4><tr><th>move</th><th>{engine}</th><th>{reference}</th>"
                        f"<th>verdict</th></tr>{lines}</table>" if rows else ""))
    parts.append(f"<p>{e(report.calls_line())}</p>")
    return "".join(parts)


def _running_line(state) -> str:
    """The search's status line: the levels divided so far and the engine call waited for."""
    progress = state.progress
    done = f"{progress.done} of at most {progress.total} levels divided" if progress is not None else ""
    return " · ".join(part for part in (done, state.status) if part)


class FinderPanel(QWidget):
    """`locateRequested(fen, moves, depth)`: *Which line?* on the failing position reported;
    `stopRequested`: Stop the search running (the divide tree's Stop does the same)."""
    locateRequested = Signal(str, object, int)
    stopRequested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.which_line = QPushButton("Which line?")
        self.which_line.setToolTip("Locate the lines of the engine's source that make this position's moves wrong "
                                   "(the Suspect lines tab)")
        self.which_line.setEnabled(False)
        self.which_line.clicked.connect(self._locate)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setToolTip("Stop the search: the engine call running is ended, the levels found are kept")
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stopRequested)
        self.status = ElidedLabel()     # while it runs: how deep it went, which engine call it waits for
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(self.browser)
        row = QHBoxLayout()
        row.addWidget(self.which_line)
        row.addWidget(self.stop_button)
        row.addWidget(self.status, 1)
        box.addLayout(row)
        self.report = None
        self._shown = None             # what of the watched state is shown (an Origin, an error, a report)
        self.move_name = None          # the SAN/UCI toggle: name(fen, moves, uci), None for UCI
        self.clear()

    def watch(self, state):
        """Show the finder's JobState (app.model's "find" state, its `given` the search's Origin):
        what it looks for while it runs, then its report or why it failed."""
        state.changed.connect(lambda: self.show_state(state))

    def show_state(self, state):
        self.stop_button.setEnabled(state.running)
        self.status.setText(_running_line(state) if state.running else "")
        if state.running:
            origin = state.given
            if origin is not None and self._shown is not origin:
                self._shown = origin
                pair = origin.pair
                self.set_finding(pair.engine_name or "", pair.reference_name, origin.request.root, origin.depth)
        elif state.error:
            if self._shown != state.status:
                self._shown = state.status
                self.show_error(state.status)
        elif state.result is not None:
            if state.result is not self.report:
                self._shown = state.result
                self.show_report(state.result)
        elif self._shown is not None:
            self._shown = None
            self.clear()

    def _locate(self):
        report = self.report
        if report is not None and (report.missing or report.extra):
            self.locateRequested.emit(report.root_fen, tuple(report.path), 1)

    def _offer_locate(self):
        report = self.report
        self.which_line.setEnabled(report is not None and not report.agree and bool(report.missing or report.extra))

    def clear(self):
        self.report = None
        self.which_line.setEnabled(False)
        self.browser.setHtml("<p><i>Press Find first mismatch: the finder's report appears here.</i></p>")

    def set_finding(self, engine: str, reference: str, fen: str, depth: int | None):
        self.report = None
        self.which_line.setEnabled(False)
        self.browser.setHtml(f"<p>Looking for the first position where <b>{html.escape(engine)}</b> "
                             f"and <b>{html.escape(reference)}</b> generate different moves, "
                             f"depth {depth}, from <tt>{html.escape(fen)}</tt>…</p>")

    def show_report(self, report):
        self.report = report
        self._offer_locate()
        self.browser.setHtml(report_html(report, self.move_name))

    def set_move_name(self, name):
        """Write moves with name(fen, moves, uci) (None: UCI) and redraw the report shown."""
        self.move_name = name
        if self.report is not None:
            self.show_report(self.report)

    def show_error(self, message: str):
        self.report = None
        self.which_line.setEnabled(False)
        self.browser.setHtml(f"<p style='color:{palette.ERROR}'><b>✗ the search failed</b>: "
                             f"{html.escape(message)}</p>")

    def text(self) -> str:
        return self.browser.toPlainText()
