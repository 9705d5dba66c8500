"""A race (and its A/B duel) as JSON and as Markdown tables for an engine's README; the CLI and
the Race tab's export both write these."""
from __future__ import annotations

import re

from ..mismatch.verdicts import ILLEGAL, NOT_GENERATED
from ..units import format_rate
from ..engines.usage import SOURCES
from .runner import WRONG, Heat, Race

_MOVE_VERDICT = re.compile(rf"\b({ILLEGAL.word}|{NOT_GENERATED.word}) (\S+)")


def settings_text(race: Race, repeat: int | None = None) -> str:
    """'10 s per position, 1 thread': what every figure of the race was measured under."""
    parts = [f"{race.seconds:g} s per position" if race.seconds is not None else f"depth {race.depth}"]
    asked = race.mode.asked()
    if "threads" in asked:
        parts.append(f"{asked['threads']} thread{'s' * (asked['threads'] != 1)} asked")
    if "hash_mb" in asked:
        parts.append(f"{asked['hash_mb']} MiB hash asked")
    if repeat:
        parts.append(f"{repeat} alternating runs each")
    return ", ".join(parts)


def load_text(race: Race) -> str:
    start, end = race.load["start"], race.load["end"]
    text = f"{race.load['cpus']} CPUs"
    if start:
        text += f", load average {start[0]:.2f} at the start"
    if end:
        text += f", {end[0]:.2f} at the end"
    return text


def short_verdict(heat: Heat) -> str:
    """A table cell for a heat that is out: 'wrong count at depth 2: illegal f4e3'."""
    if heat.status != WRONG:
        return heat.status
    depth = re.match(r"(?:run \d+ of \d+, )?depth (\d+)", heat.verdict)
    move = _MOVE_VERDICT.search(heat.verdict)
    return (f"{ILLEGAL.mark if move and move[1] == ILLEGAL.word else NOT_GENERATED.mark if move else ''} "
            f"{WRONG}{f' at depth {depth[1]}' if depth else ''}{f': {move[1]} {move[2]}' if move else ''}").strip()


def net_cell(lap) -> str:
    """A lap's net seconds; one within the start-up's noise as '≤ noise' (never a negative time)."""
    if lap.net is None:
        return "—"
    return f"≤ {lap.noise:.4f}" if lap.within_noise else f"{lap.net:.4f}"


def speed_cell(heat: Heat) -> str:
    if heat.out:
        return short_verdict(heat)
    best = heat.best
    if best is None and heat.laps:        # every depth it reached was within the start-up's noise
        return f"too short to time (depth {heat.laps[-1].depth})"
    return f"{format_rate(best.nps)} (depth {best.depth})" if best else (heat.status or "not run")


def to_json(race: Race, duel=None) -> dict:
    data = {
        "settings": {"seconds": race.seconds, "depth": race.depth, **race.mode.asked(),
                     "timeout": race.timeout, "repeat": duel.repeat if duel else None},
        "machine": {"cpus": race.load["cpus"], "load_start": race.load["start"], "load_end": race.load["end"]},
        "measured_by": SOURCES,
        "engines": [{"name": r.name, "label": r.label, "spec": r.spec.text, "launch_seconds": r.launch,
                     "taken": _taken(r)} for r in race.racers],
        "positions": [{"name": p.name, "fen": p.fen} for p in race.positions],
        "heats": [h.to_json() for h in race.heats],
        "wrong": race.wrong,
    }
    if duel is not None:
        a, b = race.racers
        data["ab"] = {"a": a.label, "b": b.label, "positions": [m.to_json() for m in duel.matches],
                      "total": duel.total.to_json() if duel.total else None,
                      "cpu_total": duel.cpu_total.to_json() if duel.cpu_total else None}
    return data


def _taken(racer) -> dict:
    oracle = racer.oracle
    return dict(oracle.taken) if oracle is not None else dict(getattr(racer, "taken", {}))


def to_markdown(race: Race, duel=None) -> str:
    lines = [f"**perft race**: {settings_text(race, duel.repeat if duel else None)}; {load_text(race)}.", ""]
    names = [p.name for p in race.positions]
    lines += ["| engine | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for i, racer in enumerate(race.racers):
        cells = [speed_cell(h) for h in race.heats if h.racer == i]
        lines.append(f"| {racer.label} | " + " | ".join(cells) + " |")
    lines += ["", "Nodes per second at the deepest depth finished, start-up taken out (the fastest of "
                  "its depth-1 calls); every count checked against the core's.", ""]
    for position in race.positions:
        lines += [f"**{position.name}** `{position.fen}`", "",
                  "| engine | depth | nodes | wall s | net s | nps | CPU s | peak MiB | own s | load |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for heat in (h for h in race.heats if h.position == position):
            for lap in heat.laps:
                lines.append(f"| {heat.engine} | {lap.depth} | {lap.nodes:,} | {lap.seconds:.4f} | "
                             f"{net_cell(lap)} | {format_rate(lap.nps) if lap.nps else '—'} | "
                             f"{_num(lap.cpu, '.3f')} | {_num(lap.peak / 2**20 if lap.peak else None, '.1f')} | "
                             f"{_num(lap.own_seconds, '.4f')} | {_num(heat.load, '.2f')} |")
            if heat.out or heat.note:
                lines.append(f"| {heat.engine} | {heat.status}: {heat.verdict or heat.note} |" + " |" * 8)
        lines.append("")
    lines += ["Net s is the wall time less the start-up; `≤ N`: within the start-up's own noise N (the "
              "spread of its depth-1 calls, at least a tenth of it), too short to time, so no speed.", "",
              "CPU and peak memory: " + "; ".join(f"{k}: {v}" for k, v in SOURCES.items()) + ".", ""]
    if duel is not None:
        lines += _duel_markdown(race, duel)
    return "\n".join(lines)


def _duel_markdown(race: Race, duel) -> list[str]:
    a, b = race.racers
    lines = [f"**A/B**: A = {a.label} (`{a.spec}`), B = {b.label} (`{b.spec}`); the wall time of each call, "
             f"{duel.repeat} runs each in alternation (AB BA ...).", "",
             "| position | depth | A median s (range) | B median s (range) | wall time | CPU time |",
             "|---|---:|---:|---:|---|---|"]
    for m in duel.matches:
        if m.verdict is None:
            lines.append(f"| {m.position.name} | {m.depth or '—'} | | | {m.out} | |")
            continue
        lines.append(f"| {m.position.name} | {m.depth} | {_spread(m.verdict.a)} | {_spread(m.verdict.b)} | "
                     f"{m.verdict.text} | {m.cpu_verdict.text if m.cpu_verdict else '—'} |")
    if duel.total is not None:
        lines.append(f"| **total** | | {_spread(duel.total.a)} | {_spread(duel.total.b)} | "
                     f"**{duel.total.text}** | "
                     f"{duel.cpu_total.text if duel.cpu_total else '—'} |")
    return lines + [""]


def _spread(s) -> str:
    return f"{s.median:.4f} ({s.low:.4f}–{s.high:.4f})"


def _num(value, fmt: str) -> str:
    return "—" if value is None else format(value, fmt)
