// The message loop shared by the page's Web Workers: loads the wasm module once, answers
// each message {id, ...} with {id, ...work(message)} (`work` may return a promise), or
// with {id, error, trapped} (the Rust panic message when the module trapped, else the
// exception's; `trapped` tells a trap or a failed allocation, after which the module is
// unusable, from an ordinary exception). A reply may name ArrayBuffers to transfer
// instead of copying in its `transfer` field, which is not posted.
import init, { lastPanic } from '../../pkg/hiradix.js';
import { messageOf } from '../lib/errors.js';

export function serve(work) {
  const ready = init();
  self.onmessage = async (event) => {
    const { id } = event.data;
    try {
      await ready;
      const { transfer = [], ...reply } = (await work(event.data)) ?? {};
      self.postMessage({ id, ...reply }, transfer);
    } catch (err) {
      const trapped = err instanceof WebAssembly.RuntimeError || err instanceof RangeError;
      let panic = null;
      try {
        panic = trapped ? lastPanic() : null;
      } catch {
        // the module may be unusable after a trap
      }
      self.postMessage({ id, error: panic ?? messageOf(err), trapped });
    }
  };
}
