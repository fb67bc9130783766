//! Routing (in progress).
