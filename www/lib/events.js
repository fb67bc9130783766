// A minimal typed event emitter for the page's state objects: each object has one owner
// module that writes it, and says what changed through its events (e.g. "experiment
// changed", "view changed", "redraw needed"), so the modules that show it need not poll
// it or reset each other's fields.

/**
 * @template {Record<string, unknown>} Events event name → the detail its listeners get
 */
export class Emitter {
  constructor() {
    /** @type {Map<keyof Events, Set<(detail: unknown) => void>>} */
    this.listeners = new Map();
  }

  /**
   * Calls `fn` on every `type` event from now on. Returns a function that stops it.
   * @template {keyof Events} K
   * @param {K} type
   * @param {(detail: Events[K]) => void} fn
   * @returns {() => void}
   */
  on(type, fn) {
    const call = (/** @type {unknown} */ detail) => fn(/** @type {Events[K]} */ (detail));
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(call);
    return () => set.delete(call);
  }

  /**
   * Tells the listeners of `type`, in the order they were added.
   * @template {keyof Events} K
   * @param {K} type
   * @param {Events[K]} detail
   */
  emit(type, detail) {
    for (const call of [...(this.listeners.get(type) ?? [])]) call(detail);
  }
}
