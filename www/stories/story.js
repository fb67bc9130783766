// What a story shows on the picture: the channels its point is about (its focus, a mask
// over the channels that the engine selects, src/story/focus.rs; drawn wide over an orange casing
// while the others are dimmed) and its key plot beside the picture, computed from the very
// numbers the picture draws.

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
