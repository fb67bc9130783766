// Runs load–latency sweep points off the main thread, so the page keeps animating: each
// message {id, config} runs one configuration with the papers' methodology (warm-up,
// labeled window, drain) and posts back {id, result} or {id, error}. The result is the
// engine's {summary, batch_normalized_latency} (the summary named as the CLI's JSON); config
// problems come as [{path, message}] and are posted as `path: message` lines.
import { runExperiment } from '../../pkg/hiradix.js';
import { serve } from './wasm-worker.js';

serve(({ config }) => {
  try {
    return { result: runExperiment(JSON.stringify(config)) };
  } catch (e) {
    if (Array.isArray(e)) return { error: e.map(({ path, message }) => `${path}: ${message}`).join('\n') };
    throw e;
  }
});
