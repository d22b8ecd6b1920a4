"""Start-up benchmark: how long the ``reteval`` command takes when there is almost nothing to do.

People call the command line in shell loops over hundreds of runs, so its fixed cost
matters. Each command below runs as a fresh process ``--runs`` times (default 20),
interleaved round by round; the table shows the median and the fastest wall time, and
whether the median meets its target:

* ``reteval --help`` and every ``reteval COMMAND --help``: <= 0.15 s;
* ``reteval evaluate`` on a tiny run (2 queries, 5 lines): <= 0.5 s;
* ``python -c "import reteval"`` (no target: it should load nothing heavy; the modules
  it loads are listed), and ``python -c pass``, the interpreter alone, for reference.

Run: ``python bench/bench_startup.py [--runs 20]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HELP_TARGET = 0.15
TINY_EVALUATE_TARGET = 0.5
HEAVY = ("numpy", "pandas", "pyarrow", "scipy", "matplotlib", "statsmodels", "dask")


def reteval_command() -> str:
    script = Path(sys.executable).parent / "reteval"
    found = str(script) if script.exists() else shutil.which("reteval")
    if not found:
        raise SystemExit("the 'reteval' command is not installed next to this Python; "
                         "run `make setup`")
    return found


def tiny_files(folder: Path) -> tuple[Path, Path]:
    qrels = folder / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n")
    run = folder / "run.txt"
    run.write_text("q1 Q0 d2 1 3.0 t\nq1 Q0 d1 2 2.0 t\nq1 Q0 d9 3 1.0 t\n"
                   "q2 Q0 d3 1 0.5 t\nq2 Q0 d4 2 0.4 t\n")
    return qrels, run


def loaded_modules(code: str) -> list[str]:
    probe = (f"import sys\n{code}\n"
             f"print(' '.join(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r})))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split()
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each command")
    args = parser.parse_args(argv)
    reteval = reteval_command()
    subprocess.run([sys.executable, "-m", "compileall", "-q",
                    str(Path(__file__).resolve().parent.parent / "reteval")], check=False,
                   stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory(prefix="reteval-startup-") as scratch:
        qrels, run = tiny_files(Path(scratch))
        commands = {
            "python -c pass": ([sys.executable, "-c", "pass"], None),
            'python -c "import reteval"': ([sys.executable, "-c", "import reteval"], None),
            "reteval --help": ([reteval, "--help"], HELP_TARGET),
            **{f"reteval {c} --help": ([reteval, c, "--help"], HELP_TARGET)
               for c in ("evaluate", "run", "book", "monitor", "history")},
            "reteval evaluate (tiny run)": ([reteval, "evaluate", str(qrels), str(run), "-m", "AP",
                                             "-m", "nDCG@10"], TINY_EVALUATE_TARGET),
        }
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        for cmd, _ in commands.values():  # once untimed: bytecode and page cache
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        times = {name: [] for name in commands}
        load = os.getloadavg()
        for _ in range(args.runs):
            for name, (cmd, _) in commands.items():
                t0 = time.perf_counter()
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
                times[name].append(time.perf_counter() - t0)
        load_after = os.getloadavg()

    print(f"## reteval start-up: median of {args.runs} runs each, interleaved\n")
    print("| command | median s | fastest s | target | met |")
    print("|---|---:|---:|---:|:---:|")
    all_met = True
    for name, (_, target) in commands.items():
        median = statistics.median(times[name])
        met = "-" if target is None else ("yes" if median <= target else "NO")
        all_met &= met != "NO"
        tgt = "-" if target is None else f"<= {target:g}"
        print(f"| {name} | {median:.3f} | {min(times[name]):.3f} | {tgt} | {met} |")
    heavy = loaded_modules("import reteval")
    print(f"\n`import reteval` loads of {', '.join(HEAVY)}: {', '.join(heavy) or 'none'}.")
    print(f"All start-up targets met: {'yes' if all_met else 'NO'}.")
    print(f"Load average (1/5/15 min) before {[round(x, 2) for x in load]}, "
          f"after {[round(x, 2) for x in load_after]} on {os.cpu_count()} logical cores"
          + ("; WARNING: the machine was busy, times are inflated"
             if max(load[0], load_after[0]) > 0.75 * (os.cpu_count() or 1) else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
