# What every scripts/validate-* shares: build the platform binary, run a matrix of simulations a few
# at a time (each writing its stats JSON), state where and how the numbers were made, and write the
# generated part of a docs/validation/*.md between its markers, keeping the hand-written analysis.
#
#   import sys, os; sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
#   import validation as v
#   args = v.parse_args("validate-foo", "what it does")          # -j JOBS, --keep
#   binary = v.build("mesh_gpu")                                  # -> path of the binary
#   runs = [v.Run("spmv@hpca6x6", ["--preset", "hpca6x6", "--kernel", "spmv"]), ...]
#   results = v.run_all(binary, runs, "validate-foo", args.jobs)  # id -> parsed JSON
#   v.write_doc("docs/validation/foo.md", "validate-foo", title, text)
#
# A run that fails, does not finish its workload or reports invariant failures stops the script
# with the path of its log: a validation doc is never written from a partial matrix. A windowed
# run (Run(..., window=N)) is stopped by --max-cycles N on purpose: it must reach N cycles
# (summary.stop = max_cycles) or finish before.
import argparse
import concurrent.futures as cf
import datetime
import json
import math
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def build_dir():
    return os.environ.get("GPUSC_BUILD_DIR", os.path.join(ROOT, "build"))


def parse_args(script, description, extra=None):
    p = argparse.ArgumentParser(prog=f"scripts/{script}", description=description)
    p.add_argument("-j", "--jobs", type=int, default=2, help="simulations at a time (default 2)")
    if extra:
        extra(p)
    a = p.parse_args()
    if a.jobs < 1:
        p.error("-j must be at least 1")
    return a


def build(*targets):
    """Configures a Release build and builds the targets; returns the path of the first binary."""
    b = build_dir()
    subprocess.run(["cmake", "-S", ROOT, "-B", b, "-DCMAKE_BUILD_TYPE=Release"], check=True,
                   stdout=subprocess.DEVNULL)
    for t in targets:
        subprocess.run(["cmake", "--build", b, "-j", "2", "--target", t], check=True, stdout=subprocess.DEVNULL)
    return os.path.join(b, "platforms", targets[0], targets[0])


class Run:
    """One simulation: an id (file name, no '/') and the platform arguments (without --out).
    window: simulate at most this many core cycles (--max-cycles); the run counts as complete when
    it reaches them (a throughput measurement over the window) or finishes before."""

    def __init__(self, rid, argv, cost=1.0, window=None):
        if "/" in rid:
            raise ValueError(f"run id {rid!r} contains '/'")
        self.id, self.argv, self.cost, self.window = rid, list(argv), cost, window
        if window:
            self.argv += ["--max-cycles", str(int(window))]

    def complete(self, rc, summary):
        """Whether a run with exit status rc and this summary is a valid result."""
        if summary.get("invariant_failures"):
            return False
        if rc == 0 and summary.get("finished", True):
            return True
        return bool(self.window) and rc == 3 and summary.get("stop") == "max_cycles"

    def command(self, binary_name):
        return " ".join([binary_name] + self.argv)


def finished_result(path):
    """The stats JSON at `path` if it is a run that finished (or reached its --max-cycles window)
    with no invariant failure, else None (missing, unreadable, interrupted or failed)."""
    try:
        d = json.load(open(path))
    except (OSError, ValueError):
        return None
    sm = d.get("summary", {})
    ok = (sm.get("finished") or sm.get("stop") == "max_cycles") and not sm.get("invariant_failures")
    return d if ok else None


def run_all(binary, runs, script, jobs, reuse=False):
    """Runs every simulation (most expensive first, `jobs` at a time) with --quiet --out; returns
    {id: stats JSON}. Exits with the failing runs' logs named when any fails or does not finish.
    reuse: keep the JSON of earlier runs with the same id that finished (resume an interrupted
    matrix with the same binary); otherwise every earlier result is deleted first."""
    out = os.path.join(build_dir(), script)
    os.makedirs(out, exist_ok=True)
    kept = {}
    for f in os.listdir(out):
        if not f.endswith((".json", ".log", ".cpu")):
            continue
        if reuse and f.endswith(".json"):
            d = finished_result(os.path.join(out, f))
            if d is not None:
                kept[f[:-5]] = d
                continue
        if not (reuse and f.endswith((".log", ".cpu"))):
            os.remove(os.path.join(out, f))
    ids = [r.id for r in runs]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        sys.exit(f"{script}: duplicate run ids {sorted(dup)}")
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")

    def one(r):
        js, log = os.path.join(out, r.id + ".json"), os.path.join(out, r.id + ".log")
        with open(log, "w") as lf:
            p = subprocess.Popen([binary] + r.argv + ["--quiet", "--out", js], stdout=lf, stderr=subprocess.STDOUT,
                                 env=env)
            _, status, ru = os.wait4(p.pid, 0)  # this run's own CPU time
            p.returncode = rc = os.waitstatus_to_exitcode(status)
        with open(os.path.join(out, r.id + ".cpu"), "w") as cf_:
            cf_.write(f"{ru.ru_utime + ru.ru_stime:.3f}\n")
        return r, rc, js, log

    results, bad = {}, []
    done = 0
    todo = []
    for r in runs:
        if r.id in kept:
            results[r.id] = kept[r.id]
        else:
            todo.append(r)
    if kept:
        print(f"{script}: reusing {len(runs) - len(todo)} earlier results", file=sys.stderr)
    with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
        for r, rc, js, log in ex.map(one, sorted(todo, key=lambda r: -r.cost)):
            done += 1
            if not os.path.exists(js) or (rc != 0 and not (r.window and rc == 3)):
                bad.append(f"{r.id}: exit {rc}, see {log}")
                continue
            d = json.load(open(js))
            s = d.get("summary", {})
            if not r.complete(rc, s):
                bad.append(f"{r.id}: finished={s.get('finished')} invariant_failures={s.get('invariant_failures')}, "
                           f"see {log}")
            results[r.id] = d
            print(f"{script}: {done}/{len(todo)} {r.id}", file=sys.stderr)
    if bad:
        sys.exit(f"{script}: {len(bad)} run(s) failed:\n  " + "\n  ".join(bad))
    return results


def cpu_seconds(script, ids):
    """User + system CPU seconds of the runs `ids` as run_all measured them, and the ids without a
    measurement (results kept from an invocation before this was recorded)."""
    out, total, missing = os.path.join(build_dir(), script), 0.0, []
    for i in ids:
        try:
            total += float(open(os.path.join(out, i + ".cpu")).read())
        except (OSError, ValueError):
            missing.append(i)
    return total, missing


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}, {platform.system()} {platform.release()}"


def git_commit(paths=("modules", "platforms")):
    c = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                       text=True).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "-C", ROOT, "diff", "--quiet", "HEAD", "--"] + list(paths)).returncode
    return c + (f" (with uncommitted changes in {' or '.join(p + '/' for p in paths)})" if dirty else "")


class Clock:
    """Start time and elapsed wall time, for the provenance line."""

    def __init__(self):
        self.t0 = time.time()
        self.started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

    def provenance(self, cmdline, jobs, script):
        return (f"Generated by `{cmdline}` on {self.started}, commit `{git_commit()}`, {jobs} simulations at a "
                f"time, {time.time() - self.t0:.0f} s wall. Machine: {machine()}. Raw JSON of every run: "
                f"`build/{script}/`.")


def write_doc(path, script, title, generated, variant=""):
    """Writes `generated` between the markers of `path`, keeping everything outside them. A
    `variant` (e.g. "--scale full") names a second generated section of the same script."""
    begin = f"<!-- BEGIN GENERATED by scripts/{script}{' ' + variant if variant else ''} -->"
    end = "<!-- END GENERATED -->"
    if os.path.exists(path):
        text = open(path).read()
        if begin not in text or end not in text:
            sys.exit(f"{script}: {path} lacks the GENERATED markers; not overwriting it")
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
    else:
        head = (f"# {title}\n\nThe part between the GENERATED markers is written by `scripts/{script}`; "
                "the rest is kept.\n\n")
        tail = "\n\n## Analysis\n\n(not written yet)\n"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + generated + "\n" + end + tail)
    print(f"{script}: wrote {path}", file=sys.stderr)


def geomean(xs):
    xs = list(xs)
    if not xs or any(x <= 0 for x in xs):
        return float("nan")
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def pct(new, old):
    """Change of `new` against `old` in percent (nan when old is 0)."""
    return (new / old - 1.0) * 100.0 if old else float("nan")


def fmt_pct(x, nd=1):
    return "n/a" if x != x else f"{x:+.{nd}f}%"


def table(header, rows):
    """Markdown table lines from a header list and row lists (cells are str()'d)."""
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out
