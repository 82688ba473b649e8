"""What a long run says on a terminal: a compile notice when loading the kernels
takes long, a progress bar with the rate; nothing at all when stderr is not a terminal."""

import io
import time

from analyzer.progress import ProgressBar, compile_notice, interactive


def test_a_slow_load_is_announced_as_compiling_and_a_fast_one_is_silent():
    slow, fast = io.StringIO(), io.StringIO()
    with compile_notice("the do_ya kernels", stream=slow, after=0.05, force=True):
        time.sleep(0.3)
    with compile_notice("the do_ya kernels", stream=fast, after=0.5, force=True):
        time.sleep(0.01)  # a load well inside the notice delay
    time.sleep(0.6)  # past the fast block's timer: it was cancelled, it must not fire late
    assert slow.getvalue() == ("wantit: compiling the do_ya kernels, once: later runs load them from the cache "
                               "in about a second\n")
    assert fast.getvalue() == ""


def test_no_notice_and_no_bar_when_stderr_is_not_a_terminal():
    stream = io.StringIO()
    assert not interactive(stream)
    with compile_notice("kernels", stream=stream, after=0.0):
        time.sleep(0.1)
    with ProgressBar(1000, "deals", stream=stream) as progress:
        progress(500, 1000)
        progress(1000, 1000)
    assert stream.getvalue() == ""


def test_the_bar_shows_the_count_and_the_rate():
    stream = io.StringIO()
    with ProgressBar(4000, "games", stream=stream, force=True) as progress:
        for done in (1000, 2000, 3000):
            time.sleep(0.05)
            progress(done, 4000)
    text = stream.getvalue()
    assert "3000/4000" in text and "games/s" in text and "left" in text


def test_a_notice_during_a_bar_is_printed_above_it():
    stream = io.StringIO()
    with ProgressBar(10, "deals", stream=stream, force=True):
        with compile_notice("the anaconda kernels", stream=stream, after=0.01, force=True):
            time.sleep(0.2)
    assert "wantit: compiling the anaconda kernels" in stream.getvalue()
