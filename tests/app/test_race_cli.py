"""`perftscope race`: the live text, JSON and Markdown, exit codes 0 / 1 / 2."""
import json
import sys
from pathlib import Path

import pytest

from perftscope.app.cli import build_parser

from .cli_run import run

POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
PERFTSCOPE = str(Path(sys.executable).parent / "perftscope")


def test_a_race_in_json(capsys, engine_path):
    code, out, err = run(capsys, "race", "--engine", f"perftree:{engine_path('correct')}", "--positions",
                         POSITION_3, "--depth", "3", "--yardsticks", "core", "--hash", "1", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert [e["label"] for e in data["engines"]] == ["correct.py (hash not settable)", "core (1 thread, 1 MiB hash)"]
    assert data["settings"]["hash_mb"] == 1 and data["machine"]["cpus"] >= 1
    heat = data["heats"][0]
    assert heat["status"] == "done" and heat["position"] == "fen"
    assert [lap["nodes"] for lap in heat["laps"]] == [14, 191, 2812]
    # its depth is the deepest one timed: a net time within the start-up's noise has no speed
    timed = [lap for lap in heat["laps"] if lap["nps"] is not None]
    assert heat["depth"] == (timed[-1]["depth"] if timed else None)
    assert heat["nps"] == (timed[-1]["nps"] if timed else None)
    assert all(lap["net_seconds"] > lap["noise_seconds"] > 0 for lap in timed)
    assert heat["laps"][-1]["measured_by"] == "wait4" and heat["laps"][-1]["cpu_seconds"] > 0
    assert heat["startup_seconds"] > 0 and heat["load_average"] is not None


def test_a_wrong_count_in_markdown_exits_1(capsys, engine_path):
    code, out, _ = run(capsys, "race", "--engine", f"perftree:{engine_path('ep_rank_pin')}", "--positions",
                       POSITION_3, "--depth", "2", "--yardsticks", "none", "--markdown")
    assert code == 1
    assert "| engine | fen |" in out
    assert "| ep_rank_pin.py | ✚ wrong count at depth 2: illegal f4e3 |" in out
    assert "| ep_rank_pin.py | wrong count: depth 2: 193 against the core's 191 (+2)" in out


def test_the_live_text(capsys, engine_path):
    code, out, _ = run(capsys, "race", "--engine", "python-chess", "--positions", POSITION_3,
                       "--depth", "2", "--yardsticks", "none")
    assert code == 0
    assert "race       depth 2" in out
    assert "fen        8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1" in out
    lines = [x.split() for x in out.splitlines() if x.startswith("  python-chess")]
    assert [(x[1], x[2]) for x in lines] == [("1", "14"), ("2", "191")]
    assert "engine     python-chess" in out


def test_bad_requests_exit_2(capsys):
    code, _, err = run(capsys, "race", "--engine", "python-chess", "--repeat", "6")
    assert code == 2 and "--repeat compares two builds: give exactly two --engine" in err
    code, _, err = run(capsys, "race", "--engine", "nonsense:x")
    assert code == 2 and "unknown engine 'nonsense:x'" in err
    code, _, err = run(capsys, "race", "--engine", "python-chess", "--yardsticks", "gnuchess")
    assert code == 2 and "--yardsticks: unknown 'gnuchess'" in err
    # depth 0 once raced on without a limit, as if no depth had been given (parsed only: without
    # the check, running it would not end)
    argv = ["race", "--engine", "python-chess", "--depth", "0"]
    with pytest.raises(SystemExit) as exited:
        build_parser(argv).parse_args(argv)
    assert exited.value.code == 2 and "--depth: depth must be between 1 and" in capsys.readouterr().err


def test_ctrl_c_stops_an_ab_duel_as_a_job_and_its_engine_with_it(tmp_path):
    """`race --repeat` runs its DuelJob as every long command does: Ctrl-C is its Stop (the engine
    call running killed, said on stderr), then the interrupt, exit 130."""
    from tests.processes import interrupted, marker, with_marker
    mark = marker()
    slow = tmp_path / "slow.sh"
    slow.write_text(f"#!/bin/sh\nsleep {mark}\n")
    slow.chmod(0o755)
    code, err, took = interrupted([PERFTSCOPE, "race", "--engine", f"perftree:{slow}", "--engine", f"perftree:{slow}",
                                   "--repeat", "2", "--depth", "1", "--positions", POSITION_3, "--timeout", "30",
                                   "--json"], mark)
    assert code == 130 and "perftscope: stopping" in err and err.strip().endswith("perftscope: interrupted")
    assert took < 5, took                    # not the engine's call (here the 30-second timeout)
    assert with_marker(mark) == []
