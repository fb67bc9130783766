//! Traffic: destination patterns (`patterns`) and the injection process.
//!
//! Destinations are drawn only from the traffic stream, and a terminal draws exactly the
//! same numbers in the same cycles whatever the network does (a full source queue still
//! draws, then drops), so two runs that differ only in routing see identical traffic.

mod patterns;

pub(crate) use patterns::{Pattern, PATTERNS};
