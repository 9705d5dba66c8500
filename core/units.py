"""Rates and sizes as people read them, for every view and report (no Qt here)."""


def format_rate(nps: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if nps >= scale:
            return f"{nps / scale:.2f} {unit}nps"
    return f"{nps:.0f} nps"


def format_bytes(n: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:g} {unit}"
    return f"{n} B"
