"""Ending an engine with everything it started, even after perftscope itself is gone.

An engine runs in a session of its own, so a terminal's signals do not reach it, and so it does
not die with perftscope either. `end()` ends an engine's whole tree: every process in its
session or process group, every process descended from it (a grandchild that called setsid is
still a descendant while its parent lives), and every process still holding one of its pipes
(one whose parent has already exited). They are stopped first, looked for again until no new
one appears (a stopped process cannot fork), then killed.

The warden is a small process started with the first engine: perftscope tells it `+PID INODES` when
an engine starts (with its pipes) and `-PID` once it is reaped, through a pipe only perftscope writes. When that
pipe ends, however perftscope ended (closed, SIGTERM, SIGKILL, a crash), the warden ends every
engine still registered and exits. It runs this file as a script with the standard library
only (`python -I -S warden.py`), so it starts in tens of milliseconds and imports no numba.

Where /proc is missing, only the process group is signalled.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

ROUNDS = 5          # looks for new processes between stopping and killing


def processes() -> dict[int, tuple[int, int, int]]:
    """{pid: (parent pid, process group, session)} of every process, from /proc."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                data = f.read()
        except OSError:
            continue
        # the command name may hold spaces and parentheses: the fields start after the last ')'
        fields = data[data.rindex(b")") + 2:].split()
        table[int(name)] = (int(fields[1]), int(fields[2]), int(fields[3]))
    return table


def holders(pipes) -> set[int]:
    """Processes other than this one with one of the pipes (inode numbers) open."""
    links = {f"pipe:[{inode}]" for inode in pipes}
    found = set()
    me = os.getpid()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            fds = os.listdir(f"/proc/{name}/fd")
            if any(os.readlink(f"/proc/{name}/fd/{fd}") in links for fd in fds):
                found.add(int(name))
        except OSError:          # gone, or not ours to look at
            continue
    return found


def names(pids) -> str:
    """`1234 (sleep)` for each pid, for a message."""
    shown = []
    for pid in sorted(pids):
        try:
            with open(f"/proc/{pid}/comm") as f:
                shown.append(f"{pid} ({f.read().strip()})")
        except OSError:
            shown.append(str(pid))
    return ", ".join(shown)


def members(roots: set[int], table: dict, pipes=()) -> set[int]:
    """The processes of the engines `roots`: themselves, their sessions and process groups,
    their descendants, and whoever holds one of `pipes`."""
    found = {pid for pid, (_, group, session) in table.items()
             if pid in roots or group in roots or session in roots}
    if pipes:
        found |= holders(pipes)
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    stack = list(found | roots)
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found - {0, 1, os.getpid(), os.getppid()}


def _signal(pids, sig) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def end(roots: set[int], pipes=()) -> set[int]:
    """Kill every process of the engines `roots` (pids not yet reaped, so the numbers are still
    theirs) and every holder of `pipes`; returns the pids signalled."""
    if not os.path.isdir("/proc/self"):
        for root in roots:
            try:
                os.killpg(root, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        return set(roots)
    stopped: set[int] = set()
    for _ in range(ROUNDS):
        new = members(roots | stopped, processes(), pipes) - stopped
        if not new:
            break
        _signal(new, signal.SIGSTOP)
        stopped |= new
    _signal(stopped, signal.SIGKILL)
    return stopped


# --- the warden process -------------------------------------------------------------------

_lock = threading.Lock()
_warden: subprocess.Popen | None = None
_watched: dict[int, str] = {}      # pid -> its pipes' inode numbers, as told to the warden


def _tell(line: str) -> None:
    global _warden
    with _lock:
        if _warden is None or _warden.poll() is not None:
            try:
                _warden = subprocess.Popen([sys.executable, "-I", "-S", os.path.abspath(__file__)],
                                           stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL, start_new_session=True, bufsize=0)
            except OSError:
                _warden = None
                return
            # a new warden learns them all
            line = "".join(f"+{pid} {pipes}\n" for pid, pipes in _watched.items()) + line
        try:
            _warden.stdin.write(line.encode())
        except (OSError, ValueError):
            _warden = None


def watch(pid: int, pipes=()) -> None:
    """Have the warden end this engine if perftscope dies before it does, and whoever holds one
    of its `pipes` then: an engine reading its input exits by itself when perftscope dies,
    and what it started that left its session is then found only by the pipes it inherited."""
    text = " ".join(map(str, pipes))
    with _lock:
        _watched[pid] = text
    _tell(f"+{pid} {text}\n")


def forget(pid: int) -> None:
    """The engine is reaped: its pid may now be given to another process."""
    with _lock:
        if _watched.pop(pid, None) is None:
            return
    _tell(f"-{pid}\n")


def warden_pid() -> int | None:
    """The warden's pid while it runs (for tests)."""
    with _lock:
        return _warden.pid if _warden is not None and _warden.poll() is None else None


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)        # only the end of the pipe ends the warden
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    engines: dict[int, list[int]] = {}
    for line in sys.stdin.buffer:
        words = line.decode("ascii", "replace").split()
        if not words or not words[0][1:].isdigit() or not all(w.isdigit() for w in words[1:]):
            continue
        pid = int(words[0][1:])
        if words[0][0] == "+":
            engines[pid] = [int(w) for w in words[1:]]
        else:
            engines.pop(pid, None)
    if engines:
        end(set(engines), {inode for pipes in engines.values() for inode in pipes})


if __name__ == "__main__":
    main()
