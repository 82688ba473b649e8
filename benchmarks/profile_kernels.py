"""Where a game's compiled kernels spend their time: a perf profile with names.

Run from the repository root (Linux, with ``perf`` installed):

    python benchmarks/profile_kernels.py selection                     # 1 player, heuristic
    python benchmarks/profile_kernels.py anaconda --players 4 --policy random_pass_best_high
    python benchmarks/profile_kernels.py do_ya --policy always_take --top 30 --data /tmp/do_ya.data
    python benchmarks/profile_kernels.py selection --annotate aim_groups --lines 40

The script runs itself under ``perf record`` (sampling the CPU clock). The child
compiles every kernel into an empty numba cache of its own, plays the games on one
thread, then writes ``/tmp/perf-PID.map``, the file perf reads to name code made
at run time: the address and size of every function of every compiled library.
Kernels loaded from numba's cache would not do: a cached library keeps its machine
code but not the list of its functions, so their samples stay unnamed (that is
why an empty cache, and why the first minute or so goes to compiling). The parent
then prints each compiled function's share of the samples taken in compiled code,
with inlined callees counted in their caller. ``--annotate NAME`` also prints the
hottest instructions of the function whose name holds NAME (the child saves every
function's machine code for ``objdump``; of several copies, the one sampled most).
Keep ``--data`` to look further (``perf report -i PATH``). The numbers are for
information: no test depends on them.
"""

import argparse
import collections
import ctypes
import gc
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

POT_GAMES = ("selection_rejection", "do_ya", "anaconda", "train_wreck")
GAMES = POT_GAMES + ("selection",)
WARMUP = 500


def play(game, players, policy, count):
    """Compile and warm up, then time ``count`` deals (games) on one thread."""
    import numba

    numba.set_num_threads(1)
    if game == "selection":
        from analyzer.selection import simulate_selection

        def run(n):
            simulate_selection(players=players, policies=policy, games=n, seed=1, threads=1, chunk=n)
    else:
        from analyzer.simulate import simulate

        def run(n):
            simulate(game, players=players, policies=policy, deals=n, seed=1, threads=1, chunk=n)
    run(WARMUP)
    start = time.perf_counter()
    run(count)
    return (time.perf_counter() - start) / count


def compiled_functions():
    """``{address: name}`` of every function of every library numba compiled here."""
    from numba.core.dispatcher import Dispatcher

    found, seen = {}, set()
    for obj in gc.get_objects():
        if not isinstance(obj, Dispatcher):
            continue
        for cres in list(obj.overloads.values()):
            library = cres.library
            if id(library) in seen:
                continue
            seen.add(id(library))
            module = getattr(library, "_final_module", None)
            if module is None:  # loaded from the cache: no list of functions
                continue
            for fn in module.functions:
                if not fn.is_declaration:
                    address = library.get_pointer_to_function(fn.name)
                    if address:
                        found[address] = fn.name
    return found


def extents(functions):
    """``(address, size, name)`` of each function, in address order: it runs to the
    next one's start (at most 1 MB; the last one 4 KB)."""
    items = sorted(functions.items())
    for (address, name), (following, _) in zip(items, items[1:] + [(items[-1][0] + 4096, None)]):
        yield address, min(following - address, 1 << 20), name


def write_perf_map(functions):
    """The perf map of this process."""
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for address, size, name in extents(functions):
            f.write(f"{address:x} {size:x} {name}\n")


def save_code(functions, folder):
    """Each function's machine code (to the next function, or the end of its mapped
    memory) as ``ADDRESS.bin`` in ``folder``, listed in ``index.txt``."""
    regions = []
    with open("/proc/self/maps") as maps:
        for line in maps:
            low, high = (int(v, 16) for v in line.split()[0].split("-"))
            regions.append((low, high))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "index.txt"), "w") as index:
        for address, size, name in extents(functions):
            end = next((high for low, high in regions if low <= address < high), address)
            size = min(size, end - address)
            if size > 0:
                with open(os.path.join(folder, f"{address:x}.bin"), "wb") as f:
                    f.write(ctypes.string_at(address, size))
                index.write(f"{address:x} {size:x} {name}\n")


def short_name(symbol):
    """``kernels.games.selection.aim_groups`` from numba's mangled symbol."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, rest = [], symbol[3:]
    while (m := re.match(r"(\d+)", rest)) and not rest.startswith("0x"):
        size = int(m.group(1))
        start = len(m.group(1))
        parts.append(rest[start:start + size])
        rest = rest[start + size:]
    return ".".join(parts) or symbol


def report(data, top):
    """Each compiled function's share of the samples in compiled code."""
    text = subprocess.run(["perf", "report", "-i", data, "--stdio", "--sort", "dso,sym"],
                          capture_output=True, text=True, check=True).stdout
    shares = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[JIT\] tid \d+\s+\[\.\]\s+(\S+)", line)
        if m:
            name = short_name(m.group(2))
            shares[name] = shares.get(name, 0.0) + float(m.group(1))
    total = sum(shares.values())
    if not total:
        sys.exit("no samples in compiled code: was the run too short?")
    print(f"share of the samples in compiled code ({total:.1f}% of all samples; the rest is "
          "compiling and Python)")
    for name, share in sorted(shares.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{100 * share / total:6.1f}%  {name}")


def annotate(data, folder, want, lines, listing_file=None):
    """The ``lines`` most sampled instructions, in address order, of the compiled
    function whose short name holds ``want`` (the copy sampled most); and its whole
    listing, each instruction with its samples, in ``listing_file`` when given (a
    stall shows on the instruction after the load it waits for, which the hottest
    lines alone leave out)."""
    if shutil.which("objdump") is None:
        sys.exit("--annotate needs objdump (Debian / Ubuntu: apt install binutils)")
    with open(os.path.join(folder, "index.txt")) as index:
        functions = [(int(a, 16), int(n, 16), name) for a, n, name in (line.split(None, 2) for line in index)]
    candidates = [f for f in functions if want in short_name(f[2].strip())]
    if not candidates:
        sys.exit(f"no compiled function's name holds {want!r}")
    ips = subprocess.run(["perf", "script", "-i", data, "-F", "ip"], capture_output=True, text=True,
                         check=True).stdout.split()
    samples = collections.Counter(int(ip, 16) for ip in ips)

    def sampled(f):
        return {ip: n for ip, n in samples.items() if f[0] <= ip < f[0] + f[1]}

    address, size, name = max(candidates, key=lambda f: sum(sampled(f).values()))
    mine = sampled((address, size, name))
    total = sum(mine.values())
    machine = "i386:x86-64" if platform.machine() in ("x86_64", "AMD64") else platform.machine()
    listing = subprocess.run(["objdump", "-D", "-b", "binary", "-m", machine, f"--adjust-vma={address:#x}",
                              os.path.join(folder, f"{address:x}.bin")], capture_output=True, text=True,
                             check=True).stdout
    code = {}
    for line in listing.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)", line)
        if m:
            code[int(m.group(1), 16)] = m.group(2)
    print(f"\n{short_name(name.strip())}: {total} samples; its {lines} most sampled instructions")
    hottest = sorted(sorted(mine, key=lambda ip: -mine[ip])[:lines])
    for ip in hottest:
        print(f"{100 * mine[ip] / max(total, 1):6.1f}%  +{ip - address:<6x} {code.get(ip, '?')}")
    if listing_file:
        with open(listing_file, "w") as f:
            for ip, instruction in code.items():
                f.write(f"{100 * mine.get(ip, 0) / max(total, 1):6.1f}%  +{ip - address:<6x} {instruction}\n")
        print(f"whole listing written to {listing_file}")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--players", type=int, default=None,
                        help="players (default 7 for the pot games, 1 for Selection)")
    parser.add_argument("--policy", default="heuristic", help="policy preset at every seat (default heuristic)")
    parser.add_argument("--deals", type=int, default=None,
                        help="deals (games) profiled (default 1,000,000 pot-game deals, 200,000 Selection games)")
    parser.add_argument("--top", type=int, default=25, help="functions listed (default 25)")
    parser.add_argument("--data", default=None, help="keep perf's data file here (default: a temporary file)")
    parser.add_argument("--annotate", default=None, metavar="NAME",
                        help="also print the hottest instructions of the compiled function whose name holds NAME")
    parser.add_argument("--lines", type=int, default=30, help="instructions --annotate prints (default 30)")
    parser.add_argument("--listing", default=None, metavar="FILE",
                        help="with --annotate, also write the function's whole listing, with samples, to FILE")
    parser.add_argument("--code-dir", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.players is None:
        args.players = 1 if args.game == "selection" else 7
    if args.deals is None:
        args.deals = 200_000 if args.game == "selection" else 1_000_000
    if args.deals < 1 or args.top < 1 or args.lines < 1:
        parser.error("--deals, --top and --lines must be at least 1")
    if args.listing and not args.annotate:
        parser.error("--listing needs --annotate NAME (the function whose listing to write)")
    return args


def main():
    args = parse_args()
    if args.child:
        from analyzer.errors import WantitError

        try:
            seconds = play(args.game, args.players, args.policy, args.deals)
        except WantitError as e:
            sys.exit(f"error: {e}")
        functions = compiled_functions()
        write_perf_map(functions)
        if args.code_dir:
            save_code(functions, args.code_dir)
        print(f"{args.game}, {args.players} players, {args.policy}: {seconds * 1e6:.3f} us a "
              f"{'game' if args.game == 'selection' else 'deal'} under perf")
        return
    if shutil.which("perf") is None:
        sys.exit("perf is not installed (Debian / Ubuntu: apt install linux-perf or linux-tools-generic)")
    with tempfile.TemporaryDirectory() as tmp:
        data = args.data or os.path.join(tmp, "perf.data")
        child = [sys.executable, __file__, args.game, "--players", str(args.players), "--policy", args.policy,
                 "--deals", str(args.deals), "--child"]
        code_dir = os.path.join(tmp, "code")
        if args.annotate:
            child += ["--code-dir", code_dir]
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba-cache"))
        done = subprocess.run(["perf", "record", "-F", "4000", "-e", "cpu-clock", "-o", data, "--", *child],
                              env=env)
        if done.returncode:
            sys.exit(done.returncode)
        report(data, args.top)
        if args.annotate:
            annotate(data, code_dir, args.annotate, args.lines, args.listing)


if __name__ == "__main__":
    main()
