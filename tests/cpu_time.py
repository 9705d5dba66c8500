"""Where the suite's CPU goes: `pytest -p tests.cpu_time --cpu-time=FILE ...` appends one line a test,
`CPU  WALL  NODEID`, the CPU in seconds of user + system time of the test process and of every
process it started and waited for (the engines, the CLI, helpers: their own children included), from
its setup to its teardown. With xdist each worker appends to FILE; lines are written whole.

CPU rather than wall time: on a shared machine the others' work stretches wall time, far less the CPU
a test costs. A process a test leaves to a later one (a module's Dask cluster) is counted when it is
waited for, in the test running then."""
import os
import resource
import time

import pytest


def pytest_addoption(parser):
    parser.addoption("--cpu-time", metavar="FILE", help="append each test's CPU seconds, children included, to FILE")


def _cpu():
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    where = item.config.getoption("--cpu-time")
    if not where:
        yield
        return
    cpu, wall = _cpu(), time.monotonic()
    yield
    line = f"{_cpu() - cpu:.3f}\t{time.monotonic() - wall:.3f}\t{item.nodeid}\n"
    fd = os.open(where, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)
