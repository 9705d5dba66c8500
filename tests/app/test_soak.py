"""The soak in the small (tests/soak.py): a few rounds of perft runs with live graphs, the divide
tree, the finder and a fuzz session against a planted-bug engine, board moves and a session
saved and opened; memory, threads and child processes stay flat and the event loop answers."""
from tests import soak


def test_a_short_soak_keeps_memory_threads_and_processes_flat():
    # a round (two perft runs, a divide, a finder run, a one-second fuzz session, moves, a session
    # saved and opened) takes 3 to 4.5 s here (the finder now asks depth 1 before it calls a row of
    # 0 rejected, and the first fuzz learns the engine's dialect): 12 s holds three rounds begun;
    # flat means the same after rounds
    result = soak.run(minutes=12 / 60, every=1.5, out=None, small=True)
    figures, counts = result["summary"], result["counts"]
    assert counts["rounds"] >= 2 and counts["fuzz sessions"] >= 2 and counts["finder runs"] >= 2
    assert figures["samples"] >= 4
    assert figures["rss_growth_mb"] < 50
    assert figures["threads_max"] <= figures["threads_warm"] and figures["threads_end"] == figures["threads_warm"]
    assert figures["children_max"] == 0                # every engine ended with its call or session
    assert figures["latency_max_ms"] < 3000            # the window never stopped answering
