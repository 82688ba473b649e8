"""What the benchmark scripts share: timing, table layout, result files."""

import csv
import json
import math
import time

REPEATS = 3


def best_time(run, repeats=REPEATS):
    """Best wall time of ``repeats`` calls of ``run``: the least disturbed one."""
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def table_lines(headers, lines, text_columns=(0,)):
    """A plain text table: header, rule, rows; text columns left-aligned, numbers right."""
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(headers)]

    def fmt(values):
        return "  ".join(v.ljust(w) if i in text_columns else v.rjust(w)
                         for i, (v, w) in enumerate(zip(values, widths)))

    return [fmt(headers), "  ".join("-" * w for w in widths)] + [fmt(line) for line in lines]


def write_results(rows, out, columns, metadata):
    """The rows as CSV at ``out`` and the metadata as JSON beside it."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, restval="n/a")
        writer.writeheader()
        writer.writerows(rows)
    meta_path = out.with_suffix(".json")
    meta_path.write_text(json.dumps(metadata, indent=2) + "\n")
    print(f"\nwrote {out} and {meta_path}")
