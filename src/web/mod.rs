//! The WebAssembly API used by the static page (`index.html`, `www/`).
//!
//! Compiled only for `wasm32` (see `lib.rs`). A thin layer over the core, with a coarse
//! API following the rustwasm examples. The page's simulation workers
//! (`www/sim/sim-worker.js`) own the [`WebSim`]s: each step they call [`WebSim::advance`] and
//! then read flat typed arrays for drawing (per-channel, per-VC occupancy; per-router
//! terminal load), one bulk transfer each, no per-object calls, and post them to the
//! drawing thread. Static arrays (positions, channel endpoints and classes) are read once
//! per simulation. Inspection (`routerDetail`, `channelDetail`) and the statistics that
//! need the topology (Fig. 9 global-channel classes) come back as objects ([`crate::inspect`]),
//! declared for the page's type check in `boundary.d.ts`. [`run_experiment`]
//! runs the papers' methodology for the load–latency sweep in another worker
//! (`www/sim/sweep-worker.js`).
//!
//! Panics are not fatal to the page: the panic hook logs them to the console *and* keeps
//! the message, which the page reads with [`last_panic`] to show an error banner after the
//! trapped call threw.
//!
//! - `budget.rs`: one memory budget for everything a worker holds, and its counted heap;
//! - `websim.rs`: [`WebSim`] — construction, stepping, per-frame arrays, live counters;
//! - `inspect.rs`: router and channel details, Fig. 9 utilization, latency histograms;
//! - `cost.rs`: the cost view's models (`costFigures`, and `costHyperx` for its worker);
//! - `trace.rs`: the packet trace and DAL's per-hop notes;
//! - `time_control.rs`: rewind, run until an event, the load changed while running, packets
//!   on the channels and per-router decision counts.

mod budget;
mod cost;
mod inspect;
mod time_control;
mod trace;
mod websim;

pub use budget::{memory_need, worker_memory};
pub use websim::WebSim;

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::config::SimConfig;
use serde::Serialize;

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(message));
        console_error_panic_hook::hook(info);
    }));
}

/// The message of the last Rust panic, if any (the page shows it in its error banner).
#[wasm_bindgen(js_name = lastPanic)]
pub fn last_panic() -> Option<String> {
    LAST_PANIC.with(|p| p.borrow().clone())
}

/// Panics on purpose, so the page's tests can check that a panic shows the error banner
/// instead of killing the page.
#[wasm_bindgen(js_name = panicForTest)]
pub fn panic_for_test() {
    panic!("panic requested by the page's test hook");
}

/// The catalog of topologies, routing algorithms, traffic patterns and parameters (see
/// [`crate::catalog`]); the page builds its controls from it.
#[wasm_bindgen(unchecked_return_type = "Catalog")]
pub fn catalog() -> JsValue {
    to_js(&crate::catalog::catalog())
}

/// `value` as the page reads it: a plain object (maps as objects, `None` as `null`), as
/// `JSON.parse` of its JSON would give, and as `src/web/boundary.d.ts` declares it.
fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap_or(JsValue::NULL)
}

/// The TypeScript declarations of the objects the page reads (`FieldError`,
/// `LiveCounters`, …), generated from the Rust types by `tests/integration/boundary_types.rs`.
#[wasm_bindgen(typescript_custom_section)]
const BOUNDARY: &str = include_str!("boundary.d.ts");

/// Config errors for the page: `[{path, message}]`, the field's dotted path and why.
fn field_errors(e: &crate::config::ConfigErrors) -> JsValue {
    serde_wasm_bindgen::to_value(&e.0).unwrap_or(JsValue::NULL)
}

/// Checks a configuration without running it: `[]` when it builds, else every problem as
/// `[{path, message}]`, each with the dotted path of its field.
#[wasm_bindgen(js_name = checkConfig, unchecked_return_type = "FieldError[]")]
pub fn check_config(config_json: &str) -> JsValue {
    let errors = match SimConfig::from_json(config_json).and_then(|cfg| crate::sim::Simulation::check(&cfg)) {
        Ok(()) => crate::config::ConfigErrors(Vec::new()),
        Err(e) => e,
    };
    field_errors(&errors)
}

/// Checks a story document ([`crate::story`]) as `hiradix story check` does: `[]` when it
/// passes, else every problem as `[{path, message}]`, each with the dotted path of its
/// field (e.g. `experiment.compare.values[1].routing.algorithm`).
#[wasm_bindgen(js_name = checkStory, unchecked_return_type = "FieldError[]")]
pub fn check_story(text: &str) -> JsValue {
    let errors = match crate::story::check(text) {
        Ok(_) => crate::config::ConfigErrors(Vec::new()),
        Err(e) => e,
    };
    field_errors(&errors)
}

/// The offered loads of the page's sweep box (`start:stop:step` or a list; see
/// [`crate::experiment::parse_loads`]), at most [`crate::story::MAX_SWEEP_LOADS`]; throws
/// what is wrong as `[{path: "sweep", message}]`.
#[wasm_bindgen(js_name = sweepLoads)]
pub fn sweep_loads(text: &str) -> Result<Vec<f64>, JsValue> {
    crate::experiment::parse_loads(text, crate::story::MAX_SWEEP_LOADS).map_err(|e| {
        field_errors(&crate::config::ConfigErrors(vec![crate::config::ConfigError::new("sweep", e.as_str())]))
    })
}

/// Runs one configuration with the papers' methodology (warm-up, labeled window, drain;
/// see [`crate::experiment`]) and returns `{summary, batch_normalized_latency}`, the
/// summary named as the CLI's JSON names it ([`crate::experiment::SweepPoint`]). Used by the
/// page's load–latency sweep, which calls it from a Web Worker so the page keeps
/// animating. Throws config problems as `[{path, message}]`, a deadlock as an `Error`.
#[wasm_bindgen(js_name = runExperiment, unchecked_return_type = "SweepPoint")]
pub fn run_experiment(config_json: &str) -> Result<JsValue, JsValue> {
    let cfg = SimConfig::from_json(config_json).map_err(|e| field_errors(&e))?;
    let result = crate::experiment::run(&cfg).map_err(|e| match e {
        crate::experiment::RunError::Config(e) => field_errors(&e),
        other => JsError::new(&other.to_string()).into(),
    })?;
    // JSON first, as the CLI writes it (a NaN mean becomes null), then a JS object.
    Ok(to_js(&serde_json::to_value(result.sweep_point()).expect("serialises")))
}

/// Engine speed in the browser: builds a configuration, runs `warmup` cycles, then times
/// `cycles` more with the caller's clock `now_ms` (e.g. `() => performance.now()`) and
/// returns `[milliseconds, packets delivered meanwhile]`. The same measurement as the
/// native `hiradix bench`; `scripts/measure-web-speed.mjs` compares the two.
#[wasm_bindgen(js_name = benchAdvance)]
pub fn bench_advance(
    config_json: &str,
    warmup: u32,
    cycles: u32,
    now_ms: &js_sys::Function,
) -> Result<Vec<f64>, JsError> {
    let cfg = SimConfig::from_json(config_json).map_err(|e| JsError::new(&e.to_string()))?;
    let mut sim = crate::sim::Simulation::new(&cfg).map_err(|e| JsError::new(&e.to_string()))?;
    sim.set_invariant_checks(false);
    let clock = || now_ms.call0(&JsValue::NULL).ok().and_then(|v| v.as_f64()).unwrap_or(f64::NAN);
    sim.advance(u64::from(warmup)).map_err(|e| JsError::new(&e.to_string()))?;
    let delivered0 = sim.stats().delivered;
    let t0 = clock();
    sim.advance(u64::from(cycles)).map_err(|e| JsError::new(&e.to_string()))?;
    let ms = clock() - t0;
    Ok(vec![ms, (sim.stats().delivered - delivered0) as f64])
}
