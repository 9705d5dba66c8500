"""Finding the processes a test's engine started: each is given a marker (a `sleep` duration no
other process uses) and found by it in /proc."""
import os
import random
import signal
import subprocess
import time


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


def interrupted(command: list[str], mark: str) -> tuple[int, str, float]:
    """Run `command`, Ctrl-C it once a process with `mark` runs: (exit code, stderr, seconds from
    the Ctrl-C to its end)."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 30
        while not with_marker(mark) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert with_marker(mark), proc.communicate(timeout=5)
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _, err = proc.communicate(timeout=40)
        return proc.returncode, err, time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
