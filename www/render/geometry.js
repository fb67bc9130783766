// The static geometry of a drawn network in world coordinates (the engine's router
// positions, unit square): where routers, links and their parallel offsets go, links
// bowed around routers in their way, and a sliced dragonfly's slices side by side or
// stacked. render.js's NetworkView maps it to device pixels.

/**
 * Static geometry of a network in world coordinates, computed once per simulation (and
 * again when a sliced network's slices change from side by side to stacked, see setStacked).
 */
export class Geometry {
  constructor(input) {
    this.input = input;
    this.stacked = false;
    this.place(input.positions);
  }

  /**
   * A sliced network's slices in a column (true) instead of side by side in a row (the
   * engine's layout): a tall canvas draws them larger so. Returns true if it changed.
   */
  setStacked(stacked) {
    if (this.slices < 2 || stacked === this.stacked) return false;
    this.stacked = stacked;
    const pos = this.input.positions;
    if (!stacked) {
      this.place(pos);
      return true;
    }
    const S = this.slices;
    const perSlice = this.routers / S;
    const out = new Float32Array(pos.length);
    for (let r = 0; r < this.routers; r++) {
      const c = (Math.floor(r / perSlice) + 0.5) / S;
      out[2 * r] = 0.5 + (pos[2 * r] - c);
      out[2 * r + 1] = c + (pos[2 * r + 1] - 0.5);
    }
    this.place(out);
    return true;
  }

  /** Slice `s`'s box in world coordinates, [x0, y0, x1, y1] (the whole drawing when unsliced). */
  sliceBox(s) {
    const S = this.slices;
    return this.stacked ? [0.5 - 0.5 / S, s / S, 0.5 + 0.5 / S, (s + 1) / S] : [s / S, 0.5 - 0.5 / S, (s + 1) / S, 0.5 + 0.5 / S];
  }

  place(positions) {
    const { endpoints, groups, classes, slices = 1 } = this.input;
    const routers = positions.length / 2;
    // A sliced dragonfly: `slices` copies of the network, routers numbered slice by slice,
    // each drawn in its own column of the unit square (or row, when stacked).
    this.slices = Number.isInteger(slices) && slices > 1 && routers % slices === 0 ? slices : 1;
    const channels = endpoints.length / 2;
    this.routers = routers;
    this.channels = channels;
    this.x = new Float32Array(routers);
    this.y = new Float32Array(routers);
    for (let r = 0; r < routers; r++) {
      this.x[r] = positions[2 * r];
      this.y[r] = positions[2 * r + 1];
    }
    this.src = new Uint32Array(channels);
    this.dst = new Uint32Array(channels);
    for (let c = 0; c < channels; c++) {
      this.src[c] = endpoints[2 * c];
      this.dst[c] = endpoints[2 * c + 1];
    }
    this.minGap = this.nearestRouterGap();
    // Control points of bowed links (NaN: straight), the unit normal to the right of the
    // direction of travel, and the index among parallel channels.
    this.cx = new Float32Array(channels);
    this.cy = new Float32Array(channels);
    this.nx = new Float32Array(channels);
    this.ny = new Float32Array(channels);
    this.parallel = new Uint8Array(channels);
    // 1 = dragonfly global channel: drawn as a chord bowed towards the centre, lighter when idle.
    this.global = classes && classes.length === channels ? Uint8Array.from(classes) : new Uint8Array(channels);
    // The centre of each slice's drawing (of the whole drawing when unsliced): global
    // chords bow towards their own slice's centre.
    const perSlice = routers / this.slices;
    const centres = Array.from({ length: this.slices }, () => [0, 0]);
    for (let r = 0; r < routers; r++) {
      const m = centres[Math.floor(r / perSlice)];
      m[0] += this.x[r] / perSlice;
      m[1] += this.y[r] / perSlice;
    }
    const seen = new Map();
    const bowOf = new Map();
    const clearance = this.minGap * 0.3;
    for (let c = 0; c < channels; c++) {
      const s = this.src[c];
      const d = this.dst[c];
      const key = s * 0x100000 + d;
      const n = seen.get(key) ?? 0;
      this.parallel[c] = Math.min(255, n);
      seen.set(key, n + 1);
      const a = Math.min(s, d);
      const b = Math.max(s, d);
      const [mx, my] = centres[Math.floor(a / perSlice)];
      const ax = this.x[a];
      const ay = this.y[a];
      const len = Math.hypot(this.x[b] - ax, this.y[b] - ay) || 1e-6;
      const ux = (this.x[b] - ax) / len;
      const uy = (this.y[b] - ay) / len;
      const pair = a * 0x100000 + b;
      let bow = bowOf.get(pair);
      if (this.global[c]) {
        // Chord-diagram style: the control point 55 % of the way to the centre.
        const midx = (ax + this.x[b]) / 2;
        const midy = (ay + this.y[b]) / 2;
        const sign = s === a ? 1 : -1;
        this.nx[c] = -uy * sign;
        this.ny[c] = ux * sign;
        this.cx[c] = midx + (mx - midx) * 0.55;
        this.cy[c] = midy + (my - midy) * 0.55;
        continue;
      }
      if (bow === undefined) {
        bow = this.blocked(a, b, ux, uy, len, clearance) ? 0.13 * len : 0;
        const midx = (ax + this.x[b]) / 2 - mx;
        const midy = (ay + this.y[b]) / 2 - my;
        if (-uy * midx + ux * midy < -1e-3 * len) bow = -bow;
        bowOf.set(pair, bow);
      }
      const sign = s === a ? 1 : -1;
      this.nx[c] = -uy * sign;
      this.ny[c] = ux * sign;
      if (bow !== 0) {
        this.cx[c] = (ax + this.x[b]) / 2 - uy * 2 * bow;
        this.cy[c] = (ay + this.y[b]) / 2 + ux * 2 * bow;
      } else {
        this.cx[c] = NaN;
        this.cy[c] = NaN;
      }
    }
    // Structural blocks (dragonfly groups, HyperX tiles): centre, radius, bounding box.
    this.blocks = [];
    if (groups && groups.length === routers) {
      let count = 0;
      for (let r = 0; r < routers; r++) count = Math.max(count, groups[r] + 1);
      if (count > 1) {
        for (let g = 0; g < count; g++) this.blocks.push({ x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, sx: 0, sy: 0, n: 0 });
        for (let r = 0; r < routers; r++) {
          const b = this.blocks[groups[r]];
          b.x0 = Math.min(b.x0, this.x[r]);
          b.y0 = Math.min(b.y0, this.y[r]);
          b.x1 = Math.max(b.x1, this.x[r]);
          b.y1 = Math.max(b.y1, this.y[r]);
          b.sx += this.x[r];
          b.sy += this.y[r];
          b.n++;
        }
        for (const b of this.blocks) {
          b.cx = b.sx / b.n;
          b.cy = b.sy / b.n;
          b.r = 0;
        }
        for (let r = 0; r < routers; r++) {
          const b = this.blocks[groups[r]];
          b.r = Math.max(b.r, Math.hypot(this.x[r] - b.cx, this.y[r] - b.cy));
        }
      }
    }
  }

  // Smallest distance between two routers (sampled for very large networks).
  nearestRouterGap() {
    const n = this.routers;
    if (n < 2) return 0.5;
    const step = Math.max(1, Math.floor(n / 600));
    let best = Infinity;
    for (let i = 0; i < n; i += step) {
      for (let j = 0; j < n; j++) {
        if (j === i) continue;
        const d = Math.hypot(this.x[i] - this.x[j], this.y[i] - this.y[j]);
        if (d > 1e-6 && d < best) best = d;
      }
    }
    return Number.isFinite(best) ? best : 0.5;
  }

  // Does the straight line from router a (unit direction u, length len) pass within
  // `clearance` of a router other than its two ends?
  blocked(a, b, ux, uy, len, clearance) {
    const ax = this.x[a];
    const ay = this.y[a];
    for (let r = 0; r < this.routers; r++) {
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
