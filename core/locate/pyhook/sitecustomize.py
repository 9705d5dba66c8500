"""Line coverage of one Python process for `perftscope locate`, with nothing installed in it.

perftscope puts this folder first on PYTHONPATH of the engine's process (and of whatever Python
a launcher script execs), so every Python that reads PYTHONPATH imports this module at start-up.
It records which lines of the files under PERFTSCOPE_LOCATE_SOURCES run (sys.monitoring from
Python 3.12, sys.settrace before) and writes them, at exit, as JSON into PERFTSCOPE_LOCATE_OUT
(one file per process). Then the sitecustomize it shadows, if there is one, runs as usual.
Stdlib only, and written for every Python 3 still in use.
"""
import atexit
import json
import os
import sys
import threading


def _start(out, roots):
    hit = {}            # file name -> set of line numbers
    wanted = {}         # code file name -> the set to add to, or None: not under a source folder

    def lines_of(filename):
        found = wanted.get(filename, False)
        if found is False:
            path = os.path.realpath(os.path.abspath(filename)) if filename and filename[0] != "<" else ""
            found = None
            if any(path.startswith(root) for root in roots):
                found = hit.setdefault(path, set())
            wanted[filename] = found
        return found

    monitoring = getattr(sys, "monitoring", None)
    if monitoring is not None:
        tool = monitoring.COVERAGE_ID
        try:
            monitoring.use_tool_id(tool, "perftscope-locate")
        except ValueError:
            tool = None
        if tool is not None:
            disable = monitoring.DISABLE

            def line(code, number):
                found = lines_of(code.co_filename)
                if found is not None:
                    found.add(number)
                return disable

            monitoring.register_callback(tool, monitoring.events.LINE, line)
            monitoring.set_events(tool, monitoring.events.LINE)
            monitoring = True
    if monitoring is not True:
        def local(frame, event, arg):
            if event == "line":
                found = wanted.get(frame.f_code.co_filename)
                if found is not None:
                    found.add(frame.f_lineno)
            return local

        def call(frame, event, arg):
            return local if lines_of(frame.f_code.co_filename) is not None else None

        sys.settrace(call)
        threading.settrace(call)

    def write():
        sys.settrace(None)
        data = {path: sorted(lines) for path, lines in hit.items() if lines}
        try:
            with open(os.path.join(out, "py-%d.json" % os.getpid()), "w") as f:
                json.dump(data, f)
        except OSError:
            pass

    atexit.register(write)


def _shadowed():
    """Run the sitecustomize this one hides (a distribution's own), if any."""
    here = os.path.dirname(os.path.abspath(__file__))
    for folder in sys.path:
        path = os.path.join(folder or ".", "sitecustomize.py")
        if os.path.abspath(folder or ".") != here and os.path.isfile(path):
            with open(path) as f:
                code = compile(f.read(), path, "exec")
            exec(code, {"__name__": "sitecustomize", "__file__": path})
            return


_out = os.environ.get("PERFTSCOPE_LOCATE_OUT")
if _out:
    _roots = [os.path.join(os.path.realpath(r), "") for r in
              os.environ.get("PERFTSCOPE_LOCATE_SOURCES", "").split(os.pathsep) if r]
    _start(_out, _roots)
try:
    _shadowed()
except Exception:
    pass
