"""The Python package against the command line it mirrors (issue 30): the same numbers to
the last bit, the same one-line errors, the results directory as DataFrames."""
import gzip
import io
import json
import os
import re
import shutil
import subprocess

import pandas as pd
import pytest

import fricbench

EXE = os.environ.get("FRICBENCH")
ROOT = os.environ.get("FB_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))


def cli(*args, check=True):
    """fricbench's command line: (exit status, stdout, stderr)."""
    assert EXE, "FRICBENCH is not set (run the tests through meson test)"
    p = subprocess.run([EXE, *args], capture_output=True, text=True)
    if check:
        assert p.returncode == 0, p.stderr
    return p.returncode, p.stdout, p.stderr


def cli_run(tmp_path, *args):
    """`fricbench run --metrics`: the trajectory and the metrics as the CLI writes them."""
    t, m = tmp_path / "t.csv", tmp_path / "m.json"
    cli("run", *args, f"--metrics={m}", "--out", str(t))
    return pd.read_csv(t, float_precision="round_trip"), json.loads(m.read_text())


TIMING = {"wall_s", "cpu_s"}


def same_metrics(a, b):
    ka, kb = set(a) - TIMING, set(b) - TIMING
    assert ka == kb
    for k in ka:
        assert a[k] == b[k] or (a[k] != a[k] and b[k] != b[k]), k  # NaN == NaN


@pytest.mark.parametrize("args,kwargs", [
    (("--scenario", "stick-slip", "--model", "kikuuwe", "--samples", "201"),
     dict(scenario="stick-slip", model="kikuuwe", samples=201)),
    # a fixed step with the model's default (msbdf) unable to take one: the CLI's switch
    (("--scenario", "preload-hold", "--model", "lugre", "--h", "0.001", "--set", "mu=0.25"),
     dict(scenario="preload-hold", model="lugre", h=1e-3, mu=0.25)),
    (("--scenario", "drift", "--model", "kikuuwe", "--tol", "1e-6", "--set", "K=20000.5"),
     dict(scenario="drift", model="kikuuwe", tol=1e-6, set={"K": 20000.5})),
])
def test_run_is_the_cli_to_the_bit(tmp_path, args, kwargs):
    want_traj, want_m = cli_run(tmp_path, *args)
    traj, m = fricbench.run(**kwargs)
    assert list(traj.columns) == list(want_traj.columns)
    assert traj.shape == want_traj.shape
    # exact equality of every double (NaN nowhere in a trajectory)
    assert (traj.to_numpy() == want_traj.to_numpy()).all()
    same_metrics(m, want_m)
    assert m["integrator"] == want_m["integrator"]


def test_a_different_case_gives_different_numbers():
    """The identity above is not vacuous: another parameter changes the trajectory."""
    a, ma = fricbench.run("stick-slip", "kikuuwe", samples=51)
    b, mb = fricbench.run("stick-slip", "kikuuwe", samples=51, K=1e4)
    assert not (a["x"].to_numpy() == b["x"].to_numpy()).all()
    assert ma["err_x_l2"] != mb["err_x_l2"]


@pytest.mark.parametrize("kwargs,args", [
    (dict(scenario="nope", model="kikuuwe"), ("--scenario", "nope", "--model", "kikuuwe")),
    (dict(scenario="stick-slip", model="nope"), ("--scenario", "stick-slip", "--model", "nope")),
    (dict(scenario="stick-slip", model="kikuuwe", mu=-1),
     ("--scenario", "stick-slip", "--model", "kikuuwe", "--set", "mu=-1")),
    (dict(scenario="stick-slip", model="lugre", integrator="msbdf", h=1e-3),
     ("--scenario", "stick-slip", "--model", "lugre", "--integrator", "msbdf", "--h", "1e-3")),
])
def test_errors_carry_the_cli_message(kwargs, args):
    rc, out, err = cli("run", *args, check=False)
    assert rc == 2
    with pytest.raises(fricbench.Error) as e:
        fricbench.run(**kwargs)
    assert err.strip() == "fricbench: " + e.value.message


def test_errors_of_the_package_itself():
    with pytest.raises(fricbench.Error, match="exclude each other"):
        fricbench.run("stick-slip", "kikuuwe", h=1e-3, tol=1e-6)
    with pytest.raises(fricbench.Error, match="samples"):
        fricbench.run("stick-slip", "kikuuwe", samples=1)
    with pytest.raises(fricbench.Error, match="not a directory"):
        fricbench.load("/nonexistent/results")


def test_catalogue_is_the_cli_list():
    cat = json.loads(cli("list", "--json")[1])
    assert sorted(fricbench.models()) == sorted(m["name"] for m in cat["models"])
    # every name `fricbench list models` prints is there, and nothing else
    text = cli("list", "models")[1]
    listed = re.findall(r"^  (\S+) ", text, re.M)
    assert sorted(listed) == sorted(fricbench.models())
    sc = fricbench.scenarios()
    assert "stick-slip" in sc and "bouncing-ball" in sc and sc["bouncing-ball"]["normal_contact"]
    integ = fricbench.integrators()
    assert integ["rkf45"]["model"] is None and integ["rkf45"]["adaptive"]
    assert integ["glowinski-lie"]["model"] == "glowinski"
    p = fricbench.models()["lugre"].params
    assert {"sigma0", "sigma1"} <= set(p.index)
    assert p.loc["sigma0", "auto"]  # derived from the scenario's scales


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    d = tmp_path_factory.mktemp("tiny") / "out"
    cli("suite", "--plan", os.path.join(ROOT, "tests", "plans", "tiny.ini"), "--out", str(d),
        "--no-plots", "--jobs", "2")
    return d


def test_load_reads_every_table(tiny):
    res = fricbench.load(tiny)
    runs = pd.read_csv(tiny / "runs.csv")
    assert len(res.runs) == len(runs) > 20
    assert list(res.runs.columns) == list(runs.columns)
    assert len(res.verdicts) == len(pd.read_csv(tiny / "verdicts.csv"))
    assert len(res.orders) >= 1 and res.seed_claims is not None
    meta = json.loads((tiny / "meta.json").read_text())
    assert res.meta == meta and res.meta["fricbench_version"] == fricbench.version()


def test_every_trajectory_file_belongs_to_one_run(tiny):
    res = fricbench.load(tiny)
    paths = {}
    for rid in res.runs["run_id"]:
        p = res.trajectory_path(rid)
        if p is not None:
            paths.setdefault(p, []).append(rid)
    files = [os.path.join(r, f) for r, _, fs in os.walk(tiny / "traj") for f in fs
             if not f.startswith("reference")]
    assert sorted(paths) == sorted(files)
    # the DataFrame is the gzipped file's numbers, exactly
    p, rids = next(iter(paths.items()))
    want = pd.read_csv(io.BytesIO(gzip.open(p).read()), float_precision="round_trip")
    got = res.trajectory(rids[0])
    assert (got.to_numpy() == want.to_numpy()).all()


def test_trajectory_of_a_run_without_one_is_an_error(tiny):
    res = fricbench.load(tiny)
    without = [r for r in res.runs["run_id"] if res.trajectory_path(r) is None]
    assert without, "the tiny plan has runs without trajectories"
    with pytest.raises(fricbench.Error, match="no trajectory"):
        res.trajectory(without[0])
    with pytest.raises(fricbench.Error, match="run_id"):
        res.trajectory(10**6)


def test_answers_rank_the_joint(tiny):
    a = fricbench.load(tiny).answers(view="fixed-step", step="h=0.001")
    assert {"hold", "hold.value", "hold.value2", "creep", "cost/s.value"} <= set(a.columns)
    ranked = a.sort_values(["hold.value2", "creep.value", "cost/s.value"])
    assert ranked.iloc[0]["hold"] == "holds"           # the best holds
    assert ranked.iloc[-1]["hold"].startswith("slips")  # smooth-sign loses the preload
    with pytest.raises(fricbench.Error, match="views are"):
        fricbench.load(tiny).answers(view="nope")


def test_readme_example_runs(tiny, capsys):
    """README "From Python": the five lines answer the robot-joint question."""
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    sec = text.split("## From Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", sec, re.S).group(1)
    lines = [l for l in code.strip().splitlines() if l.strip()]
    assert len(lines) <= 5, "the README example is five lines"
    exec(code.replace('"results/latest"', repr(str(tiny))), {})
    out = capsys.readouterr().out
    assert "holds" in out and "evals/s" in out


def test_compare_is_the_cli_compare(tiny, tmp_path):
    b = tmp_path / "b"
    shutil.copytree(tiny, b)
    runs = (b / "runs.csv").read_text().splitlines()
    hdr = runs[0].split(",")
    col = hdr.index("err_x_l2")
    row = runs[1].split(",")
    row[col] = repr(float(row[col]) * 10 + 1.0)  # much worse
    runs[1] = ",".join(row)
    (b / "runs.csv").write_text("\n".join(runs) + "\n")
    same = fricbench.compare(tiny, tiny)
    assert len(same) == 0 and same.attrs["summary"]["regressions"] == 0
    df = fricbench.compare(tiny, b)
    rc, out, _ = cli("compare", str(tiny), str(b), "--json", check=False)
    assert rc == 1
    want = json.loads(out)
    assert df.to_dict("records") == want["changes"]
    assert df.attrs["summary"]["regressions"] == want["regressions"] >= 1
    assert (df["column"] == "err_x_l2").any() and df["regression"].any()


def test_compare_refuses_what_the_cli_refuses(tiny, tmp_path):
    rc, _, err = cli("compare", str(tiny), str(tmp_path), check=False)
    assert rc == 2
    with pytest.raises(fricbench.Error) as e:
        fricbench.compare(tiny, tmp_path)
    assert err.strip() == "fricbench: " + e.value.message
