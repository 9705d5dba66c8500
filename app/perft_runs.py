"""Perft runs for the run panel: a core.counting.perft_job.PerftJob run by the tab's JobController; the
pool counts on its own threads, the bridge's timer reads the run's live counters (the job's
snapshot) and feeds the graphs and the progress, and the result is kept in the model's "run"
state. A run counts the board's position when it starts and says so, in the line above the
graphs and in the status line (app.model.MainModel remembers it), whatever the board does
meanwhile. Nothing here blocks the GUI thread.
"""
from __future__ import annotations

from PySide6.QtCore import Signal

from perftscope.core.errors import PerftscopeError

from .job_control import JobTab


def describe_run(fen: str, depth: int, workers: int, hash_exp: int) -> str:
    """Which position and which settings a run's figures belong to."""
    from perftscope.core.limits import table_bytes
    from perftscope.widgets.run_panel import format_bytes
    table = f"{format_bytes(table_bytes(hash_exp))} table" if hash_exp >= 0 else "no table"
    return (f"perft {depth} of <code>{fen}</code> · core generator · "
            f"{workers} worker{'s' * (workers > 1)} · {table}")


MIN_PROBES = 2000       # table probes one hit-rate sample needs: fewer read as noise (1 of 5 = 20 %)


class RunController(JobTab):
    """`panel` the run panel, `graphs` the live graphs, `context` the line above them,
    `model` the window's MainModel (its "run" JobState: the panel watches it)."""
    starting = Signal()                # a run was asked for: its panel is what to look at
    finished = Signal(object)          # core.counting.pool.Result

    def __init__(self, bridge, panel, graphs, context, model, parent=None):
        super().__init__(bridge, panel, model.jobs["run"], parent)
        self.graphs, self.context, self.model = graphs, context, model
        context.watch(self.state)
        self.jobs.finished.connect(self.finished)
        self.jobs.failed.connect(lambda message: model.say(message, error=True))
        self.about = ""
        self._last = (0.0, 0)          # elapsed and nodes at the previous sample
        self._last_probes = (0, 0)     # probes and hits at the previous hit-rate sample
        self._counting_from = None     # when the first node was counted (after the split and the table)
        self._stopping = False

    def start_at(self, depth: int):
        """A run at `depth` with the panel's other settings."""
        self.panel.set_settings(depth=depth)
        self.start(*self.panel.settings())

    def start(self, depth: int, workers: int, hash_exp: int):
        from perftscope.app import warmup
        from perftscope.core.counting.perft_job import PerftJob, PerftSettings
        self.starting.emit()
        if self.jobs.running or not warmup.ready("pool"):
            return                  # one at a time; none before its kernels are loaded (app.launch)
        try:
            position = self._position()
            run = self.model.run_request
            job = PerftJob(PerftSettings(position, depth, workers, hash_exp), (run.root, run.moves))
        except PerftscopeError as e:
            self.state.fail(str(e))
            self.model.say(str(e), error=True)
            return
        self._last, self._last_probes = (0.0, 0), (0, 0)
        self._counting_from, self._stopping = None, False
        self.graphs.clear()
        self.graphs.set_table(hash_exp >= 0)
        self.about = describe_run(job.settings.position.fen(), depth, workers, hash_exp)
        self.graphs.set_caption(self.about + " · running…")
        self.jobs.start(job, "Running…", given=job.settings, on_result=self._result, sample=self._sample)
        self._say(f"perft {depth} on {workers} worker{'s' * (workers > 1)}…")

    def _position(self):
        """The board's position, remembered as the one this run counts."""
        return self.model.run_started()          # the context above the graphs says it from the job's Subject

    def _say(self, text: str):
        about = self.model.run_about.fen() if self.model.run_about is not None else ""
        self.model.say(f"{text} — {about}" if about and not text.endswith("…") else text)

    def show_position(self):
        """Put the position the last run counted back on the board."""
        if self.model.run_request is not None:
            self.model.show(self.model.run_request)

    def stop(self):
        if self.jobs.running:
            self._stopping = True      # the ticks until the workers are gone measure the stop
            self.jobs.stop(status=None)

    def _sample(self):
        """Once per tick while the run counts, and once more at its end: the graphs and the progress."""
        from perftscope.core.job import Progress
        from perftscope.widgets.run_panel import progress_line
        snap = self.jobs.job.snapshot() if self.jobs.job is not None else None
        if snap is None:
            return
        t0, n0 = self._last
        dt = snap.elapsed - t0
        if snap.nodes == 0 and not snap.done:
            # splitting the tree and allocating the table: no counting yet, so no rate to draw
            self._last = (snap.elapsed, 0)
        elif dt > 0 and not snap.done and not self._stopping:
            # the last reading after the workers stopped has no new work in it: not a sample
            if self._counting_from is None:
                self._counting_from = t0
            # rates over the last tick, not since the start: the graph shows what changes
            nps = (snap.nodes - n0) / dt
            fill = snap.hash.fill if snap.hash is not None else 0.0
            self.graphs.add_sample(snap.elapsed, nps, self._hit_rate(snap), [w.nodes for w in snap.workers],
                                   fill)
            self._last = (snap.elapsed, snap.nodes)
        elif snap.done:
            self.graphs.set_totals([w.nodes for w in snap.workers],
                                   snap.hash.fill if snap.hash is not None else 0.0)
        self.state.advance(Progress(snap.items_done, snap.items_total, progress_line(snap.nodes, snap.elapsed)))
        self.graphs.refresh()

    def _hit_rate(self, snap) -> float | None:
        """The hit rate since the previous hit-rate sample, once MIN_PROBES more probes have
        been made; None before that (a few probes give a spurious rate, none at all a zero)."""
        probes = sum(w.probes for w in snap.workers)
        hits = sum(w.hits for w in snap.workers)
        p0, h0 = self._last_probes
        if probes - p0 < MIN_PROBES:
            return None
        self._last_probes = (probes, hits)
        return (hits - h0) / (probes - p0)

    def _result(self, result) -> tuple[str, bool]:
        from perftscope.widgets.run_panel import format_rate
        self.graphs.fit()
        start = self._counting_from
        began = f" · counting began at {start:.1f} s (split and table first)" if start and start >= 0.5 else ""
        self.graphs.set_caption(
            f"{self.about} · stopped after {result.seconds:.2f} s{began}" if result.cancelled else
            f"{self.about} · <b>{result.nodes:,}</b> nodes in {result.seconds:.3f} s · "
            f"<b>{format_rate(result.nps)}</b>{began}")
        self._say("perft stopped" if result.cancelled else
                  f"perft {result.depth}: {result.nodes:,} nodes in {result.seconds:.2f} s")
        return "", False
