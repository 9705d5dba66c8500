"""The guides' commands still work and still print what the guides show.

Every ```console block of README.md and docs/*.md (the lab notebook aside) is run: a line
starting with `$ ` is a command (a trailing backslash continues it), the lines after it up to
the next command are what it printed. Commands run in a shell with this environment's bin first
on PATH, as a reader's activated .venv would, in a scratch folder holding what they use of a
clone (SHARED), with a fresh config folder per block (so an engine's dialect is learned as on a
first meeting). Other blocks (```text, ```toml, ```sh, a bare ```) are shown, not run: slow
runs, the window.

The output is compared in shape: measured figures (times, speeds, loads, anything with a
decimal point, the race's `—` for a figure too quick to time) and the machine's core count are
normalised, runs of spaces are one, and a line holding only `...` stands for any lines. Counts,
verdicts, moves and FENs must be as printed.
"""
import difflib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
BIN = Path(sys.executable).parent
# What the guides' commands use of a clone, copied to a scratch folder for each block, so that
# what they write (a JUnit file, a session) stays there. Copied, not linked: perftscope names
# files by their real paths.
SHARED = ("tests/engines", "docs/examples")


def console_blocks(path: Path):
    """(line number, [(command, expected output lines)]) of each ```console block."""
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```console":
            start, i, runs = i + 1, i + 1, []
            while lines[i].strip() != "```":
                line = lines[i]
                if line.startswith("$ "):
                    command = line[2:]
                    while command.endswith("\\"):
                        i += 1
                        command = command[:-1] + " " + lines[i].strip()
                    runs.append((command, []))
                else:
                    assert runs, f"{path.name}:{i + 1}: output before any `$ ` command"
                    runs[-1][1].append(line)
                i += 1
            yield start, runs
        i += 1


def unique_blocks():
    """Every block once: the README's tour shows some guides' commands again, word for word."""
    seen = set()
    for path in GUIDES:
        for start, runs in console_blocks(path):
            key = tuple((command, tuple(expected)) for command, expected in runs)
            if key not in seen:
                seen.add(key)
                yield path, start, runs


BLOCKS = list(unique_blocks())

MEASURED = [
    (re.compile(r"\d[\d,]*\.\d+ ?[kMG]?nps|too short to time"), "#"),   # a speed, or none
    (re.compile(r"≤ ?\d+\.\d+"), "#"),                                   # a time within the noise
    (re.compile(r"\d[\d,]*\.\d+"), "#"),                                 # times, loads, rates
    (re.compile(r"^nps +[\d,]+$"), "nps #"),                              # perft's speed line
    (re.compile(r'"nps": \d+'), '"nps": #'),                              # ... in its JSON
    (re.compile(r"—"), "#"),                                             # a figure not measured
    (re.compile(r"\b\d+ CPUs?\b"), "N CPUs"),
    (re.compile(r"\b[0-9a-f]{20}\b"), "HASH"),                           # a saved dialect's key
]


def shape(text: str, config: str) -> list[str]:
    text = text.replace(config, "~/.config")
    out = []
    for line in text.rstrip().split("\n"):
        for pattern, token in MEASURED:
            line = pattern.sub(token, line)
        line = re.sub(r"#(?:\s+#)+", "#", line)                         # a row of measured columns
        line = re.sub(r"# \(depth \d+\)", "# (depth D)", line)           # the deepest depth timed
        out.append(" ".join(line.split()))
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


@pytest.mark.parametrize("path,start,runs", BLOCKS,
                         ids=[f"{p.relative_to(ROOT)}:{s}" for p, s, _ in BLOCKS])
def test_a_guides_commands_print_what_it_shows(path, start, runs, tmp_path):
    config = str(tmp_path / "config")
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
               XDG_CONFIG_HOME=config, COLUMNS="80")
    env.pop("PERFTSCOPE_DIALECTS", None)        # the session's folder (conftest): a reader has none
    clone = tmp_path / "clone"
    for folder in SHARED:
        shutil.copytree(ROOT / folder, clone / folder)
    for command, expected in runs:
        proc = subprocess.run(["bash", "-c", command], cwd=clone, env=env, capture_output=True,
                              text=True, timeout=300)
        printed = proc.stdout + proc.stderr
        want, got = shape("\n".join(expected), config), shape(printed, config)
        assert matches(want, got), (
            f"{path.name}:{start}: `{command}` (exit {proc.returncode}) printed, in shape "
            f"(- the guide, + this run):\n" + "\n".join(difflib.unified_diff(want, got, lineterm="")))


def test_every_guide_has_commands_that_are_run():
    without = [p.name for p in GUIDES if p.parent.name == "docs"
               and p.name not in ("ARCHITECTURE.md", "BENCHMARKS.md", "RELIABILITY.md")
               and not any(True for _ in console_blocks(p))]
    assert not without


@pytest.mark.parametrize("path", GUIDES, ids=[str(p.relative_to(ROOT)) for p in GUIDES])
def test_a_guides_links_lead_somewhere(path):
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8"))
    missing = [t for t in targets if "://" not in t and not (path.parent / t).exists()]
    assert not missing
