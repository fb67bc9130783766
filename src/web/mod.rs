//! The WebAssembly API used by the static page (`index.html`, `www/main.js`).
//!
//! Compiled only for `wasm32` (see `lib.rs`). The page drives a [`WebSim`] with a coarse
//! API, following the rustwasm examples: it calls [`WebSim::advance`] once per animation
//! frame and then reads flat typed arrays for drawing (router positions, channel endpoints,
//! per-channel occupancy) — one bulk transfer each, no per-object calls.
//!
//! Panics are not fatal to the page: the panic hook logs them to the console *and* keeps
//! the message, which the page reads with [`last_panic`] to show an error banner after the
//! trapped call threw.

mod placeholder;

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use placeholder::PlaceholderSim;

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

/// One simulation as the page sees it.
#[wasm_bindgen]
pub struct WebSim {
    sim: PlaceholderSim,
}

#[wasm_bindgen]
impl WebSim {
    /// Builds a simulation from a JSON config; the error's message lists every config
    /// problem, one per line.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str) -> Result<WebSim, JsError> {
        PlaceholderSim::from_json(config_json)
            .map(|sim| WebSim { sim })
            .map_err(|errors| JsError::new(&errors.join("\n")))
    }

    /// Advances the simulation by `cycles` cycles.
    pub fn advance(&mut self, cycles: u32) {
        self.sim.advance(cycles);
    }

    /// The current cycle.
    pub fn now(&self) -> f64 {
        self.sim.now() as f64
    }

    /// Number of routers.
    #[wasm_bindgen(js_name = routerCount)]
    pub fn router_count(&self) -> u32 {
        (self.sim.positions.len() / 2) as u32
    }

    /// Router drawing coordinates, `[x0, y0, x1, y1, …]`, each in `[0, 1]`.
    #[wasm_bindgen(js_name = routerPositions)]
    pub fn router_positions(&self) -> Vec<f32> {
        self.sim.positions.clone()
    }

    /// Number of (unidirectional) router-to-router channels.
    #[wasm_bindgen(js_name = channelCount)]
    pub fn channel_count(&self) -> u32 {
        (self.sim.endpoints.len() / 2) as u32
    }

    /// Channel endpoints, `[src0, dst0, src1, dst1, …]` as router indices. Both directions
    /// of a link appear as separate channels.
    #[wasm_bindgen(js_name = channelEndpoints)]
    pub fn channel_endpoints(&self) -> Vec<u32> {
        self.sim.endpoints.clone()
    }

    /// Per-channel occupancy of the downstream input buffers, as a fraction in `[0, 1]`.
    #[wasm_bindgen(js_name = channelOccupancy)]
    pub fn channel_occupancy(&self) -> Vec<f32> {
        self.sim.occupancy.clone()
    }
}
