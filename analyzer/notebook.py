"""What the notebooks in ``notebooks/`` show, the same in Jupyter and as a plain
script: in a notebook ``show`` displays a table or a chart in the cell's output; run
as a script it prints the table and says where the chart is, so no output is lost.

``scale()`` reads ``WANTIT_NOTEBOOK_SCALE`` (the share of the report's sample sizes
a notebook plays; the test suite runs them small) and ``chart_folder()`` is where
charts are written (``WANTIT_NOTEBOOK_OUT``, default ``results/notebooks``)."""

import os
from pathlib import Path

DEFAULT_SCALE = 0.25


def in_notebook() -> bool:
    """True inside a Jupyter kernel (not a terminal IPython, not a script)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def scale() -> float:
    text = os.environ.get("WANTIT_NOTEBOOK_SCALE", str(DEFAULT_SCALE))
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise SystemExit(f"WANTIT_NOTEBOOK_SCALE={text!r}: give a positive number")
    return value


def chart_folder(name) -> Path:
    """The folder for the charts of notebook ``name``, made if missing."""
    folder = Path(os.environ.get("WANTIT_NOTEBOOK_OUT", "results/notebooks")) / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def show(obj, title=None):
    """Display ``obj`` (a DataFrame, text, a list of lines) in a notebook, or print
    it in a script."""
    if in_notebook():
        from IPython.display import Markdown, display

        if title:
            display(Markdown(f"**{title}**"))
        if isinstance(obj, (list, tuple)):
            display(Markdown("\n".join(f"- {line}" for line in obj)))
        else:
            display(obj)
        return
    if title:
        print(f"\n== {title}")
    if isinstance(obj, (list, tuple)):
        for line in obj:
            print(f"- {line}")
    elif hasattr(obj, "to_string"):
        print(obj.to_string(index=False))
    else:
        print(obj)


def show_chart(path):
    """Display the chart at ``path`` in a notebook, or print where it is."""
    path = Path(path)
    if in_notebook():
        from IPython.display import Image, display

        display(Image(filename=str(path)))
    else:
        print(f"chart: {path}")
