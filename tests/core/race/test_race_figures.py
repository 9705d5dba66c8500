"""The race's figures by depth: a depth whose net time is within the start-up's own noise gets no
speed, and no table shows a negative time."""
import re

from perftscope.core.race.report import net_cell, speed_cell, to_markdown
from perftscope.core.race.runner import DONE, NOISE_SHARE, Heat, Lap, Race, standard_positions


def test_a_net_time_within_the_start_ups_noise_has_no_speed():
    # depth 3 of the start position, 8 902 nodes: a call 20 µs quicker than the fastest start-up
    # gave 445 Mnps for an engine that does 54; a net time of 0.2 ms against 0.5 ms of noise
    # gave 44 Mnps of jitter
    early = Lap(3, 8902, 0.0098, -0.00002, None, None, None, noise=0.0005)
    jitter = Lap(3, 8902, 0.0102, 0.0002, None, None, None, noise=0.0005)
    timed = Lap(6, 119060324, 2.21, 2.2, None, None, None, noise=0.0005)
    assert early.nps is None and jitter.nps is None and timed.nps == 119060324 / 2.2
    assert net_cell(early) == net_cell(jitter) == "≤ 0.0005" and net_cell(timed) == "2.2000"
    # a heat with no timed depth (a script whose process start-up varies more than its depth 2
    # takes: chessops through Node.js on position 5 under load) said only "done"
    heat = Heat(0, "chessops-perft.mjs", standard_positions()[4], [early, jitter], status=DONE)
    assert speed_cell(heat) == "too short to time (depth 3)"


def test_the_markdown_has_no_negative_time_and_a_speed_only_above_the_noise():
    # the core's depths 2-4 take microseconds: within the noise of its start-up, run for real
    race = Race([], standard_positions()[:1], depth=4, yardsticks=("core",))
    race.run()
    heat = race.heats[0]
    assert heat.startup_noise >= NOISE_SHARE * heat.startup > 0
    for lap in heat.laps[1:]:
        assert (lap.nps is None) == (lap.net <= lap.noise)
    text = to_markdown(race)
    rows = [line.split("|")[1:-1] for line in text.splitlines() if line.startswith("| core | ")]
    assert len(rows) == 4
    for row in rows:
        net, nps = row[4].strip(), row[5].strip()
        assert not net.startswith("-") and not re.match(r"-\d", net)
        assert (nps == "—") == (net.startswith("≤") or net == "—")
    assert "within the start-up's own noise" in text
