/* fb_kikuuwe_be.h — Kikuuwe et al.'s discrete-time friction for one contact and one fixed
 * step (R. Kikuuwe, N. Takesue, A. Sano, H. Mochiyama, H. Fujimoto, "Admittance and
 * impedance representations of friction based on implicit Euler integration", IEEE
 * Trans. Robotics 22(6) (2006) 1176-1188; [Xiong2013] §3.1; docs/design.md §3 M8, §11).
 *
 * What a fixed-step simulator (robot, haptics) calls once per step and per contact: no
 * allocation, no state but what the caller owns (the anchor p of the impedance form),
 * no fricbench type in the signatures.  Both are backward-Euler discretizations of the
 * Coulomb inclusion solved in closed form with Kikuuwe's Theorem 1 ([Xiong2013]:
 * y in Sgn(z - a y) <=> y = sat(z/a), a > 0), so both hold stick exactly at any step.
 * models/kikuuwe_be.c (the `kikuuwe-be` model) runs them.
 */
#ifndef FB_KIKUUWE_BE_H
#define FB_KIKUUWE_BE_H

/* Impedance form, step k: from the contact's relative position s_k and velocity v_k and
 * the anchor *p = p_{k-1} (a massless point dragged by the Coulomb element, tied to the
 * body by a spring K and a damper B):
 *     z_k = K (s_k - p_{k-1}) + B v_k,   F_k = -Fbar sat(z_k / Fbar),
 *     p_k = p_{k-1} + (z_k + F_k) / (K + B/h),
 * the backward-Euler step of the anchor's inclusion B (v - pdot) + K (s - p) in Fbar
 * Sgn(pdot).  Returns F_k, the friction force on the body to hold over the step;
 * *p = p_k on return.  *stick (may be NULL) = 1 when the anchor did not move
 * (|z_k| <= Fbar: p_k == p_{k-1} exactly).  K, B, h > 0, Fbar >= 0 (Fbar = 0: F = 0,
 * the anchor follows the body). */
double fb_kbe_impedance_step(double K, double B, double h, double Fbar, double s, double v,
                             double *p, int *stick);

/* Admittance form (one DOF of mass m, or a contact with effective mass m that no other
 * contact is coupled to): the implicit-Euler relay step of m (v_{k+1} - v_free)/h in
 * -Fs Sgn(v_{k+1}), v_free the relative velocity the step would reach without friction
 * (v_k + (h/m) f_other):
 *     v_{k+1} = v_free - (h/m) Fs sat(m v_free / (h Fs)).
 * Returns v_{k+1}, exactly 0 in stick (|m v_free| <= h Fs).  *F = the friction force on
 * the body over the step, m (v_{k+1} - v_free)/h (= -Fs sgn(v_free) in slip).  *stick
 * (may be NULL) = 1 in stick.  m, h > 0, Fs >= 0. */
double fb_kbe_relay_step(double m, double h, double Fs, double v_free, double *F, int *stick);

#endif
