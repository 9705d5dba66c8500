"""Finding the processes a test's engine started: each is given a marker (a `sleep` duration no
other process uses) and found by it in /proc."""
import os
import random


def marker() -> str:
    """A `sleep` duration no other process uses."""
    return f"{random.randint(100_000, 999_999)}.{os.getpid()}"


def with_marker(mark: str) -> list[int]:
    """The live processes with `mark` in their command line."""
    found = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                if mark.encode() in f.read() and alive(int(name)):
                    found.append(int(name))
        except (OSError, ValueError):
            pass
    return found


def alive(pid: int) -> bool:
    """The process exists and is not a zombie (one whose parent has not reaped it yet)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False
