#!/usr/bin/python3
"""Tests of scripts/plot (issue 22 item 3), run by ctest:  plot_test.py MESH_GPU NOC_SYNTH WORK_DIR
The bar figure's geometric means are checked against values worked out by hand from a CSV written
here; the other figures on real runs (files written, refusals clear)."""
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLOT = os.path.join(ROOT, "scripts", "plot")
mesh_gpu, noc_synth, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def check(cond, msg):
    if not cond:
        sys.exit(f"FAILED: {msg}")


def plot(*args):
    return subprocess.run([PLOT] + list(args), capture_output=True, text=True)


def figures(out):
    for ext in ("png", "pdf"):
        check(os.path.getsize(f"{out}.{ext}") > 1000, f"{out}.{ext} written")


# Bars. Kernel a: base 2, x 4 (ratio 2), y 1 (0.5); kernel b: base 1, x 0.5 (0.5), y 2 (2);
# kernel c has no ok baseline point (failed) and is left out. Geomeans: x sqrt(2 * 0.5) = 1,
# y sqrt(0.5 * 2) = 1. Kernel d has only x: its ratio 9 / 1 = 9 joins x's geomean only:
# x over a, b, d = (2 * 0.5 * 9)^(1/3) = 2.0801.
csv_path = os.path.join(work, "r.csv")
with open(csv_path, "w") as f:
    f.write("point,preset,kernel,seed,status,exit,wall_seconds,summary.ipc\n")
    rows = [("base", "a", "ok", 2), ("x", "a", "ok", 4), ("y", "a", "ok", 1), ("base", "b", "ok", 1), ("x", "b", "ok", 0.5),
            ("y", "b", "ok", 2), ("base", "c", "failed", ""), ("x", "c", "ok", 3), ("base", "d", "ok", 1), ("x", "d", "ok", 9),
            ("y", "d", "timeout", "")]
    for i, (p, k, st, v) in enumerate(rows):
        f.write(f"{i},{p},{k},1,{st},0,1.0,{v}\n")
p = plot("bars", csv_path, "--baseline", "base", "--out", os.path.join(work, "bars"))
check(p.returncode == 0, p.stderr)
check("x: geomean 2.0801 over 3 points" in p.stdout, p.stdout)
check("y: geomean 1.0000 over 2 points" in p.stdout, p.stdout)
check("left out (no ok baseline point): c" in p.stderr, p.stderr)
figures(os.path.join(work, "bars"))
p = plot("bars", csv_path, "--baseline", "nope", "--out", os.path.join(work, "bad"))
check(p.returncode != 0 and "baseline preset 'nope' is not in" in p.stderr, p.stderr)
p = plot("bars", csv_path, "--baseline", "base", "--metric", "summary.cycles", "--out", os.path.join(work, "bad"))
check(p.returncode != 0 and "no column 'summary.cycles'" in p.stderr, p.stderr)

# Curves from two noc_synth runs.
runs = []
for r in ("0.05", "0.3"):
    out = os.path.join(work, f"ns_{r}.json")
    subprocess.run([noc_synth, "--rate", r, "--cycles", "1000", "--warmup", "200", "--quiet", "--json", out], check=True)
    runs.append(out)
p = plot("curves", *runs, "--out", os.path.join(work, "curves"))
check(p.returncode == 0, p.stderr)
figures(os.path.join(work, "curves"))

# Link map of a small mesh run; a run without a mesh is refused.
run = os.path.join(work, "run.json")
env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
subprocess.run([mesh_gpu, "--kernel", "transpose", "--set", "workload.params.size=small", "--quiet", "--out", run],
               check=True, env=env)
d = json.load(open(run))
# ics8x8: one 8x8 mesh with both classes on virtual networks: 2 x 2 x 8 x 7 = 224 directed links.
check(len(d["summary"]["links"]) == 224, f"{len(d['summary']['links'])} links in the summary")
p = plot("links", run, "--out", os.path.join(work, "links"))
check(p.returncode == 0, p.stderr)
figures(os.path.join(work, "links"))
d["config"]["noc"]["topology"] = "crossbar"
json.dump(d, open(run, "w"))
p = plot("links", run, "--out", os.path.join(work, "bad"))
check(p.returncode != 0 and "need a mesh" in p.stderr, p.stderr)
print("plot_test: passed")
