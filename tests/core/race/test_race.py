"""core.race: planted engines raced for real (processes, wait4, /proc), counts checked against the
core, disqualifications worded by the finder, crashes and hangs, the budget, Stop, the A/B verdict."""
import os
import sys
import threading

import pytest

from perftscope.core.engines.mode import Mode
from perftscope.core.race import stats
from perftscope.core.race.duel import Duel, DuelSettings
from perftscope.core.engines.usage import proc_times
from perftscope.core.race.racers import own_time
from perftscope.core.race.runner import (CRASHED, DONE, HUNG, STOPPED, WRONG, Race, RacePosition,
                                         standard_positions)

from ..engines.test_engine_io import _gone as gone

POSITIONS = {p.name: p for p in standard_positions()}


@pytest.fixture
def builds(engine_path):
    """Two builds of one engine: `repeats.py 1` and `repeats.py TIMES`, the same count, TIMES the work."""
    return lambda times: f"cmd:{sys.executable} {engine_path('repeats')} {times} {{depth}} {{fen}} {{moves}}"


def test_two_builds_are_ordered_and_the_verdict_names_the_faster(builds):
    # eight alternating runs each (about 5 s): with eight the interval leaves out the three most
    # extreme pair means on each side, so one run a busy neighbour slowed cannot blur the verdict
    duel = Duel(DuelSettings(builds(1), builds(4), (POSITIONS["pos5"],), repeat=8, depth=3))
    duel.run()
    fast, slow = duel.race.heats
    assert fast.status == slow.status == DONE
    assert fast.best.depth == slow.best.depth == 3
    assert fast.best.nps > slow.best.nps, (fast.laps, slow.laps)
    assert fast.laps[-1].source == "wait4" and fast.laps[-1].cpu > 0 and fast.laps[-1].peak > 0
    match = duel.matches[0]
    assert len(match.a) == len(match.b) == 8
    assert duel.total.faster == "A", (duel.total.text, match.a, match.b)
    assert duel.total.text.startswith("A is ") and "8 runs each" in duel.total.text
    assert not duel.wrong


def test_a_planted_bug_is_out_where_its_count_is_wrong(engine_path):
    race = Race([f"perftree:{engine_path('ep_rank_pin')}"], [POSITIONS["initial"], POSITIONS["pos3"]],
                depth=3, yardsticks=())
    race.run()
    start, pos3 = race.heats
    assert start.status == DONE and [lap.depth for lap in start.laps] == [1, 2, 3]
    assert pos3.status == WRONG and pos3.best is None
    assert pos3.verdict.startswith("depth 2: 193 against the core's 191 (+2); en passant through a rank pin")
    assert "illegal f4e3 (en passant f4e3 exposes king h4 to rook b4 along rank 4)" in pos3.verdict
    assert race.wrong


def test_a_crash_and_a_hang_are_reported_and_the_race_goes_on(engine_path):
    engines = [f"perftree:{engine_path('crash_at_depth')}", f"uci:{engine_path('uci_hang')}",
               f"perftree:{engine_path('correct')}"]
    race = Race(engines, [POSITIONS["kiwipete"]], depth=3, timeout=1.0, yardsticks=("core",))
    hang_pid = []
    race.listener = lambda event, heat, lap: hang_pid.append(race.racers[1].oracle.pid)
    race.run()
    crash, hang, correct, core = race.heats
    assert crash.status == CRASHED and [lap.depth for lap in crash.laps] == [1, 2]
    assert crash.verdict == "crashed at depth 3: RuntimeError: move stack overflow at ply 3"
    # worded as every report words a failure (core.mismatch.failures): what it did, where, for how long
    assert hang.status == HUNG and hang.verdict.startswith("hung at depth 1: no answer within 1 s to "), hang.verdict
    assert (crash.failure.kind, hang.failure.kind) == ("crash", "timeout")
    # every depth run; whether depth 3 is also timed depends on the start-up's noise (Lap.within_noise)
    assert correct.status == core.status == DONE
    assert [lap.depth for lap in correct.laps] == [lap.depth for lap in core.laps] == [1, 2, 3]
    assert core.engine == "core" and race.racers[3].label == "core (1 thread, no hash)"
    assert all(gone(pid) for pid in hang_pid if pid)


def test_the_budget_ends_the_deepening(engine_path):
    race = Race(["python-chess"], [POSITIONS["initial"]], seconds=0.5, yardsticks=())
    race.run()
    heat = race.heats[0]
    assert heat.status == DONE and heat.laps[-1].depth >= 3
    assert sum(lap.seconds for lap in heat.laps) <= 0.5      # every lap counted finished within it
    assert heat.laps[-1].source == "thread"


def test_stop_ends_the_running_engine_at_once(engine_path):
    race = Race([f"uci:{engine_path('uci_hang')}"], [POSITIONS["initial"]], depth=2, timeout=60,
                yardsticks=())
    running = threading.Event()
    race.listener = lambda event, heat, lap: running.set()
    thread = threading.Thread(target=race.run)
    thread.start()
    assert running.wait(10)
    pid = race.racers[0].oracle.pid
    race.stop()
    thread.join(5)
    assert not thread.is_alive()
    assert race.heats[0].status == STOPPED and gone(pid)


def test_threads_and_hash_reach_the_core_and_label_it(engine_path):
    race = Race(["core"], [RacePosition("fen", POSITIONS["pos3"].fen)], depth=4, mode=Mode(2, 1),
                yardsticks=())
    race.run()
    assert race.racers[0].label == "core (2 threads, 1 MiB hash)"
    assert race.heats[0].status == DONE and race.heats[0].laps[-1].nodes == 43238


def test_the_signed_rank_interval_has_the_textbook_critical_values():
    counts = stats.signed_rank_counts(10)
    assert sum(counts) == 2 ** 10 and counts[0] == counts[-1] == 1
    assert stats._critical(10, 0.95) == 8 and stats._critical(6, 0.95) == 0
    assert stats._critical(5, 0.95) is None


def test_verdicts_in_words():
    a = [1.00, 1.02, 0.99, 1.01, 1.00, 1.03, 1.02, 1.00, 0.98, 1.01]
    assert stats.compare(a, [x / 1.1 for x in a]).text.startswith("B is 10.0 % faster (95 % interval")
    assert stats.compare(a, [x * 1.2 for x in a]).faster == "A"
    noisy = stats.compare(a, [1.01, 0.99, 1.03, 1.0, 1.02, 0.98, 1.0, 1.01, 1.02, 0.99])
    assert noisy.faster is None and noisy.text.startswith("no difference beyond the noise")
    few = stats.compare(a[:3], a[:3])
    assert few.low is None and "too few" in few.text


def test_too_few_runs_for_an_interval_name_no_faster_build():
    """With no interval there is no direction: B's three runs 8 % quicker are no verdict."""
    few = stats.compare([1.00, 1.02, 0.99], [0.92, 0.95, 0.91])
    assert few.text == "no verdict: 3 runs each are too few for a 95 % interval (at least 6)"
    assert "faster" not in few.text and few.faster is None
    assert few.speedup is None and few.to_json()["interval"] is None


def test_the_os_figures_and_the_engines_own_time():
    cpu, peak = proc_times(os.getpid())
    assert cpu > 0 and peak > 10 * 2 ** 20
    assert own_time(["e2e4: 20", "Time: 523 ms"]) == pytest.approx(0.523)
    assert own_time(["Total time (ms) : 1500"]) == pytest.approx(1.5)
    assert own_time(["perft 5 took 2.5s"]) == pytest.approx(2.5)
    assert own_time(["perft  5 :  193690690 leaves in      0.857 s   226015844 leaves/s"]) == pytest.approx(0.857)
    assert own_time(["Nodes searched: 20", "in 3 moves"]) is None


def test_a_duel_as_a_job_says_each_timed_run_and_how_far_it_is(builds):
    from perftscope.core.job import Progress
    from perftscope.core.race.race_job import DuelJob, DuelRun, RaceEvent
    job = DuelJob(DuelSettings(builds(1), builds(1), (POSITIONS["pos3"],), repeat=2, depth=1))
    events = []
    duel = job.run(events.append)
    runs = [e for e in events if isinstance(e, DuelRun)]
    assert [(r.side, r.round) for r in runs] == [("A", 0), ("B", 0), ("B", 1), ("A", 1)]   # AB BA
    assert [e for e in events if isinstance(e, Progress)][-1] == \
        Progress(4, 4, "A/B: run 4 of 4 (A on pos3, depth 1)")
    assert any(isinstance(e, RaceEvent) for e in events) and duel is job.duel
    assert len(duel.matches[0].a) == len(duel.matches[0].b) == 2 and job.activity() is None
