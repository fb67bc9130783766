//! Cost, power and design-space models (in progress).
