"""One table of engine kinds (core.engines.spec.KINDS): every kind the parser knows is offered by
the window's selectors and named in the CLI's help and the window's; `perftscope gui --engine
xboard:PATH` chooses an xboard engine and divides with it."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from perftscope.app import help as gui_help
from perftscope.app.cli import main
from perftscope.core.engines.spec import KINDS, parse_spec
from perftscope.core.engines.stockfish import find_stockfish
from perftscope.widgets.race_panel import RacePanel
from perftscope.widgets.reference import EngineChoice, EngineSelection

ENGINES = Path(__file__).parents[1] / "engines"


def example(kind) -> str:
    return {"": kind.name, "file": f"{kind.name}:/x/engine", "text": f"{kind.name}:./engine {{depth}} {{fen}}"}[kind.needs]


def test_the_parser_knows_every_kind_and_nothing_else():
    for kind in KINDS:
        assert parse_spec(example(kind)).kind == kind.name
        for alias in kind.aliases:
            assert parse_spec(alias).kind == kind.name


def test_every_kind_is_offered_by_the_windows_selectors(qtbot, tmp_path):
    assert find_stockfish() is not None                # Debian's stockfish: every kind can be offered
    selection = EngineSelection(QSettings(str(tmp_path / "perftscope.ini"), QSettings.IniFormat))
    choice = EngineChoice(selection)
    race = RacePanel(selection)
    qtbot.addWidget(choice)
    qtbot.addWidget(race)
    for selector in (choice.engine, choice.reference, race.selector):
        offered = [selector.kind.itemData(i) for i in range(selector.kind.count())]
        assert [k for k in offered if k] == [k.name for k in KINDS]
    for kind in KINDS:                                  # and each is kept as chosen, not dropped for "none"
        selection.set(engine=example(kind))
        assert parse_spec(selection.engine).kind == kind.name
        assert choice.engine.kind.currentData() == kind.name


@pytest.mark.parametrize("command", ["gui", "compare", "suite", "fuzz", "race"])
def test_every_kind_is_named_in_the_cli_help(command):
    out = subprocess.run([sys.executable, "-m", "perftscope", command, "--help"], capture_output=True,
                         text=True, env=dict(os.environ, COLUMNS="200"), timeout=60).stdout
    for kind in KINDS:
        assert kind.written in out, (command, kind.written)


def test_every_kind_is_named_in_the_windows_help():
    for kind in KINDS:
        assert f"<code>{kind.written}</code>" in gui_help.GUIDE


def test_gui_engine_xboard_chooses_it_and_divides_with_it(tmp_path, monkeypatch):
    engine = tmp_path / "my-xboard"
    engine.write_text(f"#!/bin/sh\nexec {sys.executable} {ENGINES / 'xboard_engine.py'} {ENGINES / 'correct.py'}\n")
    engine.chmod(0o755)
    session = tmp_path / "session.json"
    assert main(["gui", "--engine", f"xboard:{engine}", "--reference", "core", "--divide", "1",
                 "--save-session", str(session)]) == 0
    saved = json.loads(session.read_text())
    assert saved["engine"] == f"xboard:{engine}"
    rows = saved["divide"]["rows"]
    assert len(rows) == 20 and all(r["engine"] == r["reference"] == 1 for r in rows)


def test_locate_names_every_kind_that_runs_a_program_of_the_users():
    """Locate's refusal of an engine that runs inside perftscope lists the kinds it can locate in,
    from the table (xboard included), not from a list of its own."""
    from perftscope.core.errors import EngineError
    from perftscope.core.locate.sources import program_of
    for kind in (k for k in KINDS if k.in_process):
        with pytest.raises(EngineError) as refused:
            program_of(kind.name)
        named = str(refused.value).split("give the engine under test as ")[1]
        assert [k.name for k in KINDS if k.needs and f"{k.name}:" in named] == [k.name for k in KINDS if k.needs]
