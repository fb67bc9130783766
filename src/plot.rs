//! Dependency-free SVG line plots.
//!
//! A [`Plot`] holds named [`Series`] of `(x, y)` points, axis labels and scale options;
//! [`Plot::to_svg`] renders it as a self-contained SVG document (a `String`: no file I/O
//! here, so the module also builds for wasm). Non-finite points (and non-positive ones on
//! a log axis) break the line instead of being drawn. Used by the cost models' figures and
//! by the simulator's figure presets.
//!
//! ```
//! use hiradix::plot::{Plot, Series};
//! let mut p = Plot::new("Cost", "N", "$ per node");
//! p.log_x = true;
//! p.series.push(Series::new("folded Clos", vec![(1024.0, 66.0), (4096.0, 124.0)]));
//! let svg = p.to_svg();
//! assert!(svg.starts_with("<svg") && svg.contains("folded Clos"));
//! ```

use std::fmt::Write as _;

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

const PALETTE: [&str; 10] =
    ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

const MARGIN_LEFT: f64 = 72.0;
const MARGIN_TOP: f64 = 40.0;
const MARGIN_BOTTOM: f64 = 56.0;
const LEGEND_GAP: f64 = 16.0;

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

    fn usable(&self, (x, y): (f64, f64)) -> bool {
        x.is_finite() && y.is_finite() && (!self.log_x || x > 0.0) && (!self.log_y || y > 0.0)
    }

    fn data_range(&self, pick: impl Fn((f64, f64)) -> f64) -> Option<(f64, f64)> {
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for s in &self.series {
            for &p in &s.points {
                if self.usable(p) {
                    lo = lo.min(pick(p));
                    hi = hi.max(pick(p));
                }
            }
        }
        (lo <= hi).then_some((lo, hi))
    }

    /// Renders the plot as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        let legend_w = self.legend_width();
        let total_w = MARGIN_LEFT + self.width as f64 + LEGEND_GAP + legend_w + 12.0;
        let total_h = MARGIN_TOP + self.height as f64 + MARGIN_BOTTOM;
        let x_axis = Axis::new(self.x_range.or_else(|| self.data_range(|p| p.0)), self.log_x, false);
        let y_axis = Axis::new(self.y_range.or_else(|| self.data_range(|p| p.1)), self.log_y, true);
        let (pw, ph) = (self.width as f64, self.height as f64);
        let px = |x: f64| MARGIN_LEFT + x_axis.frac(x) * pw;
        let py = |y: f64| MARGIN_TOP + (1.0 - y_axis.frac(y)) * ph;

        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{tw:.0}" height="{th:.0}" viewBox="0 0 {tw:.0} {th:.0}" font-family="Helvetica, Arial, sans-serif" font-size="12">"#,
            tw = total_w,
            th = total_h
        );
        let _ = writeln!(out, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="22" text-anchor="middle" font-size="14" font-weight="bold">{}</text>"#,
            MARGIN_LEFT + pw / 2.0,
            escape(&self.title)
        );
        // Grid and ticks.
        for &t in &x_axis.ticks {
            let x = px(t);
            let _ = writeln!(
                out,
                r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#e0e0e0"/>"##,
                MARGIN_TOP,
                MARGIN_TOP + ph
            );
            let _ = writeln!(
                out,
                r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                MARGIN_TOP + ph + 16.0,
                escape(&format_tick(t, x_axis.log_base))
            );
        }
        for &t in &y_axis.ticks {
            let y = py(t);
            let _ = writeln!(
                out,
                r##"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#e0e0e0"/>"##,
                MARGIN_LEFT,
                MARGIN_LEFT + pw
            );
            let _ = writeln!(
                out,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                MARGIN_LEFT - 6.0,
                y + 4.0,
                escape(&format_tick(t, y_axis.log_base))
            );
        }
        let _ = writeln!(
            out,
            r##"<rect x="{MARGIN_LEFT:.1}" y="{MARGIN_TOP:.1}" width="{pw:.1}" height="{ph:.1}" fill="none" stroke="#333333"/>"##
        );
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            MARGIN_LEFT + pw / 2.0,
            MARGIN_TOP + ph + 40.0,
            escape(&self.x_label)
        );
        let (lx, ly) = (18.0, MARGIN_TOP + ph / 2.0);
        let _ = writeln!(
            out,
            r#"<text x="{lx:.1}" y="{ly:.1}" text-anchor="middle" transform="rotate(-90 {lx:.1} {ly:.1})">{}</text>"#,
            escape(&self.y_label)
        );
        // Series, clipped to the plotting area.
        let _ = writeln!(
            out,
            r#"<clipPath id="plot-area"><rect x="{MARGIN_LEFT:.1}" y="{MARGIN_TOP:.1}" width="{pw:.1}" height="{ph:.1}"/></clipPath>"#
        );
        let _ = writeln!(out, r#"<g clip-path="url(#plot-area)">"#);
        for (i, s) in self.series.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let dash = if s.dashed { r#" stroke-dasharray="6 4""# } else { "" };
            for run in s.points.split(|&p| !self.usable(p)) {
                if run.len() >= 2 {
                    let pts: Vec<String> = run.iter().map(|&(x, y)| format!("{:.2},{:.2}", px(x), py(y))).collect();
                    let _ = writeln!(
                        out,
                        r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="1.8"{dash}/>"#,
                        pts.join(" ")
                    );
                }
            }
            if s.markers {
                for (i, &(x, y)) in s.points.iter().enumerate().filter(|(_, &p)| self.usable(p)) {
                    if s.hollow.get(i).copied().unwrap_or(false) {
                        let _ = writeln!(
                            out,
                            r#"<circle cx="{:.2}" cy="{:.2}" r="3.2" fill="white" stroke="{color}" stroke-width="1.6"/>"#,
                            px(x),
                            py(y)
                        );
                    } else {
                        let _ =
                            writeln!(out, r#"<circle cx="{:.2}" cy="{:.2}" r="2.6" fill="{color}"/>"#, px(x), py(y));
                    }
                }
            }
        }
        let _ = writeln!(out, "</g>");
        // Legend.
        let lx0 = MARGIN_LEFT + pw + LEGEND_GAP;
        for (i, s) in self.series.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let y = MARGIN_TOP + 10.0 + 18.0 * i as f64;
            let dash = if s.dashed { r#" stroke-dasharray="6 4""# } else { "" };
            let _ = writeln!(
                out,
                r#"<line x1="{lx0:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{color}" stroke-width="2"{dash}/>"#,
                lx0 + 22.0
            );
            let _ = writeln!(out, r#"<text x="{:.1}" y="{:.1}">{}</text>"#, lx0 + 28.0, y + 4.0, escape(&s.name));
        }
        out.push_str("</svg>\n");
        out
    }

    fn legend_width(&self) -> f64 {
        let longest = self.series.iter().map(|s| s.name.chars().count()).max().unwrap_or(0);
        if longest == 0 {
            0.0
        } else {
            28.0 + 6.6 * longest as f64
        }
    }
}

/// A resolved axis: range in (possibly log) coordinates and tick positions in data units.
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    /// 2 or 10 on a log axis (for tick labels), 0 on a linear one.
    log_base: f64,
    ticks: Vec<f64>,
}

impl Axis {
    fn new(range: Option<(f64, f64)>, log: bool, include_zero: bool) -> Axis {
        let (mut lo, mut hi) = range.unwrap_or(if log { (1.0, 10.0) } else { (0.0, 1.0) });
        if log {
            lo = lo.max(f64::MIN_POSITIVE);
            hi = hi.max(lo);
            let (l2lo, l2hi) = (lo.log2().floor(), hi.log2().ceil().max(lo.log2().floor() + 1.0));
            let decades = (hi.log10() - lo.log10()).max(0.0);
            if decades > 6.0 {
                let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil().max(lo.log10().floor() + 1.0) as i32);
                let ticks = (a..=b).map(|e| 10f64.powi(e)).collect();
                return Axis { lo: 10f64.powi(a), hi: 10f64.powi(b), log: true, log_base: 10.0, ticks };
            }
            let span = (l2hi - l2lo) as i32;
            let step = ((span as f64 / 10.0).ceil() as i32).max(1);
            let ticks = (0..=span).step_by(step as usize).map(|i| 2f64.powi(l2lo as i32 + i)).collect();
            return Axis { lo: 2f64.powf(l2lo), hi: 2f64.powf(l2hi), log: true, log_base: 2.0, ticks };
        }
        if include_zero && range.is_some() {
            lo = lo.min(0.0);
            hi = hi.max(0.0);
        }
        if hi - lo < 1e-12 {
            let pad = if hi.abs() > 0.0 { hi.abs() * 0.1 } else { 1.0 };
            lo -= pad;
            hi += pad;
        }
        let step = nice_step((hi - lo) / 6.0);
        let (nlo, nhi) = ((lo / step).floor() * step, (hi / step).ceil() * step);
        let n = ((nhi - nlo) / step).round() as i64;
        let ticks =
            (0..=n).map(|i| nlo + step * i as f64).map(|t| if t.abs() < step * 1e-9 { 0.0 } else { t }).collect();
        Axis { lo: nlo, hi: nhi, log: false, log_base: 0.0, ticks }
    }

    /// Position of `v` along the axis, 0 = low end, 1 = high end.
    fn frac(&self, v: f64) -> f64 {
        if self.log {
            (v.ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        }
    }
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let m = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * mag
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

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
