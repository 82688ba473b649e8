"""Named slots of a flat array, their offsets computed from one declaration.

A game's table state is one ``int64`` array and its result row one ``float64`` array;
both are described by a ``Layout``: an ordered list of ``(name, shape)`` fields. The
offsets are computed here, never counted by hand. Kernels read them from
``LAYOUT.at``, a namedtuple of ints that numba freezes into compiled code as
constants (``st[S.phase]``, ``st[S.hole + 3 * seat + k]``); Python reads and writes
the same fields by name with ``get`` / ``put`` / ``view``.
"""

from collections import namedtuple
from math import prod

import numpy as np


class Layout:
    """Fields in declaration order; ``at.<name>`` is a field's first offset."""

    def __init__(self, name, fields):
        self.name = name
        self.fields = tuple((fname, (shape,) if isinstance(shape, int) else tuple(shape))
                            for fname, shape in fields)
        offsets = {}
        pos = 0
        for fname, dims in self.fields:
            if fname in offsets:
                raise ValueError(f"layout {name}: field {fname!r} declared twice")
            if any(d < 1 for d in dims):
                raise ValueError(f"layout {name}: field {fname!r} has an empty shape {dims}")
            offsets[fname] = pos
            pos += prod(dims)
        self.offsets = offsets
        self.shapes = dict(self.fields)
        self.size = pos
        self.at = namedtuple(f"{name}_slots", list(offsets))(*offsets.values())

    def extend(self, name, fields):
        """A layout that starts with this one's fields (so shared code can read them
        at the same offsets) and adds ``fields``."""
        return Layout(name, list(self.fields) + list(fields))

    def __contains__(self, fname):
        return fname in self.offsets

    def _span(self, fname):
        if fname not in self.offsets:
            raise KeyError(f"layout {self.name} has no field {fname!r}; fields: {', '.join(self.offsets)}")
        start = self.offsets[fname]
        return start, start + prod(self.shapes[fname])

    def view(self, arr, fname):
        """The field as an array view of its declared shape (writes go to ``arr``)."""
        a, b = self._span(fname)
        return arr[..., a:b].reshape(arr.shape[:-1] + self.shapes[fname])

    def get(self, arr, fname):
        """A one-element field's value, else a copy of the field."""
        v = self.view(arr, fname)
        return v.reshape(v.shape[:-1]).item() if self.shapes[fname] == (1,) and arr.ndim == 1 else v.copy()

    def put(self, arr, fname, value):
        self.view(arr, fname)[...] = value

    def new(self, dtype=np.int64):
        return np.zeros(self.size, dtype)

    def describe(self):
        """One line per field: offset, shape, name."""
        return [f"{self.offsets[f]:5d}  {'x'.join(map(str, d)):>8}  {f}" for f, d in self.fields]
