// adapter.mjs — MuJoCo (the official WebAssembly build, npm `mujoco-js`) as fricbench's
// engine process (docs/engines/mujoco.md).  One node process per fricbench worker thread,
// started by engines/engine_mujoco.c, fed one case at a time, in lock step:
//
//   fricbench -> node   {"op":"open", ...}            one JSON line: the case (below)
//   node -> fricbench   "ok <sample>" | "err <why>"    the state after the settling period
//   fricbench -> node   "s t h fx fy fz tx ty tz g u"  one step: applied force and torque at
//                                                      the centre (N, N m), gravity (m/s^2),
//                                                      belt velocity along x (m/s)
//   node -> fricbench   "<sample>"                     the state after the step
//   fricbench -> node   "c"                            close the case (no answer)
//
// <sample>: t px py pz vx vy vz qw qx qy qz wx wy wz Fn Ftx Fty Mx My Mz ncon niter, the
// numbers written by Number.prototype.toString (the shortest string that reads back to the
// same double: the C side's strtod gets every bit, so a run replays exactly).
//
// The model (MJCF, built per case): the body (a box of half-sizes size, size, half_z, or a
// sphere) on a free joint; the ground is a plane, or with a belt a slab on a slide joint
// along x whose velocity is set to the belt's at every step (a mocap body would not do: it
// carries no velocity into the contact, so a moving mocap slab does not drag the block).
// Friction "mu 0.005 0.0001" on BOTH geoms: MuJoCo takes the larger of the two geoms'
// coefficients, so a geom left at its default friction 1 would make mu = 1.
// Contact forces: efc_force of each contact decoded as mj_contactForce does (pyramidal:
// normal = sum of the edge forces, tangential i = mu_i (f_2i - f_2i+1); elliptic: the
// forces themselves), in the contact frame, turned to the world; MuJoCo's contact force
// acts from geom1 on geom2, so the body's is minus it when the body is geom1.
import {createInterface} from 'node:readline';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';

const modules = process.argv[2];
if (!modules) {
  process.stdout.write('err usage: node adapter.mjs NODE_MODULES_DIR\n');
  process.exit(2);
}
const url = pathToFileURL(join(modules, 'mujoco-js', 'dist', 'mujoco_wasm.js')).href;
const {default: loadMujoco} = await import(url);
// MuJoCo's messages (mju_warning: "Nan, Inf or huge value in QACC ... The simulation is
// unstable") go to the module's print, i.e. stdout, where they would be read as a row: they
// are kept here instead.  After such a warning MuJoCo resets the state to the model's
// initial one and goes on as if nothing happened; the step answers a row of NaN instead, so
// that fricbench's driver sees the divergence (its non-finite-state guard: "unstable").
let warning = null;
const mj = await loadMujoco({
  print: (text) => { warning = String(text); },
  printErr: (text) => { warning = String(text); },
});

const INTEGRATORS = ['Euler', 'implicitfast', 'RK4']; // the C side's stepper index
let cur = null; // the open case: {m, d, c, body dofs}

function num(x) {
  return Number(x).toString();
}

// The MJCF of case c (see the head).
function mjcf(c) {
  const s = c.settings;
  const fr = `friction="${num(c.mu)} 0.005 0.0001"`;
  const sol = [];
  if (s.solref) sol.push(`solref="${s.solref.map(num).join(' ')}"`);
  if (s.solimp) sol.push(`solimp="${s.solimp.map(num).join(' ')}"`);
  const contact = `${fr} ${sol.join(' ')}`;
  let geom;
  if (c.shape === 'sphere') {
    const inertial = c.inertia !== null
      ? `<inertial pos="0 0 0" mass="${num(c.mass)}" diaginertia="${[c.inertia, c.inertia, c.inertia].map(num).join(' ')}"/>`
      : '';
    geom = `${inertial}<geom name="body" type="sphere" size="${num(c.size)}" ${
        c.inertia !== null ? '' : `mass="${num(c.mass)}"`} ${contact}/>`;
  } else {
    geom = `<geom name="body" type="box" size="${num(c.size)} ${num(c.size)} ${num(c.half_z)}" ` +
        `mass="${num(c.mass)}" ${contact}/>`;
  }
  const ground = c.belt
    ? `<body name="belt" pos="0 0 -0.05"><joint name="belt" type="slide" axis="1 0 0"/>` +
      `<geom name="ground" type="box" size="1000 1000 0.05" mass="1e6" ${contact}/></body>`
    : `<geom name="ground" type="plane" size="0 0 1" ${contact}/>`;
  const opt = [`timestep="${num(c.h)}"`, `gravity="0 0 ${num(-c.gravity)}"`,
    `cone="${s.cone}"`, `impratio="${num(s.impratio)}"`,
    `noslip_iterations="${s.noslip_iterations}"`,
    `integrator="${INTEGRATORS[c.stepper]}"`];
  return `<mujoco model="fricbench ${c.scenario}"><option ${opt.join(' ')}/>` +
      `<worldbody><body name="b" pos="${c.pos0.map(num).join(' ')}"><freejoint/>${geom}</body>` +
      `${ground}</worldbody></mujoco>`;
}

// The body's contact force (world frame) and its moment about the centre, summed.
function contactForces(m, d, out) {
  let Fn = 0, Fx = 0, Fy = 0, Mx = 0, My = 0, Mz = 0;
  // the forces of the step just taken, at the positions it started from (mj_step's)
  const xp = d.xpos, cx = xp[3], cy = xp[4], cz = xp[5];
  const pyramidal = m.opt.cone === 0;
  // d.contact is a copy of the contact vector in the module's memory, get(i) a copy of one
  // contact: both are deleted, else every step leaks (2 GB after ~10^5 steps)
  const contacts = d.contact;
  for (let i = 0; i < d.ncon; i++) {
    const ct = contacts.get(i);
    // views into the WebAssembly memory are taken after get(), which allocates: a grown
    // memory detaches every earlier view
    const ef = d.efc_force;
    const fr = ct.frame, mu = ct.friction, a = ct.efc_address, dim = ct.dim;
    let f0, f1 = 0, f2 = 0;
    if (a < 0) {
      ct.delete();
      continue; // excluded, or beyond the margin
    }
    if (dim === 1) {
      f0 = ef[a];
    } else if (pyramidal) {
      f0 = 0;
      for (let k = 0; k < 2 * (dim - 1); k++) f0 += ef[a + k];
      f1 = mu[0] * (ef[a] - ef[a + 1]);
      f2 = mu[1] * (ef[a + 2] - ef[a + 3]);
    } else {
      f0 = ef[a], f1 = ef[a + 1], f2 = ef[a + 2];
    }
    const sign = m.geom_bodyid[ct.geom2] === 1 ? 1 : -1;
    const F = [0, 1, 2].map((k) => sign * (f0 * fr[k] + f1 * fr[3 + k] + f2 * fr[6 + k]));
    const p = ct.pos, r = [p[0] - cx, p[1] - cy, p[2] - cz];
    Fn += F[2], Fx += F[0], Fy += F[1];
    Mx += r[1] * F[2] - r[2] * F[1];
    My += r[2] * F[0] - r[0] * F[2];
    Mz += r[0] * F[1] - r[1] * F[0];
    ct.delete();
  }
  contacts.delete();
  out.push(Fn, Fx, Fy, Mx, My, Mz, d.ncon);
}

// The body's rotation matrix (row-major) from the free joint's quaternion qpos[3..6].
function rotation(q) {
  const w = q[3], x = q[4], y = q[5], z = q[6];
  return [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)];
}

// One sample line of the open case at time t.
function sample(t) {
  const {m, d} = cur;
  const q = d.qpos, v = d.qvel;
  // free joint: qpos = centre, quaternion (w x y z); qvel = linear (world), angular (body)
  const R = rotation(q), wb = [v[3], v[4], v[5]];
  const w = [0, 1, 2].map((k) => R[3 * k] * wb[0] + R[3 * k + 1] * wb[1] + R[3 * k + 2] * wb[2]);
  const out = [t, q[0], q[1], q[2], v[0], v[1], v[2], q[3], q[4], q[5], q[6], w[0], w[1], w[2]];
  contactForces(m, d, out);
  out.push(d.solver_niter[0]);
  return out.map(num).join(' ');
}

function open(c) {
  if (cur !== null) close();
  mj.FS.writeFile('/case.xml', mjcf(c));
  const m = mj.MjModel.loadFromXML('/case.xml');
  const d = new mj.MjData(m);
  cur = {m, d, c};
  const xf = d.xfrc_applied;
  // settle at rest: gravity and the contact only (and a belt at rest)
  const nsettle = Math.ceil(c.settle / c.h - 1e-9);
  for (let k = 0; k < nsettle; k++) mj.mj_step(m, d);
  const settled = sample(c.t0);
  const q = d.qpos, v = d.qvel;
  q[0] = c.pos0[0], q[1] = c.pos0[1];
  if (nsettle === 0) q[2] = c.pos0[2];
  v[0] = c.vel0[0], v[1] = c.vel0[1], v[2] = nsettle > 0 ? 0 : c.vel0[2];
  // angular velocity: world frame in the case, body frame in qvel (upright after settling)
  const R = rotation(q), w = c.angvel0;
  for (let k = 0; k < 3; k++) v[3 + k] = R[k] * w[0] + R[3 + k] * w[1] + R[6 + k] * w[2];
  xf.fill(0);
  return settled;
}

function step(a) {
  const {m, d, c} = cur;
  const [t, h, fx, fy, fz, tx, ty, tz, g, u] = a;
  m.opt.timestep = h;
  m.opt.gravity[2] = -g;
  // a box takes the force at the height of its contact face (world: the body's -z axis
  // times half_z), a sphere at its centre: the moment of the offset goes in as a torque
  const R = rotation(d.qpos), hz = c.shape === 'box' ? c.half_z : 0;
  const r = [-hz * R[2], -hz * R[5], -hz * R[8]];
  const xf = d.xfrc_applied; // body 1's row: force, torque (world, about the centre)
  xf[6] = fx, xf[7] = fy, xf[8] = fz;
  xf[9] = tx + r[1] * fz - r[2] * fy;
  xf[10] = ty + r[2] * fx - r[0] * fz;
  xf[11] = tz + r[0] * fy - r[1] * fx;
  if (c.belt) d.qvel[6] = u;
  warning = null;
  mj.mj_step(m, d); // the contact forces reported are those this step applied
  if (c.belt) d.qvel[6] = u;
  if (warning !== null && /unstable/.test(warning)) {
    warning = null;
    return [t + h, ...new Array(21).fill(NaN)].map(num).join(' ');
  }
  return sample(t + h);
}

function close() {
  if (cur === null) return;
  cur.d.delete();
  cur.m.delete();
  cur = null;
}

const rl = createInterface({input: process.stdin, terminal: false});
const out = [];
function flush() {
  process.stdout.write(out.join(''));
  out.length = 0;
}
rl.on('line', (line) => {
  try {
    if (line[0] === 's') {
      out.push(step(line.slice(2).split(' ').map(Number)), '\n');
    } else if (line[0] === 'c') {
      close();
    } else if (line[0] === '{') {
      const c = JSON.parse(line);
      if (c.op === 'version') {
        out.push(`ok ${mj.mj_versionString()} node ${process.version}\n`);
      } else {
        out.push('ok ', open(c), '\n');
      }
    } else {
      out.push(`err unknown request "${line.slice(0, 40)}"\n`);
    }
  } catch (e) {
    out.push(`err ${String(e && e.message ? e.message : e).replace(/\n/g, ' ')}\n`);
  }
  flush();
});
rl.on('close', () => process.exit(0));
process.stdout.on('error', () => process.exit(0)); // fricbench closed the pipe first
