"""Bit intrinsics numba does not expose: popcount, trailing zeros, byte swap, PEXT,
atomic loads and prefetch, each emitted as one LLVM intrinsic (one instruction), and
array loads and stores without numba's negative-index fixup."""
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_I64 = ir.IntType(64)


def _unary_i64(name):
    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(_I64, [_I64]), name)
        return builder.call(fn, [args[0]])
    return codegen


@intrinsic
def popcnt(typingctx, x):
    """Number of set bits (popcntq)."""
    return types.uint64(types.uint64), _unary_i64("llvm.ctpop.i64")


@intrinsic
def tzcnt(typingctx, x):
    """Index of the lowest set bit, 64 for zero (tzcntq). Returns int64 so that
    square indices never mix with uint64 bitboard arithmetic."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.uint64), codegen


@intrinsic
def bswap(typingctx, x):
    """Reverse the bytes: mirrors a bitboard top to bottom (rank r -> 7 - r)."""
    return types.uint64(types.uint64), _unary_i64("llvm.bswap.i64")


@intrinsic
def pext(typingctx, x, mask):
    """Parallel bit extract (BMI2). Only call where the CPU has BMI2: LLVM aborts
    the whole process when it cannot select the instruction."""
    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(_I64, [_I64, _I64]), "llvm.x86.bmi.pext.64")
        return builder.call(fn, [args[0], args[1]])
    return types.uint64(types.uint64, types.uint64), codegen


@intrinsic
def atomic_load(typingctx, arr, idx):
    """Read arr[idx] with a monotonic atomic load. A plain load of a stop flag is
    hoisted out of the loop by LLVM and the change is never seen."""
    def codegen(context, builder, signature, args):
        aty = signature.args[0]
        a = context.make_array(aty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aty, a, [args[1]])
        return builder.load_atomic(ptr, ordering="monotonic", align=aty.dtype.bitwidth // 8)
    return arr.dtype(arr, idx), codegen


@intrinsic
def prefetch(typingctx, arr, idx):
    """Hint the cache to fetch arr[idx] (used for the child's hash bucket)."""
    def codegen(context, builder, signature, args):
        aty = signature.args[0]
        a = context.make_array(aty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aty, a, [args[1]])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0),
                          ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(arr, idx), codegen


@intrinsic
def atomic_add(typingctx, arr, idx, value):
    """arr[idx] += value as one atomic read-modify-write; returns the old value.
    Lets worker threads take the next work item from a shared counter without a lock."""
    def codegen(context, builder, signature, args):
        aty = signature.args[0]
        a = context.make_array(aty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aty, a, [args[1]])
        val = context.cast(builder, args[2], signature.args[2], aty.dtype)
        return builder.atomic_rmw("add", ptr, val, ordering="monotonic")
    return arr.dtype(arr, idx, value), codegen


@intrinsic
def at(typingctx, arr, idx):
    """arr[idx] for an index known to be in range. A plain arr[idx] with an int64 index
    first adds the length to a negative one, and LLVM cannot rule that out for the slider
    lookups (the index is loaded from the table): that compare and select cost 10%."""
    def codegen(context, builder, signature, args):
        aty = signature.args[0]
        a = context.make_array(aty)(context, builder, args[0])
        return builder.load(builder.gep(a.data, [args[1]], inbounds=True))
    return arr.dtype(arr, types.int64), codegen


@intrinsic
def put(typingctx, arr, idx, value):
    """arr[idx] = value for an index known to be in range (the move list: see `at`)."""
    def codegen(context, builder, signature, args):
        aty = signature.args[0]
        a = context.make_array(aty)(context, builder, args[0])
        v = context.cast(builder, args[2], signature.args[2], aty.dtype)
        builder.store(v, builder.gep(a.data, [args[1]], inbounds=True))
        return context.get_dummy_value()
    return types.none(arr, types.int64, value), codegen
