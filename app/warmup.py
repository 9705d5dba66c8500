"""Preparing the kernels: each group compiled into the on-disk cache (an empty cache) or
loaded from it, by making its first calls on a tiny position, one step at a time so that
whoever waits can be told how far it is.

numba compiles a kernel at its first call. Left to itself, that is seconds spread over the
first FEN, overlay and perft, which then look hung and count the compile in their time.
`Preparation` runs the steps instead: those not yet in the cache in helper processes
(`python -m perftscope.app.warmup`, two at once: one compile holds one core), each once the
steps it needs are done, the most needed first; numba writes its cache files atomically,
so helpers share one cache, and a helper killed mid-compile leaves nothing half-written.
Each finished step is then loaded in this process (the same calls: a cache load of tens of
milliseconds) and announced. `warm()` does every step in this process, one after another.
"""
from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

MESSAGE = "preparing the move generator for this CPU (first run only)…"
HELPERS = 2
HELPER_NICE = 10        # the window's own start-up comes first when the cores are busy


def _board():
    from perftscope.core.board.position import START_FEN, Position
    pos = Position.from_fen(START_FEN).push("e2e4")
    pos.legal_moves()
    pos.in_check()
    pos.key


def _analysis():
    from perftscope.core.board.analysis import analyze, explain_move
    from perftscope.core.board.position import Position
    pos = Position.from_fen("4k3/8/8/2pP4/8/8/8/4K2R w K c6 0 1")
    analyze(pos)
    explain_move(pos, "e1e2")


def _perft():
    from perftscope.core.counting import shallow
    shallow.prepare(2)           # the core engine's small divides (the divide tree), calibration's answers


def _split():
    from perftscope.core.board.position import START_FEN, Position
    from perftscope.core.counting.split import split_positions
    pos = Position.from_fen(START_FEN)
    split_positions(pos, 2, divide=True)
    split_positions(pos, 2, merge=False)


def _pool():
    from perftscope.core.counting.pool import prepare
    prepare()                    # every kernel a run calls, with the types every run passes


@dataclass(frozen=True)
class Step:
    name: str
    label: str
    run: Callable[[], None]
    needs: tuple[str, ...] = ()     # steps whose kernels it calls: compiled once, by them


# in the order they are needed: the board first (python-chess answers until then), the run
# panel's pool last
STEPS: dict[str, Step] = {s.name: s for s in (
    Step("board", "positions and legal moves", _board),
    Step("perft", "perft and divide", _perft),
    Step("analysis", "analysis overlays", _analysis, ("board",)),
    Step("split", "splitting a tree for the workers", _split, ("board",)),
    # kernel_cache.POOL_STEP (not imported here: it loads llvmlite before the splash)
    Step("pool", "the parallel perft pool", _pool, ("perft", "split")),
)}


def is_cached(name: str) -> bool:
    """The step's kernels are in the cache (a helper or a process of this version finished it)."""
    from perftscope.core.kernel_cache import is_prepared     # known without importing numba
    return is_prepared(name)


def cache_is_warm() -> bool:
    return all(is_cached(name) for name in STEPS)


def _run(name: str):
    """Run a step here (compile or load), and mark it cached."""
    from perftscope.core.kernel_cache import mark_prepared
    STEPS[name].run()
    mark_prepared(name)


def warm(progress: Callable[[int, int, str], None] = lambda done, total, label: None,
         steps=tuple(STEPS)) -> float:
    """Every step in this process, one after another; progress(done, total, label) before each
    and once at the end. Returns the seconds it took."""
    start = time.perf_counter()
    for i, name in enumerate(steps):
        progress(i, len(steps), STEPS[name].label)
        _run(name)
    progress(len(steps), len(steps), "ready")
    return time.perf_counter() - start


class Preparation:
    """The steps asked for, compiled in helper processes where the cache lacks them and then
    loaded here, on a thread of its own: `start()` returns at once. `on_progress(done, total,
    label)` and `on_ready(name)` are called from that thread; `on_error(name, message)` when a
    step fails here (it is then not ready). `ready(name)` and `wait(name)` from any thread.
    Loading here waits for `hold` when given (the window is built first: loading imports numba
    and holds the GIL for a while)."""

    def __init__(self, steps=tuple(STEPS), helpers: int = HELPERS,
                 on_progress: Callable[[int, int, str], None] = lambda done, total, label: None,
                 on_ready: Callable[[str], None] = lambda name: None,
                 on_error: Callable[[str, str], None] = lambda name, message: None,
                 hold: threading.Event | None = None):
        self.steps = tuple(steps)
        self.helpers = helpers
        self.hold = hold
        self.on_progress, self.on_ready, self.on_error = on_progress, on_ready, on_error
        self.events = {name: threading.Event() for name in self.steps}
        self.cold = False                 # some step had to be compiled
        self.done = threading.Event()     # every step ready or failed
        self._procs: list[subprocess.Popen] = []
        self._stopped = False
        self._thread = threading.Thread(target=self._main, name="kernel-preparation", daemon=True)

    def start(self) -> "Preparation":
        self._thread.start()
        return self

    def ready(self, name: str) -> bool:
        return self.events[name].is_set()

    def wait(self, name: str | None = None, timeout: float | None = None) -> bool:
        """Until step `name` (None: every step) is ready or failed; False on timeout."""
        return (self.events[name] if name else self.done).wait(timeout)

    def progress(self) -> tuple[int, int]:
        return sum(e.is_set() for e in self.events.values()), len(self.steps)

    def stop(self):
        """End the helpers now (the window closed): a step cut short leaves nothing in the cache,
        and nothing more is loaded here."""
        self._stopped = True
        for p in self._procs:
            if p.poll() is None:
                p.kill()
        for p in self._procs:
            p.wait()

    # --- the preparation's own thread -------------------------------------------------
    def _main(self):
        try:
            from perftscope.core.kernel_cache import cannot_write
            todo = [name for name in self.steps if not is_cached(name)]
            self.cold = bool(todo)
            # a cache that cannot be written: what a helper compiled would be lost with it
            helpers = self.helpers if cannot_write() is None else 0
            lines: queue.SimpleQueue = queue.SimpleQueue()
            idle = [self._spawn(i, lines) for i in range(min(helpers, len(todo)))]
            idle = [p for p in idle if p is not None]
            compiled: set[str] = set()
            running: dict[int, str] = {}
            for name in self.steps:
                # a step is loaded here once its helper finished it (or at once when cached)
                while name in todo and name not in compiled and (running or idle):
                    self._assign(todo, compiled, running, idle)
                    if name in compiled:
                        break
                    if not running:
                        break             # nothing can run: the helpers are gone
                    helper, word, done_name = lines.get()
                    running.pop(helper, None)
                    proc = self._procs[helper]
                    if word == "done":
                        compiled.add(done_name)
                        idle.append(proc)
                    elif word == "failed":
                        todo.remove(done_name)      # done here instead, where its error is reported
                        idle.append(proc)
                    # "gone": the helper ended (crashed): its steps are done here
                self._load(name)
        finally:
            self._close()
            self.done.set()

    def _spawn(self, index: int, lines: queue.SimpleQueue):
        try:
            proc = subprocess.Popen([sys.executable, "-m", "perftscope.app.warmup"], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                    env=dict(os.environ))
        except OSError:
            return None                   # no helper: every step is done here
        self._procs.append(proc)
        helper = len(self._procs) - 1

        def read():
            for line in proc.stdout:
                word, _, rest = line.strip().partition(" ")
                lines.put((helper, word, rest.partition(":")[0]))
            lines.put((helper, "gone", ""))
        threading.Thread(target=read, name=f"kernel-helper-{index}", daemon=True).start()
        return proc

    def _assign(self, todo, compiled, running, idle):
        """Give each idle helper the first step it can do: not done, not running, its needs done."""
        busy = set(running.values())
        for name in todo:
            if not idle:
                return
            if name in compiled or name in busy:
                continue
            if all(n in compiled or n not in todo for n in STEPS[name].needs):
                proc = idle.pop(0)
                try:
                    proc.stdin.write(name + "\n")
                    proc.stdin.flush()
                except OSError:
                    continue              # the helper is gone; its reader says so
                running[self._procs.index(proc)] = name
                busy.add(name)

    def _load(self, name: str):
        if self.hold is not None:
            self.hold.wait()
        if self._stopped:
            return
        done, total = self.progress()
        self.on_progress(done, total, STEPS[name].label)
        try:
            _run(name)
        except Exception as e:  # noqa: BLE001 - reported to whoever waits, never lost
            self.on_error(name, f"{type(e).__name__}: {e}")
        else:
            self.events[name].set()
            self.on_ready(name)
        done, total = self.progress()
        self.on_progress(done, total, "ready" if done == total else STEPS[name].label)

    def _close(self):
        for p in self._procs:
            try:
                p.stdin.close()           # the helper ends at the end of its input
            except OSError:
                pass
        for p in self._procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


_current: Preparation | None = None


def begin(preparation: Preparation) -> Preparation:
    """This process's kernels are being prepared by `preparation`: until a step is ready,
    `ready(name)` says so (the window greys what needs it) and python-chess answers the board's
    rules."""
    global _current
    from perftscope.core.board import position
    _current = preparation
    position.python_chess_until(preparation.events["board"] if "board" in preparation.events else None)
    return preparation.start()


def end(preparation: Preparation):
    """`preparation` is over (the window closed): its helpers end, and this process's kernels
    are asked for directly again (compiled on the spot if they were not loaded)."""
    global _current
    from perftscope.core.board import position
    preparation.stop()
    if _current is preparation:
        _current = None
        position.python_chess_until(None)


def ready(name: str) -> bool:
    """Whether step `name`'s kernels can be called here without compiling them on the spot."""
    return _current is None or name not in _current.events or _current.ready(name)


def helper_main() -> int:
    """`python -m perftscope.app.warmup`: run each step named on a line of stdin, answer
    `done NAME` (or `failed NAME: message`) on stdout; end at the end of input."""
    if hasattr(os, "nice"):
        os.nice(HELPER_NICE)
    for line in sys.stdin:
        name = line.strip()
        if not name:
            continue
        try:
            _run(name)
            print(f"done {name}", flush=True)
        except Exception as e:  # noqa: BLE001 - the parent does the step itself and reports it
            print(f"failed {name}: {type(e).__name__}: {e}".replace("\n", " "), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(helper_main())
