//! Line plots of the figures: the data here, the SVG rendering in [`svg`] (plotters' SVG
//! backend, built with the `svg` feature, which the native front end enables; the core
//! and its wasm build carry only the data).
//!
//! A [`Plot`] holds named [`Series`] of `(x, y)` points, axis labels and scale options;
//! [`Plot::to_svg`] renders it as a self-contained SVG document (a `String`: no file I/O).
//! Non-finite points (and non-positive ones on a log axis) break the line instead of being
//! drawn. Used by the cost models' figures and by the simulator's figure presets.
//!
//! ```
//! # #[cfg(feature = "svg")] {
//! use hiradix::plot::{Plot, Series};
//! let mut p = Plot::new("Cost", "N", "$ per node");
//! p.log_x = true;
//! p.series.push(Series::new("folded Clos", vec![(1024.0, 66.0), (4096.0, 124.0)]));
//! let svg = p.to_svg();
//! assert!(svg.starts_with("<svg") && svg.contains("folded Clos"));
//! # }
//! ```

/// One named line.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Draw a dashed line (e.g. for a published reference curve).
    pub dashed: bool,
    /// Draw a marker at each point.
    pub markers: bool,
    /// Points whose marker is drawn hollow (e.g. saturated points), by index; points
    /// past its end are filled.
    pub hollow: Vec<bool>,
}

impl Series {
    /// A solid line with markers.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series { name: name.into(), points, dashed: false, markers: true, hollow: Vec::new() }
    }

    /// The same series drawn dashed.
    pub fn dashed(mut self) -> Self {
        self.dashed = true;
        self
    }

    /// The same series without point markers.
    pub fn without_markers(mut self) -> Self {
        self.markers = false;
        self
    }
}

/// A line plot. Build with [`Plot::new`], push series, adjust the public fields, render
/// with [`Plot::to_svg`].
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Logarithmic x axis (ticks at powers of 2 or 10, whichever fits the range).
    pub log_x: bool,
    /// Logarithmic y axis.
    pub log_y: bool,
    pub series: Vec<Series>,
    /// Fixed axis ranges; `None` = from the data (y includes 0 on a linear axis).
    pub x_range: Option<(f64, f64)>,
    pub y_range: Option<(f64, f64)>,
    /// Size of the plotting area in pixels (the legend is drawn to its right).
    pub width: u32,
    pub height: u32,
}

#[cfg(feature = "svg")]
mod svg;

impl Plot {
    /// An empty plot with linear axes, 560 × 340 plotting area.
    pub fn new(title: impl Into<String>, x_label: impl Into<String>, y_label: impl Into<String>) -> Self {
        Plot {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            log_x: false,
            log_y: false,
            series: Vec::new(),
            x_range: None,
            y_range: None,
            width: 560,
            height: 340,
        }
    }

    /// Adds a series (builder style).
    pub fn with(mut self, series: Series) -> Self {
        self.series.push(series);
        self
    }

    /// Renders the plot as a standalone SVG document, with plotters' SVG backend (the
    /// native front end's feature `svg`; the page draws its own plots on canvases).
    #[cfg(feature = "svg")]
    pub fn to_svg(&self) -> String {
        svg::render(self)
    }
}

/// Tick label: powers of two ≥ 1024 on a base-2 axis as `1K`, `64K`, `1M`; otherwise a
/// short decimal.
pub fn format_tick(v: f64, log_base: f64) -> String {
    if log_base == 2.0 && v >= 1024.0 && v.fract() == 0.0 {
        let n = v as u64;
        if n.is_multiple_of(1 << 20) {
            return format!("{}M", n >> 20);
        }
        if n.is_multiple_of(1024) {
            return format!("{}K", n >> 10);
        }
    }
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e6).contains(&a) {
        return format!("{v:.0e}");
    }
    let s = if a >= 100.0 || v.fract() == 0.0 {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.4}")
    };
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}
