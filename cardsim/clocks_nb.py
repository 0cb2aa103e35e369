"""Clocks that compiled code reads without returning to Python.

``wall_ns()``: a monotonic wall clock (``CLOCK_MONOTONIC``), read in user space through the
C library (no system call where the kernel offers it that way, as Linux does: about 30 ns).
``thread_cpu_ns()``: the CPU time of the calling thread (``CLOCK_THREAD_CPUTIME_ID``), which
leaves out the time the thread waits for a core; a system call (about 0.7 µs), after which
the code that runs next finds the caches less warm.

Both call ``clock_gettime`` directly from compiled code: no Python, no GIL (reading a clock
through ``objmode`` costs 1.3 to 2.4 µs, and threads calling it queue for the GIL). Where a
clock or a 64-bit ``struct timespec`` is missing they read Python's ``time`` functions through
``objmode``; without compilation (``NUMBA_DISABLE_JIT``) they are those functions.
"""

import struct
import time

from numba import config, njit, objmode, types

# whether the clocks are read directly (else through Python, a microsecond or more a read)
DIRECT = (not config.DISABLE_JIT and hasattr(time, "CLOCK_MONOTONIC")
          and hasattr(time, "CLOCK_THREAD_CPUTIME_ID")
          and struct.calcsize("q") == struct.calcsize("l"))  # timespec: two 64-bit fields


def _clock_gettime_ns(clock_id: int):
    """An intrinsic returning ``clock_gettime(clock_id)`` in nanoseconds (int64)."""
    from llvmlite import ir
    from numba.core import cgutils
    from numba.extending import intrinsic

    @intrinsic
    def read_clock(typingctx):
        def codegen(context, builder, signature, args):
            i32, i64 = ir.IntType(32), ir.IntType(64)
            spec = cgutils.alloca_once(builder, ir.ArrayType(i64, 2))  # struct timespec
            fnty = ir.FunctionType(i32, [i32, spec.type])
            gettime = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
            builder.call(gettime, [ir.Constant(i32, clock_id), spec])
            zero = ir.Constant(i32, 0)
            sec = builder.load(builder.gep(spec, [zero, zero]))
            nsec = builder.load(builder.gep(spec, [zero, ir.Constant(i32, 1)]))
            return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)
        return types.int64(), codegen

    return read_clock


if config.DISABLE_JIT:

    def wall_ns():
        """Nanoseconds on a monotonic wall clock (any origin)."""
        return time.monotonic_ns()

    def thread_cpu_ns():
        """CPU nanoseconds this thread has run (any origin)."""
        return time.thread_time_ns()

elif DIRECT:
    _read_wall = _clock_gettime_ns(time.CLOCK_MONOTONIC)
    _read_thread_cpu = _clock_gettime_ns(time.CLOCK_THREAD_CPUTIME_ID)

    @njit(cache=True, inline="always")
    def wall_ns():
        """Nanoseconds on a monotonic wall clock (any origin)."""
        return _read_wall()

    @njit(cache=True, inline="always")
    def thread_cpu_ns():
        """CPU nanoseconds this thread has run (any origin)."""
        return _read_thread_cpu()

else:

    @njit(cache=True)
    def wall_ns():
        """Nanoseconds on a monotonic wall clock (any origin)."""
        with objmode(t="int64"):
            t = time.monotonic_ns()
        return t

    @njit(cache=True)
    def thread_cpu_ns():
        """CPU nanoseconds this thread has run (any origin)."""
        with objmode(t="int64"):
            t = time.thread_time_ns()
        return t
