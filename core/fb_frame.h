/* fb_frame.h — plane frames of Euler–Bernoulli beam elements (docs/scenarios/elastic-frame.md):
 * the mass, stiffness and Rayleigh damping matrices a scenario copies into its plant.
 *
 * A frame is a chain of straight members, member m running from point P_m to P_{m+1}, each
 * cut into `ne` equal elements; the first node is clamped.  Nodes carry 3 DOFs
 * (u, v, theta): displacements along the global x and y (m) and the rotation about z (rad,
 * counter-clockwise positive).  The free DOFs are numbered node by node from the node next
 * to the clamp, so node k (k = 1 .. nnode - 1) owns DOFs 3 (k - 1) + {0, 1, 2} and the
 * matrices are banded with half-bandwidth 5 (two nodes of an element: 6 DOFs).  The store
 * is dense row-major n x n for now; fb_frame_half_bandwidth says what a banded store needs.
 *
 * Element (length l, axial EA, bending EI, mass per length rho A), local DOFs
 * (u1, v1, th1, u2, v2, th2): linear axial, Hermite cubic bending, consistent mass
 * (Przemieniecki, Theory of Matrix Structural Analysis, 1968, §5.2 eq. 5.23 and §11.3
 * eq. 11.34; Cook, Malkus & Plesha, Concepts and Applications of FEA, 4th ed., §2.4, §11.3).
 */
#ifndef FB_FRAME_H
#define FB_FRAME_H

#include <stddef.h>

#define FB_FRAME_MAX_MEMBERS 8

typedef struct fb_frame {
  size_t nmember;                     /* members, 1 .. FB_FRAME_MAX_MEMBERS */
  double px[FB_FRAME_MAX_MEMBERS + 1]; /* member end points, x (m); point 0 is the clamp */
  double py[FB_FRAME_MAX_MEMBERS + 1]; /* member end points, y (m) */
  size_t ne;                          /* elements per member, >= 1 */
  double E;                           /* Young's modulus (Pa) */
  double rho;                         /* density (kg/m^3) */
  double A;                           /* cross-section area (m^2) */
  double I;                           /* second moment of area for in-plane bending (m^4) */
} fb_frame;

/* Free DOFs: 3 nmember ne. */
size_t fb_frame_ndof(const fb_frame *fr);
/* Half-bandwidth of M and K in the node-by-node numbering (5). */
size_t fb_frame_half_bandwidth(const fb_frame *fr);
/* DOF index of component c (0: u, 1: v, 2: theta) of node k (k >= 1; node 0 is clamped). */
size_t fb_frame_dof(size_t node, unsigned c);
/* The last node (the free end of the last member). */
size_t fb_frame_last_node(const fb_frame *fr);

/* Assemble the consistent mass M (kg) and stiffness K (N/m) of the free DOFs into dense
 * row-major n x n arrays (n = fb_frame_ndof; zeroed here).  -1 when the frame is invalid
 * (no member, ne = 0, a zero-length member, non-positive E, rho, A, I). */
int fb_frame_assemble(const fb_frame *fr, double *M, double *K);

/* The same into GSL's symmetric band layout of a banded plant (fb_plant_alloc_banded with
 * bw = fb_frame_half_bandwidth): Mb, Kb are n x (bw + 1), row i holding A(i, i..i+bw);
 * O(n) memory instead of n^2 (docs/scenarios/chain.md "The banded plant"). */
int fb_frame_assemble_band(const fb_frame *fr, double *Mb, double *Kb);

/* D = alpha M + beta K (Rayleigh damping), n x n. */
void fb_frame_rayleigh(size_t n, const double *M, const double *K, double alpha, double beta,
                       double *D);

/* The 6 x 6 element matrices in local coordinates (for the tests). */
void fb_frame_element_local(double l, double EA, double EI, double rhoA, double *ke,
                            double *me);

#endif
