"""`perftscope --help` lists every command the CLI has, each with its purpose on one line."""
import argparse
import importlib
import os
import re
import subprocess
import sys

from perftscope.app.commands import COMMANDS


def registered_commands() -> set[str]:
    """Every command some command module registers: what `perftscope COMMAND` accepts."""
    sub = argparse.ArgumentParser().add_subparsers()
    for module in {module for module, _ in COMMANDS.values()}:
        importlib.import_module(f"perftscope.app.commands.{module}").register(sub)
    return set(sub.choices)


def test_every_registered_command_is_in_the_list_help_reads():
    # help lists COMMANDS without importing the modules: a command missing there is invisible
    assert registered_commands() == set(COMMANDS)


def test_help_names_every_command_with_its_purpose_on_one_line():
    env = dict(os.environ, COLUMNS="80")       # argparse wraps at the terminal's width
    out = subprocess.run([sys.executable, "-m", "perftscope", "--help"], capture_output=True,
                         text=True, check=True, env=env).stdout
    listed = dict(re.findall(r"^    (\S+) +(\S.*)$", out, re.MULTILINE))
    assert listed == {name: summary for name, (_, summary) in COMMANDS.items()}
    # the description names what the newer commands do, not only counting
    description = " ".join(out.split("positional arguments:")[0].split("\n")[1:])
    for purpose in ("source line", "race", "first position"):
        assert purpose in description
