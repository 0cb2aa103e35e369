"""Bit tricks on card and action masks, as numba kernels.

Masks are non-negative ``int64`` values below 2**63 (52 cards, or up to 63 action ids), so the
same code gives the same answers compiled and under ``NUMBA_DISABLE_JIT=1``. Compiled,
``popcount``, ``lowest_bit`` and ``highest_bit`` are the CPU's own instructions (LLVM
ctpop / cttz / ctlz); as plain Python they are ``int.bit_count`` and friends. ``nth_bit`` uses
the BMI2 ``pdep`` instruction where the CPU has it: picking a random legal action then takes no
unpredictable branch. ``best_bit`` is the loop that picks the card (or suit, rank, contract) of
a mask with the best score.
"""

from numba import config, njit

if config.DISABLE_JIT:

    def popcount(x):
        """Number of set bits of a non-negative int64."""
        return int(x).bit_count()

    def lowest_bit(x):
        """Index of the lowest set bit of x (x > 0)."""
        x = int(x)
        return (x & -x).bit_length() - 1

    def highest_bit(x):
        """Index of the highest set bit of x (x > 0)."""
        return int(x).bit_length() - 1

else:
    import llvmlite.binding as llvm
    from llvmlite import ir
    from numba.core import types
    from numba.extending import intrinsic

    HAS_PDEP = bool(llvm.get_host_cpu_features().get("bmi2", False))

    def int64_instruction(emit):
        """A compiled function of one integer, taken as int64, whose code is the instruction
        ``emit(builder, value)`` writes."""

        @intrinsic
        def instruction(typingctx, x):
            if not isinstance(x, types.Integer):
                return None

            def codegen(context, builder, signature, args):
                return emit(builder, context.cast(builder, args[0], x, types.int64))

            return types.int64(x), codegen

        return instruction

    # LLVM's is_zero_poison flag off: the trailing and leading zeros of 0 are 64, not undefined
    ZERO_DEFINED = ir.Constant(ir.IntType(1), 0)

    _ctpop = int64_instruction(lambda builder, value: builder.ctpop(value))
    _cttz = int64_instruction(lambda builder, value: builder.cttz(value, ZERO_DEFINED))
    _ctlz = int64_instruction(lambda builder, value: builder.ctlz(value, ZERO_DEFINED))

    @intrinsic
    def _pdep(typingctx, src, mask):
        if not (isinstance(src, types.Integer) and isinstance(mask, types.Integer)):
            return None

        def codegen(context, builder, signature, args):
            i64 = context.get_value_type(types.int64)
            fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(
                i64, [i64, i64]))
            a = context.cast(builder, args[0], src, types.int64)
            b = context.cast(builder, args[1], mask, types.int64)
            return builder.call(fn, [a, b])

        return types.int64(src, mask), codegen

    @njit(cache=True, inline="always")
    def highest_bit(x):
        """Index of the highest set bit of x (x > 0)."""
        return 63 - _ctlz(x)

    @njit(cache=True, inline="always")
    def popcount(x):
        """Number of set bits of a non-negative int64."""
        return _ctpop(x)

    @njit(cache=True, inline="always")
    def lowest_bit(x):
        """Index of the lowest set bit of x (x > 0)."""
        return _cttz(x)


@njit(cache=True, inline="always")
def nth_bit_loop(x, k):
    """Index of the k-th (from 0, counted from the lowest) set bit of x; x has > k bits."""
    for _ in range(k):
        x &= x - 1
    return lowest_bit(x)


if not config.DISABLE_JIT and HAS_PDEP:

    @njit(cache=True, inline="always")
    def nth_bit(x, k):
        """Index of the k-th (from 0, counted from the lowest) set bit of x; x has > k bits."""
        return _cttz(_pdep(1 << k, x))

else:
    nth_bit = nth_bit_loop


@njit(cache=True, inline="always")
def fill_legal(base, bits, out):
    """Fill ``out`` (one entry per action id) from a legal set ``(base, bits)``: action
    ``base + k`` is legal (1) when bit ``k`` of ``bits`` is set, every other one 0."""
    for a in range(out.shape[0]):
        out[a] = 0
    k = 0
    while bits != 0:
        if bits & 1:
            out[base + k] = 1
        bits >>= 1
        k += 1


@njit(cache=True, inline="always")
def best_bit(mask, score, data):
    """The set bit ``b`` of ``mask`` with the largest ``score(b, data)``, the lowest among
    equals; -1 for an empty mask. ``score`` is a compiled function and ``data`` what it needs
    besides the bit (a value or a tuple): numba inlines both here, so the loop costs what a
    hand-written one does. A smallest score is the largest of its negation."""
    if mask == 0:
        return -1
    best = lowest_bit(mask)
    best_score = score(best, data)
    mask &= mask - 1
    while mask != 0:
        b = lowest_bit(mask)
        mask &= mask - 1
        v = score(b, data)
        if v > best_score:
            best_score = v
            best = b
    return best
