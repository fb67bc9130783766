//! Figure presets: library functions that rerun a paper figure's experiments and return
//! its data series, plots (see [`crate::plot`]) and a Markdown comparison with the paper.
//! The CLI's `hiradix figure <name>` renders them.

pub mod dragonfly;
pub mod hyperx;
