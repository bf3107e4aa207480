#!/usr/bin/python3
"""run_peers.py — fricbench against its peers (scipy, Siconos) on the same problems.

    /usr/bin/python3 bench/peers/run_peers.py --build BUILD --out FILE.csv
                     [--quick] [--repeats N] [--jobs abcde] [--siconos-cap S]

Jobs (docs/peers.md has the method, the table and what misses its goal, and why):
  a  event-driven stick-slip: switching/event (dop853, rk8pd inside) vs scipy solve_ivp
     DOP853 with events, at matched error 1e-8 ... 1e-12; and the output grid's error
  b  stiff LuGre drift: msbdf, cvode-bdf vs scipy BDF and LSODA (analytic Jacobian),
     matched error 1e-5 ... 1e-9
  c  moreau-jean vs Siconos MoreauJeanOSI on stick-slip at equal h
  d  glowinski-lie vs Siconos at matched error 1e-3
  e  the chain, n = 100 and 1000: moreau-jean vs Siconos per step (Siconos capped)

Both sides are timed around their solve only, by the thread's CPU clock: fricbench's
cpu_s (fb-peer-run, the drive loop and the recorder), the peer's solve call(s).  Runs
alternate peer / fricbench; each number is the median of --repeats.  A peer that is not
installed is skipped with a line saying so.  The table is printed as markdown and written
as CSV to --out.  Run by `ninja -C build peers` (a run_target, never by `meson test`).
"""
import argparse
import csv
import datetime
import math
import os
import platform
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from peers_common import FbSide, Row, fmt  # noqa: E402


def log(msg):
    print(msg, flush=True)


def markdown(rows):
    head = ["job", "fricbench", "peer", "error", "time ratio", "RHS ratio", "goal", "met",
            "note"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        tr = r["time_ratio"]
        rr = r["rhs_ratio"]
        cells = [r["job"], r["fricbench"], r["peer"], r["error"],
                 fmt(tr, ".3g") + ("x" if isinstance(tr, float) and not math.isnan(tr) else ""),
                 fmt(rr, ".2f") if rr != "" else "", r["goal"], r["met"], r["note"]]
        out.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(out)


def versions():
    v = {"python": platform.python_version()}
    try:
        import scipy
        v["scipy"] = scipy.__version__
    except ImportError:
        v["scipy"] = "absent"
    try:
        import siconos
        v["siconos"] = getattr(siconos, "version", "present")
        deb = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "python3-siconos"],
                             capture_output=True, text=True)
        if deb.returncode == 0 and deb.stdout:  # Debian's package says 4.4.0; the module
            v["siconos"] = f"{deb.stdout} (Debian; module says {v['siconos']})"  # 4.5.0
    except (ImportError, OSError):
        v["siconos"] = v.get("siconos", "absent")
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="the meson build directory")
    ap.add_argument("--out", required=True, help="the table as CSV")
    ap.add_argument("--quick", action="store_true", help="shorter ladders (a rough table)")
    ap.add_argument("--repeats", type=int, default=None, help="timed runs per point "
                    "(median; default 5, --quick 3)")
    ap.add_argument("--jobs", default="abcde", help="which jobs (letters a..e)")
    ap.add_argument("--siconos-cap", type=float, default=None,
                    help="CPU seconds Siconos gets per chain run (default 60, --quick 20)")
    args = ap.parse_args()
    if args.repeats is None:
        args.repeats = 3 if args.quick else 5
    if args.repeats < 1:
        ap.error(f"--repeats {args.repeats} is not allowed: give an integer >= 1")
    if set(args.jobs) - set("abcde"):
        ap.error(f"--jobs {args.jobs!r} is not allowed: give letters among a, b, c, d, e")
    if args.siconos_cap is None:
        args.siconos_cap = 20.0 if args.quick else 60.0
    fb = FbSide(args.build)
    v = versions()
    load0 = os.getloadavg()
    started = datetime.datetime.now(datetime.timezone.utc)
    log(f"peers: {started:%Y-%m-%d %H:%M} UTC, host {platform.node()}, "
        f"{os.cpu_count()} cores, load {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}; "
        f"python {v['python']}, scipy {v['scipy']}, siconos {v['siconos']}; "
        f"repeats {args.repeats}{', quick' if args.quick else ''}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="fb-peers-") as tmp:
        if v["scipy"] == "absent":
            log("scipy is not installed: jobs a and b skipped")
        else:
            if "a" in args.jobs:
                import job_stickslip
                rows += job_stickslip.run_job(fb, args, tmp, log)[0]
            if "b" in args.jobs:
                import job_lugre
                rows += job_lugre.run_job(fb, args, tmp, log)[0]
        if set("cde") & set(args.jobs):
            if v["scipy"] == "absent":
                log("scipy is not installed (the Siconos jobs' reference needs it): jobs c, "
                    "d, e skipped")
            else:
                import job_siconos
                rows += job_siconos.run_jobs(fb, args, tmp, log, args.jobs)[0]
    load1 = os.getloadavg()
    log(f"load average at the end: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=Row.COLUMNS)
        w.writeheader()
        for r in rows:
            w.writerow({k: (repr(x) if isinstance(x, float) else x) for k, x in r.items()})
    print()
    print(markdown(rows))
    print(f"\n{started:%Y-%m-%d} UTC, load {load0[0]:.1f} at the start and {load1[0]:.1f} at "
          f"the end (2-core host); CSV: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
