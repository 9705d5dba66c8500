"""How `suite --engine`, `fuzz` and `shrink` print findings: one block per failing position,
then the summary by class with the shortest example of each and the depth histogram."""
from __future__ import annotations

import sys
import threading
from pathlib import Path

from perftscope.core.engines.pair import EnginePair
from perftscope.core.job import Subject
from perftscope.core.mismatch.session_job import SessionJob, SuiteSettings
from perftscope.core.mismatch.suite_run import Case, junit_xml
from perftscope.core.errors import PerftscopeError
from perftscope.core.mismatch.findings import CLASSES, Finding, depth_histogram, shortest_examples
from perftscope.core.mismatch.shrink import Shrunk

from .common import print_json, spelled
from .job_runner import run_job

_print_lock = threading.Lock()      # cases end on several worker threads


def finding_lines(f: Finding, indent: str = "      ") -> list[str]:
    """The finding in a few lines: class and moves with reasons, where, the minimal position."""
    lines = [indent + f.summary()]
    if f.report is not None and f.report.unreachable:
        lines += [f"{indent}engines may differ here: this position cannot arise in a game ({reason})"
                  for reason in f.report.unreachable]
    if not f.engine_failed and f.report is not None:
        if f.path:
            lines.append(f"{indent}path {' '.join(f.path)}")
        lines.append(f"{indent}differs at {f.report.fen}")
    elif f.engine_failed and f.report is not None and f.report.levels:
        lines.append(f"{indent}levels found before it: {len(f.report.levels)} "
                     f"(deepest {f.report.levels[-1].fen})")
    if f.shrunk is not None and f.shrunk.steps:
        moves = f"; differing {' '.join(f.example_moves)}" if f.example_moves and f.minimal else ""
        lines.append(f"{indent}minimal {f.shrunk.fen} at depth {f.shrunk.depth} ({f.shrunk.pieces} pieces, "
                     f"{f.shrunk.engine_calls} engine calls to shrink{moves})")
    return lines


def summary_lines(findings: list[Finding]) -> list[str]:
    if not findings:
        return []
    lines = ["failures by class (shortest example of each):"]
    examples = shortest_examples(findings)
    width = max(len(CLASSES[k]) for k in examples)
    for kind, ex in examples.items():
        count = sum(f.count for f in findings if f.kind == kind)
        moves = " ".join(ex.example_moves)
        lines.append(f"  {CLASSES[kind]:<{width}}  {count:>4}  {ex.example_fen}" + (f"  ({moves})" if moves else ""))
    histogram = depth_histogram(findings)
    if histogram:
        lines.append("depth at which the move lists first differ:")
        top = max(histogram.values())
        for depth, n in histogram.items():
            lines.append(f"  {depth:>3}  {'#' * max(1, round(30 * n / top)):<30}  {n}")
    return lines


def _print_case(args, case: Case):
    if case.entry.error:                 # a line that cannot be read: on stderr, JSON or not
        print(f"perftscope: {case.error}", file=sys.stderr, flush=True)
    if args.json or case.entry.error:
        return
    with _print_lock:
        if case.skipped:
            print(f"skip  {case.name}: {spelled(case.fen_error) if case.fen_error else case.skipped}", flush=True)
        elif case.error:
            print(f"FAIL  {case.name}: {case.error}", flush=True)
        elif case.finding is None:
            depths = [d for d, _, _ in case.checked]
            span = f"D{depths[0]}" + (f"-D{depths[-1]}" if len(depths) > 1 else "")
            print(f"ok    {case.name}  {span}  {case.seconds:.2f}s  {case.entry.fen}", flush=True)
        else:
            d, expected, got = case.checked[-1]
            counted = "the engine failed" if got is None else f"got {got}"
            head = "DIFF" if case.may_differ else "FAIL"
            print(f"{head}  {case.name}  D{d} expected {expected}, {counted}  {case.entry.fen}")
            print("\n".join(finding_lines(case.finding)), flush=True)


def run_engine_suite(args, entries) -> int:
    # a suite session as the Test-engine tab runs one: a SessionJob, each position's Case an event
    # printed as it ends, Ctrl-C as Stop
    settings = SuiteSettings(Path(args.file).name, args.max_depth, args.jobs, entries=entries,
                             max_nodes=args.max_nodes, shrink_calls=args.shrink_calls, cases=True,
                             keep_passed=bool(args.json or args.junit))   # a text report prints each as it ends
    job = SessionJob(EnginePair.parse(args.engine, args.reference, args.timeout), settings)

    def heard(event):
        if isinstance(event, Subject) and not args.json:
            print(f"engine     {event.engines[0]}")
            print(f"reference  {event.engines[1]}")
            print(f"jobs       {job.session.jobs}", flush=True)
        elif isinstance(event, Case):
            _print_case(args, event)
    run_job(job, heard, quiet=args.json)
    run = job.session
    if args.junit:
        try:
            Path(args.junit).write_text(junit_xml(run, Path(args.file).name), encoding="utf-8")
        except OSError as e:
            raise PerftscopeError(f"cannot write JUnit file {args.junit}: {e.strerror or e}") from None
    counts = run.counts()
    if args.json:
        print_json(run.to_json())
    else:
        print(f"{counts['passed']} passed, {counts['failed']} failed"
              + (f", {counts['may_differ']} differ where engines may differ (positions that cannot arise)"
                 if counts['may_differ'] else "")
              + (f", {counts['skipped']} skipped" if counts['skipped'] else "") + f" in {run.seconds:.1f} s")
        for line in summary_lines(run.findings):
            print(line)
    return 2 if run.unreadable else 1 if counts["failed"] else 0


def shrunk_lines(s: Shrunk) -> list[str]:
    lines = [f"start      {s.start_fen} at depth {s.start_depth}"]
    lines += [f"  step     {step}" for step in s.steps]
    lines.append(f"minimal    {s.fen} at depth {s.depth} ({s.pieces} pieces)")
    for reason in s.unreachable:
        lines.append(f"note       this position cannot arise in a game ({reason}): engines may differ here, "
                     f"and no position that can arise keeps the failure")
    if s.exhausted:
        lines.append("note       stopped by the engine-call budget; a smaller position may exist")
    lines.append(f"engine calls {s.engine_calls} (reference calls {s.reference_calls})")
    return lines
