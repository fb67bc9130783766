// Runs load–latency sweep points off the main thread, so the page keeps animating: each
// message {id, config} runs one configuration with the papers' methodology (warm-up,
// labeled window, drain) and posts back {id, result} or {id, error}.
import { runExperiment } from '../pkg/hiradix.js';
import { serve } from './wasm-worker.js';

serve(({ config }) => ({ result: JSON.parse(runExperiment(JSON.stringify(config))) }));
