// Runs the HyperX design search of the cost view off the main thread (HyperX paper §3.1:
// the fewest-switch regular and general designs for N, R, β, plus the Fig. 8 curves — up to
// a hundred searches), so the page stays responsive. Each message {id, nodes, radix, beta}
// (the inputs as typed) is answered with {id, result, ms} or {id, error}.
import init, { costHyperx, lastPanic } from '../pkg/hiradix.js';

const ready = init();

self.onmessage = async (event) => {
  const { id, nodes, radix, beta } = event.data;
  try {
    await ready;
    const t0 = performance.now();
    const result = JSON.parse(costHyperx(String(nodes), String(radix), String(beta)));
    self.postMessage({ id, result, ms: performance.now() - t0 });
  } catch (err) {
    let panic = null;
    try {
      panic = lastPanic();
    } catch {
      // the module may be unusable after a trap
    }
    self.postMessage({ id, error: panic ?? String(err?.message ?? err) });
  }
};
