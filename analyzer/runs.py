"""What every simulation driver shares: checking the run settings, resuming from a
checkpoint, and running chunk after chunk with interruption and thread handling.

Totals objects count finished units (deals or games) in ``done``, add a chunk's
results themselves, and round-trip through ``to_dict`` / ``from_dict``.
"""

import json
import os
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import numba
import numpy as np

from .errors import WantitError


MAX_CHUNK = 10_000_000  # deals whose result rows are held at once (about 4.5 GB at most)
MAX_UNITS = 2**63 - 1  # deal (game) indices are int64 in the kernels, as replay's --deal is


def whole(value, what):
    """``value`` as an int, or ``WantitError`` when it is not a whole number (2.9,
    "3", True are refused: nothing is silently truncated)."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and not isinstance(value, bool) and float(value).is_integer():
            return int(value)
        raise WantitError(f"{what} must be a whole number, not {value!r}")
    return int(value)


TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")


def flag(value, what):
    """``value`` as a bool: True or False, a number 0 or 1, or one of the words
    true/false, yes/no, on/off (``WantitError`` otherwise: "no" and 2 are not
    silently true, as Python's ``bool`` would take them)."""
    import numbers

    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
        if word in ("1.0", "0.0"):  # how a run's settings write the numbers 1.0 and 0.0 back
            return word == "1.0"
    elif isinstance(value, numbers.Real) and value in (0, 1):
        return bool(value)
    raise WantitError(f"{what} must be true or false, not {value!r}")


def check_seed(seed, what="seed"):
    seed = whole(seed, what)
    if not 0 <= seed < 2**63:
        raise WantitError(f"{what} must be a non-negative integer below 2**63")
    return seed


def check_run(units, seed, chunk, threads, what="deals", least=1):
    """Raise ``WantitError`` for a run size, seed, chunk or thread count that is not
    a whole number in range. A run that reports standard errors needs ``least`` 2
    units: one deal's standard error is unknown, not 0."""
    if not least <= whole(units, what) <= MAX_UNITS:
        why = " (a standard error needs two; 'wantit deal' plays one)" if least == 2 else ""
        raise WantitError(f"{what} must be at least {least}{why} and below 2**63, not {units}")
    check_seed(seed)
    if not 1 <= whole(chunk, "chunk") <= MAX_CHUNK:
        raise WantitError(f"chunk must be 1..{MAX_CHUNK:,} (deals held in memory at once)")
    check_threads(threads)


def check_threads(threads):
    """Raise ``WantitError`` for a thread count (``None``: as set) that is not a whole
    number from 1 to numba's thread count."""
    if threads is not None and not 1 <= whole(threads, "threads") <= numba.config.NUMBA_NUM_THREADS:
        raise WantitError(f"threads must be 1..{numba.config.NUMBA_NUM_THREADS}")


def check_target_se(target_se, what):
    """``target_se`` as a float, or ``WantitError`` unless it is a positive finite
    number (``what`` says what it is a standard error of)."""
    import math

    if target_se is None:
        return None
    try:
        value = float(target_se)
    except (TypeError, ValueError):
        value = math.nan
    if not (value > 0 and math.isfinite(value)):
        raise WantitError(f"target_se must be a positive finite number ({what}), not {target_se!r}")
    return value


def _same_shape(saved, fresh, signed):
    """Whether ``saved`` (from JSON) has the shape of ``fresh``: whole numbers where
    it has numbers (non-negative unless ``signed``), lists of the same lengths."""
    if isinstance(fresh, (list, tuple)) or hasattr(fresh, "tolist"):
        fresh = fresh.tolist() if hasattr(fresh, "tolist") else list(fresh)
        return (isinstance(saved, list) and len(saved) == len(fresh)
                and all(_same_shape(s, f, signed) for s, f in zip(saved, fresh)))
    return isinstance(saved, int) and not isinstance(saved, bool) and (signed or saved >= 0)


def check_checkpoint_path(checkpoint):
    """Refuse, before any work, a checkpoint that could not be written."""
    if checkpoint is None:
        return
    path = Path(checkpoint)
    if str(checkpoint).strip() == "" or path.is_dir():
        raise WantitError(f"checkpoint {str(checkpoint)!r} is not a file path")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise WantitError(f"checkpoint folder {folder} {what}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise WantitError(f"checkpoint {checkpoint} cannot be written")


def resume(checkpoint, settings, totals_type, fresh, target=None):
    """The totals saved at ``checkpoint`` for these settings, else ``fresh``. A file
    that is not such a checkpoint, whose totals do not fit these settings or each
    other, or that already holds more than ``target`` units is refused with one line."""
    check_checkpoint_path(checkpoint)
    if checkpoint is None or not Path(checkpoint).exists():
        return fresh
    try:
        saved = json.loads(Path(checkpoint).read_text())
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise WantitError(f"checkpoint {checkpoint} cannot be read as a wantit checkpoint ({e})") from None
    if not isinstance(saved, dict) or not isinstance(saved.get("totals"), dict):
        raise WantitError(f"checkpoint {checkpoint} is not a wantit checkpoint")
    if saved.get("settings") != settings:
        raise WantitError(f"checkpoint {checkpoint} was made with other settings; remove it or change the path")
    expected = fresh.to_dict()
    totals = saved["totals"]
    bad = sorted(set(totals) ^ set(expected))
    bad += [k for k in expected if k in totals and not _same_shape(totals[k], expected[k], k in fresh.SIGNED)]
    if "players" in expected and totals.get("players") != expected["players"]:
        bad.append("players")  # the per-seat lists are read by it
    if bad:
        raise WantitError(f"checkpoint {checkpoint} is damaged: bad or missing totals {', '.join(bad)}")
    loaded = totals_type.from_dict(totals)
    problem = loaded.inconsistency()
    if problem:
        raise WantitError(f"checkpoint {checkpoint} is damaged: {problem}")
    if target is not None and loaded.done > target:
        raise WantitError(f"checkpoint {checkpoint} already holds {loaded.done:,} {fresh.UNIT}, more than the "
                          f"{target:,} asked: ask for at least that many or use another checkpoint")
    return loaded


def _save(checkpoint, settings, totals):
    """Write the checkpoint atomically, through a temporary file of its own (two runs
    sharing a folder never write each other's temporary file)."""
    path = Path(checkpoint)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent if str(path.parent) else ".")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump({"settings": settings, "totals": totals.to_dict()}, f)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def numba_threads(threads=None):
    """Run the block on ``threads`` numba threads (None: as set), then restore the
    thread count, so one run's setting never leaks into the next."""
    check_threads(threads)
    previous = numba.get_num_threads()
    used = previous if threads is None else int(whole(threads, "threads"))
    numba.set_num_threads(used)
    try:
        yield used
    finally:
        numba.set_num_threads(previous)


def run_chunks(totals, target, chunk, threads, play_chunk, checkpoint=None, settings=None, progress=None,
               until=None):
    """Call ``play_chunk(first, count)`` until ``totals.done`` reaches ``target``, or
    until ``until(totals)`` is true after a chunk (a precision reached).

    After each chunk the totals are saved atomically to ``checkpoint`` (when given)
    and ``progress(done, target)`` is called. Ctrl-C stops the run and keeps what
    finished (unless nothing did), in the checkpoint too. Returns ``(interrupted,
    threads used, seconds)``; the numba thread count is restored afterwards.
    """
    started = time.perf_counter()
    interrupted = False
    with numba_threads(threads) as used_threads:
        try:
            while totals.done < target:
                play_chunk(totals.done, min(int(chunk), target - totals.done))
                if checkpoint is not None:
                    _save(checkpoint, settings, totals)
                if progress is not None:
                    progress(totals.done, target)
                if until is not None and until(totals):
                    break
        except KeyboardInterrupt:
            interrupted = True
            if totals.done == 0:
                raise
            if checkpoint is not None:
                # A chunk may add its deals in parts (Selection: batches of games), each
                # part whole: what the totals hold when Ctrl-C lands is kept, as reported.
                _save(checkpoint, settings, totals)
    return interrupted, used_threads, round(time.perf_counter() - started, 3)

