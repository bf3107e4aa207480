"""fricbench from Python: results as pandas DataFrames, runs from a notebook.

    import fricbench
    res = fricbench.load("results/latest")          # runs, verdicts, orders, seed_claims
    traj, metrics = fricbench.run("preload-hold", "kikuuwe-be", h=1e-3)
    fricbench.models()["lugre"].params              # the parameter table
    fricbench.compare("results/a", "results/b")     # what changed, one row per change

A thin layer over libfricbench (ctypes, no compiled extension): run() calls the same
library functions as `fricbench run --metrics`, models()/scenarios()/integrators() read
the catalogue `fricbench list --json` prints, compare() is `fricbench compare --json`;
so every number is the command line's to the last bit.  Errors raise fricbench.Error
with the library's one-line message.  docs/python.md has the details.
"""
import ctypes
import json
import math
import os
import tempfile
from dataclasses import dataclass, field

import pandas as pd

from ._lib import Error, CaseSummary, CompareOpts, CFile, lib, new_err, check
from ._results import Results, load

__all__ = ["Error", "Results", "load", "run", "models", "scenarios", "integrators",
           "normal_treatments", "compare", "version", "load_plugin"]


def version():
    """The library's version string."""
    return lib().fb_version().decode()


def load_plugin(path):
    """Load a plugin's models and scenarios (a shared object), as --plugin does."""
    err = new_err()
    check(lib().fb_plugin_load(os.fsencode(path), err), err)


@dataclass
class Entry:
    """A model, scenario, integrator or normal treatment of the catalogue."""
    name: str
    title: str
    info: dict = field(repr=False)
    params: pd.DataFrame = field(repr=False)

    def __getitem__(self, key):
        return self.info[key]


_catalog_cache = {}


def _catalog():
    """`fricbench list --json`'s object (read once per set of loaded plugins)."""
    key = version()
    if key in _catalog_cache:
        return _catalog_cache[key]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "catalog.json")
        err = new_err()
        with CFile(path) as fp:
            st = lib().fb_catalog_json(fp, err)
        check(st, err)
        with open(path, encoding="utf-8") as f:
            cat = json.load(f)
    _catalog_cache.clear()
    _catalog_cache[key] = cat
    return cat


def _params_frame(rows):
    cols = ["name", "default", "unit", "min", "max", "min_open", "max_open", "integer",
            "auto", "auto_doc", "choices", "doc"]
    df = pd.DataFrame(rows, columns=cols)
    return df.set_index("name")


def _entries(kind):
    out = {}
    for item in _catalog()[kind]:
        out[item["name"]] = Entry(item["name"], item.get("title", ""), item,
                                  _params_frame(item.get("params", [])))
    return out


def models():
    """Every friction model: {name: Entry} with .title, ['source'], ['default_integrator'],
    ['fixed_step_integrator'], ['schemes'] and .params (a DataFrame: default, unit, range,
    doc per parameter)."""
    return _entries("models")


def scenarios():
    """Every scenario: {name: Entry} with ['source'], ['normal_contact'] and .params."""
    return _entries("scenarios")


def integrators():
    """Every integrator: {name: Entry}; ['model'] names the owner of a model's own scheme
    (None for the generic ones), ['fixed_step'], ['adaptive'], ['implicit'], ['order']."""
    return _entries("integrators")


def normal_treatments():
    """Every normal-contact treatment (--set normal=NAME): {name: Entry} with .params."""
    return _entries("normal_treatments")


def _assignment(name, value):
    if isinstance(value, bool) or value is None:
        raise Error(f"parameter {name}: {value!r} is not allowed: give a number or a choice "
                    "name")
    if isinstance(value, float):
        text = repr(value)  # the shortest text that reads back as the same double
    else:
        text = str(value)
    return f"{name}={text}"


def run(scenario, model, integrator=None, h=None, tol=None, atol=None, rtol=None,
        samples=1001, set=None, **params):
    """Run one case as `fricbench run --metrics` does.

    scenario, model, integrator: names (fricbench.scenarios(), models(), integrators());
    integrator None: the model's default, or with h the suite's fixed-step choice.
    h: fixed step (s); tol: adaptive tolerance (atol = rtol = tol), or atol/rtol apart;
    none of them: the model's default.  samples: output grid points on [t0, T].
    Parameters: keyword arguments (mu=0.2) or set={"scenario.mu": 0.2, "normal.e": 0.5}
    for names that are not Python identifiers.

    Returns (trajectory, metrics): a DataFrame with the columns of `fricbench run`'s CSV
    (t, x, v, F, the model's states, stick; x1..xn, ... for several DOFs) and a dict of
    the run's metrics (runs.csv's definitions, status and counts included).  A run that
    ends in budget or failure still returns (metrics["status"] says so); bad input raises
    fricbench.Error.
    """
    L = lib()
    err = new_err()
    if h is not None and (tol is not None or atol is not None or rtol is not None):
        raise Error("h and a tolerance exclude each other: give one")
    if tol is not None:
        atol = rtol = tol
    chosen = ctypes.c_char_p()
    switched = ctypes.c_int()
    enc = lambda s: None if s is None else str(s).encode()  # noqa: E731
    check(L.fb_case_integrator_for(enc(scenario), enc(model), enc(integrator),
                                   1 if h is not None else 0, chosen, switched, err), err)
    case = L.fb_case_open(enc(scenario), enc(model), chosen.value, err)
    if not case:
        raise Error(err.text())
    try:
        assigns = [_assignment(k, v) for k, v in (set or {}).items()]
        assigns += [_assignment(k, v) for k, v in params.items()]
        for a in assigns:
            check(L.fb_case_assign(case, a.encode(), err), err)
        nan = math.nan
        check(L.fb_case_stepping(case, nan if h is None else float(h),
                                 nan if atol is None else float(atol),
                                 nan if rtol is None else float(rtol), err), err)
        if not (isinstance(samples, int) and samples >= 2):
            raise Error(f"samples {samples!r} is not allowed: give an integer >= 2")
        summary = CaseSummary()
        with tempfile.TemporaryDirectory() as d:
            tpath, mpath = os.path.join(d, "traj.csv"), os.path.join(d, "metrics.json")
            with CFile(tpath) as tf, CFile(mpath) as mf:
                st = L.fb_case_execute_metrics(case, samples, tf, mf, summary, err)
            check(st, err)
            traj = pd.read_csv(tpath, float_precision="round_trip")
            with open(mpath, encoding="utf-8") as f:
                metrics = json.load(f)
    finally:
        L.fb_case_close(case)
    metrics["wall_s"] = summary.wall_s
    return traj, metrics


def compare(a, b, rtol=0.1, time_rtol=None):
    """`fricbench compare A B --json` as a DataFrame: one row per change (kind, label,
    regression, run, column, a, b); the summary (matched runs, regressions, ...) in
    .attrs["summary"].  Raises fricbench.Error for a directory that is not a suite's."""
    opts = CompareOpts(float(rtol), -1.0 if time_rtol is None else float(time_rtol), 1)
    err = new_err()
    regressions = ctypes.c_int()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "compare.json")
        with CFile(path) as fp:
            st = lib().fb_compare_dirs(os.fsencode(a), os.fsencode(b), opts, fp, regressions,
                                       err)
        check(st, err)
        with open(path, encoding="utf-8") as f:
            obj = json.load(f)
    changes = obj.pop("changes")
    df = pd.DataFrame(changes, columns=["kind", "label", "regression", "run", "column", "a",
                                        "b"])
    df.attrs["summary"] = obj
    return df

