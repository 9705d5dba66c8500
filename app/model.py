"""What the window shows and what each result belongs to, as state with signals (git-cola's
MainModel): the board's position and its analysis, the position the divide tree was computed
for, the position the last perft run counted, the divide row the board shows with its mismatch
mark, and the status line with the position it is about. Controllers change it; the window
shows it and never keeps any of it itself.

A result computed for another position than the board's is stale: the window greys it with a
button that puts its position back (`show`), and never relabels it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from perftscope.core.board.position import Position
from perftscope.core.errors import PerftscopeError
from perftscope.core.job import Progress, Subject

if TYPE_CHECKING:
    from perftscope.core.engines.oracle import Request
    from perftscope.core.engines.pair import EnginePair


@dataclass(frozen=True)
class Origin:
    """What a result was computed for: the engines (their specs as parsed, options kept, and the
    timeout) and the position (a Request: read once where it entered). Whatever starts from a
    result (*Which line?*, opening a finding) starts from its Origin, never from what the engine
    selector or the board holds by then: a finding of one engine located in another would say
    "agree", a false verdict."""
    pair: EnginePair
    request: Request
    depth: int | None = None           # the depth it was computed at (a search's), None: not one

    def then(self, *moves: str) -> Origin:
        """The same engines on the position after `moves` more."""
        return Origin(self.pair, self.request.then(*moves))


@dataclass(frozen=True)
class Message:
    """The status line and what it is about: `about` the board's position when it was said (None:
    before any), `engines` the EnginePair it speaks of (None: no engine's result)."""
    text: str = ""
    error: bool = False
    about: Position | None = None
    engines: EnginePair | None = None


def same_engines(a: EnginePair | None, b: EnginePair | None) -> bool:
    """The same engine and reference (their specs, options included); the timeout aside."""
    return (a is None) == (b is None) and (a is None or (a.engine, a.reference) == (b.engine, b.reference))


class JobState(QObject):
    """One tab's long work (a core.job.Job run by app.job_control.JobController) as the tab shows it: whether
    it runs, its status line (an error or not), how far it is, what it belongs to (the Subject, for
    the caption), what it was given, the results so far (`items`) and the result. The tab's panel
    watches `changed`; the controller is the only writer."""
    changed = Signal()

    def __init__(self, idle: str = "", parent=None):
        super().__init__(parent)
        self.running = False
        self.status, self.error = idle, False
        self.subject: Subject | None = None
        self.progress: Progress | None = None
        self.given = None              # what the job was given (its settings, the engines it ran on)
        self.items: list = []          # results as they arrive (a session's findings)
        self.result = None             # the finished job's result (kept after a stop or a failure: None)

    @property
    def done(self) -> int:
        """Units done so far (positions tested, ...)."""
        return self.progress.done if self.progress is not None else 0

    def begin(self, subject: Subject | None, status: str, given=None):
        self.running, self.status, self.error = True, status, False
        self.subject, self.progress, self.given = subject, None, given
        self.items, self.result = [], None
        self.changed.emit()

    def say(self, status: str, error: bool = False):
        if (status, error) != (self.status, self.error):
            self.status, self.error = status, error
            self.changed.emit()

    def add(self, item, merge=None):
        """A result arrived: appended to `items`, or with `merge(items, item)` counted on one alike."""
        if merge is not None:
            merge(self.items, item)
        else:
            self.items.append(item)
        self.changed.emit()

    def advance(self, progress: Progress):
        self.progress = progress
        if progress.text:
            self.status, self.error = progress.text, False
        self.changed.emit()

    def end(self, result, status: str, error: bool = False):
        self.running, self.result = False, result
        self.status, self.error = status, error
        self.changed.emit()

    def fail(self, message: str):
        self.running, self.status, self.error = False, message, True
        self.changed.emit()

    def update(self, running: bool, status: str):
        """Work that is no Job (the divide tree's divides), as the timer reads it: whether it runs,
        what it waits for."""
        if (running, status) != (self.running, self.status):
            self.running, self.status, self.error = running, status, False
            self.changed.emit()

    def belongs_to(self, subject: Subject):
        """The work shown belongs to `subject` now (the divide tree's engines named as they call themselves)."""
        if subject != self.subject:
            self.subject = subject
            self.changed.emit()


JOBS = ("divide", "find", "run", "test", "race", "locate")   # the tabs that run long work: the divide tree's
#                                                     divides, the finder, perft run, Test engine, Race, Suspect lines


class MainModel(QObject):
    changed = Signal()                  # the position, its analysis, the mark, or what a result is about
    messageChanged = Signal()
    showRequested = Signal(object, object)   # (Position, moves): put this on the board

    def __init__(self, parent=None):
        super().__init__(parent)
        self.position: Position | None = None     # the board's
        self.board_root: tuple[str, tuple] = ("", ())   # ... as its first FEN and the moves played from it
        self.board_start: Position | None = None   # ... its first position
        self._written: tuple | None = None         # (first FEN, as written, warnings) when something was dropped
        self.analysis = None                      # core.board.analysis of the board's position
        self.divide_about: Position | None = None  # the position the divide tree was computed for
        self.divide_pair: EnginePair | None = None  # ... and its engines (None: none could be read)
        self.chosen: EnginePair | None = None      # the selector's engines (None: not readable, or not told yet)
        self.run_about: Position | None = None     # the position the last run counted
        self.run_request: Request | None = None    # ... as the board's Request (its root as it entered, the moves)
        self.locate_shows: Position | None = None  # a failing position of the locate result, shown from it
        self.row_shown: tuple | None = None       # moves of the tree row the board shows
        self.mark = None                          # widgets.overlays.Layer: the row's mismatch
        self.caption = ""                         # the board's caption while it shows a row
        self.message = Message()
        self._showing_row = False
        self.jobs = {name: JobState(parent=self) for name in JOBS}    # each tab's long work and results

    # --- the board ---------------------------------------------------------------------
    def board_moved(self, pos: Position, root: tuple[str, tuple], start: Position | None = None):
        """The board shows `pos`, reached by `root` (its first FEN and the moves played) from
        `start` (its first position): the user moved it (the row and its mark no longer apply) or a
        row is being shown."""
        if not self._showing_row:
            self._forget_row()
        self.position, self.board_root = pos, (root[0], tuple(root[1]))
        self.board_start = start
        self._analyse()
        self.changed.emit()

    def reanalyse(self):
        """The analysis kernels have just been loaded: analyse the board's position now."""
        if self.position is not None:
            self._analyse()
            self.changed.emit()

    def _analyse(self):
        from perftscope.app import warmup
        from perftscope.core.board.analysis import analyze
        self.analysis = None
        if not warmup.ready("analysis"):
            return                             # until its kernels are loaded (app.launch): no overlays
        try:
            self.analysis = analyze(self.position)    # microseconds: masks the generator computes anyway
        except PerftscopeError as e:
            self.say(str(e), error=True)

    def root_written(self, fen: str, written: str, warnings):
        """The board's first position `fen` was entered as `written`, its `warnings` saying what
        could not stand (core.engines.lenient_fen): the engine under test is sent it as written."""
        self._written = (fen, written, tuple(warnings))

    def board_request(self):
        """The board's position as a core.engines.oracle.Request: its first position as it entered
        (no FEN read again) and the moves played from it."""
        from perftscope.core.engines.oracle import Request
        start = self.board_start if self.board_start is not None else Position.from_fen(self.board_root[0])
        root = start.fen()
        _, written, warnings = self._written if self._written and self._written[0] == root else (root, root, ())
        return Request(root, written, warnings, (), start, start).then(*self.board_root[1])

    def show(self, request: Request):
        """Put a Request's position on the board: its root and the moves played, nothing read again
        (a FEN from outside the window, a session's or a locate run's, is read where it enters)."""
        self.showRequested.emit(request.start, tuple(request.moves))

    def show_row(self, request, row: tuple, caption: str, mark=None):
        """Show a divide row's position (`request`: the tree's root Request with the moves played),
        the board saying which `row` it is, with the row's mismatch `mark`; the tree keeps its root,
        so it is not stale."""
        self._showing_row = True
        try:
            self.row_shown, self.caption, self.mark = tuple(row), caption, mark
            self.show(request)
        finally:
            self._showing_row = False

    def _forget_row(self):
        self.mark, self.row_shown, self.caption = None, None, ""

    # --- what results belong to -------------------------------------------------------
    def divide_started(self, about: Position | None = None, pair: EnginePair | None = None):
        """The divide tree now belongs to `about` (default: the board's position) and the engines of
        `pair` (a core.engines.pair.EnginePair)."""
        self.divide_about = about if about is not None else self.position
        self.divide_pair = pair
        self._forget_row()
        self.changed.emit()

    def run_started(self) -> Position:
        """A run starts on the board's position: remembered, it reports it whatever the board does."""
        self.run_request, self.run_about = self.board_request(), self.position
        self.changed.emit()
        return self.run_about

    @property
    def divide_stale(self) -> bool:
        return self.divide_about is not None and self.row_shown is None and self.position != self.divide_about

    @property
    def divide_other_engines(self) -> bool:
        """The selector holds other engines than the divide tree's (its rows keep their own)."""
        return self.divide_pair is not None and self.chosen is not None and \
            not same_engines(self.divide_pair, self.chosen)

    @property
    def locate_stale(self) -> bool:
        """The Suspect lines shown (or being found) are of another position than the board's."""
        given = self.jobs["locate"].given      # core.locate.job.LocateSettings: its position read once
        return given is not None and self.position is not None and \
            self.position not in (given.request.position, self.locate_shows)

    @property
    def run_stale(self) -> bool:
        return self.run_about is not None and self.position != self.run_about

    # --- the status line --------------------------------------------------------------
    def say(self, text: str, error: bool = False, engines: EnginePair | None = None):
        """A message about the board's position as it is now, and about `engines`' result when it
        names one: greyed once the board moves, gone once other engines are chosen."""
        self.message = Message(text, error, self.position, engines)
        self.messageChanged.emit()

    def engines_chosen(self, pair: EnginePair | None):
        """The selector holds `pair` now (None: nothing readable): a message about other engines'
        result goes (a divide's counts must not stand beside a session of another engine), and the
        divide tree is marked as other engines' when they differ."""
        self.chosen = pair
        self.changed.emit()
        engines = self.message.engines
        if engines is not None and not same_engines(engines, pair):
            self.message = Message()
            self.messageChanged.emit()

    @property
    def message_stale(self) -> bool:
        return self.message.about is not None and self.position != self.message.about
