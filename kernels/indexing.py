"""Array indices in the kernels go to numba as they are, without Python's
negative-index wrap-around.

numba lowers every array index of a signed integer type as ``i + n if i < 0 else
i`` (Python's ``a[-1]``): a compare and a select on each access whose index LLVM
cannot prove non-negative. The kernels never index with a negative number (their
indices are offsets into a game's table state, card codes, table slots), and the
game state machines index the state on almost every line: the wrap-around cost
each of the four pot games about 8% of a 7-player heuristic deal (measured side by
side). numba has no switch for it, so ``drop_wraparound`` replaces
``numba.np.arrayobj.fix_integer_index``, the function numba's array indexing
(reads and writes, one index or several) asks what an integer index means, by one
that leaves a signed index as it is (as numba leaves an unsigned one) when the
function being compiled belongs to this package (its mangled name begins with
``_ZN7kernels``; code inlined into it included), and asks numba's own otherwise:
numba's library, the analyzer's and the tests' functions keep Python's meaning.

A negative index in a kernel is then a read or write outside the array, as an
index past its end already is: numba checks no bounds by default, and with
``NUMBA_BOUNDSCHECK=1`` it raises ``IndexError`` for both (the games' tests pass
so). Slices keep their meaning (numba fixes them elsewhere), and so do the
``prange`` bodies of the batch kernels (numba compiles them as functions of a name
of its own).

Where numba's function is not there with the five arguments it takes (numba 0.68
here), nothing is replaced: the kernels then compile with the wrap-around, correct
and slower, and ``tests/test_indexing.py`` fails to say so. The kernels' cache
folder is named by a hash of every file of this package, this one included, so
that no machine code compiled one way is loaded by the other.
"""

import inspect

from numba import types
from numba.np import arrayobj

KERNEL_PREFIX = "_ZN7kernels"  # the Itanium mangling of a name in package ``kernels``
_NUMBA_ARGUMENTS = ["context", "builder", "idxty", "idx", "size"]


def _in_kernels(builder):
    return builder.function.name.startswith(KERNEL_PREFIX)


def drop_wraparound():
    """Replace numba's integer-index fix-up (once); returns whether it is replaced."""
    numba_fix = getattr(arrayobj, "fix_integer_index", None)
    if numba_fix is None:
        return False
    if getattr(numba_fix, "kernels_wraparound_dropped", False):
        return True
    try:
        if list(inspect.signature(numba_fix).parameters) != _NUMBA_ARGUMENTS:
            return False
    except (TypeError, ValueError):
        return False

    def fix_integer_index(context, builder, idxty, idx, size):
        if idxty.signed and _in_kernels(builder):
            return context.cast(builder, idx, idxty, types.intp)
        return numba_fix(context, builder, idxty, idx, size)

    fix_integer_index.kernels_wraparound_dropped = True
    fix_integer_index.__doc__ = numba_fix.__doc__
    arrayobj.fix_integer_index = fix_integer_index
    return True


WRAPAROUND_DROPPED = drop_wraparound()
