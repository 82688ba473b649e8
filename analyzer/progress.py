"""What a long run tells the person at the terminal, on stderr: that the kernels are
being compiled (the first run only), and a progress bar with the rate and the time
left. Both appear only when stderr is a terminal: piped or captured output gets
neither, so results and logs stay clean."""

import sys
import threading
from contextlib import contextmanager

# Loading compiled kernels from numba's cache takes well under this many seconds;
# compiling them takes a minute or more. Waiting this long before saying so keeps
# a warm start silent without predicting what numba's cache holds.
NOTICE_AFTER_S = 1.0

_console = None  # the rich Console of a live progress bar, which prints above it


def interactive(stream=None) -> bool:
    stream = sys.stderr if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _say(text, stream):
    if _console is not None:
        _console.print(text, markup=False, highlight=False)
    else:
        stream.write(text + "\n")
        stream.flush()


@contextmanager
def compile_notice(what, stream=None, after=NOTICE_AFTER_S, force=False):
    """Say on ``stream`` (stderr) that ``what`` is being compiled if the block takes
    longer than ``after`` seconds; only on a terminal unless ``force``."""
    stream = sys.stderr if stream is None else stream
    if not (force or interactive(stream)):
        yield
        return
    timer = threading.Timer(after, _say, (f"wantit: compiling {what}, once: later runs load them from the "
                                          f"cache in about a second", stream))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


class ProgressBar:
    """``progress(done, total)`` for a driver: a rich bar with the count, the rate
    and the time left, on stderr when it is a terminal (else nothing). Use as a
    context manager; the bar disappears when the run ends."""

    def __init__(self, total, unit="deals", stream=None, force=False):
        self.total = total
        self.unit = unit
        self.stream = sys.stderr if stream is None else stream
        self.enabled = force or interactive(self.stream)
        self._progress = None
        self._task = None

    def __enter__(self):
        global _console
        if self.enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            console = Console(file=self.stream, force_terminal=True)
            self._progress = Progress(
                TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("elapsed,"),
                TimeRemainingColumn(), TextColumn("left"), console=console, transient=True)
            self._task = self._progress.add_task(self.unit, total=self.total, rate="")
            self._progress.start()
            _console = console
        return self

    def __call__(self, done, total):
        if self._progress is None:
            return
        self._progress.update(self._task, completed=done, total=total)
        speed = self._progress.tasks[0].speed
        self._progress.update(self._task, rate=f"{speed:,.0f} {self.unit}/s" if speed else "")

    def __exit__(self, *exc):
        global _console
        if self._progress is not None:
            self._progress.stop()
            _console = None
        return False
