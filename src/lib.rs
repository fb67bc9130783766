//! # hiradix — a cycle-accurate simulator of high-radix interconnection networks
//!
//! hiradix implements four papers:
//! - Kim, Dally, Abts, *Flattened Butterfly: A Cost-Efficient Topology for High-Radix
//!   Networks*, ISCA 2007 (the k-ary n-flat, MIN AD, UGAL, UGAL-S, CLOS AD);
//! - Kim, Dally, Scott, Abts, *Technology-Driven, Highly-Scalable Dragonfly Topology*,
//!   ISCA 2008 (the dragonfly and the UGAL family);
//! - Ahn et al., *HyperX: Topology, Routing, and Packaging of Efficient Large-Scale
//!   Networks*, SC 2009 (HyperX and DAL);
//! - Thamarakuzhi, Chandy, *Adaptive Load Balanced Routing for 2-Dilated Flattened
//!   Butterfly* (adaptive 2DFB routing).
//!
//! The core (everything but `web`, which is built for wasm32 only) has no web or OS
//! dependency, so it builds natively and for `wasm32-unknown-unknown`. Layout:
//! - [`config`]: the JSON experiment description and its validation (errors with paths),
//!   with [`config::schema`], the declaration of every parameter outside `topology`;
//! - `packet`: the packet record and its store;
//! - [`rng`]: portable seeded random streams (traffic, routing, allocation);
//! - [`topology`]: one declaration per topology ([`topology::TOPOLOGIES`]), router graphs
//!   with port tables and drawing coordinates;
//! - [`routing`]: one file per algorithm family, behind the [`routing::Routing`] trait;
//! - `traffic`: destination patterns and injection processes;
//! - [`sim`]: the cycle-driven engine (input-queued VC routers, credits, allocators);
//! - [`stats`]: measurement windows, histograms, channel utilization;
//! - [`experiment`]: the papers' methodology (warm-up, labeled window, drain) and sweeps;
//! - [`saturation`]: the one rule for when a measured point is saturated;
//! - [`catalog`]: the registry of topologies, routings and patterns (CLI `--list`, page UI);
//! - [`cost`]: cost, power and design-space models of the papers;
//! - [`plot`]: line plots of the figures, rendered as SVG with plotters (feature `svg`).
//!
//! The modules import one way, in layers (docs/ARCHITECTURE.md, checked by
//! `tests/integration/layering.rs`).
//!
//! What is `pub` is what the command line (`src/bin/hiradix`) and the integration tests use;
//! the rest is `pub(crate)`, which `unreachable_pub` holds (`sim` is left out of the lint,
//! and `web`, whose `pub` items are wasm-bindgen's exports).

#![warn(unreachable_pub)]

pub mod catalog;
pub mod config;
pub mod cost;
pub mod experiment;
pub mod figures;
pub mod inspect;
pub(crate) mod packet;
pub mod plot;
pub mod rng;
pub mod routing;
pub mod saturation;
#[allow(unreachable_pub)]
pub mod sim;
pub mod stats;
pub mod story;
pub mod topology;
pub(crate) mod traffic;

#[cfg(target_arch = "wasm32")]
#[allow(unreachable_pub)]
pub mod web;
