//! Topologies (in progress).
