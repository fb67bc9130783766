// Runs load–latency sweep points off the main thread, so the page keeps animating: each
// message {id, config} runs one configuration with the papers' methodology (warm-up,
// labeled window, drain) and posts back {id, result} or {id, error}. The result is the
// engine's SweepPoint ({summary, batch_normalized_latency}, the summary named as the CLI's
// JSON); config problems (FieldError[]) come back as `path: message` lines (serve,
// messageOf).
import { runExperiment } from '../../pkg/hiradix.js';
import { serve } from './wasm-worker.js';

serve(({ config }) => ({ result: runExperiment(JSON.stringify(config)) }));
