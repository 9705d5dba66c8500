"""Bundled position suites (see README.md for their sources)."""
from pathlib import Path

DIR = Path(__file__).parent


def path(name: str) -> Path:
    """The bundled file `name` (with or without its extension)."""
    if "/" in name or "\\" in name:
        raise FileNotFoundError(name)
    for candidate in (DIR / name, *sorted(DIR.glob(name + ".*"))):
        if candidate.is_file() and candidate.suffix in (".epd", ".perft", ".csv"):
            return candidate
    raise FileNotFoundError(name)


def names() -> list[str]:
    return sorted(p.name for p in DIR.iterdir() if p.suffix in (".epd", ".perft"))
