"""`perftscope gui`: the desktop workbench.

With --screenshot or --save-session the window opens, runs the divide or the finder if asked,
waits for it with the event loop running, saves a PNG of the whole window or the session's
JSON and exits: that is how the README's pictures are made, and how a bug report carries
the work.
"""
from __future__ import annotations

import os
import sys

from perftscope.core.engines.spec import SPECS
from perftscope.core.errors import EngineError, PerftscopeError

from . import add_parser
from .common import add_960_arg, depth_arg, seconds_arg      # not from .compare: it imports core (kernels compile)

SCREENSHOT_WAIT_S = 300          # a divide that takes longer is shown as far as it got


def register(sub):
    g = add_parser(sub, "gui")
    g.add_argument("--fen", default=None, help="position to open")
    add_960_arg(g, "open the position as Chess960 (the Chess960 box ticked): X-FEN KQkq name the outermost "
                   "rooks, castling is king takes rook")
    g.add_argument("--divide", type=depth_arg, default=None, metavar="DEPTH",
                   help="divide the position at this depth on opening: the engine against the reference, "
                        "or the reference alone with no engine")
    g.add_argument("--find", type=depth_arg, default=None, metavar="DEPTH",
                   help="run Find first mismatch at this depth on opening")
    g.add_argument("--perft", type=depth_arg, default=None, metavar="DEPTH",
                   help="start a perft run at this depth on opening (shows the live graphs)")
    g.add_argument("--overlays", default=None, metavar="NAMES",
                   help="overlay layers to show: 'all', 'none' or a comma list of "
                        "checkers,pins,discovered,attacked,king_zone,ep")
    g.add_argument("--engine", default=None, metavar="SPEC",
                   help=f"the engine being debugged: {SPECS}; 'none' for the reference alone "
                        "(default: the last one used)")
    g.add_argument("--reference", default=None, metavar="SPEC",
                   help="the truth it is checked against: core, python-chess, stockfish or any engine spec "
                        "(default: the last one used, core the first time)")
    g.add_argument("--timeout", type=seconds_arg, default=None, metavar="SECONDS",
                   help="longest wait for one engine call before the engine counts as hung")
    g.add_argument("--screenshot", default=None, metavar="PATH",
                   help="save a PNG of the window (after the divide, if asked) and exit")
    g.add_argument("--size", type=window_size, default=None, metavar="WxH",
                   help="window size in pixels, e.g. 1024x700 (default: the last one used)")
    g.add_argument("--save-session", default=None, metavar="FILE",
                   help="save the session (position, engines, divide rows, finder report) as JSON "
                        "after the divide or search asked for, and exit")
    g.set_defaults(run=run_gui)


def window_size(text: str) -> tuple[int, int]:
    import argparse
    w, x, h = text.lower().partition("x")
    if not (x and w.isdigit() and h.isdigit() and 320 <= int(w) <= 10000 and 240 <= int(h) <= 10000):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT in pixels such as 1024x700, got {text!r}")
    return int(w), int(h)


def _invocation() -> str:
    """How this user started perftscope, so the hint can be pasted as it is."""
    argv0 = sys.argv[0] if sys.argv and sys.argv[0] else "perftscope"
    if os.path.basename(argv0) == "perftscope" and os.path.dirname(argv0):
        return os.path.relpath(argv0) if not os.path.isabs(argv0) else argv0
    return "perftscope"


def has_display() -> bool:
    if sys.platform != "linux":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or \
        os.environ.get("QT_QPA_PLATFORM", "").partition(":")[0] in ("offscreen", "minimal", "vnc")   # (its options after ':')


def _draw_offscreen():
    """Nothing is shown, only saved: Qt draws the window offscreen as a display would, so a CI job
    or an ssh session saves a session or a picture without a virtual X server. The offscreen
    screen is 800x800 unless told otherwise, which would clamp --size: it is given a desktop's."""
    import atexit
    import json
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", prefix="perftscope-screen-", delete=False) as f:
        json.dump({"screens": [{"name": "offscreen", "x": 0, "y": 0, "width": 3840, "height": 2160,
                                "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}, f)
    atexit.register(os.unlink, f.name)
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={f.name}"


def overlay_names(text: str | None) -> set | None:
    if text is None:
        return None
    from perftscope.widgets.overlays import LAYERS
    keys = [key for key, *_ in LAYERS]
    names = {n.strip() for n in text.split(",") if n.strip()}
    if names == {"all"}:
        return set(keys)
    if names == {"none"}:
        return set()
    unknown = names - set(keys)
    if unknown:
        raise PerftscopeError(f"--overlays: unknown layer {sorted(unknown)[0]!r} "
                              f"(expected all, none or some of {', '.join(keys)})")
    return names


def check_spec(flag: str, spec: str):
    """The Spec the window is given (read here, once), or EngineError naming the flag and what is wrong."""
    from perftscope.core.engines.spec import parse_spec
    try:
        return parse_spec(spec)
    except EngineError as e:
        raise EngineError(f"{flag} {spec!r}: {e}") from None


def _checked(args):
    """(fen, (engine, reference), overlays) from the arguments, or the PerftscopeError naming the
    bad one. The engine is a Spec, or "" for none, or None for the remembered one; the reference
    a Spec or None (the remembered one).
    The FEN is checked by the board's rules (python-chess while the kernels are prepared)."""
    from perftscope.core.board.position import START_FEN
    # FenError: exit 2; a right or en-passant square that cannot stand is dropped by the board,
    # which says so under its FEN field
    fen = " ".join(args.fen.split()) if args.fen else START_FEN
    if args.chess960:         # written so that it says Chess960 by itself: the board reads it so
        from perftscope.core.board.position import Position
        fen = Position.from_fen(fen, chess960=True).fen()
    if args.fen:
        from perftscope.core.engines.lenient_fen import lenient_fen
        lenient_fen(fen)
    reference = check_spec("--reference", args.reference) if args.reference else None
    engine = "" if args.engine in ("none", "") else args.engine
    if engine:
        engine = check_spec("--engine", engine)
    overlays = overlay_names(args.overlays)
    from perftscope.widgets import divide_tree, run_panel
    for flag, depth, most in (("--divide", args.divide, divide_tree.MAX_DEPTH),
                              ("--find", args.find, divide_tree.MAX_DEPTH),
                              ("--perft", args.perft, run_panel.MAX_DEPTH)):
        if depth is not None and not 1 <= depth <= most:
            raise PerftscopeError(f"{flag}: depth must be between 1 and {most} in the window, got {depth}")
    return fen, (engine, reference), overlays


def run_gui(args) -> int:
    if not has_display() and (args.screenshot or args.save_session):
        _draw_offscreen()
    if not has_display():
        print("perftscope: error: no display found (DISPLAY is not set): run it in a desktop session, "
              f"or under a virtual one with `xvfb-run -a {_invocation()} gui`", file=sys.stderr)
        return 2
    from PySide6.QtWidgets import QApplication

    from perftscope.app.launch import Splash, start_preparation

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("perftscope")
    splash = Splash()
    splash.show()
    app.processEvents()
    # helper processes compile what the cache lacks while Qt builds the window here
    preparation, news = start_preparation()
    try:
        return _open_window(app, splash, args, preparation, news)
    finally:
        from perftscope.app import warmup
        warmup.end(preparation)


def _open_window(app, splash, args, preparation, news) -> int:
    from perftscope.app.launch import attach, wait_in_event_loop, when_ready, window_shown

    try:
        fen, (engine, reference), overlays = _checked(args)
    except BaseException:
        splash.close()
        raise

    from perftscope.app.gui import MainWindow, apply_style
    from perftscope.widgets.overlays import LAYERS

    apply_style(app)
    window = MainWindow(fen, reference=reference, engine=engine, timeout=args.timeout)
    if args.find is not None and not window.engines.engine:
        window.close()
        splash.close()
        raise PerftscopeError("--find: no engine to debug (give --engine SPEC; the reference is the truth "
                              "it is checked against)")
    attach(window, preparation, news)
    if args.size:
        window.resize(*args.size)
    window.show()
    splash.finish(window)
    window_shown(app, preparation)
    if overlays is not None:
        for key, *_ in LAYERS:
            window.legend.set_enabled(key, key in overlays)
    if args.perft is not None:
        when_ready(preparation, news, "pool", lambda: window.runs.start_at(args.perft))
    if args.find is not None:
        window.divider.find_mismatch(args.find)
    elif args.divide is not None:
        window.divider.divide(args.divide)
    if args.screenshot or args.save_session:
        wait_in_event_loop(preparation, SCREENSHOT_WAIT_S)      # the overlays and the run panel as they end up
        return save_and_exit(app, window, args.screenshot, args.save_session)
    # SIGTERM (a session ending, `kill`) closes the window as its close button does: the helper
    # processes still compiling are ended with it (the caller's finally)
    import signal
    signal.signal(signal.SIGTERM, lambda *_: window.close())
    return app.exec()


def save_and_exit(app, window, shot: str | None, session_path: str | None) -> int:
    """Let the window settle (and the divide or finder finish), save the screenshot and/or
    the session, close it."""
    import time

    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    deadline = time.monotonic() + SCREENSHOT_WAIT_S
    while window.busy() and time.monotonic() < deadline:
        QTimer.singleShot(50, loop.quit)   # the event loop runs: workers' results get delivered
        loop.exec()
    QTimer.singleShot(300, loop.quit)      # one last layout and paint
    loop.exec()
    try:
        if session_path:
            window.sessions.save(session_path)
            print(session_path)
        if shot:
            if not window.grab().save(shot):
                raise PerftscopeError(f"cannot write the screenshot to {shot} (is the folder there and writable?)")
            print(shot)
    finally:
        window.close()
    return 0
