/* chain.c — a chain of n blocks on rough ground, the first driven through a spring by a point
 * moving at constant speed (docs/scenarios/chain.md; docs/design.md §5).
 *
 *     x_d(t) = v_d t --k-- block 1 --k-- block 2 --k-- ... --k-- block n
 *
 *     m x_1'' = k (v_d t - x_1) + k (x_2 - x_1) + F_1
 *     m x_i'' = k (x_{i-1} - x_i) + k (x_{i+1} - x_i) + F_i      (1 < i < n)
 *     m x_n'' = k (x_{n-1} - x_n) + F_n
 *     F_i in -mu m g Sgn(x_i')     (Coulomb, Fs = Fc = mu m g, ground at rest)
 *
 * So M = m I, K tridiagonal (2k on the diagonal but k in the last row, -k beside it; the
 * first row's 2k holds the drive spring and the first coupling), and the moving end of the
 * drive spring is the force f_1 = k v_d t on block 1.  The block-spring chain of the
 * Burridge–Knopoff type (Burridge & Knopoff, BSSA 57 (1967) 341, driven at one end here
 * rather than by a plate); parameters, drive and initial state are our reading
 * (docs/scenarios/chain.md).  Defaults: n = 10, m = 1, k = 100, mu = 0.3, g = 9.81,
 * v_d = 0.1, T = 10; initial rest at zero deflection.
 *
 * Store: the plant is dense for n <= FB_CHAIN_DENSE_MAX and banded (half-bandwidth 1,
 * docs/scenarios/chain.md "The banded plant") above, or as `store` says.
 * f_c = sqrt(4 k / m) / (2 pi) (the bound of the highest natural frequency of the free
 * chain, Gershgorin), velocity scale v_d.  Reference: event-driven for n <= 10; none built
 * in above (the doc gives the converged moreau-jean run and its cross-check).
 */
#include <math.h>
#include <stddef.h>

#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

#define FB_CHAIN_DENSE_MAX 64  /* store=auto: dense up to this n */
#define FB_CHAIN_EVENT_MAX 10  /* the event-driven reference up to this n */

enum { CHAIN_STORE_AUTO = 0, CHAIN_STORE_DENSE = 1, CHAIN_STORE_BANDED = 2 };
static const char *const chain_store_names[] = {"auto", "dense", "banded", NULL};

typedef struct chain_params {
  double n, m, k, mu, g, v_d, T, store;
} chain_params;

static const fb_param_desc chain_desc[] = {
    {"n", "1", "number of blocks (DOFs and contacts)", offsetof(chain_params, n), 10, 1, 1e5,
     FB_PARAM_INT, NULL, NULL},
    {"m", "kg", "mass of each block", offsetof(chain_params, m), 1, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"k", "N/m", "spring between neighbours and from the drive to block 1",
     offsetof(chain_params, k), 100, 0, INFINITY, 0, NULL, NULL},
    {"mu", "1", "friction coefficient of each block, Fs = Fc = mu m g",
     offsetof(chain_params, mu), 0.3, 0, INFINITY, 0, NULL, NULL},
    {"g", "m/s^2", "gravity (normal force m g)", offsetof(chain_params, g), 9.81, 0, INFINITY, 0,
     NULL, NULL},
    {"v_d", "m/s", "speed of the drive point, x_d(t) = v_d t", offsetof(chain_params, v_d), 0.1,
     -INFINITY, INFINITY, 0, NULL, NULL},
    {"T", "s", "end time", offsetof(chain_params, T), 10, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
    {"store", "-", "matrix store: auto (dense for n <= 64, else banded), dense, banded",
     offsetof(chain_params, store), CHAIN_STORE_AUTO, 0, 2, FB_PARAM_CHOICE, NULL,
     chain_store_names},
};
static const fb_param_set chain_set = {sizeof(chain_params), 8, chain_desc};

/* The drive spring's moving end: a force k v_d t on block 1 (N), zero on the others. */
static void chain_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  const chain_params *p = sp;
  const size_t n = (size_t)p->n;
  (void)x, (void)v;
  f[0] = p->k * p->v_d * t;
  for (size_t i = 1; i < n; i++)
    f[i] = 0.0;
}

static int chain_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const chain_params *p = sp;
  const size_t n = (size_t)p->n;
  const int banded = p->store == CHAIN_STORE_BANDED ||
                     (p->store == CHAIN_STORE_AUTO && n > FB_CHAIN_DENSE_MAX);
  if (!banded && n > FB_PLANT_MAX_N)
    return fb_err_set(err, FB_EINVAL,
                      "chain: store=dense with n = %zu: the dense store allows n <= %u (use "
                      "store=banded or auto)",
                      n, FB_PLANT_MAX_N);
  const int st = banded ? fb_plant_alloc_banded(pl, n, n > 1 ? 1 : 0, n, 0)
                        : fb_plant_alloc(pl, n, n, 0);
  if (st != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "chain: out of memory for n = %zu", n);
  const size_t w = pl->bw + 1;
  for (size_t i = 0; i < n; i++) {
    /* K_ii: the spring to the left (the drive's for block 1) and the one to the right */
    const double kii = i + 1 < n ? 2.0 * p->k : p->k;
    if (banded) {
      pl->Mb[i * w] = p->m;
      pl->Kb[i * w] = kii;
      if (i + 1 < n)
        pl->Kb[i * w + 1] = -p->k;
    } else {
      pl->M[i * n + i] = p->m;
      pl->K[i * n + i] = kii;
      if (i + 1 < n)
        pl->K[i * n + i + 1] = pl->K[(i + 1) * n + i] = -p->k;
    }
    pl->contact[i].dof = i;
    pl->contact[i].law = (fb_friction){FB_SHAPE_COULOMB, p->mu, p->mu, 1.0};
    pl->contact[i].c0 = (fb_contact_state){p->m * p->g, 0.0, 0.0};
  }
  pl->T = p->T;
  const double wmax = sqrt(4.0 * p->k / p->m);
  pl->f_c = wmax > 0 ? wmax / (2.0 * M_PI) : (double)NAN; /* k = 0: 1/T by default */
  pl->v_scale = fmax(fabs(p->v_d), 1e-3);
  pl->force = chain_force;
  return FB_OK;
}

static fb_ref_kind chain_ref_kind(const void *sp)
{
  const chain_params *p = sp;
  return p->n <= FB_CHAIN_EVENT_MAX ? FB_REF_EVENT : FB_REF_NONE;
}

const fb_scenario_type fb_scenario_chain = {
    .name = "chain",
    .title = "chain of n blocks on rough ground, the first driven through a spring at v_d",
    .source = "Burridge & Knopoff 1967 (block-spring chain); set-up docs/scenarios/chain.md",
    .params = &chain_set,
    .ref_kind = chain_ref_kind,
    .build = chain_build,
    .exact = NULL,
};
