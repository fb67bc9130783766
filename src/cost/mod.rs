//! Cost, power and design-space models of the three papers.
//!
//! - [`cables`]: technology and packaging assumptions (FB paper Tables 2–3, Fig. 7) and the
//!   electrical vs active-optical cable cost of the dragonfly paper (Fig. 2);
//! - [`inventory`]: a network's routers and channels with their packaging, priced into a
//!   [`CostBreakdown`];
//! - [`fb`]: the flattened butterfly paper's comparison of butterfly, folded Clos,
//!   hypercube and flattened butterfly (Figs. 10, 11, 13, Table 4, §5.1.2);
//! - [`power`]: its power model (Table 5, Fig. 15);
//! - [`dragonfly`]: the dragonfly paper's comparison with the flattened butterfly, folded
//!   Clos and 3-D torus (Fig. 19, Table 2);
//! - [`hyperx_search`]: the HyperX paper's fewest-switch design search (§3.1–3.2, Table 1)
//!   and switch counts vs the folded Clos (§4.2, Fig. 8);
//! - [`figures`]: tables (text, Markdown, CSV) and SVG plots of all of the above;
//! - [`report`]: the `docs/cost.md` report with the papers' numbers next to ours;
//! - [`explore`]: the page's cost view: checked inputs and the data of its plots as JSON.
//!
//! Everything here is pure computation (no I/O), so it also runs in the browser. Modelling
//! choices where the papers are silent are documented on each function and collected,
//! with the comparison to the papers' numbers, in `docs/cost.md`.

pub mod cables;
pub mod dragonfly;
pub mod explore;
pub mod fb;
pub mod figures;
pub mod hyperx_search;
pub(crate) mod inventory;
pub mod power;
// Writes SVG figures: built with the native front end's `svg` feature.
#[cfg(feature = "svg")]
pub mod report;

pub use cables::{CablePricing, OpticalCable, Technology};
pub use inventory::{ChannelGroup, CostBreakdown, Inventory, Placement};
pub use power::{PowerBreakdown, PowerParams};
