"""A suite's results directory as DataFrames (results/README.md has the columns)."""
import json
import math
import os

import pandas as pd

from ._lib import Error

TRAJ_EXT = ".csv.gz"


def _read(path, required):
    if not os.path.exists(path):
        if required:
            raise Error(f"{path} cannot be read (no such file): give a suite's results "
                        "directory")
        return None
    # round_trip: the doubles the suite wrote, to the last bit; an empty text cell is ""
    df = pd.read_csv(path, float_precision="round_trip")
    for c in df.columns:
        if df[c].dtype == object:
            df[c] = df[c].fillna("")
    return df


def _g(x):
    """C's %g of a double (the suite's file names)."""
    return f"{x:g}"


class Results:
    """One suite's output: runs, verdicts, orders, seed_claims (DataFrames, read on first
    use), meta (meta.json as a dict) and trajectory(run_id)."""

    def __init__(self, path):
        if not os.path.isdir(path):
            raise Error(f"{path} is not a directory: give a suite's results directory")
        self.path = path
        self._cache = {}
        self.runs  # runs.csv is required: refuse a directory without it now

    def _table(self, name, required=False):
        if name not in self._cache:
            self._cache[name] = _read(os.path.join(self.path, name), required)
        return self._cache[name]

    @property
    def runs(self):
        """runs.csv: one row per run (its key, status, counts, metrics)."""
        return self._table("runs.csv", required=True)

    @property
    def verdicts(self):
        """verdicts.csv: one row per (model, integrator, view, step, property); None when the
        suite wrote none."""
        return self._table("verdicts.csv")

    @property
    def orders(self):
        """orders.csv: the observed orders of the convergence ladders."""
        return self._table("orders.csv")

    @property
    def seed_claims(self):
        """seed-claims.csv: each source paper's claim about its own system, reproduced or
        not, with the number."""
        return self._table("seed-claims.csv")

    @property
    def meta(self):
        with open(os.path.join(self.path, "meta.json"), encoding="utf-8") as f:
            return json.load(f)

    def trajectory_path(self, run_id):
        """The gzipped trajectory file of run run_id (suite naming:
        traj/<scenario>/<model>__<integrator>__h<%g>|tol<%g>[__<tag>].csv.gz), or None when
        the run kept none."""
        rows = self.runs[self.runs["run_id"] == run_id]
        if rows.empty:
            raise Error(f"run_id {run_id!r} is not in {self.path}/runs.csv: give one of its "
                        f"run_id values (1..{len(self.runs)})")
        r = rows.iloc[0]
        fixed = not (isinstance(r["h"], float) and math.isnan(r["h"]))
        step = float(r["h"] if fixed else r["atol"])
        tag = r["tag"] if isinstance(r["tag"], str) else ""  # an all-empty column reads as NaN
        kind = "h" if fixed else "tol"
        folder = os.path.join(self.path, "traj", str(r["scenario"]))
        name = f"{r['model']}__{r['integrator']}__{kind}{_g(step)}"
        path = os.path.join(folder, name + (f"__{tag}" if tag else "") + TRAJ_EXT)
        if os.path.exists(path):
            return path
        # the CSV's step carries 10 digits: the same step to 1e-6 relative (the report's rule)
        if not os.path.isdir(folder):
            return None
        prefix = f"{r['model']}__{r['integrator']}__{kind}"
        for fn in sorted(os.listdir(folder)):
            if not (fn.startswith(prefix) and fn.endswith(TRAJ_EXT)):
                continue
            rest = fn[len(prefix):-len(TRAJ_EXT)]
            num, _, ftag = rest.partition("__")
            try:
                v = float(num)
            except ValueError:
                continue
            if ftag == tag and abs(v - step) <= 1e-6 * abs(step):
                return os.path.join(folder, fn)
        return None

    def trajectory(self, run_id):
        """The run's trajectory as a DataFrame (read from its gzipped CSV when asked)."""
        path = self.trajectory_path(run_id)
        if path is None:
            raise Error(f"run {run_id} kept no trajectory (the suite keeps them for the "
                        "groups with traj = yes)")
        return pd.read_csv(path, float_precision="round_trip")

    def reference(self, scenario, tag=""):
        """A scenario's reference trajectory on the suite's grid (traj/<s>/reference.csv.gz)."""
        path = os.path.join(self.path, "traj", scenario,
                            "reference" + (f"__{tag}" if tag else "") + TRAJ_EXT)
        if not os.path.exists(path):
            raise Error(f"{path} does not exist: the suite kept no reference for "
                        f"{scenario}{' tag ' + tag if tag else ''}")
        return pd.read_csv(path, float_precision="round_trip")

    def answers(self, view="fixed-step", step=None,
                properties=("hold", "creep", "stable-step", "chatter", "energy", "cost/s")):
        """The report's answer table: one row per treatment (model, integrator) of a view
        of verdicts.csv ("defaults", "fixed-step", ...; step: "h=0.001", "default", ... or
        None for every step of the view), and per property its verdict in words (column
        "<property>") and its numbers ("<property>.value", "<property>.value2"; units in
        verdicts.csv's unit column, rules in its rule column)."""
        v = self.verdicts
        if v is None:
            raise Error(f"{self.path} has no verdicts.csv: the suite wrote none")
        sel = v[(v["view"] == view) & v["property"].isin(list(properties))]
        if step is not None:
            sel = sel[sel["step"] == step]
        if sel.empty:
            raise Error(f"no verdicts for view {view!r}" + (f" step {step!r}" if step else "")
                        + f": views are {', '.join(sorted(v['view'].unique()))}")
        keys = ["model", "integrator"] + ([] if step is not None else ["step"])
        words = sel.pivot_table(index=keys, columns="property", values="verdict",
                                aggfunc="first")
        nums = sel.pivot_table(index=keys, columns="property", values=["value", "value2"],
                               aggfunc="first", dropna=False)
        nums.columns = [f"{p}.{k}" for k, p in nums.columns]
        out = words.join(nums)
        order = [c for p in properties for c in (p, f"{p}.value", f"{p}.value2")
                 if c in out.columns]
        return out[order]

    def __repr__(self):
        return f"fricbench.Results({self.path!r}: {len(self.runs)} runs)"


def load(path):
    """A suite's results directory (fricbench suite --out DIR) as a Results object."""
    return Results(os.fspath(path))
