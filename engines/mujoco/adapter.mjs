// adapter.mjs — MuJoCo (the official WebAssembly build, npm `mujoco-js`) as fricbench's
// engine process (docs/engines/mujoco.md).  One node process per fricbench worker thread,
// started by engines/engine_mujoco.c, fed one case at a time:
//
//   fricbench -> node   {"op":"open", ...}            one JSON line: the case (below)
//   node -> fricbench   "ok <sample>" | "err <why>"    the state after the settling period
//   fricbench -> node   'b' k, then k x 10 doubles     k steps (a binary frame): per step t h
//                                                      fx fy fz tx ty tz g u, the applied
//                                                      force and torque at the centre (N,
//                                                      N m), gravity (m/s^2), belt velocity
//                                                      along x (m/s)
//   node -> fricbench   'B', then k x 22 doubles       the k samples, one after each step
//                       | "err <why>"                  (a line)
//   fricbench -> node   "c"                            close the case (no answer)
//
// k (4 bytes) and the doubles are little-endian, so every bit crosses (a run replays
// exactly).  k = 1 is the lock step (a forcing that depends on the state: the next force is
// fricbench's, from the state answered); k > 1 when the forcing depends on t only
// (docs/engines.md §4).  <sample>: t px py pz vx vy vz qw qx qy qz wx wy wz Fn Ftx Fty Mx My
// Mz ncon niter; as text (open's answer) written by Number.prototype.toString (the shortest
// string that reads back to the same double).
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
  const {opt, bodyOfGeom} = cur;
  let Fn = 0, Fx = 0, Fy = 0, Mx = 0, My = 0, Mz = 0;
  // the forces of the step just taken, at the positions it started from (mj_step's)
  const xp = d.xpos, cx = xp[3], cy = xp[4], cz = xp[5];
  const pyramidal = opt.cone === 0;
  // d.contact is a copy of the contact vector in the module's memory, get(i) a copy of one
  // contact: both are deleted, else every step leaks (2 GB after ~10^5 steps)
  const contacts = d.contact;
  const ncon = d.ncon;
  for (let i = 0; i < ncon; i++) {
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
    const sign = bodyOfGeom[ct.geom2] === 1 ? 1 : -1;
    const F = [0, 1, 2].map((k) => sign * (f0 * fr[k] + f1 * fr[3 + k] + f2 * fr[6 + k]));
    const p = ct.pos, r = [p[0] - cx, p[1] - cy, p[2] - cz];
    Fn += F[2], Fx += F[0], Fy += F[1];
    Mx += r[1] * F[2] - r[2] * F[1];
    My += r[2] * F[0] - r[0] * F[2];
    Mz += r[0] * F[1] - r[1] * F[0];
    ct.delete();
  }
  contacts.delete();
  out.push(Fn, Fx, Fy, Mx, My, Mz, ncon);
}

// The body's rotation matrix (row-major) from the free joint's quaternion qpos[3..6].
function rotation(q) {
  const w = q[3], x = q[4], y = q[5], z = q[6];
  return [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)];
}

// One sample of the open case at time t: the row's 22 numbers.
function sample(t) {
  const {m, d} = cur;
  const q = d.qpos, v = d.qvel;
  // free joint: qpos = centre, quaternion (w x y z); qvel = linear (world), angular (body)
  const R = rotation(q), wb = [v[3], v[4], v[5]];
  const w = [0, 1, 2].map((k) => R[3 * k] * wb[0] + R[3 * k + 1] * wb[1] + R[3 * k + 2] * wb[2]);
  const out = [t, q[0], q[1], q[2], v[0], v[1], v[2], q[3], q[4], q[5], q[6], w[0], w[1], w[2]];
  contactForces(m, d, out);
  out.push(d.solver_niter[0]);
  return out;
}

function open(c) {
  if (cur !== null) close();
  mj.FS.writeFile('/case.xml', mjcf(c));
  const m = mj.MjModel.loadFromXML('/case.xml');
  const d = new mj.MjData(m);
  // per case, not per step: each read of m.opt or m.geom_bodyid crosses into the module
  // and builds a handle or a view (a third of a step's time went to such reads)
  cur = {m, d, c, opt: m.opt, bodyOfGeom: Array.from(m.geom_bodyid)};
  const xf = d.xfrc_applied;
  // settle at rest: gravity and the contact only (and a belt at rest)
  const nsettle = Math.ceil(c.settle / c.h - 1e-9);
  for (let k = 0; k < nsettle; k++) mj.mj_step(m, d);
  const settled = sample(c.t0).map(num).join(' ');
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

// One step with the inputs at a[o ... o + 9]; its sample.
function step(a, o) {
  const {m, d, c, opt} = cur;
  const t = a[o], h = a[o + 1], fx = a[o + 2], fy = a[o + 3], fz = a[o + 4];
  const tx = a[o + 5], ty = a[o + 6], tz = a[o + 7], g = a[o + 8], u = a[o + 9];
  opt.timestep = h;
  opt.gravity[2] = -g;
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
    return [t + h, ...new Array(21).fill(NaN)];
  }
  return sample(t + h);
}

function close() {
  if (cur === null) return;
  cur.d.delete();
  cur.m.delete();
  cur = null;
}

// The input: text lines (open, close) and binary step frames, taken from one byte stream.
const IN = 10, ROW = 22;
let inbuf = Buffer.alloc(0);

// The k steps of a frame whose doubles start at byte p: the answer frame.
function steps(buf, p, k) {
  if (cur === null) throw new Error('a step without an open case');
  const a = new Float64Array(IN);
  const ans = Buffer.allocUnsafe(1 + 8 * ROW * k);
  ans[0] = 0x42; // 'B'
  let q = 1;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < IN; j++, p += 8) a[j] = buf.readDoubleLE(p);
    const row = step(a, 0);
    for (let j = 0; j < ROW; j++, q += 8) ans.writeDoubleLE(row[j], q);
  }
  return ans;
}

function line(text) {
  if (text[0] === 'c') {
    close();
    return null;
  }
  if (text[0] === '{') {
    const c = JSON.parse(text);
    if (c.op === 'version') return `ok ${mj.mj_versionString()} node ${process.version}\n`;
    return `ok ${open(c)}\n`;
  }
  return `err unknown request "${text.slice(0, 40)}"\n`;
}

function errLine(e) {
  return `err ${String(e && e.message ? e.message : e).replace(/\n/g, ' ')}\n`;
}

// Every complete request in inbuf, answered in order; a partial one waits for more bytes.
function pump() {
  for (;;) {
    let answer, used;
    if (inbuf.length > 0 && inbuf[0] === 0x62) { // 'b': a step frame
      if (inbuf.length < 5) return;
      const k = inbuf.readUInt32LE(1);
      used = 5 + 8 * IN * k;
      if (inbuf.length < used) return;
      try {
        answer = steps(inbuf, 5, k);
      } catch (e) {
        answer = errLine(e);
      }
    } else {
      const nl = inbuf.indexOf(10);
      if (nl < 0) return;
      used = nl + 1;
      try {
        answer = line(inbuf.toString('utf8', 0, nl));
      } catch (e) {
        answer = errLine(e);
      }
    }
    inbuf = inbuf.subarray(used);
    if (answer !== null) process.stdout.write(answer);
  }
}

process.stdin.on('data', (chunk) => {
  inbuf = inbuf.length > 0 ? Buffer.concat([inbuf, chunk]) : chunk;
  pump();
});
process.stdin.on('end', () => process.exit(0));
process.stdout.on('error', () => process.exit(0)); // fricbench closed the pipe first
