// Runs the HyperX design search of the cost view off the main thread (HyperX paper §3.1:
// the fewest-switch regular and general designs for N, R, β, plus the Fig. 8 curves — up to
// a hundred searches), so the page stays responsive. Each message {id, nodes, radix, beta}
// (the inputs as typed) is answered with {id, result, ms} or {id, error}.
import { costHyperx } from '../../pkg/hiradix.js';
import { serve } from './wasm-worker.js';

serve(({ nodes, radix, beta }) => {
  const t0 = performance.now();
  const result = costHyperx(String(nodes), String(radix), String(beta));
  return { result, ms: performance.now() - t0 };
});
