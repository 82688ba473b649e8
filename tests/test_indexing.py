"""The kernels index arrays without numba's negative-index wrap-around, and nothing
else loses it (``kernels.indexing``)."""

import numpy as np
from numba import njit, types

import kernels  # noqa: F401  (drops the wrap-around, as any import of a kernel does)
from kernels.games.common import mask_at
from kernels.indexing import WRAPAROUND_DROPPED

SIG = (types.int64[::1], types.int64)


def _mask_at_outside_kernels(st, i):
    """``kernels.games.common.mask_at``'s body, in a module outside the package."""
    return np.uint64(st[i])


def _wraps(dispatcher):
    """Whether the compiled function tests its index for a negative value."""
    dispatcher.compile(SIG)
    return "icmp slt i64 %arg.i, 0" in dispatcher.inspect_llvm(SIG)


def test_a_kernel_indexes_without_the_wrap_around_and_other_code_keeps_it():
    assert WRAPAROUND_DROPPED
    assert not _wraps(njit(mask_at.py_func))
    outside = njit(_mask_at_outside_kernels)
    assert _wraps(outside)
    st = np.arange(10, dtype=np.int64)
    assert outside(st, -1) == 9 and outside(st, -10) == 0  # Python's meaning, outside the kernels
    assert mask_at(st, 9) == 9 and mask_at(st, 0) == 0
