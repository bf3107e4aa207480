"""Jobs (c), (d), (e): fricbench against Siconos's MoreauJeanOSI (python3-siconos) at equal
h (docs/peers.md).

The Siconos model of a plant with 1-D Coulomb friction: a LagrangianLinearTIDS (M, K, C),
the external force as a C plugin (siconos_plugins.c), one LagrangianLinearTIR with
y = C q + e, C = I, and a RelayNSL with bounds -h Fs ... h Fs (the relay's unknown is the
step's friction impulse, as fricbench's r_i in -h S_i Sgn(v_i,k+1), models/moreau_jean.c),
a Relay one-step problem and TimeStepping.  e = -1e9: MoreauJeanOSI puts an interaction
in the active set only when its predicted position-level output q + h/2 v is <= 0 (the
test of a unilateral contact); the offset keeps the friction relation active for good
and does not enter the velocity-level output the relay reads.  theta = 1/2 on both sides.
"""
import math
import os
import subprocess
import sys

import numpy as np

from job_stickslip import P as SS, StickSlipExact
from peers_common import cost_at, cpu_clock, median, Row

try:
    import siconos.kernel as sk
    HAVE_SICONOS = True
except ImportError:  # the job is skipped with a line saying so
    sk = None
    HAVE_SICONOS = False

ALWAYS_ACTIVE = -1e9


def build_plugin(tmp):
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "siconos_plugins.c")
    so = os.path.join(tmp, "peers_siconos_plugins.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", src, "-o", so, "-lm"], check=True)
    return so


def _simulation(ds, n, fs, h, T):
    rel = sk.LagrangianLinearTIR(np.eye(n), np.full(n, ALWAYS_ACTIVE))
    inter = sk.Interaction(sk.RelayNSL(n, -h * fs, h * fs), rel)
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.insertDynamicalSystem(ds)
    nsds.link(inter, ds)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.MoreauJeanOSI(0.5),
                          sk.Relay())
    return sim


def stick_slip_sim(plugin, h):
    p = SS
    ds = sk.LagrangianLinearTIDS([p["y0"]], [p["v0"]], np.array([[1.0]]))
    ds.setKPtr(np.array([[1.0]]))
    ds.setCPtr(np.array([[2 * p["D"]]]))
    ds.setzPtr(np.array([p["A"], p["omega"]]))
    ds.setComputeFExtFunction(plugin, "peers_stick_slip_fext")
    return ds, _simulation(ds, 1, p["mu"], h, p["T"])


def siconos_stick_slip_time(plugin, h):
    """CPU seconds of the whole run (Simulation::run, no Python per step), x(T)."""
    ds, sim = stick_slip_sim(plugin, h)
    sys.stdout.flush()
    saved = os.dup(1)  # Simulation::run prints a banner on the C++ side: to /dev/null
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    try:
        t0 = cpu_clock()
        sim.run()
        t = cpu_clock() - t0
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
    return t, float(ds.q()[0])


def siconos_stick_slip_steps(plugin, h):
    """Every step end (t, x), step by step (untimed)."""
    ds, sim = stick_slip_sim(plugin, h)
    ts, xs = [0.0], [SS["y0"]]
    while sim.hasNextEvent():
        sim.computeOneStep()
        ts.append(sim.nextTime())
        xs.append(float(ds.q()[0]))
        sim.nextStep()
    return np.array(ts), np.array(xs)


def _fb_steps_error(fb, model, h, exact, tmp):
    spath = f"{tmp}/sic_steps.csv"
    fb.run("stick-slip", model, h=h, steps=spath, samples=2)
    st = np.loadtxt(spath, delimiter=",", ndmin=2)
    return float(np.max(np.abs(st[:, 1] - exact(st[:, 0])[0])))


def job_c(fb, args, tmp, log, plugin, exact):
    rows = []
    for h in ((1e-3, 1e-4) if not args.quick else (1e-3,)):
        tf, ts = [], []
        for _ in range(args.repeats):
            t, x_sic = siconos_stick_slip_time(plugin, h)
            ts.append(t)
            tf.append(fb.run("stick-slip", "moreau-jean", h=h, samples=1001)["cpu_s"])
        st, sx = siconos_stick_slip_steps(plugin, h)
        e_sic = float(np.max(np.abs(sx - exact(st)[0])))
        e_fb = _fb_steps_error(fb, "moreau-jean", h, exact, tmp)
        spath = f"{tmp}/sic_steps.csv"
        fbx = np.loadtxt(spath, delimiter=",", ndmin=2)
        n = min(len(fbx), len(sx))
        diff = float(np.max(np.abs(fbx[:n, 1] - sx[:n])))
        tr = median(ts) / median(tf)
        log(f"(c) h {h:g}: fricbench {median(tf):.3g}s, Siconos {median(ts):.3g}s, "
            f"ratio {tr:.1f}; errors {e_fb:.3e} / {e_sic:.3e}; largest difference of the "
            f"two at the step ends {diff:.2e} m")
        rows.append(Row(job="c moreau-jean, stick-slip", fricbench=f"moreau-jean h={h:g}",
                        peer=f"Siconos MoreauJeanOSI+Relay h={h:g}",
                        error=f"{e_fb:.3g} / {e_sic:.3g}", fb_s=median(tf),
                        peer_s=median(ts), time_ratio=tr, fb_error=e_fb, peer_error=e_sic,
                        goal="keep (74-80x), identical error",
                        met="yes" if tr >= 74 and abs(e_fb - e_sic) <= 1e-9 * max(e_fb, 1)
                        else "no", note=f"trajectories differ by {diff:.1e} m"))
    return rows


def job_d(fb, args, tmp, log, plugin, exact):
    hs = ([1e-2, 5e-3, 2e-3, 1e-3, 5e-4, 2e-4, 1e-4, 5e-5] if not args.quick
          else [5e-3, 1e-3, 2e-4, 1e-4])
    L = {s: dict(err=[], cpu=[]) for s in ("glowinski-lie", "siconos")}
    for h in hs:
        tf, ts = [], []
        for _ in range(args.repeats):
            ts.append(siconos_stick_slip_time(plugin, h)[0])
            tf.append(fb.run("stick-slip", "glowinski", "glowinski-lie", h=h)["cpu_s"])
        st, sx = siconos_stick_slip_steps(plugin, h)
        L["siconos"]["err"].append(float(np.max(np.abs(sx - exact(st)[0]))))
        L["siconos"]["cpu"].append(median(ts))
        L["glowinski-lie"]["err"].append(_fb_steps_error(fb, "glowinski", h, exact, tmp))
        L["glowinski-lie"]["cpu"].append(median(tf))
        log(f"(d) h {h:g}: glowinski-lie err {L['glowinski-lie']['err'][-1]:.3e} "
            f"cpu {median(tf):.3g}s; Siconos err {L['siconos']['err'][-1]:.3e} "
            f"cpu {median(ts):.3g}s")
    e = 1e-3
    fb_s = cost_at(L["glowinski-lie"]["err"], L["glowinski-lie"]["cpu"], e)
    sp_s = cost_at(L["siconos"]["err"], L["siconos"]["cpu"], e)
    ratios = [a / b for a, b in zip(L["glowinski-lie"]["err"], L["siconos"]["err"])]
    return [Row(job="d glowinski-lie, stick-slip", fricbench="glowinski-lie",
                peer="Siconos MoreauJeanOSI+Relay", error="1e-03 (step ends)", fb_s=fb_s,
                peer_s=sp_s, time_ratio=sp_s / fb_s,
                goal="documented as the method's, not the code's", met="documented",
                note=f"error at equal h {min(ratios):.0f}-{max(ratios):.0f}x Siconos's "
                     f"(h {hs[0]:g}..{hs[-1]:g})")], L


def chain_sim(plugin, n, h, T, k=100.0, mass=1.0, mu=0.3, g=9.81, v_d=0.1):
    K = np.zeros((n, n))
    for i in range(n):
        K[i, i] = 2 * k if i + 1 < n else k
        if i + 1 < n:
            K[i, i + 1] = K[i + 1, i] = -k
    ds = sk.LagrangianLinearTIDS(np.zeros(n), np.zeros(n), mass * np.eye(n))
    ds.setKPtr(K)
    ds.setzPtr(np.array([k * v_d]))
    ds.setComputeFExtFunction(plugin, "peers_chain_fext")
    return ds, _simulation(ds, n, mu * mass * g, h, T)


def job_e(fb, args, tmp, log, plugin):
    rows = []
    h = 1e-3
    cap = args.siconos_cap
    for n in (100, 1000):
        steps = 200 if n == 100 else 20
        T = steps * h
        tf = []
        sic = []
        for _ in range(args.repeats if n == 100 else 1):
            ds, sim = chain_sim(plugin, n, h, T)
            t0, k = cpu_clock(), 0
            while sim.hasNextEvent() and cpu_clock() - t0 < cap:
                sim.computeOneStep()
                sim.nextStep()
                k += 1
            sic.append((cpu_clock() - t0, k))
            # no output grid (samples = 2: the ends): Siconos records nothing either, and a
            # 1001-point grid on a run of 20 steps would cost 50 samples of n positions
            # per step, more than the step itself
            r = fb.run("chain", "moreau-jean", h=h, sets=[f"n={n}", f"T={T!r}"], samples=2)
            tf.append(r["cpu_s"] / r["nsteps"])
        fb_step = median(tf)
        done = [s for s in sic if s[1] == steps]
        gpath = f"{tmp}/chain_grid.csv"
        k_last = sic[-1][1]
        note = ""
        if k_last > 0:  # the two states after the steps Siconos made
            fb.run("chain", "moreau-jean", h=h, sets=[f"n={n}", f"T={k_last * h!r}"],
                   grid=gpath, samples=2)
            xf = np.loadtxt(gpath, delimiter=",")[-1, 1:n + 1]
            note = (f"x after {k_last} steps: largest difference "
                    f"{np.max(np.abs(xf - np.asarray(ds.q()))):.1e} m")
        if done:
            sp_step = median([s[0] / s[1] for s in done])
            tr = sp_step / fb_step
            met = "yes" if tr >= 500 else "no"
            peer_s = sp_step
        else:
            t, k = sic[-1]
            sp_step = t / k if k else math.nan
            tr = sp_step / fb_step
            peer_s = sp_step
            met = "no" if tr < 500 else "yes"
            note = f"Siconos did not finish {steps} steps in {cap:g} s ({k} done); " + note
        log(f"(e) chain n={n}: fricbench {fb_step * 1e6:.3g} us/step, Siconos "
            f"{sp_step * 1e6:.4g} us/step, ratio {tr:.0f}; {note}")
        rows.append(Row(job=f"e chain n={n}, per step", fricbench="moreau-jean h=1e-3",
                        peer="Siconos MoreauJeanOSI+Relay (one interaction)",
                        fb_s=fb_step, peer_s=peer_s, time_ratio=tr,
                        goal=">=500x" if n == 100 else "report", met=met if n == 100 else "-",
                        note=note))
    return rows


def run_jobs(fb, args, tmp, log, which):
    if not HAVE_SICONOS:
        log("Siconos (python3-siconos) is not installed: jobs c, d, e skipped")
        return [], {}
    plugin = build_plugin(tmp)
    exact = StickSlipExact()
    rows, extra = [], {}
    if "c" in which:
        rows += job_c(fb, args, tmp, log, plugin, exact)
    if "d" in which:
        r, extra["d"] = job_d(fb, args, tmp, log, plugin, exact)
        rows += r
    if "e" in which:
        rows += job_e(fb, args, tmp, log, plugin)
    return rows, extra
