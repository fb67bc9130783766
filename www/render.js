// Canvas drawing of one frame: links coloured by queue occupancy, routers on top.
//
// Frame data comes from WebSim as flat typed arrays (router positions in [0, 1],
// channel endpoints as router indices, per-channel occupancy in [0, 1]). Strokes are batched
// by colour: occupancy is quantised into RAMP_LEVELS buckets and each bucket is one path.

export const RAMP_LEVELS = 16;

// Sequential ramp, low → high occupancy (light blue-grey → green → yellow → orange → red).
const RAMP_STOPS = [
  [0.0, [196, 206, 218]],
  [0.15, [120, 190, 120]],
  [0.45, [240, 200, 60]],
  [0.75, [240, 120, 40]],
  [1.0, [200, 20, 30]],
];

export function rampColour(t) {
  t = Math.min(1, Math.max(0, t));
  for (let i = 1; i < RAMP_STOPS.length; i++) {
    const [t1, c1] = RAMP_STOPS[i];
    if (t <= t1) {
      const [t0, c0] = RAMP_STOPS[i - 1];
      const f = (t - t0) / (t1 - t0);
      const c = c0.map((v, k) => Math.round(v + f * (c1[k] - v)));
      return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
    }
  }
  return 'rgb(200, 20, 30)';
}

const BUCKET_COLOURS = Array.from({ length: RAMP_LEVELS }, (_, i) => rampColour(i / (RAMP_LEVELS - 1)));

export function drawRamp(canvas) {
  const ctx = canvas.getContext('2d');
  for (let x = 0; x < canvas.width; x++) {
    ctx.fillStyle = rampColour(x / (canvas.width - 1));
    ctx.fillRect(x, 0, 1, canvas.height);
  }
}

// Static geometry of a network, computed once per simulation and per canvas size.
export class Layout {
  constructor(positions, endpoints, width, height) {
    const routers = positions.length / 2;
    const pad = Math.max(16, Math.min(width, height) * 0.09);
    const scale = Math.min(width, height) - 2 * pad;
    const ox = (width - scale) / 2;
    const oy = (height - scale) / 2;
    this.x = new Float32Array(routers);
    this.y = new Float32Array(routers);
    for (let r = 0; r < routers; r++) {
      this.x[r] = ox + positions[2 * r] * scale;
      this.y[r] = oy + positions[2 * r + 1] * scale;
    }
    // Router radius shrinks with the number of routers.
    this.radius = Math.max(2.5, Math.min(12, scale / (3 * Math.sqrt(routers) + 4)));
    this.lineWidth = Math.max(1, Math.min(3, this.radius / 3));
    // A link whose straight line would run through another router (the all-to-all rows of
    // a flattened butterfly or HyperX laid out on a grid) is drawn as an arc instead, bowed
    // in proportion to its length, away from the centre of the network. Both directions of a
    // link bow to the same side.
    // Each direction is then offset to the right of its direction of travel, so the two
    // channels of a bidirectional link are two parallel lines.
    const channels = endpoints.length / 2;
    // Parallel channels (trunked links: 2-dilated FB, HyperX with K > 1) get increasing
    // offsets so each stays visible.
    const parallelIndex = new Uint16Array(channels);
    const seen = new Map();
    for (let c = 0; c < channels; c++) {
      const key = endpoints[2 * c] * 0x100000 + endpoints[2 * c + 1];
      const n = seen.get(key) ?? 0;
      parallelIndex[c] = n;
      seen.set(key, n + 1);
    }
    this.segments = new Float32Array(6 * channels); // x0 y0 cx cy x1 y1 (cx = NaN: straight)
    const clearance = this.radius * 1.2;
    let mx = 0;
    let my = 0;
    for (let r = 0; r < routers; r++) {
      mx += this.x[r] / routers;
      my += this.y[r] / routers;
    }
    for (let c = 0; c < channels; c++) {
      const s = endpoints[2 * c];
      const d = endpoints[2 * c + 1];
      // Geometry of the undirected link, from its lower- to its higher-numbered router.
      const a = Math.min(s, d);
      const b = Math.max(s, d);
      const ax = this.x[a];
      const ay = this.y[a];
      const len = Math.hypot(this.x[b] - ax, this.y[b] - ay) || 1;
      const ux = (this.x[b] - ax) / len;
      const uy = (this.y[b] - ay) / len;
      let bow = this.blocked(a, b, ux, uy, len, clearance) ? 0.13 * len : 0;
      // Bulge direction (-uy, ux) · bow should point away from the centre.
      const midx = (ax + this.x[b]) / 2 - mx;
      const midy = (ay + this.y[b]) / 2 - my;
      if (-uy * midx + ux * midy < -1e-3 * len) bow = -bow;
      // Normal of the travel direction s → d (to the right on screen, y pointing down).
      const sign = s === a ? 1 : -1;
      const nx = -uy * sign;
      const ny = ux * sign;
      const offset = this.lineWidth * (0.9 + 1.8 * parallelIndex[c]);
      const seg = this.segments;
      seg[6 * c] = this.x[s] + nx * offset;
      seg[6 * c + 1] = this.y[s] + ny * offset;
      if (bow !== 0) {
        // Control point beside the midpoint; a quadratic curve reaches half the distance.
        seg[6 * c + 2] = (ax + this.x[b]) / 2 - uy * 2 * bow + nx * offset;
        seg[6 * c + 3] = (ay + this.y[b]) / 2 + ux * 2 * bow + ny * offset;
      } else {
        seg[6 * c + 2] = NaN;
        seg[6 * c + 3] = NaN;
      }
      seg[6 * c + 4] = this.x[d] + nx * offset;
      seg[6 * c + 5] = this.y[d] + ny * offset;
    }
    this.bucketOf = new Uint8Array(channels);
  }

  // Does the straight line from router a (unit direction u, length len) pass within
  // `clearance` of a router other than its two ends?
  blocked(a, b, ux, uy, len, clearance) {
    const ax = this.x[a];
    const ay = this.y[a];
    for (let r = 0; r < this.x.length; r++) {
      if (r === a || r === b) continue;
      const px = this.x[r] - ax;
      const py = this.y[r] - ay;
      const along = px * ux + py * uy;
      if (along <= 0 || along >= len) continue;
      if (Math.abs(px * uy - py * ux) < clearance) return true;
    }
    return false;
  }
}

const bucket = (o) => (o <= 0 ? 0 : Math.min(RAMP_LEVELS - 1, 1 + Math.floor(o * (RAMP_LEVELS - 1))));

// `links`: per channel, `routers`: per router, each in [0, 1] (coloured with the ramp).
export function drawFrame(ctx, layout, links, routers, width, height) {
  ctx.clearRect(0, 0, width, height);
  const seg = layout.segments;
  const channels = layout.bucketOf.length;
  for (let c = 0; c < channels; c++) {
    layout.bucketOf[c] = bucket(links[c]);
  }
  ctx.lineWidth = layout.lineWidth;
  ctx.lineCap = 'butt';
  // Low buckets first so busy channels are drawn on top.
  for (let b = 0; b < RAMP_LEVELS; b++) {
    ctx.strokeStyle = BUCKET_COLOURS[b];
    ctx.beginPath();
    let any = false;
    for (let c = 0; c < channels; c++) {
      if (layout.bucketOf[c] !== b) continue;
      const i = 6 * c;
      ctx.moveTo(seg[i], seg[i + 1]);
      if (Number.isNaN(seg[i + 2])) ctx.lineTo(seg[i + 4], seg[i + 5]);
      else ctx.quadraticCurveTo(seg[i + 2], seg[i + 3], seg[i + 4], seg[i + 5]);
      any = true;
    }
    if (any) ctx.stroke();
  }
  // Routers: filled by their value (white when 0), dark outline; batched by colour.
  const count = layout.x.length;
  ctx.lineWidth = Math.max(1.5, layout.radius / 4);
  ctx.strokeStyle = '#243447';
  for (let b = 0; b < RAMP_LEVELS; b++) {
    ctx.fillStyle = b === 0 ? '#ffffff' : BUCKET_COLOURS[b];
    ctx.beginPath();
    let any = false;
    for (let r = 0; r < count; r++) {
      if (bucket(routers[r]) !== b) continue;
      ctx.moveTo(layout.x[r] + layout.radius, layout.y[r]);
      ctx.arc(layout.x[r], layout.y[r], layout.radius, 0, 2 * Math.PI);
      any = true;
    }
    if (any) {
      ctx.fill();
      ctx.stroke();
    }
  }
}
