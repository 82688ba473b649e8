"""Text output that fits a terminal: every line the command line prints is at most
``WIDTH`` characters, wide tables split into column blocks that repeat their key
columns, long lines wrapped with an indent that shows they continue."""

import textwrap

WIDTH = 100


def count_of(number, noun):
    """``"1 player"``, ``"3 players"``: a count with its noun, plural by adding s."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def fit_frame(frame, keep, width=WIDTH, **to_string):
    """``frame`` as text in blocks of columns no wider than ``width``, each block
    starting with the ``keep`` columns (the row's key, e.g. ``seat``)."""
    keep = list(keep)
    rest = [c for c in frame.columns if c not in keep]

    def render(columns):
        return "\n".join(line.rstrip() for line in frame[keep + columns].to_string(index=False, **to_string)
                         .splitlines())

    blocks, current = [], []
    for column in rest:
        trial = current + [column]
        if current and max(map(len, render(trial).splitlines())) > width:
            blocks.append(current)
            current = [column]
        else:
            current = trial
    blocks.append(current)
    return "\n\n".join(render(block) for block in blocks)


def fit_columns(columns, keep, width=WIDTH):
    """Columns (a dict: header to its cells, text or integers) laid out as
    ``fit_frame`` lays out a DataFrame of them, without pandas: importing it was a
    quarter of the start-up of a query from the shell. As pandas does: cells
    right-aligned under their headers, one space between columns, and an integer
    column's header given one space more."""
    keep = list(keep)
    rest = [c for c in columns if c not in keep]
    header = {c: " " * any(not isinstance(x, str) for x in columns[c]) + c for c in columns}
    cells = {c: [str(x) for x in columns[c]] for c in columns}
    rows = len(next(iter(cells.values()))) if cells else 0
    widths = {c: max([len(header[c])] + [len(x) for x in cells[c]]) for c in cells}

    def render(chosen):
        lines = [" ".join(header[c].rjust(widths[c]) for c in chosen)]
        lines += [" ".join(cells[c][i].rjust(widths[c]) for c in chosen) for i in range(rows)]
        return "\n".join(line.rstrip() for line in lines)

    blocks, current = [], []
    for column in rest:
        trial = current + [column]
        if current and max(map(len, render(keep + trial).splitlines())) > width:
            blocks.append(current)
            current = [column]
        else:
            current = trial
    blocks.append(current)
    return "\n\n".join(render(keep + block) for block in blocks)


def wrap_items(items, indent="  ", gap="   ", width=WIDTH):
    """Items (each kept whole) joined by ``gap`` on lines of at most ``width``."""
    lines, line = [], ""
    for item in items:
        candidate = f"{line}{gap}{item}" if line else indent + item
        if line and len(candidate) > width:
            lines.append(line)
            line = indent + item
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def wrap_line(line, width=WIDTH, more="    "):
    """One line, wrapped at ``width``: continuation lines keep the line's own indent
    plus ``more``."""
    if len(line) <= width:
        return [line]
    indent = line[:len(line) - len(line.lstrip())]
    return textwrap.wrap(line.strip(), width=width, initial_indent=indent, subsequent_indent=indent + more,
                         break_long_words=True, break_on_hyphens=False)


def wrap_text(text, width=WIDTH, more="    "):
    """Every line of ``text`` wrapped by ``wrap_line``."""
    return "\n".join(out for line in text.splitlines() for out in (wrap_line(line, width, more) or [""]))
