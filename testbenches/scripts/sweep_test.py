#!/usr/bin/python3
"""Tests of scripts/sweep (issue 22 item 2), run by ctest:
  sweep_test.py MESH_GPU WORK_DIR CASE    CASE: statuses | resume | slurm
Each case runs real sweeps of mesh_gpu on the small 4x4 configuration and checks the CSV."""
import csv
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SWEEP = os.path.join(ROOT, "scripts", "sweep")
mesh_gpu, work, case = sys.argv[1:4]
work = os.path.join(work, case)
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
SMALL = {"sms": [12], "mcs": [4], "noc.k": [4], "noc.m": [4]}


def check(cond, msg):
    if not cond:
        sys.exit(f"FAILED: {msg}")


def sweep(spec, *args, expect_ok=None):
    path = os.path.join(work, "spec.json")
    json.dump(spec, open(path, "w"))
    p = subprocess.run([SWEEP, path, "--out", os.path.join(work, "out")] + list(args), capture_output=True, text=True)
    if expect_ok is not None:
        check((p.returncode == 0) == expect_ok, f"sweep exit {p.returncode}:\n{p.stdout}{p.stderr}")
    return p


def rows():
    return list(csv.DictReader(open(os.path.join(work, "out", "results.csv"))))


# transpose 64 x 8 finishes in under 1000 cycles; 65536 x 8 needs far more than max_cycles 3000.
STATUS_SPEC = {"binary": mesh_gpu, "presets": ["ics8x8", "no-such-preset"], "kernels": ["transpose"],
               "grid": dict(SMALL, **{"workload.params.width": [64, 65536], "workload.params.height": [8]}),
               "stats": ["summary.cycles", "stats.gpu.mc_0.l2.reads", "summary.stop"], "max_cycles": 3000}

if case == "statuses":
    sweep(STATUS_SPEC, "-j", "2", expect_ok=False)  # not every point is ok: exit 1
    r = rows()
    check(len(r) == 4, f"4 points expected, {len(r)} rows")
    got = [(x["preset"], x["workload.params.width"], x["status"]) for x in r]
    check(got == [("ics8x8", "64", "ok"), ("ics8x8", "65536", "max_cycles"), ("no-such-preset", "64", "failed"),
                  ("no-such-preset", "65536", "failed")], f"statuses {got}")
    check(r[0]["exit"] == "0" and r[1]["exit"] == "3", "exit codes 0 and 3")
    check(int(r[0]["summary.cycles"]) < 3000 and r[0]["summary.stop"] == "finished", "the finished point's stats")
    check(int(r[1]["summary.cycles"]) == 3000 and r[1]["summary.stop"] == "max_cycles", "the stopped point's stats")
    check(r[2]["summary.cycles"] == "", "a failed point has no stats")
    check("unknown preset" in open(os.path.join(work, "out", "points", "2.log")).read().lower() or
          "no-such-preset" in open(os.path.join(work, "out", "points", "2.log")).read(), "the failure is in the log")
    # A point stopped by the stall watchdog: with a DRAM access of 100,000 DRAM cycles no SM makes
    # progress for 20,000 cycles, which --stall-cycles reports as a deadlock (exit 4).
    spec = {"binary": mesh_gpu, "presets": ["ics8x8"], "kernels": ["transpose"],
            "grid": dict(SMALL, **{"mc.dram.fixed_latency": [100000], "workload.params.size": ["small"]}),
            "stats": ["summary.cycles", "summary.stop"], "max_cycles": 3000000, "stall_cycles": 20000}
    sweep(spec, expect_ok=False)
    r = rows()
    check([(x["status"], x["exit"], x["summary.stop"]) for x in r] == [("deadlock", "4", "deadlock")],
          f"deadlock expected: {r}")
    check(int(r[0]["summary.cycles"]) <= 25000, f"stopped by the watchdog, not max_cycles: {r}")
    # A point killed by the timeout: bfs on its default 2^18-vertex graph runs far longer than 1 s.
    spec = {"binary": mesh_gpu, "presets": ["ics8x8"], "kernels": ["bfs"], "grid": SMALL, "timeout": 1}
    sweep(spec, expect_ok=False)
    r = rows()
    check([x["status"] for x in r] == ["timeout"], f"timeout expected: {r}")
    # A spec error is refused before anything runs.
    bad = dict(STATUS_SPEC, grid={"noc.k": []})
    p = sweep(bad)
    check(p.returncode != 0 and "non-empty list" in p.stderr, f"empty grid values refused: {p.stderr}")

elif case == "resume":
    spec = dict(STATUS_SPEC, presets=["ics8x8"])
    sweep(spec, "-j", "2", expect_ok=False)
    out = os.path.join(work, "out")
    jl = open(os.path.join(out, "joblog")).read().splitlines()
    check(len(jl) == 3, f"joblog: header + 2 points, got {len(jl)} lines")
    # Interrupted after the first point: only its joblog line survives, the second's output is gone.
    open(os.path.join(out, "joblog"), "w").write("\n".join(jl[:2]) + "\n")
    os.remove(os.path.join(out, "points", "1.json"))
    first = os.stat(os.path.join(out, "points", "0.json")).st_mtime_ns
    sweep(spec, "--resume", expect_ok=False)
    check(os.stat(os.path.join(out, "points", "0.json")).st_mtime_ns == first, "--resume re-ran a finished point")
    check(os.path.exists(os.path.join(out, "points", "1.json")), "--resume did not run the missing point")
    check([x["status"] for x in rows()] == ["ok", "max_cycles"], f"after resume: {rows()}")
    # --resume with a spec that gives other commands is refused.
    p = sweep(dict(spec, max_cycles=4000), "--resume")
    check(p.returncode != 0 and "no longer gives the commands" in p.stderr, p.stderr)
    # A point not run at all is a row with status not_run, never a missing row.
    os.remove(os.path.join(out, "joblog"))
    sweep(spec, "--collect", expect_ok=False)
    check([x["status"] for x in rows()] == ["not_run", "not_run"], f"without a joblog: {rows()}")

elif case == "slurm":
    script = os.path.join(work, "array.sh")
    sweep(STATUS_SPEC, "--slurm", script, expect_ok=True)
    text = open(script).read()
    check("#SBATCH --array=0-3\n" in text, "an array of 4 tasks")
    if shutil.which("sbatch"):
        p = subprocess.run(["sbatch", "--test-only", script], capture_output=True, text=True)
        check(p.returncode == 0, f"sbatch --test-only: {p.stderr}")
    # Run every array task here, as Slurm would (one process per task id), then collect.
    for k in range(4):
        subprocess.run(["bash", script], env=dict(os.environ, SLURM_ARRAY_TASK_ID=str(k)))
    sweep(STATUS_SPEC, "--collect", expect_ok=False)
    got = [x["status"] for x in rows()]
    check(got == ["ok", "max_cycles", "failed", "failed"], f"statuses from the Slurm tasks: {got}")
else:
    sys.exit(f"unknown case {case}")
print(f"sweep_test {case}: passed")
