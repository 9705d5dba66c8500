"""The processes of a locate's runs and mutants start without what only slows their start
(coverage.LEANER_START: Node's extra CA bundle); the rest of the user's environment is theirs."""
import os

from perftscope.core.engines.process import launched_with, spawn
from perftscope.core.locate.coverage import LEANER_START

SHOW = "console.log(process.env.NODE_EXTRA_CA_CERTS === undefined ? 'unset' : 'set', process.env.KEPT)"


def node_says() -> str:
    proc = spawn(["node", "-e", SHOW])
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    return out.decode().strip()


def test_a_locate_run_starts_node_without_the_extra_ca_bundle_and_keeps_the_rest(monkeypatch):
    monkeypatch.setenv("NODE_EXTRA_CA_CERTS", os.path.abspath(__file__))
    monkeypatch.setenv("KEPT", "yes")
    assert node_says() == "set yes"                  # an engine outside locate: its environment as it is
    with launched_with({**LEANER_START, "PYTHONPATH": "x"}):
        assert node_says() == "unset yes"
    assert node_says() == "set yes"
