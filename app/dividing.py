"""The divide tree's workflow: divide the board's position with the chosen engines, find the
first mismatch (app.finding runs the search, its levels go into the tree as they arrive), show
a row's position on the board with its mismatch, and fill the tree from a Test-engine finding
or a saved session without an engine call.

A controller in git-cola's sense: it changes the window's model (app.model.MainModel) and tells
the panels it is given what to show through their methods; it holds no widget of its own.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from perftscope.core.board.position import Position
from perftscope.core.errors import EngineError, PerftscopeError
from perftscope.core.job import Subject
from perftscope.core.mismatch.verdicts import ILLEGAL, NOT_GENERATED

from .model import Origin


def tree_subject(fen: str, moves, engine: str | None, reference: str) -> Subject:
    """What the tree's rows belong to, as the line above the tree says it."""
    if engine:
        return Subject(fen, tuple(moves), (engine, reference))
    return Subject(fen, tuple(moves), (reference,), what="alone (no engine chosen)")


class DivideController(QObject):
    """`model` the window's MainModel, `engines` its EngineSelection, `divides` the
    DivideService, `tree_model`/`tree` the divide tree and its panel, `finder` the
    FinderController (whose state the finder's report watches), `set_fen(fen) -> bool` the board
    command that loads a position (a bad one is a message)."""
    started = Signal()                  # a divide or search began: the tree is what to look at
    locateRequested = Signal(object, int)   # *Which line?* on a row or the finder's report: its Origin, depth

    def __init__(self, model, engines, divides, tree_model, tree, finder, set_fen, parent=None):
        super().__init__(parent)
        self.model, self.engines, self.divides, self.set_fen = model, engines, divides, set_fen
        self.tree_model, self.tree, self.finder = tree_model, tree, finder
        self.state = model.jobs["divide"]      # the tree's divides: loading, the call waited for, its Subject
        tree.watch(self.state, finder.state)
        tree.divideRequested.connect(self.divide)
        tree.findRequested.connect(self.find_mismatch)
        tree.positionSelected.connect(self.select_row)
        tree.stopRequested.connect(self.stop)
        tree.showPositionRequested.connect(self.show_position)
        finder.level.connect(self._level)
        finder.found.connect(self._found)
        finder.failed.connect(self._finder_failed)
        tree_model.failed.connect(lambda message: self._say("divide stopped") if message == "stopped"
                                  else self._say(f"divide failed: {message}", error=True))
        tree_model.loaded.connect(self._engine_names)
        tree_model.loaded.connect(lambda index: None if index.isValid() else self._divide_done())
        engines.changed.connect(lambda: divides.set_timeout(engines.timeout))

    @property
    def report(self):
        """The finder's last report (None before one finished)."""
        return self.finder.report

    def busy(self) -> bool:
        """A divide or the finder is still working."""
        return self.finder.running or self.tree_model.loading()

    def tick(self):
        """Once per bridge tick: whether the tree's rows are loading, which engine call is waited for."""
        self.state.update(self.tree_model.loading(), self.divides.waiting())

    # --- a new tree ------------------------------------------------------------------
    def abandon(self):
        """A new divide or search replaces the old one: its engines stop instead of
        computing answers nobody will see."""
        self.finder.cancel()
        self.divides.cancel()

    def _root(self):
        """Where Divide and Find start, a Request: the board's position, or, while the board shows
        one of the tree's rows (the finder's preview, a row clicked), the tree's root, which the
        line above the tree names."""
        if self.model.row_shown is not None and self.tree_model.fen is not None:
            return self.divides.request(self.tree_model.root.moves)
        return self.model.board_request()

    def _start_tree(self, depth: int, fetch: bool):
        self.abandon()
        self.tree.set_depth(depth)
        try:
            pair = self.engines.pair()
            self.divides.set_pair(pair)
        except EngineError as e:
            pair = None
            self.divides.refuse(e)            # the divide fails with it, as an engine that cannot start
        request = self._root()
        self.divides.set_root(request.from_root())
        fen, moves = request.root, request.moves
        engine, reference = self.engines.names()
        self.tree_model.set_root(fen, depth, moves, fetch=fetch, engine=engine, reference=reference)
        self.state.begin(tree_subject(fen, moves, engine, reference), "")
        self.model.divide_started(pair=pair)
        self.started.emit()
        return fen, moves, engine, reference

    def divide(self, depth: int):
        *_, engine, reference = self._start_tree(depth, fetch=True)
        against = f"{engine} against {reference}" if engine else f"{reference} (no engine chosen)"
        self._say(f"Dividing at depth {depth}: {against}…")

    def new_root(self, fen: str):
        """A tree row's position becomes the board's, divided at one less depth."""
        depth = max(1, self.tree.depth() - 1)
        if self.set_fen(fen):
            self.divide(depth)

    def _engine_names(self, index=None):
        """Once the engines answered: the names they give themselves in the headers and words."""
        pair = self.model.divide_pair
        if pair is None:
            return
        engine, reference = self.divides.names(pair)
        model = self.tree_model
        was = (model.engine, model.reference)
        model.rename(engine or model.engine, reference or model.reference)
        if (model.engine, model.reference) != was:
            self.state.belongs_to(tree_subject(model.fen, model.root.moves, model.engine or None, model.reference))

    def _say(self, text: str, error: bool = False):
        """A message about the tree's result: its engines' (gone once others are chosen)."""
        self.model.say(text, error, self.model.divide_pair)

    def _divide_done(self):
        if self.finder.running:
            return                     # a level of the search, not a divide: the search says its result
        engine, ref = self.tree_model.totals()
        depth, name, reference = self.tree_model.root.depth, self.tree_model.engine, self.tree_model.reference
        if engine is None:
            self._say(f"divide {depth}: {reference} counts {ref:,} nodes")
        elif engine == ref:
            self._say(f"divide {depth}: {name} and {reference} agree ({engine:,} nodes)")
        else:
            self._say(f"divide {depth}: {name} {engine:,}, {reference} {ref:,} "
                           f"({engine - ref:+,}): expand the marked rows or press Find first mismatch", error=True)

    def stop(self):
        """Stop the finder (its job: the report so far arrives, `cancelled`) and every divide still
        running; the tree keeps what it has."""
        self.finder.stop()
        self.divides.cancel()
        self.tree_model.stop_loading("stopped")

    def show_position(self):
        """Put the position the tree's result belongs to back on the board: the finder's
        differing row (with its mark) when the tree holds the finder's result, else its root."""
        if self.tree_model.fen is None:
            return
        if not self._select(self._mismatch_row()):
            self.model.show(self.divides.request(self.tree_model.root.moves))

    def _mismatch_row(self) -> list[str] | None:
        """The moves to the finder's first differing row in this tree, None without one."""
        report = self.finder.report
        if report is None or report.error or not (report.missing or report.extra):
            return None
        root = list(self.tree_model.root.moves)
        # the tree's position is its root Request played on (read once per tree); the report's is its own
        if report.root_position.play(report.path[:len(root)]) != self.divides.request(root).position:
            return None                       # a report about another tree
        return list(report.path) + [(report.missing + report.extra)[0]]

    def _select(self, row) -> bool:
        """Expand the tree along `row` (moves from the tree's FEN) and select it, which shows
        its position with its mark; False when the tree has no such row."""
        if not row:
            return False
        below = list(row[len(self.tree_model.root.moves):])
        index = self.tree_model.find(below)
        if index is None or not index.isValid():
            return False
        self.tree.reveal(below[:-1])
        self.tree.select(below)
        return True

    # --- a row on the board ------------------------------------------------------------
    def select_row(self, moves):
        """Show the row's position; a move one side does not generate is drawn from the
        position before it, with its verdict. The tree keeps its root."""
        from perftscope.widgets.overlays import mismatch_layer
        tree = self.tree_model
        index = tree.find(moves[len(tree.root.moves):])
        node = tree.node(index) if index is not None else None
        if node is None:
            return
        verdict = node.verdict
        odd = verdict in (ILLEGAL, NOT_GENERATED)
        shown = moves[:-1] if odd else moves
        rel = " ".join(moves[len(tree.root.moves):])
        caption = f"showing the divide row {rel}" + (f" (before {node.move}: {verdict.word})" if odd else "")
        mark = None
        if odd:
            pos = self.divides.request(shown).position
            mark = mismatch_layer(node.move, verdict, tree.engine, _why(pos, node.move))
        self.model.show_row(self.divides.request(shown), moves, caption, mark)
        if mark is not None:
            self._say(mark.notes[0])

    # --- Which line? on the tree's results -------------------------------------------------
    def locate_row(self, fen: str, moves, depth: int):
        """*Which line?* on a row of the tree (`moves` from the tree's `fen`): the engines the tree
        was divided with, whatever the selector holds now."""
        pair = self.model.divide_pair
        if pair is None or pair.engine is None or fen != self.tree_model.fen:
            self.model.say("Which line? needs the engine this tree was divided with: divide again", error=True)
            return
        self.locateRequested.emit(Origin(pair, self.divides.request(moves)), depth)

    def locate_found(self, fen: str, path, depth: int):
        """*Which line?* on the finder's report (`path` from its root `fen`): the engines and the
        position the search ran on."""
        from perftscope.core.engines.oracle import Request
        origin = self.finder.origin
        if origin is None:
            self.model.say("Which line? needs the engines of the search: find the mismatch again", error=True)
            return
        root = origin.request.from_root()
        if root.root != fen:                   # a report of another root than its search's: its own FEN
            root = Request.of(fen)
        self.locateRequested.emit(Origin(origin.pair, root.then(*path)), depth)

    # --- the finder ----------------------------------------------------------------------
    def find_mismatch(self, depth: int):
        """Run the finder in the background; each level it divides is inserted in the tree
        as it arrives, the whole report goes to the Finder report tab."""
        if not self.engines.engine:
            self.model.say("choose the Engine to debug: Find first mismatch compares it with the reference",
                           error=True)
            return
        fen, moves, engine, reference = self._start_tree(depth, fetch=False)
        self._say(f"Looking for the first mismatch at depth {depth}: {engine} against {reference}…")
        if self.model.divide_pair is None:
            self.finder.fail(str(self.divides.refused))
            return
        # the tree's root Request: the engine under test is sent the FEN as written
        self.finder.start(Origin(self.model.divide_pair, self.divides.request(moves), depth))

    def _level(self, where, level):
        """One level of the finder: the rows of the position reached so far."""
        index = self.tree_model.find(where)
        if index is None:
            return
        totals = (level.engine_total, level.total) if level.total is not None and not level.rows else None
        self.tree_model.insert_rows(self.tree_model.node(index), level.rows, totals)
        if level.chosen:
            self.tree_model.expect(list(where) + [level.chosen])        # the finder's next level
            self.tree.reveal(list(where) + [level.chosen])

    def _finder_failed(self, message):
        self.tree_model.stop_loading(message)
        self._say(f"finder: {message}", error=True)

    def _found(self, report):
        below = list(report.path[len(self.tree_model.root.moves):])
        if report.error:
            failed_at_root = self.tree_model.root.state == "loading"
            self.tree_model.stop_loading(report.error)
            if not failed_at_root:              # the root's own failure is said above the tree already
                self.tree.add_note(report.error)
            failed = report.failure.word if report.failure is not None else "failed"
            kept = "at the root:" if failed_at_root else "during the search: the levels found before are kept;"
            self._say(f"{report.engine} {failed} {kept} its error is above the tree and in the Finder report",
                      error=True)
            return
        if report.cancelled:
            self.tree_model.stop_loading("stopped")
            found = len(report.levels)
            kept = ("nothing was found before" if not found else
                    f"the {'level' if found == 1 else f'{found} levels'} found {'is' if found == 1 else 'are'} "
                    f"in the tree and the Finder report")
            self._say(f"search stopped: {kept}")
            return
        if report.agree or not (report.missing or report.extra):
            self.tree_model.stop_loading("no mismatch below")
            last = report.levels[-1] if report.levels else None
            inconsistent = last is not None and last.engine_total is not None and last.engine_total == last.total
            if report.note and report.totals_only and not inconsistent:
                self._say(f"{report.engine} and {report.reference} differ at {report.fen} (it prints only "
                               f"totals, so not move by move): see the Finder report", error=True)
            elif report.note:
                self._say(f"{report.engine} is inconsistent: see the Finder report", error=True)
            else:
                self._say(f"✔ no mismatch: {report.engine} agrees with {report.reference} "
                               f"at depth {report.depth}")
            return
        self.tree.reveal(below)
        odd = (report.missing + report.extra)[0]
        self.tree.select(below + [odd])          # shows it on the board with its mark
        verdict = NOT_GENERATED if odd in report.missing else ILLEGAL
        where = " ".join(report.path) or "the root"
        state = (f"; its position goes wrong after {report.state_trace.move}" if report.state_trace is not None
                 else "")
        self._say(f"first mismatch after {where}: {odd} {verdict.word}{state} — see the Finder report",
                       error=True)

    # --- a tree filled without engine calls ------------------------------------------
    def _readable_pair(self):
        """The selection's EnginePair (a saved session's engines, just chosen), None when unreadable."""
        try:
            return self.engines.pair()
        except EngineError:
            return None

    def open_finding(self, finding, pair):
        """A Test-engine finding in the divide tree: its engines (`pair`, the session's) chosen
        again, its position on the board, the finder's levels inserted along its path (no
        engine call), the differing row selected."""
        before = (*self.engines.names(), self.tree.depth())
        if pair is not None:
            self.engines.set_pair(pair)
        if not self.set_fen(finding.fen):
            return
        fen, _, engine, reference = self._start_tree(finding.depth, fetch=False)
        report = finding.report
        # the selectors and the depth are the finding's now: say so rather than change them silently
        changed = [f"{what} {now}" for what, was, now in zip(("Engine", "Reference", "depth"), before,
                                                               (engine, reference, finding.depth)) if was != now]
        said = f"{engine} against {reference}, depth {finding.depth}: {finding.summary()}"
        if changed:
            said += f" (set to the finding's: {', '.join(changed)})"
        if report is None:
            self._say(said, error=True)
            return
        origin = Origin(pair, self.divides.request(), finding.depth) if pair is not None else None
        self.finder.replay(report, origin)         # the levels into the tree, the differing row selected
        self._say(said, error=True)

    def restore(self, divide: dict | None, report, row=None):
        """Show a saved session's divide rows and finder report (app.session_files) as they were:
        the row the board showed (`row`, moves from the tree's FEN; by default the finder's
        differing one) expanded and selected, its mark on the board."""
        from perftscope.core.engines.oracle import Request

        from .session_files import fill_divide
        pair = self._readable_pair()
        self.finder.restore(report, Origin(pair, Request.of(report.root_fen), report.depth)
                            if report is not None and pair is not None else None)
        if divide:
            fill_divide(self.tree_model, divide)
            self.tree.set_depth(int(divide["depth"]))       # the next Divide runs at the rows' depth
            root = Request.of(divide["fen"])                # where the saved tree enters
            self.divides.set_root(root)
            about = root.then(*divide.get("moves", [])).position
            self.state.belongs_to(tree_subject(divide["fen"], divide.get("moves", ()), divide.get("engine"),
                                               divide.get("reference")))
            self.model.divide_started(about, pair)
            self._select(row if row is not None else self._mismatch_row())


def _why(pos: Position, move: str) -> str:
    from perftscope.core.board.analysis import explain_move
    try:
        return explain_move(pos, move)
    except PerftscopeError as e:
        return str(e)
