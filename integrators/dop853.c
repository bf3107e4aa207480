/* dop853.c — Hairer's DOP853: the explicit Runge–Kutta method of Dormand and Prince of
 * order 8 with embedded 5th- and 3rd-order solutions for its error estimate ("8(5,3)") and a
 * 7th-order continuous extension ([HNW] Hairer, Nørsett & Wanner, Solving Ordinary
 * Differential Equations I, 2nd ed., §II.10 and §II.6; the coefficients of Hairer's
 * dop853.f), raised to order 8 by a bootstrap of five evaluations ([Enright1986]).
 * docs/integrators/dop853.md describes the method, its control and its tests.
 *
 * Two faces:
 *  - fb_step_dop853, a gsl_odeiv2_step_type (12 RHS per step given dydt_in): any scheme that
 *    takes a GSL step type by name runs it under GSL's control, with yerr the 8(5,3)
 *    estimate without weights, and fb_dop853_dense() gives its dense output;
 *  - the integrator `dop853` (fb_integrator_dop853), a stepper on the driver's contract with
 *    Hairer's own control: the weighted 8(5,3) error norm, safety 0.9, step ratio in
 *    [1/3, 6] (facmin, facmax), beta = 0 (no PI term), no growth right after a rejection,
 *    Hairer's initial step (hinit), and its dense output through fb_integrator_type.dense.
 *    Fixed step (--h) takes the 8th-order step without control.  First same as last: the
 *    derivative at a step's end is the next step's first stage, so an accepted step costs
 *    12 RHS; the dense output's extra evaluations (contd8's three stages, and f(t + h, y1)
 *    when neither a step after it nor the caller (fb_dop853_give_fsal) has evaluated it
 *    yet; the bootstrap's five) only for the steps that are sampled (counted in nfe).
 *    Stiffness detection (dop853.f's) is not implemented.
 * No allocation after alloc.
 */
#include "fb_dop853.h"

#include <float.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_system.h"

/* The coefficients of Hairer's dop853.f ([HNW] §II.10, 30 digits); row 12 (the FSAL stage
 * f(t + h, y1)) is b itself.  tests/test_dop853.c checks the order conditions of b (order
 * 8, all 200 trees), b - er (order 5) and bhh (order 3), and the row sums c_i = sum_j a_ij. */
const fb_dop853_tableau fb_dop853_tab = {
    .c = {
        0.0, 0.526001519587677318785587544488e-01, 0.789002279381515978178381316732e-01,
        0.118350341907227396726757197510e+00, 0.281649658092772603273242802490e+00,
        0.333333333333333333333333333333e+00, 0.25e+00,
        0.307692307692307692307692307692e+00, 0.651282051282051282051282051282e+00, 0.6e+00,
        0.857142857142857142857142857142e+00, 1.0, 1.0, 0.1e+00, 0.2e+00,
        0.777777777777777777777777777778e+00},
    .a = {
        /*  0 */ {0},
        /*  1 */ {5.26001519587677318785587544488e-2},
        /*  2 */ {
            1.97250569845378994544595329183e-2, 5.91751709536136983633785987549e-2},
        /*  3 */ {
            2.95875854768068491816892993775e-2, 0, 8.87627564304205475450678981324e-2},
        /*  4 */ {
            2.41365134159266685502369798665e-1, 0, -8.84549479328286085344864962717e-1,
            9.24834003261792003115737966543e-1},
        /*  5 */ {
            3.7037037037037037037037037037e-2, 0, 0, 1.70828608729473871279604482173e-1,
            1.25467687566822425016691814123e-1},
        /*  6 */ {
            3.7109375e-2, 0, 0, 1.70252211019544039314978060272e-1,
            6.02165389804559606850219397283e-2, -1.7578125e-2},
        /*  7 */ {
            3.70920001185047927108779319836e-2, 0, 0, 1.70383925712239993810214054705e-1,
            1.07262030446373284651809199168e-1, -1.53194377486244017527936158236e-2,
            8.27378916381402288758473766002e-3},
        /*  8 */ {
            6.24110958716075717114429577812e-1, 0, 0, -3.36089262944694129406857109825e0,
            -8.68219346841726006818189891453e-1, 2.75920996994467083049415600797e1,
            2.01540675504778934086186788979e1, -4.34898841810699588477366255144e1},
        /*  9 */ {
            4.77662536438264365890433908527e-1, 0, 0, -2.48811461997166764192642586468e0,
            -5.90290826836842996371446475743e-1, 2.12300514481811942347288949897e1,
            1.52792336328824235832596922938e1, -3.32882109689848629194453265587e1,
            -2.03312017085086261358222928593e-2},
        /* 10 */ {
            -9.3714243008598732571704021658e-1, 0, 0, 5.18637242884406370830023853209e0,
            1.09143734899672957818500254654e0, -8.14978701074692612513997267357e0,
            -1.85200656599969598641566180701e1, 2.27394870993505042818970056734e1,
            2.49360555267965238987089396762e0, -3.0467644718982195003823669022e0},
        /* 11 */ {
            2.27331014751653820792359768449e0, 0, 0, -1.05344954667372501984066689879e1,
            -2.00087205822486249909675718444e0, -1.79589318631187989172765950534e1,
            2.79488845294199600508499808837e1, -2.85899827713502369474065508674e0,
            -8.87285693353062954433549289258e0, 1.23605671757943030647266201528e1,
            6.43392746015763530355970484046e-1},
        /* 12 */ {
            5.42937341165687622380535766363e-2, 0, 0, 0, 0,
            4.45031289275240888144113950566e0, 1.89151789931450038304281599044e0,
            -5.8012039600105847814672114227e0, 3.1116436695781989440891606237e-1,
            -1.52160949662516078556178806805e-1, 2.01365400804030348374776537501e-1,
            4.47106157277725905176885569043e-2},
        /* 13 */ {
            5.61675022830479523392909219681e-2, 0, 0, 0, 0, 0,
            2.53500210216624811088794765333e-1, -2.46239037470802489917441475441e-1,
            -1.24191423263816360469010140626e-1, 1.5329179827876569731206322685e-1,
            8.20105229563468988491666602057e-3, 7.56789766054569976138603589584e-3,
            -8.298e-3},
        /* 14 */ {
            3.18346481635021405060768473261e-2, 0, 0, 0, 0,
            2.83009096723667755288322961402e-2, 5.35419883074385676223797384372e-2,
            -5.49237485713909884646569340306e-2, 0, 0, -1.08347328697249322858509316994e-4,
            3.82571090835658412954920192323e-4, -3.40465008687404560802977114492e-4,
            1.41312443674632500278074618366e-1},
        /* 15 */ {
            -4.28896301583791923408573538692e-1, 0, 0, 0, 0,
            -4.69762141536116384314449447206e0, 7.68342119606259904184240953878e0,
            4.06898981839711007970213554331e0, 3.56727187455281109270669543021e-1, 0, 0, 0,
            -1.39902416515901462129418009734e-3, 2.9475147891527723389556272149e0,
            -9.15095847217987001081870187138e0},
    },
    .b = {
        5.42937341165687622380535766363e-2, 0, 0, 0, 0, 4.45031289275240888144113950566e0,
        1.89151789931450038304281599044e0, -5.8012039600105847814672114227e0,
        3.1116436695781989440891606237e-1, -1.52160949662516078556178806805e-1,
        2.01365400804030348374776537501e-1, 4.47106157277725905176885569043e-2},
    .er = {
        0.1312004499419488073250102996e-01, 0, 0, 0, 0, -0.1225156446376204440720569753e+01,
        -0.4957589496572501915214079952e+00, 0.1664377182454986536961530415e+01,
        -0.3503288487499736816886487290e+00, 0.3341791187130174790297318841e+00,
        0.8192320648511571246570742613e-01, -0.2235530786388629525884427845e-01},
    .bhh = {
        0.244094488188976377952755905512e+00, 0, 0, 0, 0, 0, 0, 0,
        0.733846688281611857341361741547e+00, 0, 0, 0.220588235294117647058823529412e-01},
    .d = {
        {
            -0.84289382761090128651353491142e+01, 0, 0, 0, 0,
            0.56671495351937776962531783590e+00, -0.30689499459498916912797304727e+01,
            0.23846676565120698287728149680e+01, 0.21170345824450282767155149946e+01,
            -0.87139158377797299206789907490e+00, 0.22404374302607882758541771650e+01,
            0.63157877876946881815570249290e+00, -0.88990336451333310820698117400e-01,
            0.18148505520854727256656404962e+02, -0.91946323924783554000451984436e+01,
            -0.44360363875948939664310572000e+01},
        {
            0.10427508642579134603413151009e+02, 0, 0, 0, 0,
            0.24228349177525818288430175319e+03, 0.16520045171727028198505394887e+03,
            -0.37454675472269020279518312152e+03, -0.22113666853125306036270938578e+02,
            0.77334326684722638389603898808e+01, -0.30674084731089398182061213626e+02,
            -0.93321305264302278729567221706e+01, 0.15697238121770843886131091075e+02,
            -0.31139403219565177677282850411e+02, -0.93529243588444783865713862664e+01,
            0.35816841486394083752465898540e+02},
        {
            0.19985053242002433820987653617e+02, 0, 0, 0, 0,
            -0.38703730874935176555105901742e+03, -0.18917813819516756882830838328e+03,
            0.52780815920542364900561016686e+03, -0.11573902539959630126141871134e+02,
            0.68812326946963000169666922661e+01, -0.10006050966910838403183860980e+01,
            0.77771377980534432092869265740e+00, -0.27782057523535084065932004339e+01,
            -0.60196695231264120758267380846e+02, 0.84320405506677161018159903784e+02,
            0.11992291136182789328035130030e+02},
        {
            -0.25693933462703749003312586129e+02, 0, 0, 0, 0,
            -0.15418974869023643374053993627e+03, -0.23152937917604549567536039109e+03,
            0.35763911791061412378285349910e+03, 0.93405324183624310003907691704e+02,
            -0.37458323136451633156875139351e+02, 0.10409964950896230045147246184e+03,
            0.29840293426660503123344363579e+02, -0.43533456590011143754432175058e+02,
            0.96324553959188282948394950600e+02, -0.39177261675615439165231486172e+02,
            -0.14972683625798562581422125276e+03},
    },
};

/* ---------------------------------------------------------------------------------- */
/* The GSL step type.                                                                  */

/* Stages k_j (j = 0..15, dim each), the step's start and end, and the dense output's
 * terms 5..8 once computed. */
typedef struct dop_state {
  size_t dim;
  double *k;                   /* 16 dim: k[j dim + i] = stage j, component i */
  double *y0, *y1, *ytmp;      /* dim each: step start, 8th-order end, a stage's argument */
  double *e5, *e3;             /* dim each: sum er_j k_j, sum (b_j - bhh_j) k_j */
  double *rc;                  /* 4 dim: dense output terms 5..8 (h times the d sums) */
  double *rb;                  /* 5 dim: the bootstrap's defects at its nodes (below) */
  double *fb;                  /* dim: f at a bootstrap node */
  double t, h;                 /* the last step made: from t, of h */
  int have_step;               /* k[0..11], y0, y1 hold the step [t, t + h] */
  int have_fsal;               /* k[12] = f(t + h, y1) */
  int have_dense;              /* k[13..15] and rc computed */
  int have_boot;               /* rb computed */
} dop_state;

/* Doubles per dimension: k (16), y0, y1, ytmp, e5, e3, rc (4), rb (5), fb. */
#define DOP_NVEC 31

static void *dop_alloc(size_t dim)
{
  dop_state *s = calloc(1, sizeof *s);
  if (s == NULL)
    return NULL;
  s->k = calloc(DOP_NVEC * dim, sizeof(double));
  if (s->k == NULL) {
    free(s);
    return NULL;
  }
  s->dim = dim;
  s->y0 = s->k + 16 * dim;
  s->y1 = s->y0 + dim;
  s->ytmp = s->y1 + dim;
  s->e5 = s->ytmp + dim;
  s->e3 = s->e5 + dim;
  s->rc = s->e3 + dim;
  s->rb = s->rc + 4 * dim;
  s->fb = s->rb + 5 * dim;
  return s;
}

static void dop_free(void *vs)
{
  dop_state *s = vs;
  if (s == NULL)
    return;
  free(s->k);
  free(s);
}

static int dop_reset(void *vs, size_t dim)
{
  dop_state *s = vs;
  memset(s->k, 0, DOP_NVEC * dim * sizeof(double));
  s->have_step = s->have_fsal = s->have_dense = s->have_boot = 0;
  return GSL_SUCCESS;
}

static unsigned int dop_order(void *vs)
{
  (void)vs;
  return 8;
}

static int dop_set_driver(void *vs, const gsl_odeiv2_driver *d)
{
  (void)vs, (void)d;
  return GSL_SUCCESS;
}

/* out = y0 + h sum_{l < j} a_jl k_l: the argument of stage j. */
static void dop_argument(const dop_state *s, int j, double h, double *out)
{
  const size_t dim = s->dim;
  const double *a = fb_dop853_tab.a[j];
  memset(out, 0, dim * sizeof(double));
  for (int l = 0; l < j; l++) {
    const double al = a[l];
    if (al == 0.0)
      continue;
    const double *kl = s->k + (size_t)l * dim;
    for (size_t i = 0; i < dim; i++)
      out[i] += al * kl[i];
  }
  for (size_t i = 0; i < dim; i++)
    out[i] = s->y0[i] + h * out[i];
}

/* Stages 1..11 of the step of h from (t, y0), k[0] = f(t, y0) given; then y1 (order 8,
 * [HNW] §II.10) and the error vectors e5, e3 (dop853.f's err and err2 sums). */
static int dop_stages(dop_state *s, double t, double h, const gsl_odeiv2_system *sys)
{
  const fb_dop853_tableau *tb = &fb_dop853_tab;
  const size_t dim = s->dim;
  s->have_step = s->have_fsal = s->have_dense = s->have_boot = 0;
  for (int j = 1; j < 12; j++) {
    dop_argument(s, j, h, s->ytmp);
    const int st = GSL_ODEIV_FN_EVAL(sys, t + tb->c[j] * h, s->ytmp, s->k + (size_t)j * dim);
    if (st != GSL_SUCCESS)
      return st;
  }
  for (size_t i = 0; i < dim; i++) {
    double sb = 0.0, s5 = 0.0, s3 = 0.0;
    for (int j = 0; j < 12; j++) {
      const double kj = s->k[(size_t)j * dim + i];
      sb += tb->b[j] * kj;
      s5 += tb->er[j] * kj;
      s3 += (tb->b[j] - tb->bhh[j]) * kj;
    }
    s->y1[i] = s->y0[i] + h * sb;
    s->e5[i] = s5;
    s->e3[i] = s3;
  }
  s->t = t;
  s->h = h;
  s->have_step = 1;
  return GSL_SUCCESS;
}

/* GSL's step: y advanced by h, yerr = h e5 sqrt(E5 / (E5 + 0.01 E3)) with E the plain sums
 * of squares, the 8(5,3) estimate of dop853.f without its weights (GSL's control weighs). */
static int dop_apply(void *vs, size_t dim, double t, double h, double y[], double yerr[],
                     const double dydt_in[], double dydt_out[], const gsl_odeiv2_system *sys)
{
  dop_state *s = vs;
  memcpy(s->y0, y, dim * sizeof(double));
  int st;
  if (dydt_in != NULL)
    memcpy(s->k, dydt_in, dim * sizeof(double));
  else if ((st = GSL_ODEIV_FN_EVAL(sys, t, y, s->k)) != GSL_SUCCESS)
    return st;
  if ((st = dop_stages(s, t, h, sys)) != GSL_SUCCESS)
    return st;
  double E5 = 0.0, E3 = 0.0;
  for (size_t i = 0; i < dim; i++) {
    E5 += s->e5[i] * s->e5[i];
    E3 += s->e3[i] * s->e3[i];
  }
  const double deno = E5 + 0.01 * E3;
  const double scale = deno > 0.0 ? h * sqrt(E5 / deno) : 0.0;
  /* an overflowing step: an infinite error, which GSL's control refuses (a NaN it would
   * take for small) */
  const int finite = isfinite(E5) && isfinite(E3);
  for (size_t i = 0; i < dim; i++)
    yerr[i] = finite ? scale * s->e5[i] : HUGE_VAL;
  if (dydt_out != NULL) {
    double *k12 = s->k + 12 * dim;
    if ((st = GSL_ODEIV_FN_EVAL(sys, t + h, s->y1, k12)) != GSL_SUCCESS)
      return st; /* y unchanged */
    memcpy(dydt_out, k12, dim * sizeof(double));
    s->have_fsal = 1;
  }
  memcpy(y, s->y1, dim * sizeof(double));
  return GSL_SUCCESS;
}

static const gsl_odeiv2_step_type dop_type = {
    "dop853", 1 /* can use dydt_in */, 1 /* gives exact dydt_out */,
    dop_alloc, dop_apply, dop_set_driver, dop_reset, dop_order, dop_free};

const gsl_odeiv2_step_type *fb_step_dop853 = &dop_type;

int fb_dop853_span(const void *gsl_state, double *ta, double *tb)
{
  const dop_state *s = gsl_state;
  if (!s->have_step)
    return GSL_EDOM;
  *ta = s->t;
  *tb = s->t + s->h;
  return GSL_SUCCESS;
}

/* dop853.f's contd8 at theta = (t - t_n)/h in [0, 1] (theta1 = 1 - theta):
 *   u(theta) = y0 + theta (dy + theta1 (bspl + theta (c4 + theta1 (c5 + theta (c6 + theta1
 *              (c7 + theta c8)))))),
 * dy = y1 - y0, bspl = h f0 - dy, c4 = dy - h f1 - bspl, c5..c8 = rc: a polynomial of degree
 * 7 in theta that matches y0, y1, f0 and f1 and is of order 7 ([HNW] §II.6).  With du
 * non-NULL also du/dtheta (= h u'(t)), the nested form differentiated term by term. */
static void dop_contd8(const dop_state *s, double th, double *u, double *du)
{
  const size_t dim = s->dim;
  const double h = s->h, th1 = 1.0 - th;
  const double *f0 = s->k, *f1 = s->k + 12 * dim;
  const double *c5 = s->rc, *c6 = c5 + dim, *c7 = c6 + dim, *c8 = c7 + dim;
  for (size_t i = 0; i < dim; i++) {
    const double dy = s->y1[i] - s->y0[i], bspl = h * f0[i] - dy;
    const double c4 = dy - h * f1[i] - bspl;
    const double a7 = c7[i] + th * c8[i];
    const double a6 = c6[i] + th1 * a7;
    const double a5 = c5[i] + th * a6;
    const double a4 = c4 + th1 * a5;
    const double a3 = bspl + th * a4;
    const double a2 = dy + th1 * a3;
    u[i] = s->y0[i] + th * a2;
    if (du != NULL) {
      const double d6 = -a7 + th1 * c8[i], d5 = a6 + th * d6, d4 = -a5 + th1 * d5;
      const double d3 = a4 + th * d4, d2 = -a3 + th1 * d3;
      du[i] = a2 + th * d2;
    }
  }
}

/* The bootstrap that raises the dense output from order 7 to the method's order 8
 * ([Enright1986]: Enright, Jackson, Nørsett & Thomsen, "Interpolants for Runge-Kutta
 * formulas", ACM TOMS 12 (1986), their bootstrapping).  contd8's u errs by O(h^8) inside
 * the step, so f(t + s h, u(s)) is the derivative there to O(h^8); five such values at the
 * nodes s_j below, with y0, y1, f0 and f1, determine a polynomial p of degree 8 (p(0) = y0,
 * p(1) = y1, p' = h f at theta = 0, s_1..s_5, 1) whose error is O(h^9), that of the step.
 * As u itself meets the four end conditions, p = u + sum_j L_j(theta) r_j with the defects
 * r_j = h f(t + s_j h, u(s_j)) - u'(s_j) (O(h^9): no cancellation in the sum) and L_j the
 * cardinal polynomials of the nodes (L_j(0) = L_j(1) = L_j'(0) = L_j'(1) = 0, L_j'(s_k) =
 * delta_jk).  Nodes: among 1/20 .. 19/20, the five with the smallest sum_j |L_j| over the
 * step (0.43: a defect's error is not amplified), not symmetric about 1/2 (symmetric ones
 * make the problem singular); coefficients exact rationals, to 30 digits. */
static const double dop_boot_node[5] = {0.05, 0.15, 0.3, 0.75, 0.9};
/* dop_boot_L[j][p]: the coefficient of theta^(p + 2) in L_j. */
static const double dop_boot_L[5][7] = {
    {2.399641242889967429618991445750e+01, -2.484322714965318539270811015740e+02,
     1.063315020488297932388377375901e+03, -2.338335940281118837447138503194e+03,
     2.772243171979960152384592220187e+03, -1.684555722160494497074978426099e+03,
     4.117693290409873725366196595132e+02},
    {-7.763886042221766814463990158401e+00, 1.469621127583824886642105411738e+02,
     -7.539738713913749279527110047638e+02, 1.759657084152540846844203770161e+03,
     -2.116138957841492356237722560763e+03, 1.280974901252280460539623163640e+03,
     -3.097173828881145709601696580648e+02},
    {3.415463746474199258074122553808e+00, -7.350668903514431917756155598909e+01,
     5.029217594897037315604393370450e+02, -1.452177628654593490864499472082e+03,
     2.038792511885814292327268049121e+03, -1.385698513069786713458597660065e+03,
     3.662530956375323398788168560714e+02},
    {1.077020076323212283142538581160e+00, -2.418287090807416106486016360577e+01,
     1.815066865770698427695606369525e+02, -6.017240704893821430232492275536e+02,
     9.589158252882604074329719878733e+02, -7.242339513342222971914452500641e+02,
     2.086413607900251463433960452676e+02},
    {2.617795085513880404270992130478e-01, -5.715677418212090188376350852195e+00,
     4.019062548235192622314571053721e+01, -1.178577206251365367961625452153e+02,
     1.528917498947787407814757898450e+02, -8.596512980380347812570107635111e+01,
     1.619437296147004445856509846635e+01},
};

/* contd8's stages (13..15, and the FSAL stage 12 when the step did not evaluate it) and
 * its terms 5..8 (dop853.f's cont(5..8)). */
static int dop_dense_prepare(dop_state *s, const gsl_odeiv2_system *sys)
{
  const fb_dop853_tableau *tb = &fb_dop853_tab;
  const size_t dim = s->dim;
  const double t = s->t, h = s->h;
  int st;
  if (!s->have_fsal) {
    if ((st = GSL_ODEIV_FN_EVAL(sys, t + h, s->y1, s->k + 12 * dim)) != GSL_SUCCESS)
      return st;
    s->have_fsal = 1;
  }
  for (int j = 13; j < 16; j++) {
    dop_argument(s, j, h, s->ytmp);
    if ((st = GSL_ODEIV_FN_EVAL(sys, t + tb->c[j] * h, s->ytmp, s->k + (size_t)j * dim)) !=
        GSL_SUCCESS)
      return st;
  }
  for (int r = 0; r < 4; r++) {
    double *rc = s->rc + (size_t)r * dim;
    memset(rc, 0, dim * sizeof(double));
    for (int j = 0; j < 16; j++) {
      const double dj = tb->d[r][j];
      if (dj == 0.0)
        continue;
      const double *kj = s->k + (size_t)j * dim;
      for (size_t i = 0; i < dim; i++)
        rc[i] += dj * kj[i];
    }
    for (size_t i = 0; i < dim; i++)
      rc[i] *= h;
  }
  s->have_dense = 1;
  return GSL_SUCCESS;
}

/* The bootstrap's five evaluations on contd8 and their defects r_j (rb). */
static int dop_boot_prepare(dop_state *s, const gsl_odeiv2_system *sys)
{
  const size_t dim = s->dim;
  double *u = s->ytmp, *f = s->fb;
  for (int j = 0; j < 5; j++) {
    double *r = s->rb + (size_t)j * dim;
    dop_contd8(s, dop_boot_node[j], u, r);
    const int st = GSL_ODEIV_FN_EVAL(sys, s->t + dop_boot_node[j] * s->h, u, f);
    if (st != GSL_SUCCESS)
      return st;
    for (size_t i = 0; i < dim; i++)
      r[i] = s->h * f[i] - r[i];
  }
  s->have_boot = 1;
  return GSL_SUCCESS;
}

/* theta of t in the last step, or NaN when there is none or t lies outside it (beyond a
 * few ulps of its ends). */
static double dop_theta(const dop_state *s, double t)
{
  if (!s->have_step)
    return (double)NAN;
  const double th = s->h != 0.0 ? (t - s->t) / s->h : 1.0;
  return th >= -1e-12 && th <= 1.0 + 1e-12 ? th : (double)NAN;
}

int fb_dop853_dense7(void *gsl_state, const gsl_odeiv2_system *sys, double t, double *y)
{
  dop_state *s = gsl_state;
  const double th = dop_theta(s, t);
  if (isnan(th))
    return GSL_EDOM;
  if (!s->have_dense) {
    const int st = dop_dense_prepare(s, sys);
    if (st != GSL_SUCCESS)
      return st;
  }
  dop_contd8(s, th, y, NULL);
  return GSL_SUCCESS;
}

int fb_dop853_dense(void *gsl_state, const gsl_odeiv2_system *sys, double t, double *y)
{
  dop_state *s = gsl_state;
  const double th = dop_theta(s, t);
  if (isnan(th))
    return GSL_EDOM;
  int st = s->have_dense ? GSL_SUCCESS : dop_dense_prepare(s, sys);
  if (st == GSL_SUCCESS && !s->have_boot)
    st = dop_boot_prepare(s, sys);
  if (st != GSL_SUCCESS)
    return st;
  dop_contd8(s, th, y, NULL);
  double L[5];
  for (int j = 0; j < 5; j++) {
    const double *c = dop_boot_L[j];
    double q = c[6];
    for (int p = 5; p >= 0; p--)
      q = c[p] + th * q;
    L[j] = th * th * q;
  }
  const size_t dim = s->dim;
  for (size_t i = 0; i < dim; i++)
    for (int j = 0; j < 5; j++)
      y[i] += L[j] * s->rb[(size_t)j * dim + i];
  return GSL_SUCCESS;
}

/* ---------------------------------------------------------------------------------- */
/* The integrator `dop853`: a stepper with Hairer's control.                            */

/* dop853.f's defaults ([HNW] §II.4, eq. (4.13) with these bounds). */
#define DOP_SAFE 0.9
#define DOP_FACMIN (1.0 / 3.0) /* smallest step ratio h_new / h */
#define DOP_FACMAX 6.0         /* largest */
#define DOP_BETA 0.0           /* no PI term: fac = err^(1/8) alone */

typedef struct dop_ws {
  const fb_problem *pb;
  fb_system sys;
  fb_int_opts o;
  dop_state *s;
  int fixed;          /* 1: fixed step o.h, no control */
  fb_dop853_ctl ctl;  /* the control's tolerances, next step and last refusal */
  int k0;             /* where f(t, y) of the current state is: 0 nowhere, 1 k[0], 2 k[12] */
  double ta, tb;      /* the last accepted step, as reported to the driver */
  int have_last;      /* ta, tb (and the state's stages) are that step */
} dop_ws;

static void dop_ws_free(void *wsv)
{
  dop_ws *w = wsv;
  if (w == NULL)
    return;
  dop_free(w->s);
  fb_system_free(&w->sys);
  free(w);
}

static int dop_ws_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                        const fb_int_opts *o, fb_err *err)
{
  (void)type;
  dop_ws *w = calloc(1, sizeof *w);
  if (w == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  w->pb = pb;
  w->o = *o;
  w->fixed = isfinite(o->h);
  const int st = fb_system_alloc(&w->sys, pb, o->max_rhs);
  w->s = dop_alloc(pb->dim);
  if (st != FB_OK || w->s == NULL) {
    dop_ws_free(w);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  w->ctl = (fb_dop853_ctl){o->atol, o->rtol, o->hmax, (double)NAN, 0};
  *out = w;
  return FB_OK;
}

/* As gsl_ode.c words a refused evaluation, so that runs.csv reads the same. */
static int dop_failure(const dop_ws *w, int gsl_status, double t, fb_err *err)
{
  if (w->sys.stop == FB_BUDGET)
    return fb_err_set(err, FB_BUDGET, "RHS budget of %lu evaluations exhausted at t=%.17g",
                      w->o.max_rhs, t);
  if (w->sys.stop != FB_OK)
    return fb_err_set(err, w->sys.stop, "model %s failed at t=%.17g: %s",
                      w->pb->model->type->name, w->sys.stop_t, fb_status_message(w->sys.stop));
  return fb_err_set(err, FB_EGSL, "dop853: evaluation failed (%d) at t=%.17g", gsl_status, t);
}

/* At t0 and at every forcing break: the right-hand side changes, so f(t, y) is evaluated
 * afresh (the step size is kept across breaks; at t0 Hairer's initial step). */
static int dop_ws_reset(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  (void)y, (void)err;
  dop_ws *w = wsv;
  const double t = at->t;
  w->sys.cnt = cnt;
  w->sys.stop = FB_OK;
  w->sys.seg_t0 = t > w->pb->plant->t0 ? t : -(double)INFINITY;
  if (at->seg == 0)
    w->ctl.h = (double)NAN;
  w->ctl.reject = 0;
  w->k0 = 0;
  w->have_last = 0;
  return FB_OK;
}

/* Sum of squares of v scaled by dop853.f's sk = atol + rtol max(|y0|, |y1|) (y1 NULL: |y0|). */
static double dop_wnorm2(const dop_state *s, const fb_dop853_ctl *ctl, const double *v,
                         const double *y0, const double *y1)
{
  double sum = 0.0;
  for (size_t i = 0; i < s->dim; i++) {
    const double yi = y1 != NULL ? fmax(fabs(y0[i]), fabs(y1[i])) : fabs(y0[i]);
    const double q = v[i] / (ctl->atol + ctl->rtol * yi);
    sum += q * q;
  }
  return sum;
}

/* dop853.f's hinit for order 8: h from |y| / |f| and an estimate of the second derivative
 * by one explicit Euler step (one RHS), bounded by hbound.  k[0] = f(t, y) given. */
static int dop_hinit(dop_state *s, const gsl_odeiv2_system *sys, const fb_dop853_ctl *ctl,
                     double t, const double *y, double hbound, double *h_out)
{
  const size_t dim = s->dim;
  const double *f0 = s->k;
  const double dnf = dop_wnorm2(s, ctl, f0, y, NULL), dny = dop_wnorm2(s, ctl, y, y, NULL);
  double h = (dnf <= 1e-10 || dny <= 1e-10) ? 1e-6 : 0.01 * sqrt(dny / dnf);
  h = fmin(h, hbound);
  double *y1 = s->ytmp, *f1 = s->k + 12 * dim;
  for (size_t i = 0; i < dim; i++)
    y1[i] = y[i] + h * f0[i];
  const int st = GSL_ODEIV_FN_EVAL(sys, t + h, y1, f1);
  if (st != GSL_SUCCESS)
    return st;
  for (size_t i = 0; i < dim; i++)
    y1[i] = f1[i] - f0[i];
  const double der2 = sqrt(dop_wnorm2(s, ctl, y1, y, NULL)) / h;
  const double der12 = fmax(fabs(der2), sqrt(dnf));
  const double h1 = der12 <= 1e-15 ? fmax(1e-6, h * 1e-3) : pow(0.01 / der12, 1.0 / 8.0);
  *h_out = fmin(fmin(100.0 * h, h1), hbound);
  return GSL_SUCCESS;
}

/* dop853.f's error: err = |h| E5 / sqrt(dim (E5 + 0.01 E3)), E the weighted sums of squares
 * of e5 and e3 ([HNW] §II.10, the 8(5,3) estimate). */
static double dop_error(const dop_state *s, const fb_dop853_ctl *ctl, double h)
{
  const double E5 = dop_wnorm2(s, ctl, s->e5, s->y0, s->y1);
  const double E3 = dop_wnorm2(s, ctl, s->e3, s->y0, s->y1);
  double deno = E5 + 0.01 * E3;
  if (deno <= 0.0)
    deno = 1.0;
  return fabs(h) * E5 * sqrt(1.0 / ((double)s->dim * deno));
}

/* The step to try from t towards t1: the proposed one (Hairer's initial step the first
 * time), at most hmax, stretched or shortened onto t1 when within 1% of it (dop853.f). */
static int dop_plan(dop_state *s, const gsl_odeiv2_system *sys, fb_dop853_ctl *ctl, double t,
                    double t1, const double *y, double *h, int *lands)
{
  const double room = t1 - t;
  if (isnan(ctl->h)) {
    const int st = dop_hinit(s, sys, ctl, t, y, fmin(ctl->hmax, room), &ctl->h);
    if (st != GSL_SUCCESS)
      return st;
  }
  *h = fmin(ctl->h, ctl->hmax);
  *lands = t + 1.01 * *h >= t1;
  if (*lands)
    *h = room;
  return GSL_SUCCESS;
}

/* Hairer's control after an attempt with error err ([HNW] §II.4 (4.13); dop853.f): the
 * next step, and 1 when accepted. */
static int dop_control(fb_dop853_ctl *ctl, double h, double err)
{
  const double fac11 = pow(err, 1.0 / 8.0 - DOP_BETA * 0.2);
  if (!(err <= 1.0)) { /* refused (a non-finite err too: by 1/facmin) */
    ctl->h = h / fmin(1.0 / DOP_FACMIN, fac11 / DOP_SAFE);
    ctl->reject = 1;
    return 0;
  }
  const double fac = fmax(1.0 / DOP_FACMAX, fmin(1.0 / DOP_FACMIN, fac11 / DOP_SAFE));
  double hnew = h / fac;
  if (ctl->reject)
    hnew = fmin(hnew, h);
  ctl->h = hnew;
  ctl->reject = 0;
  return 1;
}

int fb_dop853_evolve(void *gsl_state, const gsl_odeiv2_system *sys, fb_dop853_ctl *ctl,
                     double *t, double t1, double *y, const double *f0,
                     unsigned long *nrejected)
{
  dop_state *s = gsl_state;
  const size_t dim = s->dim;
  const double t0 = *t;
  int st = GSL_SUCCESS;
  if (f0 != NULL)
    memcpy(s->k, f0, dim * sizeof(double));
  else
    st = GSL_ODEIV_FN_EVAL(sys, t0, y, s->k);
  memcpy(s->y0, y, dim * sizeof(double));
  for (int accepted = 0; st == GSL_SUCCESS && !accepted;) {
    double h;
    int lands;
    if ((st = dop_plan(s, sys, ctl, t0, t1, y, &h, &lands)) != GSL_SUCCESS)
      break;
    if (!(h > 4.0 * DBL_EPSILON * fabs(t0)))
      return GSL_FAILURE;
    if ((st = dop_stages(s, t0, h, sys)) != GSL_SUCCESS)
      break;
    accepted = dop_control(ctl, h, dop_error(s, ctl, h));
    if (!accepted)
      ++*nrejected;
    else
      *t = lands ? t1 : t0 + h;
  }
  if (st == GSL_SUCCESS)
    memcpy(y, s->y1, dim * sizeof(double));
  return st;
}

int fb_dop853_give_fsal(void *gsl_state, double t, const double *f)
{
  dop_state *s = gsl_state;
  if (!s->have_step || s->have_fsal || s->t + s->h != t)
    return 0;
  memcpy(s->k + 12 * s->dim, f, s->dim * sizeof(double));
  s->have_fsal = 1;
  return 1;
}

static int dop_ws_step(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  dop_ws *w = wsv;
  dop_state *s = w->s;
  const gsl_odeiv2_system *sys = &w->sys.gsys;
  const size_t dim = w->pb->dim;
  const double T = w->pb->plant->T, t = at->t;
  w->sys.seg_t1 = at->t1 < T ? at->t1 : (double)INFINITY;
  w->have_last = 0;
  int st = GSL_SUCCESS;
  if (w->k0 == 2)
    memcpy(s->k, s->k + 12 * dim, dim * sizeof(double));
  else if (w->k0 == 0)
    st = GSL_ODEIV_FN_EVAL(sys, t, y, s->k);
  if (st != GSL_SUCCESS)
    return dop_failure(w, st, t, err);
  w->k0 = 1;
  double h = at->dt;
  int lands = at->last;
  if (!w->fixed && (st = dop_plan(s, sys, &w->ctl, t, at->t1, y, &h, &lands)) != GSL_SUCCESS)
    return dop_failure(w, st, t, err);
  if (!(h > 4.0 * DBL_EPSILON * fabs(t)))
    return fb_err_set(err, FB_ESOLVE, "dop853: step size %g too small at t=%.17g", h, t);
  memcpy(s->y0, y, dim * sizeof(double));
  if ((st = dop_stages(s, t, h, sys)) != GSL_SUCCESS)
    return dop_failure(w, st, t, err);
  if (!w->fixed && !dop_control(&w->ctl, h, dop_error(s, &w->ctl, h))) {
    at->rejected = 1;
    cnt->nrejected++;
    return FB_OK;
  }
  at->tnew = w->fixed ? at->tnew : (lands ? at->t1 : t + h);
  memcpy(y, s->y1, dim * sizeof(double));
  /* f(t_new, y1) is the next step's first stage unless a break lies there (the system
   * then reads the other piece): evaluated by whichever comes first, the next step or the
   * dense output (k[12]) */
  w->k0 = 0;
  w->ta = t;
  w->tb = at->tnew;
  w->have_last = 1;
  return FB_OK; /* the driver checks that y is finite */
}

/* The dense output of the last accepted step (fb_integrator_type.dense). */
static int dop_ws_dense(void *wsv, double ta, double tb, double t, double *y)
{
  dop_ws *w = wsv;
  if (!w->have_last || ta != w->ta || tb != w->tb)
    return FB_EUNSUP;
  const int had_fsal = w->s->have_fsal;
  const int st = fb_dop853_dense(w->s, &w->sys.gsys, t, y);
  if (st != GSL_SUCCESS)
    return st == GSL_EDOM ? FB_EUNSUP : FB_EGSL;
  /* the FSAL stage the dense output evaluated serves the next step, inside a segment */
  if (!had_fsal && w->k0 == 0 && tb < w->sys.seg_t1)
    w->k0 = 2;
  return FB_OK;
}

const fb_integrator_type fb_integrator_dop853 = {
    .name = "dop853",
    .title = "Hairer's DOP853: Dormand-Prince 8(5,3), its step control and 7th-order dense output",
    .needs = FB_MODEL_ODE,
    .fixed_ok = 1,
    .adaptive_ok = 1,
    .implicit = 0,
    .order = 8,
    .data = &fb_step_dop853,
    .alloc = dop_ws_alloc,
    .free = dop_ws_free,
    .reset = dop_ws_reset,
    .step = dop_ws_step,
    .dense = dop_ws_dense,
};
