"""What every simulation driver shares: checking the run settings, resuming from a
checkpoint, and running chunk after chunk with interruption and thread handling.

Totals objects count finished units (deals or games) in ``done``, add a chunk's
results themselves, and round-trip through ``to_dict`` / ``from_dict``.
"""

import json
import time
from pathlib import Path

import numba

from .errors import WantitError


def check_run(units, seed, chunk, threads, what="deals"):
    """Raise ``WantitError`` for a run size, seed, chunk or thread count out of range."""
    if int(units) < 1:
        raise WantitError(f"{what} must be at least 1")
    if not 0 <= int(seed) < 2**63:
        raise WantitError("seed must be a non-negative integer below 2**63")
    if int(chunk) < 1:
        raise WantitError("chunk must be at least 1")
    if threads is not None and not 1 <= int(threads) <= numba.config.NUMBA_NUM_THREADS:
        raise WantitError(f"threads must be 1..{numba.config.NUMBA_NUM_THREADS}")


def resume(checkpoint, settings, totals_type, fresh):
    """The totals saved at ``checkpoint`` for these settings, else ``fresh``."""
    if checkpoint is None or not Path(checkpoint).exists():
        return fresh
    saved = json.loads(Path(checkpoint).read_text())
    if saved.get("settings") != settings:
        raise WantitError(f"checkpoint {checkpoint} was made with other settings; remove it or change the path")
    return totals_type.from_dict(saved["totals"])


def run_chunks(totals, target, chunk, threads, play_chunk, checkpoint=None, settings=None, progress=None,
               until=None):
    """Call ``play_chunk(first, count)`` until ``totals.done`` reaches ``target``, or
    until ``until(totals)`` is true after a chunk (a precision reached).

    After each chunk the totals are saved atomically to ``checkpoint`` (when given)
    and ``progress(done, target)`` is called. Ctrl-C stops the run and keeps what
    finished (unless nothing did). Returns ``(interrupted, threads used, seconds)``;
    the numba thread count is restored afterwards.
    """
    started = time.perf_counter()
    interrupted = False
    previous_threads = numba.get_num_threads()
    used_threads = previous_threads if threads is None else int(threads)
    numba.set_num_threads(used_threads)
    try:
        while totals.done < target:
            play_chunk(totals.done, min(int(chunk), target - totals.done))
            if checkpoint is not None:
                tmp = Path(str(checkpoint) + ".tmp")
                tmp.write_text(json.dumps({"settings": settings, "totals": totals.to_dict()}))
                tmp.replace(checkpoint)
            if progress is not None:
                progress(totals.done, target)
            if until is not None and until(totals):
                break
    except KeyboardInterrupt:
        interrupted = True
        if totals.done == 0:
            raise
    finally:
        numba.set_num_threads(previous_threads)  # a run's thread count does not leak into the next
    return interrupted, used_threads, round(time.perf_counter() - started, 3)
