//! The integration tests, one binary: each module is one subject (its file's header says
//! what it checks); `common` holds the configuration builders they share. Run one subject
//! with `cargo test --release --test integration -- <module>::`.

mod common;

mod boundary_types;
mod channel_slicing;
mod cli;
mod comparison_networks;
mod config_fuzz;
mod cost_dragonfly;
mod cost_explore;
mod cost_fb;
mod cost_hyperx;
mod cost_plot;
mod cost_report;
mod docs_claims;
mod dragonfly_claims;
mod dragonfly_routing;
mod engine_basics;
mod faults;
mod fb_reproduction;
mod history;
mod hop_notes_and_trace;
mod hyperx_claims;
mod hyperx_routing;
mod layering;
mod memory_estimate;
mod routing_walk;
mod saturation;
mod snapshot_cost;
mod stories;
mod story_fuzz;
