"""Run folders under ``results/<variant>/<run-id>/``: the long-format table (Parquet
and CSV), ``run.json`` with everything needed to reproduce it, the charts, and the
exact sums a resumed run continues from. Every file is written atomically (a
temporary file in the same folder, then a rename), so an interrupted run never
leaves half a file."""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .errors import WantitError

SUMS = "sums.json"  # the exact running sums of an unfinished (or finished) run
RUN = "run.json"


def atomic_write(path, write, mode="w"):
    """Call ``write(file)`` on a temporary file beside ``path``, then rename it to
    ``path``: readers see the old file or the whole new one."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, mode) as f:
            write(f)
        os.chmod(tmp, 0o666 & ~_umask())  # as an ordinary new file (mkstemp's are private)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_json(path, obj):
    atomic_write(path, lambda f: json.dump(obj, f, indent=2))


def read_json(path, what):
    try:
        return json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise WantitError(f"{what} {path} cannot be read ({e})") from None


def write_table(folder, name, frame):
    """``name.parquet`` and ``name.csv`` in ``folder``; returns the two file names."""
    import io

    def parquet(f):
        buffer = io.BytesIO()
        frame.to_parquet(buffer, index=False)
        f.write(buffer.getvalue())

    atomic_write(Path(folder) / f"{name}.parquet", parquet, mode="wb")
    atomic_write(Path(folder) / f"{name}.csv", lambda f: frame.to_csv(f, index=False))
    return [f"{name}.parquet", f"{name}.csv"]


def new_run_id(kind):
    """``kind-YYYYmmdd-HHMMSS`` (UTC)."""
    return f"{kind}-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}"


def run_folder(root, variant, run_id, kind):
    """The folder ``root/variant/run_id``; when ``run_id`` is None a new id (with a
    counter when a run of the same second exists). Nothing is created yet."""
    base = Path(root) / variant
    if run_id is None:
        run_id = new_run_id(kind)
        folder, k = base / run_id, 1
        while folder.exists():
            k += 1
            folder = base / f"{run_id}-{k}"
        return folder
    if not str(run_id).strip() or Path(run_id).name != str(run_id) or str(run_id) in (".", ".."):
        raise WantitError(f"run id {run_id!r} must be a plain folder name")
    return base / str(run_id)


def make_folder(folder):
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise WantitError(f"results folder {folder} cannot be created ({e.strerror})") from None
    if not os.access(folder, os.W_OK):
        raise WantitError(f"results folder {folder} cannot be written")


def git_commit():
    """The commit of the source tree the package runs from, when it is a git
    checkout (with ``+dirty`` when it has changes), else None."""
    here = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True,
                                timeout=5)
        if commit.returncode != 0:
            return None
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, timeout=5)
        return commit.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def provenance():
    """What a run.json records about the software that made it."""
    import numba
    import numpy

    from . import __version__

    return {"package": "wantit", "version": __version__, "git_commit": git_commit(),
            "python": sys.version.split()[0], "numpy": numpy.__version__, "numba": numba.__version__,
            "command": " ".join(["wantit", *sys.argv[1:]]) if Path(sys.argv[0]).name == "wantit" else None}


def find_unfinished(root, variant, settings, name=SUMS):
    """The most recent run folder under ``root/variant`` whose saved state (``name``:
    a sweep's sums, a tuning's iterations) was made with exactly ``settings`` (a run
    to resume), else None."""
    base = Path(root) / variant
    if not base.is_dir():
        return None
    found = []
    for sums in base.glob(f"*/{name}"):
        try:
            saved = json.loads(sums.read_text())
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        if isinstance(saved, dict) and saved.get("settings") == settings:
            found.append((sums.stat().st_mtime, sums.parent))
    return max(found)[1] if found else None


def chosen_folder(root, variant, run_id, kind, resume, settings, state):
    """The folder a run writes to, checked: with ``resume``, the one at ``run_id`` or
    the latest under ``root/variant`` whose saved ``state`` file (a sweep's sums, a
    race, a tuning) has these ``settings``, which must hold a run to continue;
    without it, a new folder, or ``run_id``'s, which must not hold a run yet."""
    if resume and run_id is None:
        folder = find_unfinished(root, variant, settings, name=state)
        if folder is None:
            raise WantitError(f"--resume: no run under {Path(root) / variant} was made with these settings "
                              "(give its --run-id, or leave out --resume)")
        return folder
    folder = run_folder(root, variant, run_id, kind)
    if resume and not (folder / state).exists():
        raise WantitError(f"--resume: {folder} holds no run to continue")
    if not resume and ((folder / RUN).exists() or (folder / state).exists()):
        raise WantitError(f"{folder} already holds a run: add --resume to continue it, or give another --run-id")
    return folder
