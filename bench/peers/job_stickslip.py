"""Job (a): event-driven stick-slip, fricbench's switching/event (inner stepper dop853 or
rk8pd) against scipy's solve_ivp DOP853 with events, at matched error 1e-8 ... 1e-12
(docs/peers.md).  Also the closed-form reference the Moreau-Jean and Glowinski jobs use.

The scenario (scenarios/stick_slip.c; [ShourbagyMatuttis] eq. 3, Hairer et al. p. 198):

    y'' + 2 D y' + mu Sgn(y') + y = A cos(omega t),   m = k = 1, Fs = Fc = mu,

defaults D = 0.1, mu = 4, A = 2, omega = pi, y(0) = 3, y'(0) = 4, T = 10.
"""
import math

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

from peers_common import cost_at, cpu_clock, median, Row

P = dict(D=0.1, mu=4.0, A=2.0, omega=math.pi, y0=3.0, v0=4.0, T=10.0)


class StickSlipExact:
    """The closed form, phase by phase: in slip (sign s) the linear ODE
    y'' + 2D y' + y = A cos(w t) - s mu has the solution particular + e^{-D tau} (c1 cos
    wd tau + c2 sin wd tau), wd = sqrt(1 - D^2) (D < 1); a stop (y' = 0) sticks when
    |A cos(w t) - y| <= mu, else the motion reverses; a stick ends when |A cos(w t) - y|
    reaches mu.  Switch times by Brent's method to 1e-15 s on the closed forms, found by
    scanning each phase at 1e-3 s for a sign change."""

    def __init__(self, p=P):
        self.p = p
        D, w, A = p["D"], p["omega"], p["A"]
        det = (1 - w * w) ** 2 + (2 * D * w) ** 2
        self.Pc, self.Qc = A * (1 - w * w) / det, A * 2 * D * w / det
        self.wd = math.sqrt(1 - D * D)
        self.phases = []  # (t0, t1, s, c1, c2, ystick)
        self._build()

    def _part(self, t, s):
        w = self.p["omega"]
        return (-s * self.p["mu"] + self.Pc * math.cos(w * t) + self.Qc * math.sin(w * t),
                w * (-self.Pc * math.sin(w * t) + self.Qc * math.cos(w * t)))

    def _slip(self, ph, t):
        t0, _, s, c1, c2, _ = ph
        D, wd, w = self.p["D"], self.wd, self.p["omega"]
        tau = t - t0
        e, c, sn = np.exp(-D * tau), np.cos(wd * tau), np.sin(wd * tau)
        yp = -s * self.p["mu"] + self.Pc * np.cos(w * t) + self.Qc * np.sin(w * t)
        vp = w * (-self.Pc * np.sin(w * t) + self.Qc * np.cos(w * t))
        y = e * (c1 * c + c2 * sn) + yp
        v = e * ((-D * c1 + wd * c2) * c + (-D * c2 - wd * c1) * sn) + vp
        return y, v

    def _net(self, t, y):  # applied force at rest (damping 0): A cos(w t) - y
        return self.p["A"] * math.cos(self.p["omega"] * t) - y

    def _first_root(self, g, t0, T, dt=1e-3):
        a, ga = t0, g(t0)
        while a < T:
            b = min(a + dt, T)
            gb = g(b)
            if ga * gb <= 0 and gb != ga:
                return brentq(g, a, b, xtol=1e-15, rtol=8.9e-16, maxiter=200)
            a, ga = b, gb
        return None

    def _build(self):
        p, T = self.p, self.p["T"]
        t, y, v = 0.0, p["y0"], p["v0"]
        s = int(np.sign(v)) if v != 0 else 0
        if s == 0:
            f = self._net(t, y)
            s = 0 if abs(f) <= p["mu"] else int(np.sign(f))
        while t < T:
            if s == 0:
                ys = y
                gs = [lambda tt, k=k: self._net(tt, ys) - k * p["mu"] for k in (1, -1)]
                ends = [self._first_root(g, t + 1e-12, T) for g in gs]
                ends = [e for e in ends if e is not None]
                t1 = min(ends) if ends else T
                self.phases.append((t, t1, 0, 0.0, 0.0, ys))
                if not ends:
                    break
                t, v = t1, 0.0
                s = int(np.sign(self._net(t, ys)))
                continue
            yp, vp = self._part(t, s)
            c1 = y - yp
            c2 = (v - vp + p["D"] * c1) / self.wd
            ph = [t, T, s, c1, c2, 0.0]
            g = lambda tt: self._slip(ph, tt)[1]  # noqa: E731
            # v has the sign s just after t: a reversal starts at v = 0 with v' of sign s,
            # a release at v = 0 with v' = 0 (the net force is at its limit) and v'' of
            # sign s; the scan starts where s v > 0 is above round-off
            t_scan = t
            if v == 0:
                t_scan = next((t + d for d in (1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4)
                               if s * g(t + d) > 1e-13), t + 1e-3)
            t1 = self._first_root(g, t_scan, T)
            if t1 is None:
                self.phases.append(tuple(ph))
                break
            ph[1] = t1
            self.phases.append(tuple(ph))
            y, v, t = self._slip(ph, t1)[0], 0.0, t1
            f = self._net(t, y)
            s = 0 if abs(f) <= p["mu"] else int(np.sign(f))

    def __call__(self, ts):
        """Positions and velocities at the times ts."""
        ts = np.atleast_1d(np.asarray(ts, dtype=float))
        y, v = np.empty_like(ts), np.empty_like(ts)
        starts = np.array([ph[0] for ph in self.phases])
        idx = np.clip(np.searchsorted(starts, ts, side="right") - 1, 0, len(self.phases) - 1)
        for k, ph in enumerate(self.phases):
            m = idx == k
            if not m.any():
                continue
            if ph[2] == 0:
                y[m], v[m] = ph[5], 0.0
            else:
                y[m], v[m] = self._slip(ph, ts[m])
        return y, v


def scipy_stick_slip(tol, t_grid=None, p=P):
    """A user's script: solve_ivp(DOP853) per phase, events on v = 0 (slip) and on the
    stick-force limit (stick), restart in the other mode.  Returns (nfev, step times,
    step positions, grid positions or None)."""
    D, mu, A, w, T = p["D"], p["mu"], p["A"], p["omega"], p["T"]
    t, y = 0.0, np.array([p["y0"], p["v0"]])
    s = int(np.sign(y[1]))
    nfev, ts, xs, grid = 0, [], [], []

    def slip(tt, yy):
        return np.array([yy[1], A * math.cos(w * tt) - 2 * D * yy[1] - yy[0] - s * mu])

    def stick(tt, yy):
        return np.zeros(2)

    def stop(tt, yy):
        return yy[1]
    stop.terminal = True

    def up(tt, yy):
        return A * math.cos(w * tt) - yy[0] - mu
    up.terminal, up.direction = True, 1

    def down(tt, yy):
        return A * math.cos(w * tt) - yy[0] + mu
    down.terminal, down.direction = True, -1

    while t < T:
        # in stick the RHS is zero, so the error control lets steps grow without bound
        # and a sign change of the stick-force events inside one step goes unseen: the
        # script caps stick steps at an eighth of the forcing period
        if s == 0:
            fun, events, hmax = stick, [up, down], 0.25 * math.pi / w
        else:
            stop.direction = -s
            fun, events, hmax = slip, [stop], math.inf
        te = None if t_grid is None else t_grid[(t_grid >= t) & (t_grid <= T)]
        sol = solve_ivp(fun, (t, T), y, method="DOP853", rtol=tol, atol=tol, events=events,
                        t_eval=te, max_step=hmax)
        nfev += sol.nfev
        if t_grid is None:
            ts.append(sol.t)
            xs.append(sol.y[0])
        else:
            grid.append((sol.t, sol.y[0]))
        if sol.status != 1:
            break
        hit = [k for k, e in enumerate(sol.t_events) if len(e)]
        k = hit[0]
        t, y = sol.t_events[k][0], sol.y_events[k][0].copy()
        if s != 0:  # a stop: stick, or reverse
            y[1] = 0.0
            f = A * math.cos(w * t) - y[0]
            s = 0 if abs(f) <= mu else int(np.sign(f))
        else:  # the stick force reached its limit: slip in its direction
            s = 1 if k == 0 else -1
            y[1] = 0.0
        if t_grid is not None and len(grid[-1][0]) and grid[-1][0][-1] == t:
            grid[-1] = (grid[-1][0][:-1], grid[-1][1][:-1])  # the next phase gives t again
    if t_grid is None:
        return nfev, np.concatenate(ts), np.concatenate(xs), None
    gt = np.concatenate([g[0] for g in grid])
    gx = np.concatenate([g[1] for g in grid])
    _, first = np.unique(gt, return_index=True)
    return nfev, None, None, gx[first]


def _errors_fb(fb, exact, grid, stepper, tol, tmp):
    gpath, spath = f"{tmp}/ss_grid.csv", f"{tmp}/ss_steps.csv"
    r = fb.run("stick-slip", "switching", "event", stepper=stepper, tol=tol, grid=gpath,
               steps=spath)
    g = np.loadtxt(gpath, delimiter=",", ndmin=2)
    st = np.loadtxt(spath, delimiter=",", ndmin=2)
    e_grid = np.max(np.abs(g[:, 1] - exact(g[:, 0])[0]))
    e_steps = np.max(np.abs(st[:, 1] - exact(st[:, 0])[0]))
    return r, e_steps, e_grid


def run_job(fb, args, tmp, log):
    exact = StickSlipExact()
    grid = np.linspace(0.0, P["T"], 1001)
    # cross-check: the closed form against fricbench's event-driven truth (dop853, 1e-14)
    _, e_truth, e_truth_grid = _errors_fb(fb, exact, grid, "dop853", 1e-14, tmp)
    log(f"(a) closed form vs switching/event dop853 at 1e-14: {e_truth:.2e} at its step ends, "
        f"{e_truth_grid:.2e} on the grid; {len(exact.phases)} phases")
    tols = [10.0 ** -k for k in (range(6, 14) if not args.quick else (7, 8, 10, 12, 13))]
    ladders = {}
    for side in ("dop853", "rk8pd", "scipy", "dop853 no grid", "scipy no grid"):
        ladders[side] = dict(tol=[], nfe=[], cpu=[], e_steps=[], e_grid=[])
    for tol in tols:
        times = {k: [] for k in ladders}
        for _ in range(args.repeats):  # alternating: peer, fricbench (dop853), fricbench (rk8pd)
            t0 = cpu_clock()
            nfev_sp, _, _, _ = scipy_stick_slip(tol, grid)
            times["scipy"].append(cpu_clock() - t0)
            for st in ("dop853", "rk8pd"):
                times[st].append(fb.run("stick-slip", "switching", "event", stepper=st,
                                        tol=tol)["cpu_s"])
            # the same runs without the output grid: step ends only on both sides
            t0 = cpu_clock()
            nfev_sp0 = scipy_stick_slip(tol)[0]
            times["scipy no grid"].append(cpu_clock() - t0)
            r0 = fb.run("stick-slip", "switching", "event", stepper="dop853", tol=tol,
                        samples=2)
            times["dop853 no grid"].append(r0["cpu_s"])
        _, sts, sxs, _ = scipy_stick_slip(tol)
        _, _, _, sgx = scipy_stick_slip(tol, grid)
        L = ladders["scipy"]
        L["tol"].append(tol)
        L["nfe"].append(nfev_sp)
        L["cpu"].append(median(times["scipy"]))
        L["e_steps"].append(np.max(np.abs(sxs - exact(sts)[0])))
        L["e_grid"].append(np.max(np.abs(sgx - exact(grid)[0])))
        for st in ("dop853", "rk8pd"):
            r, es, eg = _errors_fb(fb, exact, grid, st, tol, tmp)
            L = ladders[st]
            L["tol"].append(tol)
            L["nfe"].append(r["nfe"])
            L["cpu"].append(median(times[st]))
            L["e_steps"].append(es)
            L["e_grid"].append(eg)
            if st == "dop853":  # the same steps without a grid: the same step-end error
                L0 = ladders["dop853 no grid"]
                L0["tol"].append(tol)
                L0["nfe"].append(r0["nfe"])
                L0["cpu"].append(median(times["dop853 no grid"]))
                L0["e_steps"].append(es)
                L0["e_grid"].append(math.nan)
        L0, L = ladders["scipy no grid"], ladders["scipy"]
        L0["tol"].append(tol)
        L0["nfe"].append(nfev_sp0)
        L0["cpu"].append(median(times["scipy no grid"]))
        L0["e_steps"].append(L["e_steps"][-1])
        L0["e_grid"].append(math.nan)
        log("(a) tol %.0e: " % tol + "; ".join(
            f"{k} rhs {ladders[k]['nfe'][-1]} cpu {ladders[k]['cpu'][-1]:.3g}s "
            f"err {ladders[k]['e_steps'][-1]:.2e}/{ladders[k]['e_grid'][-1]:.2e}"
            for k in ladders))
    rows = []
    for st in ("dop853", "rk8pd", "dop853 no grid"):
        F = ladders[st]
        S = ladders["scipy no grid" if "no grid" in st else "scipy"]
        for e in (1e-8, 1e-9, 1e-10, 1e-11, 1e-12):
            fb_s = cost_at(F["e_steps"], F["cpu"], e)
            sp_s = cost_at(S["e_steps"], S["cpu"], e)
            fb_n = cost_at(F["e_steps"], F["nfe"], e)
            sp_n = cost_at(S["e_steps"], S["nfe"], e)
            tr, rr = sp_s / fb_s, fb_n / sp_n
            met = (not math.isnan(tr)) and tr >= 100 and rr <= 1.1
            grid_note = ("no output grid on either side (step ends only)" if "no grid" in st
                         else "1001-point output grid on both sides")
            rows.append(Row(job="a stick-slip event-driven", fricbench=f"switching/event+{st}",
                            peer="scipy solve_ivp DOP853+events", error=f"{e:.0e} (step ends)",
                            note=grid_note,
                            fb_s=fb_s, peer_s=sp_s, time_ratio=tr, fb_rhs=fb_n, peer_rhs=sp_n,
                            rhs_ratio=rr, goal=">=100x, RHS<=1.1x",
                            met="yes" if met else "no"))
    # the output grid: at each tolerance, the grid error over the step-end error per side
    for k, tol in enumerate(ladders["scipy"]["tol"]):
        if tol not in (1e-8, 1e-10, 1e-12):
            continue
        S = ladders["scipy"]
        for side in ("dop853", "rk8pd"):
            L = ladders[side]
            q = L["e_grid"][k] / L["e_steps"][k]
            rows.append(Row(job="a' stick-slip output grid", fricbench=f"switching/event+{side}",
                            peer="scipy DOP853 (t_eval)", error=f"tol {tol:.0e}",
                            fb_error=L["e_grid"][k], peer_error=S["e_grid"][k],
                            note=f"grid / step-end error: fricbench {L['e_grid'][k]:.2g} / "
                                 f"{L['e_steps'][k]:.2g} = {q:.2g}, scipy "
                                 f"{S['e_grid'][k]:.2g} / {S['e_steps'][k]:.2g} = "
                                 f"{S['e_grid'][k] / S['e_steps'][k]:.2g}",
                            goal="grid error <= 2x the solver's", met="yes" if q <= 2 else "no"))
    return rows, ladders
