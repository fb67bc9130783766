/* @ts-self-types="./hiradix.d.ts" */

/**
 * One simulation as the page sees it.
 *
 * Every packet is labeled (the measurement window is the whole run), so the engine's
 * minimal / non-minimal latency accumulators cover all delivered packets and the page can
 * plot their split over time (dragonfly paper Figs. 11–12). The papers' methodology with a
 * warm-up and a drained window is what [`super::run_experiment`] runs for the sweep.
 */
export class WebSim {
    __destroy_into_raw() {
        const ptr = this.__wbg_ptr;
        this.__wbg_ptr = 0;
        WebSimFinalization.unregister(this);
        return ptr;
    }
    free() {
        const ptr = this.__destroy_into_raw();
        wasm.__wbg_websim_free(ptr, 0);
    }
    /**
     * Advances the simulation by `cycles` cycles (keeping snapshots for rewinding). Fails
     * (and stays put) when the deadlock watchdog trips; the message names the blocked
     * routers and VCs.
     * @param {number} cycles
     */
    advance(cycles) {
        const ret = wasm.websim_advance(this.__wbg_ptr, cycles);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * Flits per VC buffer.
     * @returns {number}
     */
    bufferDepth() {
        const ret = wasm.websim_bufferDepth(this.__wbg_ptr);
        return ret >>> 0;
    }
    /**
     * Per channel: 1 for a dragonfly global channel, 0 otherwise.
     * @returns {Uint8Array}
     */
    channelClasses() {
        const ret = wasm.websim_channelClasses(this.__wbg_ptr);
        var v1 = getArrayU8FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
        return v1;
    }
    /**
     * Channel `c` ([`ChannelDetail`]); `undefined` past the last channel.
     * @param {number} c
     * @returns {ChannelDetail | undefined}
     */
    channelDetail(c) {
        const ret = wasm.websim_channelDetail(this.__wbg_ptr, c);
        return ret;
    }
    /**
     * Channel endpoints, `[src0, dst0, src1, dst1, …]` as router indices. Each direction of
     * a link is its own channel, and parallel (trunked) links appear once each.
     * @returns {Uint32Array}
     */
    channelEndpoints() {
        const ret = wasm.websim_channelEndpoints(this.__wbg_ptr);
        var v1 = getArrayU32FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * The link of channel `channel` as `faults.links` names it: `[router, router, trunk]`
     * (trunk: its index among the parallel links of the pair, in port order at the first
     * router); empty for a channel that does not exist.
     * @param {number} channel
     * @returns {Uint32Array}
     */
    channelLink(channel) {
        const ret = wasm.websim_channelLink(this.__wbg_ptr, channel);
        var v1 = getArrayU32FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * Per-channel queue occupancy in `[0, 1]`: flits buffered in the downstream input
     * port the channel feeds (all its VCs) over that port's buffer capacity.
     * @returns {Float32Array}
     */
    channelOccupancy() {
        const ret = wasm.websim_channelOccupancy(this.__wbg_ptr);
        var v1 = getArrayF32FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * Per-channel utilization in `[0, 1]`: flits sent per cycle, smoothed exponentially
     * with a time constant of [`UTILIZATION_TIME_CONSTANT`] cycles (so that stepping one
     * cycle per frame does not flicker). Each call samples the counters since the last.
     * @returns {Float32Array}
     */
    channelUtilization() {
        const ret = wasm.websim_channelUtilization(this.__wbg_ptr);
        var v1 = getArrayF32FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * The configuration in effect (with the load set while running), with every default
     * filled in ([`SimConfig`], as its JSON names it).
     * @returns {SimConfig}
     */
    config() {
        const ret = wasm.websim_config(this.__wbg_ptr);
        return ret;
    }
    /**
     * Per channel: 1 if its link has failed.
     * @returns {Uint8Array}
     */
    failedChannels() {
        const ret = wasm.websim_failedChannels(this.__wbg_ptr);
        var v1 = getArrayU8FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
        return v1;
    }
    /**
     * The channels a story's focus selects on this network (`focus_json`: the document's
     * `focus`, see [`crate::story::focus_mask`]), 1 = selected; empty when the focus does
     * not show here (another pattern, or nothing selected). Throws when the focus is not
     * one the story format allows.
     * @param {string} focus_json
     * @returns {Uint8Array}
     */
    focusChannels(focus_json) {
        const ptr0 = passStringToWasm0(focus_json, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.websim_focusChannels(this.__wbg_ptr, ptr0, len0);
        if (ret[3]) {
            throw takeFromExternrefTable0(ret[2]);
        }
        var v2 = getArrayU8FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
        return v2;
    }
    /**
     * Dragonfly paper Fig. 9: the utilization of a group's global channels, by class
     * (the minimal channel towards group `G + shift`, the other channels of its router,
     * all others), averaged over the groups, over the cycles since the previous call
     * ([`Fig9Window`]); `undefined` if the network is not a dragonfly or no cycle passed.
     * @returns {Fig9Window | undefined}
     */
    globalChannelUtilization() {
        const ret = wasm.websim_globalChannelUtilization(this.__wbg_ptr);
        return ret;
    }
    /**
     * Cumulative latency histograms of delivered packets, one-cycle bins `0..bins` (the
     * last bin also counts everything larger): the minimally routed packets' bins, then
     * the non-minimally routed packets' bins.
     * @param {number} bins
     * @returns {Uint32Array}
     */
    latencyHistograms(bins) {
        const ret = wasm.websim_latencyHistograms(this.__wbg_ptr, bins);
        var v1 = getArrayU32FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * The channel of a link as `faults.links` names it (`[a, b]` or `[a, b, trunk]`: the
     * `trunk`-th link between routers a and b, from a's side), or -1 when there is none.
     * @param {number} a
     * @param {number} b
     * @param {number} trunk
     * @returns {number}
     */
    linkChannel(a, b, trunk) {
        const ret = wasm.websim_linkChannel(this.__wbg_ptr, a, b, trunk);
        return ret;
    }
    /**
     * The cumulative counters for live statistics, as an object named by
     * [`crate::stats::LiveCounters`] (`{generated, delivered, delivered_flits, …}`).
     * @returns {LiveCounters}
     */
    liveCounters() {
        const ret = wasm.websim_liveCounters(this.__wbg_ptr);
        return ret;
    }
    /**
     * What the page needs to know about the network ([`NetworkInfo`]): its type and
     * family, sizes, counters' units, drawing blocks and the family's shape.
     * @returns {NetworkInfo}
     */
    networkInfo() {
        const ret = wasm.websim_networkInfo(this.__wbg_ptr);
        return ret;
    }
    /**
     * Builds a simulation from a JSON config (the same format as the CLI's). Throws every
     * config problem as `[{path, message}]`.
     * @param {string} config_json
     */
    constructor(config_json) {
        const ptr0 = passStringToWasm0(config_json, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.websim_new(ptr0, len0);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        this.__wbg_ptr = ret[0];
        WebSimFinalization.register(this, this.__wbg_ptr, this);
        return this;
    }
    /**
     * The current cycle.
     * @returns {number}
     */
    now() {
        const ret = wasm.websim_now(this.__wbg_ptr);
        return ret;
    }
    /**
     * The packets on router-to-router channels now, five numbers each: `[channel,
     * progress, step, nonminimal, followed, …]` — `progress` in `(0, 1]` is how far the
     * packet has travelled along the channel at the end of the last cycle and `step` how
     * far it moves per cycle (1 / the channel's latency), so a slow animation can glide
     * from `progress − step` to `progress`; `nonminimal` is 1 for a packet routed off its
     * minimal path; `followed` is 1 for the packet the trace follows.
     * @returns {Float32Array}
     */
    packetsOnChannels() {
        const ret = wasm.websim_packetsOnChannels(this.__wbg_ptr);
        var v1 = getArrayF32FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * Starts (or stops) recording the numbers behind every per-hop routing decision
     * (DAL); `routerDetail` then shows the last one at each router as `hop_note`. Off by
     * default: it costs the engine time.
     * @param {boolean} on
     */
    recordHopNotes(on) {
        wasm.websim_recordHopNotes(this.__wbg_ptr, on);
    }
    /**
     * Goes back to cycle `cycle` (clamped to what the history holds), exactly as it was
     * first reached there; what was done after it (load changes, failed links) is undone.
     * Returns the cycle reached.
     * @param {number} cycle
     * @returns {number}
     */
    rewindTo(cycle) {
        const ret = wasm.websim_rewindTo(this.__wbg_ptr, cycle);
        return ret;
    }
    /**
     * How far back [`WebSim::rewind_to`] can go: `{earliest, max_replay, snapshots,
     * bytes, budget}`.
     * @returns {Rewindable}
     */
    rewindable() {
        const ret = wasm.websim_rewindable(this.__wbg_ptr);
        return ret;
    }
    /**
     * Per router, the routing decisions counted since the start: `[routed0, nonminimal0,
     * routed1, …]` — packets routed onto a router-to-router channel there, and those sent
     * off their minimal path there (UGAL's choice of Valiant at the source, DAL's deroute).
     * @returns {Float64Array}
     */
    routerDecisions() {
        const ret = wasm.websim_routerDecisions(this.__wbg_ptr);
        var v1 = getArrayF64FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 8, 8);
        return v1;
    }
    /**
     * Everything about router `r` ([`RouterDetail`]): its ports, its last adaptive
     * decision (`note`) and, while recording (see `recordHopNotes`), its last per-hop
     * decision (`hop_note`); `undefined` past the last router.
     * @param {number} r
     * @returns {RouterDetail | undefined}
     */
    routerDetail(r) {
        const ret = wasm.websim_routerDetail(this.__wbg_ptr, r);
        return ret;
    }
    /**
     * Per router, the structural block it is drawn in: its group (dragonfly), its tile of
     * the dimensions above the first two (HyperX family), else 0.
     * @returns {Uint32Array}
     */
    routerGroups() {
        const ret = wasm.websim_routerGroups(this.__wbg_ptr);
        var v1 = getArrayU32FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * Per-router injection occupancy in `[0, 1]`: flits buffered in the input VCs of the
     * router's terminal ports (packets injected but not yet switched) over their capacity.
     * It rises when a router cannot accept its terminals' traffic.
     * @returns {Float32Array}
     */
    routerInjectionOccupancy() {
        const ret = wasm.websim_routerInjectionOccupancy(this.__wbg_ptr);
        var v1 = getArrayF32FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * Router drawing coordinates, `[x0, y0, x1, y1, …]`, each in `[0, 1]`.
     * @returns {Float32Array}
     */
    routerPositions() {
        const ret = wasm.websim_routerPositions(this.__wbg_ptr);
        var v1 = getArrayF32FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * Per router, the mean number of packets waiting in the source queues of the
     * terminals that inject there (grows without bound past saturation, up to the cap).
     * @returns {Float32Array}
     */
    routerSourceQueues() {
        const ret = wasm.websim_routerSourceQueues(this.__wbg_ptr);
        var v1 = getArrayF32FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * Runs until an event, at most `max_cycles` cycles: `decision` — the next routing
     * decision at router `arg`; `nonminimal` — the next packet sent off its minimal path
     * at router `arg`; `saturated` — the first saturated channel: one of the VC buffers it
     * feeds is full, so the packets routed to that VC wait upstream (backpressure).
     * Returns `{cycles, reached, channel, error}`.
     * @param {string} kind
     * @param {number} arg
     * @param {number} max_cycles
     * @returns {RunUntil}
     */
    runUntil(kind, arg, max_cycles) {
        const val2 = +arg;
        const val3 = +max_cycles;
        const ptr0 = passStringToWasm0(kind, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.websim_runUntil(this.__wbg_ptr, ptr0, len0, val2, val3);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
    /**
     * Fails (`failed`) or restores the link of channel `channel` (both of its directions)
     * while the simulation runs (HyperX §6; `Simulation::set_link_failed` states what
     * happens to packets under way). Returns `[]`, or why it was refused as
     * `[{path, message}]` (a failure that would disconnect the network, or a channel that
     * does not exist).
     * @param {number} channel
     * @param {boolean} failed
     * @returns {FieldError[]}
     */
    setChannelFailed(channel, failed) {
        const ret = wasm.websim_setChannelFailed(this.__wbg_ptr, channel, failed);
        return ret;
    }
    /**
     * Changes the offered load while running (`traffic.load`'s range). Returns an empty
     * array, or the errors as `[{path, message}]`. Rewinding past the change undoes it.
     * @param {number} load
     * @returns {FieldError[]}
     */
    setLoad(load) {
        const ret = wasm.websim_setLoad(this.__wbg_ptr, load);
        return ret;
    }
    /**
     * Stops following.
     */
    traceClear() {
        wasm.websim_traceClear(this.__wbg_ptr);
    }
    /**
     * Follows the next packet generated at a terminal of router `r` (the same packet in
     * panes that differ only in routing).
     * @param {number} r
     * @returns {boolean}
     */
    traceNextAt(r) {
        const ret = wasm.websim_traceNextAt(this.__wbg_ptr, r);
        return ret !== 0;
    }
    /**
     * Follows the packet at the head of input VC `vc` of port `port` of router `r`;
     * false if that VC is empty.
     * @param {number} r
     * @param {number} port
     * @param {number} vc
     * @returns {boolean}
     */
    traceQueueHead(r, port, vc) {
        const ret = wasm.websim_traceQueueHead(this.__wbg_ptr, r, port, vc);
        return ret !== 0;
    }
    /**
     * The trace ([`TraceView`]): the router whose next generated packet will be followed
     * (`armed`), the cycle, and the followed packet — one hop per router visited, its
     * departure absent while the packet is there; no hops while it waits in its source
     * queue (`in_source`).
     * @returns {TraceView}
     */
    trace() {
        const ret = wasm.websim_trace(this.__wbg_ptr);
        return ret;
    }
    /**
     * Per channel and VC, the flits buffered in the downstream input VC the channel feeds:
     * channel `c`'s VC `v` at `c·V + v`.
     * @returns {Uint16Array}
     */
    vcOccupancy() {
        const ret = wasm.websim_vcOccupancy(this.__wbg_ptr);
        var v1 = getArrayU16FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 2, 2);
        return v1;
    }
    /**
     * Virtual channels per port.
     * @returns {number}
     */
    vcs() {
        const ret = wasm.websim_vcs(this.__wbg_ptr);
        return ret >>> 0;
    }
}
if (Symbol.dispose) WebSim.prototype[Symbol.dispose] = WebSim.prototype.free;

/**
 * Engine speed in the browser: builds a configuration, runs `warmup` cycles, then times
 * `cycles` more with the caller's clock `now_ms` (e.g. `() => performance.now()`) and
 * returns `[milliseconds, packets delivered meanwhile]`. The same measurement as the
 * native `hiradix bench`; `scripts/measure-web-speed.mjs` compares the two.
 * @param {string} config_json
 * @param {number} warmup
 * @param {number} cycles
 * @param {Function} now_ms
 * @returns {Float64Array}
 */
export function benchAdvance(config_json, warmup, cycles, now_ms) {
    const val2 = +warmup;
    const val3 = +cycles;
    const ptr0 = passStringToWasm0(config_json, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
    const len0 = WASM_VECTOR_LEN;
    const ret = wasm.benchAdvance(ptr0, len0, val2, val3, now_ms);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v4 = getArrayF64FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 8, 8);
    return v4;
}

/**
 * The catalog of topologies, routing algorithms, traffic patterns and parameters (see
 * [`crate::catalog`]); the page builds its controls from it.
 * @returns {Catalog}
 */
export function catalog() {
    const ret = wasm.catalog();
    return ret;
}

/**
 * Checks a configuration without running it: `[]` when it builds, else every problem as
 * `[{path, message}]`, each with the dotted path of its field.
 * @param {string} config_json
 * @returns {FieldError[]}
 */
export function checkConfig(config_json) {
    const ptr0 = passStringToWasm0(config_json, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
    const len0 = WASM_VECTOR_LEN;
    const ret = wasm.checkConfig(ptr0, len0);
    return ret;
}

/**
 * Checks a story document ([`crate::story`]) as `hiradix story check` does: `[]` when it
 * passes, else every problem as `[{path, message}]`, each with the dotted path of its
 * field (e.g. `experiment.compare.values[1].routing.algorithm`).
 * @param {string} text
 * @returns {FieldError[]}
 */
export function checkStory(text) {
    const ptr0 = passStringToWasm0(text, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
    const len0 = WASM_VECTOR_LEN;
    const ret = wasm.checkStory(ptr0, len0);
    return ret;
}

/**
 * The analytic plots (FB paper Figs. 10, 11, 13, 15; dragonfly paper Figs. 2, 19) and
 * every topology at `N` (see [`explore::figures`]). Milliseconds: run it on the page's
 * thread.
 * @param {string} nodes
 * @param {string} radix
 * @param {string} beta
 * @returns {CostFigures}
 */
export function costFigures(nodes, radix, beta) {
    let ptr0, len0, ptr1, len1, ptr2, len2;
    try {
        ptr0 = passStringToWasm0(nodes, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len0 = WASM_VECTOR_LEN;
        ptr1 = passStringToWasm0(radix, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len1 = WASM_VECTOR_LEN;
        ptr2 = passStringToWasm0(beta, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len2 = WASM_VECTOR_LEN;
    } catch (e) {
        if (ptr2) { wasm.__wbindgen_free(ptr2, len2 * 1, 1); }
        if (ptr1) { wasm.__wbindgen_free(ptr1, len1 * 1, 1); }
        if (ptr0) { wasm.__wbindgen_free(ptr0, len0 * 1, 1); }
        throw e;
    }
    const ret = wasm.costFigures(ptr0, len0, ptr1, len1, ptr2, len2);
    if (ret[2]) {
        throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
}

/**
 * The HyperX design search for `(N, R, β)` and Fig. 8 for radix `R` (see
 * [`explore::hyperx`]). Dozens of searches: the page runs it in `www/sim/cost-worker.js`.
 * @param {string} nodes
 * @param {string} radix
 * @param {string} beta
 * @returns {CostHyperx}
 */
export function costHyperx(nodes, radix, beta) {
    let ptr0, len0, ptr1, len1, ptr2, len2;
    try {
        ptr0 = passStringToWasm0(nodes, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len0 = WASM_VECTOR_LEN;
        ptr1 = passStringToWasm0(radix, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len1 = WASM_VECTOR_LEN;
        ptr2 = passStringToWasm0(beta, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len2 = WASM_VECTOR_LEN;
    } catch (e) {
        if (ptr2) { wasm.__wbindgen_free(ptr2, len2 * 1, 1); }
        if (ptr1) { wasm.__wbindgen_free(ptr1, len1 * 1, 1); }
        if (ptr0) { wasm.__wbindgen_free(ptr0, len0 * 1, 1); }
        throw e;
    }
    const ret = wasm.costHyperx(ptr0, len0, ptr1, len1, ptr2, len2);
    if (ret[2]) {
        throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
}

/**
 * Checks the inputs: `{nodes, radix, beta}`, or throws their `FieldError[]`.
 * @param {string} nodes
 * @param {string} radix
 * @param {string} beta
 * @returns {CostQuery}
 */
export function costQuery(nodes, radix, beta) {
    let ptr0, len0, ptr1, len1, ptr2, len2;
    try {
        ptr0 = passStringToWasm0(nodes, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len0 = WASM_VECTOR_LEN;
        ptr1 = passStringToWasm0(radix, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len1 = WASM_VECTOR_LEN;
        ptr2 = passStringToWasm0(beta, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len2 = WASM_VECTOR_LEN;
    } catch (e) {
        if (ptr2) { wasm.__wbindgen_free(ptr2, len2 * 1, 1); }
        if (ptr1) { wasm.__wbindgen_free(ptr1, len1 * 1, 1); }
        if (ptr0) { wasm.__wbindgen_free(ptr0, len0 * 1, 1); }
        throw e;
    }
    const ret = wasm.costQuery(ptr0, len0, ptr1, len1, ptr2, len2);
    if (ret[2]) {
        throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
}

/**
 * The message of the last Rust panic, if any (the page shows it in its error banner).
 * @returns {string | undefined}
 */
export function lastPanic() {
    const ret = wasm.lastPanic();
    let v1;
    if (ret[0] !== 0) {
        v1 = getStringFromWasm0(ret[0], ret[1]);
        wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
    }
    return v1;
}

/**
 * The most a simulation of `config_json` can reserve when it is built ([`reserve`]: its
 * estimate and a full rewind budget twice), or NaN for a configuration that does not
 * read or validate. The worker compares the sum over an experiment's panes with what is
 * free before building them.
 * @param {string} config_json
 * @returns {number}
 */
export function memoryNeed(config_json) {
    const ptr0 = passStringToWasm0(config_json, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
    const len0 = WASM_VECTOR_LEN;
    const ret = wasm.memoryNeed(ptr0, len0);
    return ret;
}

/**
 * Panics on purpose, so the page's tests can check that a panic shows the error banner
 * instead of killing the page.
 */
export function panicForTest() {
    wasm.panicForTest();
}

/**
 * Runs one configuration with the papers' methodology (warm-up, labeled window, drain;
 * see [`crate::experiment`]) and returns `{summary, batch_normalized_latency}`, the
 * summary named as the CLI's JSON names it ([`crate::experiment::SweepPoint`]). Used by the
 * page's load–latency sweep, which calls it from a Web Worker so the page keeps
 * animating. Throws config problems as `[{path, message}]`, a deadlock as an `Error`.
 * @param {string} config_json
 * @returns {SweepPoint}
 */
export function runExperiment(config_json) {
    const ptr0 = passStringToWasm0(config_json, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
    const len0 = WASM_VECTOR_LEN;
    const ret = wasm.runExperiment(ptr0, len0);
    if (ret[2]) {
        throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
}

export function start() {
    wasm.start();
}

/**
 * The offered loads of the page's sweep box (`start:stop:step` or a list; see
 * [`crate::experiment::parse_loads`]), at most [`crate::story::MAX_SWEEP_LOADS`]; throws
 * what is wrong as `[{path: "sweep", message}]`.
 * @param {string} text
 * @returns {Float64Array}
 */
export function sweepLoads(text) {
    const ptr0 = passStringToWasm0(text, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
    const len0 = WASM_VECTOR_LEN;
    const ret = wasm.sweepLoads(ptr0, len0);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v2 = getArrayF64FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 8, 8);
    return v2;
}

/**
 * `{reserved, simulations, peak_reserved, limit, heap, peak_heap}`: the worker's budget and the heap it
 * really uses (the page's memory tests compare the two).
 * @returns {WorkerMemory}
 */
export function workerMemory() {
    const ret = wasm.workerMemory();
    return ret;
}
function __wbg_get_imports() {
    const import0 = {
        __proto__: null,
        __wbg_Error_208446807d0d1e30: function(arg0, arg1) {
            const ret = Error(getStringFromWasm0(arg0, arg1));
            return ret;
        },
        __wbg___wbindgen_is_string_fc456fee5d3317de: function(arg0) {
            const ret = typeof(arg0) === 'string';
            return ret;
        },
        __wbg___wbindgen_number_get_934b640d0889af78: function(arg0, arg1) {
            const obj = arg1;
            const ret = typeof(obj) === 'number' ? obj : undefined;
            getDataViewMemory0().setFloat64((arg0 >>> 0) + 8 * 1, isLikeNone(ret) ? 0 : ret, true);
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, !isLikeNone(ret), true);
        },
        __wbg___wbindgen_throw_4c88d8bf264fd984: function(arg0, arg1) {
            throw new Error(getStringFromWasm0(arg0, arg1));
        },
        __wbg_call_40b008ba32f73991: function() { return handleError(function (arg0, arg1) {
            const ret = arg0.call(arg1);
            return ret;
        }, arguments); },
        __wbg_error_757e9472f8410341: function(arg0, arg1) {
            let deferred0_0;
            let deferred0_1;
            try {
                deferred0_0 = arg0;
                deferred0_1 = arg1;
                console.error(getStringFromWasm0(arg0, arg1));
            } finally {
                wasm.__wbindgen_free(deferred0_0, deferred0_1, 1);
            }
        },
        __wbg_new_37eb45aaf5eeb820: function() {
            const ret = new Array();
            return ret;
        },
        __wbg_new_7075786089b89c5e: function() {
            const ret = new Map();
            return ret;
        },
        __wbg_new_bb74001155cb8ca8: function() {
            const ret = new Error();
            return ret;
        },
        __wbg_new_cd4348290afae586: function() {
            const ret = new Object();
            return ret;
        },
        __wbg_set_8282f7e0d2d01336: function(arg0, arg1, arg2) {
            const ret = arg0.set(arg1, arg2);
            return ret;
        },
        __wbg_set_d2d33b52458e984a: function(arg0, arg1, arg2) {
            arg0[arg1 >>> 0] = arg2;
        },
        __wbg_set_e4b9a833d288759a: function(arg0, arg1, arg2) {
            arg0[arg1] = arg2;
        },
        __wbg_stack_575c4e0918581b9c: function(arg0, arg1) {
            const ret = arg1.stack;
            const ptr1 = passStringToWasm0(ret, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
            const len1 = WASM_VECTOR_LEN;
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);
        },
        __wbindgen_generic_0000000000000001: function(arg0) {
            // Cast intrinsic for `F64 -> Externref`.
            const ret = arg0;
            return ret;
        },
        __wbindgen_generic_0000000000000002: function(arg0) {
            // Cast intrinsic for `I64 -> Externref`.
            const ret = arg0;
            return ret;
        },
        __wbindgen_generic_0000000000000003: function(arg0, arg1) {
            // Cast intrinsic for `Ref(String) -> Externref`.
            const ret = getStringFromWasm0(arg0, arg1);
            return ret;
        },
        __wbindgen_generic_0000000000000004: function(arg0) {
            // Cast intrinsic for `U64 -> Externref`.
            const ret = BigInt.asUintN(64, arg0);
            return ret;
        },
        __wbindgen_init_externref_table: function() {
            const table = wasm.__wbindgen_externrefs;
            table.set(0, undefined);
            table.set(1024, undefined);
            table.set(1025, null);
            table.set(1026, true);
            table.set(1027, false);
        },
    };
    return {
        __proto__: null,
        "./hiradix_bg.js": import0,
    };
}

const WebSimFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_websim_free(ptr, 1));

function addToExternrefTable0(obj) {
    const idx = wasm.__externref_table_alloc();
    wasm.__wbindgen_externrefs.set(idx, obj);
    return idx;
}

function getArrayF32FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getFloat32ArrayMemory0().subarray(ptr / 4, ptr / 4 + len);
}

function getArrayF64FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getFloat64ArrayMemory0().subarray(ptr / 8, ptr / 8 + len);
}

function getArrayU16FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getUint16ArrayMemory0().subarray(ptr / 2, ptr / 2 + len);
}

function getArrayU32FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getUint32ArrayMemory0().subarray(ptr / 4, ptr / 4 + len);
}

function getArrayU8FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getUint8ArrayMemory0().subarray(ptr / 1, ptr / 1 + len);
}

let cachedDataViewMemory0 = null;
function getDataViewMemory0() {
    if (cachedDataViewMemory0 === null || cachedDataViewMemory0.buffer.detached === true || (cachedDataViewMemory0.buffer.detached === undefined && cachedDataViewMemory0.buffer !== wasm.memory.buffer)) {
        cachedDataViewMemory0 = new DataView(wasm.memory.buffer);
    }
    return cachedDataViewMemory0;
}

let cachedFloat32ArrayMemory0 = null;
function getFloat32ArrayMemory0() {
    if (cachedFloat32ArrayMemory0 === null || cachedFloat32ArrayMemory0.byteLength === 0) {
        cachedFloat32ArrayMemory0 = new Float32Array(wasm.memory.buffer);
    }
    return cachedFloat32ArrayMemory0;
}

let cachedFloat64ArrayMemory0 = null;
function getFloat64ArrayMemory0() {
    if (cachedFloat64ArrayMemory0 === null || cachedFloat64ArrayMemory0.byteLength === 0) {
        cachedFloat64ArrayMemory0 = new Float64Array(wasm.memory.buffer);
    }
    return cachedFloat64ArrayMemory0;
}

function getStringFromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return decodeText(getUint8ArrayMemory0().subarray(ptr, ptr + len));
}

let cachedUint16ArrayMemory0 = null;
function getUint16ArrayMemory0() {
    if (cachedUint16ArrayMemory0 === null || cachedUint16ArrayMemory0.byteLength === 0) {
        cachedUint16ArrayMemory0 = new Uint16Array(wasm.memory.buffer);
    }
    return cachedUint16ArrayMemory0;
}

let cachedUint32ArrayMemory0 = null;
function getUint32ArrayMemory0() {
    if (cachedUint32ArrayMemory0 === null || cachedUint32ArrayMemory0.byteLength === 0) {
        cachedUint32ArrayMemory0 = new Uint32Array(wasm.memory.buffer);
    }
    return cachedUint32ArrayMemory0;
}

let cachedUint8ArrayMemory0 = null;
function getUint8ArrayMemory0() {
    if (cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0) {
        cachedUint8ArrayMemory0 = new Uint8Array(wasm.memory.buffer);
    }
    return cachedUint8ArrayMemory0;
}

function handleError(f, args) {
    try {
        return f.apply(this, args);
    } catch (e) {
        const idx = addToExternrefTable0(e);
        wasm.__wbindgen_exn_store(idx);
    }
}

function isLikeNone(x) {
    return x === undefined || x === null;
}

function passStringToWasm0(arg, malloc, realloc) {
    if (realloc === undefined) {
        const buf = cachedTextEncoder.encode(arg);
        const ptr = malloc(buf.length, 1) >>> 0;
        getUint8ArrayMemory0().subarray(ptr, ptr + buf.length).set(buf);
        WASM_VECTOR_LEN = buf.length;
        return ptr;
    }

    let len = arg.length;
    let ptr = malloc(len, 1) >>> 0;

    const mem = getUint8ArrayMemory0();

    let offset = 0;

    for (; offset < len; offset++) {
        const code = arg.charCodeAt(offset);
        if (code > 0x7F) break;
        mem[ptr + offset] = code;
    }
    if (offset !== len) {
        if (offset !== 0) {
            arg = arg.slice(offset);
        }
        ptr = realloc(ptr, len, len = offset + arg.length * 3, 1) >>> 0;
        const view = getUint8ArrayMemory0().subarray(ptr + offset, ptr + len);
        const ret = cachedTextEncoder.encodeInto(arg, view);

        offset += ret.written;
        ptr = realloc(ptr, len, offset, 1) >>> 0;
    }

    WASM_VECTOR_LEN = offset;
    return ptr;
}

function takeFromExternrefTable0(idx) {
    const value = wasm.__wbindgen_externrefs.get(idx);
    wasm.__externref_table_dealloc(idx);
    return value;
}

let cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
cachedTextDecoder.decode();
const MAX_SAFARI_DECODE_BYTES = 2146435072;
let numBytesDecoded = 0;
function decodeText(bytes) {
    numBytesDecoded += bytes.length;
    if (numBytesDecoded >= MAX_SAFARI_DECODE_BYTES) {
        cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
        cachedTextDecoder.decode();
        numBytesDecoded = bytes.length;
    }
    return cachedTextDecoder.decode(bytes);
}

const cachedTextEncoder = new TextEncoder();

if (!('encodeInto' in cachedTextEncoder)) {
    cachedTextEncoder.encodeInto = function (arg, view) {
        const buf = cachedTextEncoder.encode(arg);
        view.set(buf);
        return {
            read: arg.length,
            written: buf.length
        };
    };
}

let WASM_VECTOR_LEN = 0;

let wasmModule, wasmInstance, wasm;
function __wbg_finalize_init(instance, module) {
    wasmInstance = instance;
    wasm = instance.exports;
    wasmModule = module;
    cachedDataViewMemory0 = null;
    cachedFloat32ArrayMemory0 = null;
    cachedFloat64ArrayMemory0 = null;
    cachedUint16ArrayMemory0 = null;
    cachedUint32ArrayMemory0 = null;
    cachedUint8ArrayMemory0 = null;
    wasm.__wbindgen_start();
    return wasm;
}

async function __wbg_load(module, imports) {
    if (typeof Response === 'function' && module instanceof Response) {
        if (!module.ok) {
            throw new Error(`failed to fetch Wasm: ${module.status} ${module.statusText} fetching '${module.url}'`);
        }

        if (typeof WebAssembly.instantiateStreaming === 'function') {
            try {
                return await WebAssembly.instantiateStreaming(module, imports);
            } catch (e) {
                const validResponse = expectedResponseType(module.type);

                if (validResponse && module.headers.get('Content-Type') !== 'application/wasm') {
                    console.warn("`WebAssembly.instantiateStreaming` failed because your server does not serve Wasm with `application/wasm` MIME type. Falling back to `WebAssembly.instantiate` which is slower. Original error:\n", e);

                } else { throw e; }
            }
        }

        const bytes = await module.arrayBuffer();
        return await WebAssembly.instantiate(bytes, imports);
    } else {
        const instance = await WebAssembly.instantiate(module, imports);

        if (instance instanceof WebAssembly.Instance) {
            return { instance, module };
        } else {
            return instance;
        }
    }

    function expectedResponseType(type) {
        switch (type) {
            case 'basic': case 'cors': case 'default': return true;
        }
        return false;
    }
}

function initSync(module) {
    if (wasm !== undefined) return wasm;


    if (module !== undefined) {
        if (Object.getPrototypeOf(module) === Object.prototype) {
            ({module} = module)
        } else {
            console.warn('using deprecated parameters for `initSync()`; pass a single object instead')
        }
    }

    const imports = __wbg_get_imports();
    if (!(module instanceof WebAssembly.Module)) {
        module = new WebAssembly.Module(module);
    }
    const instance = new WebAssembly.Instance(module, imports);
    return __wbg_finalize_init(instance, module);
}

let __wbg_init_promise;
async function __wbg_init(module_or_path) {
    if (wasm !== undefined) return wasm;
    if (__wbg_init_promise === undefined) {
        __wbg_init_promise = __wbg_init_once(module_or_path);
        __wbg_init_promise.catch(() => { __wbg_init_promise = undefined; });
    }
    return __wbg_init_promise;
}

async function __wbg_init_once(module_or_path) {

    if (module_or_path !== undefined) {
        if (Object.getPrototypeOf(module_or_path) === Object.prototype) {
            ({module_or_path} = module_or_path)
        } else {
            console.warn('using deprecated parameters for the initialization function; pass a single object instead')
        }
    }

    if (module_or_path === undefined) {
        module_or_path = new URL('hiradix_bg.wasm', import.meta.url);
    }
    const imports = __wbg_get_imports();

    if (typeof module_or_path === 'string' || (typeof Request === 'function' && module_or_path instanceof Request) || (typeof URL === 'function' && module_or_path instanceof URL)) {
        module_or_path = fetch(module_or_path);
    }

    const { instance, module } = await __wbg_load(await module_or_path, imports);

    return __wbg_finalize_init(instance, module);
}

export { initSync, __wbg_init as default };
