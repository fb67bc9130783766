// What a story shows on the picture: the channels its point is about (its focus, a mask
// over the channels, drawn wide over an orange casing while the others are dimmed) and its
// key plot beside the picture, computed from the very numbers the picture draws.
//
// A focus rule names the traffic pattern it is about; when the experiment no longer runs
// that pattern (a tweak), the focus is dropped rather than pointing at the wrong channels.

/** Coordinate `d` of router `r` in a HyperX of extents `dims` (dimension 0 varies fastest). */
function coord(r, d, dims) {
  let stride = 1;
  for (let k = 0; k < d; k++) stride *= dims[k];
  return Math.floor(r / stride) % dims[d];
}

// Swap2's partner coordinate (HyperX §4.1, as src/traffic/patterns.rs builds it).
function swapCoord(x, s) {
  const half = Math.ceil(s / 2);
  if (x < Math.floor(s / 2)) return x + half;
  if (x >= half) return x - half;
  return x;
}

/**
 * The focus mask of `rule` on a pane's network, or null when the rule does not apply to
 * this experiment. `net`: {info, config, src, dst (Uint32Array per channel), groups
 * (per router), classes (per channel: 1 = dragonfly global)}.
 */
export function focusMask(rule, net) {
  if (!rule) return null;
  const { info, config, src, dst } = net;
  if (rule.pattern && config.traffic?.pattern !== rule.pattern) return null;
  const shift = config.traffic?.shift ?? 1;
  const n = src.length;
  const mask = new Uint8Array(n);
  let any = false;
  const set = (c) => {
    mask[c] = 1;
    any = true;
  };
  if (rule.kind === 'shift_direct') {
    // Router i's terminals all send to router i + shift: the direct channel(s) i → i + shift.
    const R = info.routers;
    for (let c = 0; c < n; c++) if (dst[c] === (src[c] + shift) % R) set(c);
  } else if (rule.kind === 'group_shift_global') {
    // Group i sends to group i + shift: the global channel(s) between them. A sliced
    // dragonfly numbers its groups on through the slices (block s·g + i): within each.
    const S = info.slices ?? 1;
    const G = info.groups / S;
    const g = net.groups;
    if (!g || !net.classes || !G) return null;
    for (let c = 0; c < n; c++) {
      const a = g[src[c]];
      if (net.classes[c] === 1 && g[dst[c]] === a - (a % G) + (((a % G) + shift) % G)) set(c);
    }
  } else if (rule.kind === 'slice') {
    // A sliced dragonfly (routers numbered slice by slice): every channel of slice `slice`.
    const S = info.slices ?? 1;
    if (S < 2 || !(rule.slice < S)) return null;
    const per = info.routers / S;
    for (let c = 0; c < n; c++) if (Math.floor(src[c] / per) === rule.slice) set(c);
  } else if (rule.kind === 'swap2_minimal') {
    // Each switch's even terminals cross dimension 0's bisection, its odd ones dimension
    // 1's: the minimal channel of each in its dimension.
    const dims = info.dims;
    if (!dims || dims.length < 2) return null;
    for (let c = 0; c < n; c++) {
      const a = src[c];
      const b = dst[c];
      for (const d of [0, 1]) {
        if (coord(b, d, dims) !== swapCoord(coord(a, d, dims), dims[d])) continue;
        let same = true;
        for (let k = 0; k < dims.length && same; k++) if (k !== d && coord(a, k, dims) !== coord(b, k, dims)) same = false;
        if (same && coord(a, d, dims) !== coord(b, d, dims)) set(c);
      }
    }
  } else if (rule.kind === 'failed_link_detours') {
    // Around each failed link a–b: the working channels a → x → b and b → x → a through
    // every router x linked to both (in a HyperX, the rest of the link's line: DAL's detour).
    const failed = net.failed;
    if (!failed) return null;
    const R = info.routers;
    const out = Array.from({ length: R }, () => []);
    const pairs = new Map(); // src·R + dst → working channels
    for (let c = 0; c < n; c++) {
      if (failed[c]) continue;
      out[src[c]].push(c);
      const k = src[c] * R + dst[c];
      if (!pairs.has(k)) pairs.set(k, []);
      pairs.get(k).push(c);
    }
    const both = (a, b) => [...(pairs.get(a * R + b) ?? []), ...(pairs.get(b * R + a) ?? [])];
    for (let c = 0; c < n; c++) {
      if (!failed[c] || src[c] > dst[c]) continue;
      const a = src[c];
      const b = dst[c];
      for (const c1 of out[a]) {
        const x = dst[c1];
        if (x === b || !pairs.has(x * R + b)) continue;
        for (const d of [...both(a, x), ...both(x, b)]) set(d);
      }
    }
  } else return null;
  return any ? mask : null;
}

/** Mean of `values` over the channels in / out of `mask`: {focus, rest, count}. */
export function classMeans(values, mask) {
  let fs = 0;
  let fn = 0;
  let rs = 0;
  let rn = 0;
  for (let c = 0; c < mask.length; c++) {
    const v = values[c];
    if (mask[c]) {
      fs += v;
      fn++;
    } else {
      rs += v;
      rn++;
    }
  }
  return { focus: fn ? fs / fn : NaN, rest: rn ? rs / rn : NaN, count: fn };
}
