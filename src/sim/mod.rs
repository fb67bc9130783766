//! Engine (in progress).
