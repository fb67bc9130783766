//! The page's "cost" view (`www/ui/cost-view.js`): the cost, power and design-space models
//! of [`crate::cost::explore`] for the user's `N`, radix and `β`. The inputs are passed as
//! typed (`"2^17"`, `"64K"`, `"1/8"`); bad ones are thrown as `FieldError[]` (`[{path,
//! message}]`, the path `nodes`, `radix` or `beta`), which the page shows next to each
//! field's control.

use wasm_bindgen::prelude::*;

use super::{field_errors, to_js};
use crate::config::{ConfigError, ConfigErrors};
use crate::cost::explore::{self, CostQuery};

fn query(nodes: &str, radix: &str, beta: &str) -> Result<CostQuery, JsValue> {
    CostQuery::parse(nodes, radix, beta).map_err(|errors| {
        field_errors(&ConfigErrors(errors.iter().map(|e| ConfigError::new(e.field, e.message.as_str())).collect()))
    })
}

/// Checks the inputs: `{nodes, radix, beta}`, or throws their `FieldError[]`.
#[wasm_bindgen(js_name = costQuery, unchecked_return_type = "CostQuery")]
pub fn cost_query(nodes: &str, radix: &str, beta: &str) -> Result<JsValue, JsValue> {
    Ok(to_js(&query(nodes, radix, beta)?))
}

/// The analytic plots (FB paper Figs. 10, 11, 13, 15; dragonfly paper Figs. 2, 19) and
/// every topology at `N` (see [`explore::figures`]). Milliseconds: run it on the page's
/// thread.
#[wasm_bindgen(js_name = costFigures, unchecked_return_type = "CostFigures")]
pub fn cost_figures(nodes: &str, radix: &str, beta: &str) -> Result<JsValue, JsValue> {
    Ok(to_js(&explore::figures(&query(nodes, radix, beta)?)))
}

/// The HyperX design search for `(N, R, β)` and Fig. 8 for radix `R` (see
/// [`explore::hyperx`]). Dozens of searches: the page runs it in `www/sim/cost-worker.js`.
#[wasm_bindgen(js_name = costHyperx, unchecked_return_type = "CostHyperx")]
pub fn cost_hyperx(nodes: &str, radix: &str, beta: &str) -> Result<JsValue, JsValue> {
    Ok(to_js(&explore::hyperx(&query(nodes, radix, beta)?)))
}
