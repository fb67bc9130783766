//! SVG plots (in progress).
