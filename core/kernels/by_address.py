"""Kernels called by their address rather than linked in.

numba compiles every jitted function to machine code of its own with all it calls linked in
and optimised again: each kernel above perft 2 (`_perft`, the pool's `_search` and
`run_worker`) re-optimised every perft 2 variant, about a third of a cold start
(docs/notebook/speed.md). A kernel with the C signature below is compiled once, as a numba
`cfunc`, and the kernels above call it through its address, read from the table at run time
(never a constant: the cached machine code is used by other processes, where the address
differs).

    C_SIGNATURE: uint64 kernel(uint64 *table, int64 table_size, uint64 x 11 (the state))
"""
import ctypes

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

TABLE = types.Array(types.uint64, 1, "C", readonly=True)
C_SIGNATURE = types.uint64(types.CPointer(types.uint64), types.int64, *([types.uint64] * 11))

_I64 = ir.IntType(64)


@intrinsic
def table_view(typingctx, data, size):
    """The table as the read-only array the kernels take, from a C kernel's arguments
    (no copy, no reference count: the caller owns it)."""
    def codegen(context, builder, signature, args):
        view = context.make_array(TABLE)(context, builder)
        populate_array(view, data=args[0], shape=cgutils.pack_array(builder, [args[1]]),
                       strides=cgutils.pack_array(builder, [ir.Constant(_I64, 8)]),
                       itemsize=ir.Constant(_I64, 8), meminfo=None)
        return view._getvalue()
    return TABLE(data, size), codegen


@intrinsic
def call(typingctx, address, T, s):
    """The C kernel at `address` applied to (T, s): one indirect call."""
    def codegen(context, builder, signature, args):
        address, table, state = args
        view = context.make_array(signature.args[1])(context, builder, table)
        size = builder.extract_value(view.shape, 0)
        words = [builder.extract_value(state, i) for i in range(11)]
        kernel = builder.inttoptr(address, ir.FunctionType(_I64, [view.data.type, _I64] + [_I64] * 11).as_pointer())
        return builder.call(kernel, [view.data, size] + words)
    return types.uint64(types.uint64, T, s), codegen


def from_python(kernel):
    """A Python function (T, s) -> int calling the C kernel (tests, the command line)."""
    function = kernel.ctypes

    def run(T, s):
        return function(T.ctypes.data_as(ctypes.POINTER(ctypes.c_uint64)), T.size, *(int(x) for x in s))
    run.__doc__ = kernel.__doc__
    return run
