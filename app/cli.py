"""The `perftscope` command. Each subcommand lives in app/commands/<module>.py and exposes
`register(subparsers)`; app.commands.COMMANDS lists them. Only the module of the command being
run is imported, so `perftscope --help` does not load numba."""
from __future__ import annotations

import argparse
import gc
import importlib
import os
import signal
import sys
import threading
import time

from perftscope.core.errors import PerftscopeError

from .commands import COMMANDS
from .commands.common import spelled


def build_parser(argv=()) -> argparse.ArgumentParser:
    """The parser for `argv`: the full arguments of the command it names, a one-line entry for
    every other command (enough for `perftscope --help` and for argparse's own errors)."""
    parser = argparse.ArgumentParser(
        prog="perftscope",
        description="A workbench for chess move-generator authors: count perft, check your "
                    "engine against a reference, find the first position where it goes wrong "
                    "and the source line behind it, test it at scale, race it.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    first = next((a for a in argv if not a.startswith("-")), None)      # no global option takes a value
    chosen = COMMANDS[first][0] if first in COMMANDS else None
    for name, (module, summary) in COMMANDS.items():
        if module != chosen:
            sub.add_parser(name, help=summary)
        elif name not in sub.choices:              # one module may register several commands
            importlib.import_module(f"perftscope.app.commands.{module}").register(sub)
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    # numba's import builds a large graph of objects that lives as long as the process: the
    # collector's passes over it cost about a tenth of a short command's imports, and the
    # interpreter's collections at exit were 0.3-0.5 s of a warm `perftscope divide -d 1`.
    # Frozen objects are never scanned again (nor freed, which they would not be anyway).
    _Interrupts.install()
    try:
        gc.disable()
        try:
            parser = build_parser(argv)
        finally:
            gc.freeze()
            gc.enable()
        args = parser.parse_args(argv)
        return int(args.run(args) or 0)
    except PerftscopeError as e:
        print(f"perftscope: error: {spelled(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        _Interrupts.say()
        return 128 + _Interrupts.signum
    except BrokenPipeError:
        return 0
    except Exception:
        # Ctrl-C during a first compile: numba turns the interrupt into an error of its own
        if _Interrupts.seen:
            _Interrupts.say()
            return 128 + _Interrupts.signum
        raise
    finally:
        gc.freeze()       # what the command built goes with the process: no collection at exit


class _Interrupts:
    """Ctrl-C as KeyboardInterrupt, remembered: during a first compile the interrupt can land in
    one of llvmlite's ctypes callbacks, which swallows it, and numba then fails with an error of
    its own (no compiled object yet). The error after a Ctrl-C is the interrupt, not a crash."""
    seen = False
    said = False
    signum = signal.SIGINT

    @classmethod
    def say(cls) -> None:
        if not cls.said:
            cls.said = True
            print("perftscope: interrupted", file=sys.stderr, flush=True)

    @classmethod
    def install(cls) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:      # not only where Ctrl-C is heard (a background job)
            signal.signal(signal.SIGTERM, cls._terminate)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, cls._handle)
        cls._unraisable = sys.unraisablehook
        sys.unraisablehook = cls._quiet_when_interrupted

    @classmethod
    def _quiet_when_interrupted(cls, unraisable) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            return
        tb = unraisable.exc_traceback
        while cls.seen and tb is not None:
            # a compiler object the interrupt left half-built fails in its destructor (llvmlite's
            # ObjectRef.__del__ without `_as_parameter_`): the interrupt's echo, not a new fault
            if cls._in_compiler(tb.tb_frame.f_code.co_filename):
                return
            tb = tb.tb_next
        cls._unraisable(unraisable)

    @classmethod
    def _handle(cls, signum, frame):
        cls.seen = True
        if cls._compiling(frame):
            # llvmlite may swallow the interrupt and let numba compile on for a minute: a Ctrl-C
            # is never ignored, so the process ends in seconds whatever the compiler does
            threading.Thread(target=cls._exit_soon, daemon=True).start()
        raise KeyboardInterrupt

    @classmethod
    def _terminate(cls, signum, frame):
        # `kill` stops a command as Ctrl-C does (exit 143, not 130): its job ends its engine calls
        # and removes the copies of the engine's source and the folders it made, which the default
        # action left behind
        cls.signum = signum
        cls._handle(signum, frame)

    @staticmethod
    def _in_compiler(filename: str) -> bool:
        return f"{os.sep}numba{os.sep}" in filename or f"{os.sep}llvmlite{os.sep}" in filename

    @classmethod
    def _compiling(cls, frame) -> bool:
        while frame is not None:
            if cls._in_compiler(frame.f_code.co_filename):
                return True
            frame = frame.f_back
        return False

    @classmethod
    def _exit_soon(cls, seconds: float = 3.0):
        time.sleep(seconds)
        cls.say()
        os._exit(128 + cls.signum)


if __name__ == "__main__":
    sys.exit(main())
