"""The ``wantit`` console script starts here, not in ``cli``: a Ctrl-C at any moment,
even while the command line's modules (click, numpy, numba) are still loading,
ends with one line and exit status 130, never a traceback."""

import gc
import sys


def main(argv=None):
    # As the process's command line: no garbage collection while the modules load,
    # and what they made is then frozen out of every later collection. numba's
    # import and its typing registries make some hundred thousand long-lived
    # objects, and each collection walked them all again: about 0.08 s of a 0.57 s
    # equity query (measured; benchmarks/SPEED_LOG.md). In-process callers (argv given)
    # keep their collector as it is.
    own_process = argv is None
    if own_process:
        gc.disable()
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("wantit: interrupted\n")
        sys.exit(130)
    if own_process:
        gc.freeze()
        gc.enable()
    run(argv)


if __name__ == "__main__":
    main()
