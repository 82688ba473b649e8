"""The numba layer: cards, evaluators, random streams, showdown, policies and the
game state machines. It never imports ``analyzer``.

Numba's on-disk cache (``cache=True``) checks only the source file of the function
it caches, not the files of the functions compiled into it: after an edit to, say,
``games/do_ya.py`` the engine's dispatcher in ``engine.py`` would still load its old
machine code. So the cache lives in a folder named by a hash of every kernel
source file and numba's version, and any edit starts a fresh one (older folders
are removed). A ``NUMBA_CACHE_DIR`` set by the user is left alone.

Importing the package also drops numba's negative-index wrap-around from the
kernels' array indices (``indexing``), before any kernel compiles.
"""

import hashlib
import os
import shutil
from pathlib import Path

from numba.core import config as _numba_config


def _source_hash(root):
    digest = hashlib.sha256(_numba_config.__file__.encode())
    import numba

    digest.update(numba.__version__.encode())
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _use_versioned_cache():
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    root = Path(__file__).resolve().parent
    base = root / "__pycache__"
    current = base / f"numba-{_source_hash(root)}"
    try:
        current.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # a read-only install: numba falls back to its own locations
    for old in base.glob("numba-*"):
        if old != current:
            shutil.rmtree(old, ignore_errors=True)
    _numba_config.CACHE_DIR = str(current)


_use_versioned_cache()

from . import indexing  # noqa: E402,F401  (before any kernel compiles)
