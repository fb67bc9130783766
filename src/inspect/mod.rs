//! What the page shows of a running simulation, as typed values: a router's ports and its
//! last routing decisions (the inspector, `www/ui/inspector.js`), a channel's virtual
//! channels, the followed packet's hops, the network's shape and the dragonfly's Fig. 9
//! window. Built here from the engine's read-only views, so they are tested natively; the
//! web layer (`src/web/`) only serialises them, and `tests/integration/boundary_types.rs` generates
//! their TypeScript declarations from these types.
//!
//! - `router.rs`: [`RouterDetail`], [`ChannelDetail`] and the per-VC state they share;
//! - `trace.rs`: [`TraceView`] (the followed packet) and [`HopNoteView`] (DAL's per-hop note);
//! - `network.rs`: [`NetworkInfo`] and [`Fig9Window`].

mod network;
mod router;
mod trace;

pub use network::{Fig9Window, NetworkInfo, Shape};
pub use router::{ChannelDetail, CreditDelay, PortDetail, RouteNoteView, RouterDetail, TerminalDetail, VcState};
pub use trace::{DimNoteView, HopNoteView, PacketTrace, TraceHop, TraceView, Unroutable};

use serde::Serialize;

use crate::topology::LinkClass;

/// The page's name of a link class.
pub fn class_name(class: LinkClass) -> &'static str {
    match class {
        LinkClass::Terminal => "terminal",
        LinkClass::Local => "local",
        LinkClass::Global => "global",
    }
}

/// A simulation worker's memory as its own accounting sees it (`src/web/budget.rs`); the
/// page's memory tests compare its budget with the heap it really uses.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct WorkerMemory {
    /// Bytes the simulations it holds have reserved, and how many they are.
    pub reserved: f64,
    pub simulations: u32,
    /// The most bytes reserved at once since the module started.
    pub peak_reserved: f64,
    /// What they may reserve together.
    pub limit: f64,
    /// Bytes allocated now, and the most allocated at once since the module started.
    pub heap: f64,
    pub peak_heap: f64,
}
