// Runs load–latency sweep points off the main thread, so the page keeps animating: each
// message {id, config} runs one configuration with the papers' methodology (warm-up,
// labeled window, drain) and posts back {id, result} or {id, error}.
import init, { runExperiment, lastPanic } from '../pkg/hiradix.js';

const ready = init();

self.onmessage = async (event) => {
  const { id, config } = event.data;
  try {
    await ready;
    const result = JSON.parse(runExperiment(JSON.stringify(config)));
    self.postMessage({ id, result });
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
