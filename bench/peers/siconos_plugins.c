/* siconos_plugins.c — the external forces of the peers harness's Siconos models
 * (bench/peers/job_siconos.py compiles this file with the system's C compiler and
 * Siconos loads it as a plugin, LagrangianDS::setComputeFExtFunction): Siconos users write
 * time-dependent forces as C plugins, so the peer's step runs no Python.
 * Signature: Siconos's FExt plugin (time, size of q, fExt out, size of z, z). */
#include <math.h>

void peers_stick_slip_fext(double time, unsigned int n, double *fext, unsigned int nz,
                           double *z);
void peers_chain_fext(double time, unsigned int n, double *fext, unsigned int nz, double *z);

/* scenarios/stick_slip.c: f = A cos(omega t); z = (A, omega). */
void peers_stick_slip_fext(double time, unsigned int n, double *fext, unsigned int nz,
                           double *z)
{
  (void)n, (void)nz;
  fext[0] = z[0] * cos(z[1] * time);
}

/* scenarios/chain.c: the drive spring's moving end, f_1 = k v_d t, 0 on the others;
 * z = (k v_d). */
void peers_chain_fext(double time, unsigned int n, double *fext, unsigned int nz, double *z)
{
  (void)nz;
  fext[0] = z[0] * time;
  for (unsigned int i = 1; i < n; i++)
    fext[i] = 0.0;
}
