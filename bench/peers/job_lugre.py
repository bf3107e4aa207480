"""Job (b): the stiff LuGre drift (model lugre on scenario drift, the case `fricbench
bench` sets CVODE against msbdf on), fricbench's msbdf and cvode-bdf against scipy's BDF
and LSODA with the analytic Jacobian, at matched error 1e-5 ... 1e-9 (docs/peers.md).

    x' = v,  m v' = f(t) + F,  z' = v - sigma0 |v| z / S(|v|),  F = -(sigma0 z + sigma1 z')

(models/lugre.c, Canudas de Wit et al. 1995), S(w) = Fc + (Fs - Fc) exp(-(w/vs)^2)
(core/fb_friction.c, Stribeck shape, N = 1), f(t) = b + a sin(2 pi freq t)
(scenarios/drift.c); m = 1, Fs = 1.5, Fc = 1, vs = 1e-3, b = 0.5, a = 0.4, freq = 1,
T = 10; sigma0 = m (2 pi 100 f_c)^2, sigma1 = 2 sqrt(sigma0 m) (the model's auto values,
f_c = freq); x = v = z = 0 at t = 0.
"""
import math

import numpy as np
from scipy.integrate import solve_ivp

from peers_common import cost_at, cpu_clock, median, Row

m, Fs, Fc, vs, b, a, freq, T = 1.0, 1.5, 1.0, 1e-3, 0.5, 0.4, 1.0, 10.0
sigma0 = m * (2 * math.pi * 100 * freq) ** 2
sigma1 = 2 * math.sqrt(sigma0 * m)
TRUTH_TOL = 1e-13  # fricbench's rk8pd, as `fricbench bench` (an explicit pair, neither BDF)


def rhs(t, y):
    x, v, z = y
    w = abs(v)
    S = Fc + (Fs - Fc) * math.exp(-(w / vs) ** 2)
    zd = v - sigma0 * w * z / S
    F = -(sigma0 * z + sigma1 * zd)
    return np.array([v, (b + a * math.sin(2 * math.pi * freq * t) + F) / m, zd])


def jac(t, y):
    x, v, z = y
    w = abs(v)
    r = w / vs
    e = math.exp(-r * r)
    S = Fc + (Fs - Fc) * e
    dS = -2.0 * (Fs - Fc) * r * e / vs
    sg = 1.0 if v > 0 else (-1.0 if v < 0 else 0.0)
    dzd_dz = -sigma0 * w / S
    dzd_dv = 1.0 - sigma0 * z * sg * (S - w * dS) / (S * S)
    return np.array([[0.0, 1.0, 0.0],
                     [0.0, -sigma1 * dzd_dv / m, -(sigma0 + sigma1 * dzd_dz) / m],
                     [0.0, dzd_dv, dzd_dz]])


def scipy_lugre(method, tol, grid):
    sol = solve_ivp(rhs, (0.0, T), np.zeros(3), method=method, rtol=tol, atol=tol, jac=jac,
                    t_eval=grid)
    if sol.status != 0:
        raise RuntimeError(f"scipy {method} at {tol}: {sol.message}")
    return sol.nfev, sol.njev, sol.y[0]


def run_job(fb, args, tmp, log):
    grid = np.linspace(0.0, T, 1001)
    gpath = f"{tmp}/lugre_grid.csv"
    fb.run("drift", "lugre", "rk8pd", tol=TRUTH_TOL, grid=gpath)
    truth = np.loadtxt(gpath, delimiter=",")[:, 1]
    _, _, x_radau = scipy_lugre("Radau", 1e-12, grid)
    log(f"(b) truth: fricbench rk8pd at {TRUTH_TOL:g}; scipy Radau at 1e-12 differs by "
        f"{np.max(np.abs(x_radau - truth)):.2e} m on the grid (max |x| "
        f"{np.max(np.abs(truth)):.2e} m)")
    tols = [10.0 ** -k for k in (range(4, 12) if not args.quick else (4, 6, 8, 10))]
    sides = ["msbdf", "cvode-bdf", "BDF", "LSODA"]
    L = {s: dict(nfe=[], cpu=[], err=[]) for s in sides}
    for tol in tols:
        times = {s: [] for s in sides}
        res = {}
        for _ in range(args.repeats):
            for s in sides:
                if s in ("BDF", "LSODA"):
                    t0 = cpu_clock()
                    res[s] = scipy_lugre(s, tol, grid)
                    times[s].append(cpu_clock() - t0)
                else:
                    r = fb.run("drift", "lugre", s, tol=tol)
                    times[s].append(r["cpu_s"])
        for s in sides:
            if s in ("BDF", "LSODA"):
                nfe, _, x = res[s]
            else:
                r = fb.run("drift", "lugre", s, tol=tol, grid=gpath)
                nfe, x = r["nfe"], np.loadtxt(gpath, delimiter=",")[:, 1]
            L[s]["nfe"].append(nfe)
            L[s]["cpu"].append(median(times[s]))
            L[s]["err"].append(float(np.max(np.abs(x - truth))))
        log("(b) tol %.0e: " % tol + "; ".join(
            f"{s} rhs {L[s]['nfe'][-1]} cpu {L[s]['cpu'][-1]:.3g}s err {L[s]['err'][-1]:.2e}"
            for s in sides))
    rows = []
    for fs in ("msbdf", "cvode-bdf"):
        for ps in ("BDF", "LSODA"):
            for e in (1e-5, 1e-6, 1e-7, 1e-8, 1e-9):
                fb_s, sp_s = cost_at(L[fs]["err"], L[fs]["cpu"], e), cost_at(L[ps]["err"],
                                                                               L[ps]["cpu"], e)
                fb_n, sp_n = cost_at(L[fs]["err"], L[fs]["nfe"], e), cost_at(L[ps]["err"],
                                                                               L[ps]["nfe"], e)
                tr, rr = sp_s / fb_s, fb_n / sp_n
                goal = ">=100x" + (", RHS<=1.0x LSODA" if ps == "LSODA" else "")
                met = tr >= 100 and (ps != "LSODA" or rr <= 1.0)
                rows.append(Row(job="b stiff LuGre drift", fricbench=fs,
                                peer=f"scipy {ps} (analytic Jacobian)", error=f"{e:.0e} (grid)",
                                fb_s=fb_s, peer_s=sp_s, time_ratio=tr, fb_rhs=fb_n,
                                peer_rhs=sp_n, rhs_ratio=rr, goal=goal,
                                met="-" if math.isnan(tr) else ("yes" if met else "no"),
                                note="" if ps != "LSODA" or math.isnan(rr) else
                                ("RHS part met" if rr <= 1.0 else "RHS part not met")))
    return rows, L
