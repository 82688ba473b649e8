"""The ``wantit`` console script starts here, not in ``cli``: a Ctrl-C at any moment,
even while the command line's modules (click, numpy, numba) are still loading,
ends with one line and exit status 130, never a traceback."""

import sys


def main(argv=None):
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("wantit: interrupted\n")
        sys.exit(130)
    run(argv)


if __name__ == "__main__":
    main()
