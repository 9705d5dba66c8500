"""Finding Stockfish and running its own perft benchmark (`stockfish bench 16 1 D FILE perft`)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

from ..errors import EngineError

DEBIAN_PATH = "/usr/games/stockfish"     # Debian's package installs here, often not on PATH


def find_stockfish() -> str | None:
    """Path of a Stockfish binary on PATH or in Debian's place, or None."""
    found = shutil.which("stockfish")
    if found:
        return found
    if os.path.isfile(DEBIAN_PATH) and os.access(DEBIAN_PATH, os.X_OK):
        return DEBIAN_PATH
    return None


def require_stockfish() -> str:
    path = find_stockfish()
    if path is None:
        raise EngineError("stockfish is not installed: not on PATH and not at /usr/games/stockfish "
                          "(Debian: apt-get install stockfish)")
    return path


def bench_perft(fen: str, depth: int, binary: str | None = None, timeout: float = 600) -> dict:
    """Stockfish's single-threaded perft on one position, timed by Stockfish itself:
    {"nodes", "ms", "nps"}."""
    binary = binary or require_stockfish()
    with tempfile.NamedTemporaryFile("w", suffix=".fen", delete=False) as f:
        f.write(fen + "\n")
        path = f.name
    try:
        proc = subprocess.run([binary, "bench", "16", "1", str(depth), path, "perft"],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise EngineError(f"stockfish bench perft depth {depth} did not finish in {timeout:.0f} s") from None
    finally:
        os.unlink(path)
    out = proc.stdout + proc.stderr
    fields = {}
    for name, key in (("Nodes searched", "nodes"), ("Total time \\(ms\\)", "ms"), ("Nodes/second", "nps")):
        m = re.search(name + r"\s*:\s*(\d+)", out)
        if not m:
            raise EngineError(f"stockfish bench: no '{name.replace(chr(92), '')}' line in its output "
                              f"(exit code {proc.returncode}): {out.strip()[-200:]!r}")
        fields[key] = int(m.group(1))
    return fields
