// The message loop shared by the page's Web Workers: loads the wasm module once, answers
// each message {id, ...} with {id, ...work(message)}, or with {id, error} (the Rust panic
// message when the module trapped, else the exception's).
import init, { lastPanic } from '../pkg/hiradix.js';

export function serve(work) {
  const ready = init();
  self.onmessage = async (event) => {
    const { id } = event.data;
    try {
      await ready;
      self.postMessage({ id, ...work(event.data) });
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
}
