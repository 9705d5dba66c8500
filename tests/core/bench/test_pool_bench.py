"""`perftscope bench --pool` counts right in every configuration it times, cancels every
run it starts, and puts Stockfish's figure for the same perft beside its own."""
import json

from perftscope.app.cli import main


def test_pool_bench_json(capsys):
    assert main(["bench", "--pool", "-d", "5", "--repeat", "1", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)["pool"]
    runs = r["no_table"]["one"] + r["no_table"]["two"] + r["table"]["runs"]
    assert {x["nodes"] for x in runs} == {4_865_609}
    assert [x["workers"] for x in runs] == [1, 2, 2]
    assert [len(x["worker_cpu"]) for x in runs] == [1, 2, 2]
    assert all(cpu > 0 for x in runs for cpu in x["worker_cpu"])
    assert r["no_table"]["cpu_scaling"] > 0
    assert r["table"]["runs"][0]["hash"]["entries"] == 1 << 24
    assert [s["min_depth"] for s in r["min_depth"]] == [2, 3, 4]
    assert r["min_depth"][0]["probes"] > r["min_depth"][1]["probes"] > r["min_depth"][2]["probes"]
    assert len(r["cancel"]) == 5 and all(c["cancelled"] for c in r["cancel"])
    assert r["stockfish"]["nodes"] == 4_865_609 and r["stockfish"]["nps"] > 0
    assert r["table"]["vs_stockfish"] > 0


def test_pool_bench_text(capsys):
    assert main(["bench", "--pool", "-d", "4", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "scaling 1 -> 2" in out and "2^24 table" in out and "stockfish" in out
    assert "cancel -> result" in out and "thread CPU" in out
    assert main(["bench", "--pool", "-d", "13"]) == 2
    assert "--pool needs a depth between 1 and 12, got 13" in capsys.readouterr().err
