"""numba's compiler lock watched around a call: it is taken for every compile and every cache
load, so a run whose kernels were all prepared before its clock takes it never."""
from contextlib import contextmanager


@contextmanager
def compiler_entries():
    """A list that collects one entry per time the compiler lock is taken inside the block."""
    from numba.core import event

    entered = []

    class Count(event.Listener):
        def on_start(self, e):
            entered.append(e.kind)

        def on_end(self, e):
            pass

    listener = Count()
    event.register("numba:compiler_lock", listener)
    try:
        yield entered
    finally:
        event.unregister("numba:compiler_lock", listener)
