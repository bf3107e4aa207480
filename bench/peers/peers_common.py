"""What every job of the peers harness shares (docs/peers.md): fricbench's side through
fb-peer-run, the CPU clock of the peer's side, medians of alternating runs, and the cost
at matched error along a tolerance (or step) ladder.
"""
import json
import math
import os
import statistics
import subprocess
import time

import numpy as np


class FbSide:
    """fricbench's side: build/bench/peers/fb-peer-run, one process per run.  The time is
    the run's own CPU time (cpu_s: the thread's CPU clock around the integrator's drive
    loop and the recorder, as runs.csv's cpu_s), so process start-up and set-up are out."""

    def __init__(self, build):
        self.exe = os.path.join(build, "bench", "peers", "fb-peer-run")
        if not os.access(self.exe, os.X_OK):
            raise SystemExit(f"run_peers: {self.exe} not found: build it first "
                             f"(ninja -C {build})")

    def run(self, scenario, model, integrator=None, stepper=None, h=None, tol=None,
            sets=(), samples=1001, grid=None, steps=None):
        cmd = [self.exe, "--scenario", scenario, "--model", model, "--samples", str(samples)]
        if integrator:
            cmd += ["--integrator", integrator]
        if stepper:
            cmd += ["--stepper", stepper]
        if h is not None:
            cmd += ["--h", repr(float(h))]
        if tol is not None:
            cmd += ["--tol", repr(float(tol))]
        for s in sets:
            cmd += ["--set", s]
        if grid:
            cmd += ["--grid", grid]
        if steps:
            cmd += ["--steps", steps]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: {out.stderr.strip()}")
        return json.loads(out.stdout.strip().splitlines()[-1])


def cpu_clock():
    """The peer's clock: this thread's CPU time (the same clock as fricbench's cpu_s)."""
    return time.thread_time()


def median(xs):
    return statistics.median(xs)


def cost_at(errors, costs, target):
    """The cost a ladder needs for error `target`: log-log interpolation between the two
    points that bracket it, the errors taken as their running minimum along the ladder
    (ordered from loose to tight), as `fricbench bench` does (fb_wp_cost_at).  NaN when the
    ladder does not bracket the target."""
    e = np.minimum.accumulate(np.asarray(errors, dtype=float))
    c = np.asarray(costs, dtype=float)
    for k in range(len(e) - 1):
        if e[k] >= target >= e[k + 1] and e[k] > 0 and e[k + 1] > 0:
            if e[k] == e[k + 1]:
                return c[k]
            w = (math.log(target) - math.log(e[k])) / (math.log(e[k + 1]) - math.log(e[k]))
            return math.exp(math.log(c[k]) + w * (math.log(c[k + 1]) - math.log(c[k])))
    return math.nan


def fmt(x, spec=".3g"):
    if isinstance(x, str):
        return x
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return format(x, spec)


class Row(dict):
    """One line of the table: job, fricbench side, peer, error, time ratio (peer time over
    fricbench time: > 1 means fricbench is faster), RHS ratio (fricbench's evaluations
    over the peer's), goal, met."""
    COLUMNS = ["job", "fricbench", "peer", "error", "fb_s", "peer_s", "time_ratio",
               "fb_rhs", "peer_rhs", "rhs_ratio", "fb_error", "peer_error", "goal", "met",
               "note"]

    def __init__(self, **kw):
        super().__init__({c: kw.get(c, "") for c in self.COLUMNS})
