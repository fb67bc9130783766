//! [`Plot::to_svg`] with plotters' SVG backend: the axes' ranges come from [`Axis`] (on a
//! log axis, powers of 2 or of 10, and its ticks in that base; tick labels by
//! [`format_tick`], e.g. `64K`); plotters places the ticks and draws the grid and the
//! series, and the legend is drawn beside the plotting area so it never covers a line.
//! Text is written as SVG `<text>` (no font files are read).

use super::{format_tick, Plot};
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Colour of series `i` (Matplotlib's "tab10").
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
];
const GRID: RGBColor = RGBColor(0xe0, 0xe0, 0xe0);
const FONT: &str = "sans-serif";

/// A font of `px` pixels in the SVG (plotters' SVG backend writes sizes divided by 1.24).
fn font(px: f64) -> FontDesc<'static> {
    (FONT, px * 1.24).into_font()
}

const MARGIN_LEFT: u32 = 50;
const MARGIN_TOP: u32 = 40;
const MARGIN_BOTTOM: u32 = 56;
const LEGEND_GAP: u32 = 16;

pub(super) fn render(plot: &Plot) -> String {
    let x = Axis::new(plot.x_range.or_else(|| plot.data_range(|p| p.0)), plot.log_x, false);
    let y = Axis::new(plot.y_range.or_else(|| plot.data_range(|p| p.1)), plot.log_y, true);
    let (xr, yr) = (x.lo..x.hi, y.lo..y.hi);
    let (xb, yb) = (x.log_base, y.log_base);
    match (plot.log_x, plot.log_y) {
        (false, false) => draw(plot, &x, &y, xr, yr),
        (true, false) => draw(plot, &x, &y, xr.log_scale().base(xb), yr),
        (false, true) => draw(plot, &x, &y, xr, yr.log_scale().base(yb)),
        (true, true) => draw(plot, &x, &y, xr.log_scale().base(xb), yr.log_scale().base(yb)),
    }
    .expect("drawing into a string cannot fail")
}

type Drawn = Result<String, Box<dyn std::error::Error>>;

fn draw<X, Y>(plot: &Plot, x_axis: &Axis, y_axis: &Axis, x: X, y: Y) -> Drawn
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let legend_w = plot.legend_width().ceil() as u32;
    let area_w = 22 + MARGIN_LEFT + plot.width + LEGEND_GAP;
    let size = (area_w + legend_w + 12, MARGIN_TOP + plot.height + MARGIN_BOTTOM);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        root.fill(&WHITE)?;
        let (chart_area, legend_area) = root.split_horizontally(area_w);
        let mut chart = ChartBuilder::on(&chart_area)
            .caption(xml_text(&plot.title), font(14.0).style(FontStyle::Bold))
            .margin_top(10)
            .margin_left(22)
            .margin_right(LEGEND_GAP)
            .x_label_area_size(MARGIN_BOTTOM)
            .y_label_area_size(MARGIN_LEFT)
            .build_cartesian_2d(x, y)?;
        let (x_base, y_base) = (x_axis.log_base, y_axis.log_base);
        chart
            .configure_mesh()
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .x_labels(x_axis.ticks.len())
            .y_labels(y_axis.ticks.len())
            .axis_style(RGBColor(0x33, 0x33, 0x33))
            .label_style(font(12.0))
            .axis_desc_style(font(12.0))
            .x_desc(xml_text(&plot.x_label))
            .y_desc(xml_text(&plot.y_label))
            .x_label_formatter(&|v| format_tick(*v, x_base))
            .y_label_formatter(&|v| format_tick(*v, y_base))
            .draw()?;
        for (i, s) in plot.series.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let line = color.stroke_width(2);
            for run in s.points.split(|&p| !plot.usable(p)).filter(|run| run.len() >= 2) {
                if s.dashed {
                    chart.draw_series(DashedLineSeries::new(run.iter().copied(), 6, 4, line))?;
                } else {
                    chart.draw_series(LineSeries::new(run.iter().copied(), line))?;
                }
            }
            if s.markers {
                let usable = s.points.iter().enumerate().filter(|&(_, &p)| plot.usable(p));
                // Hollow markers (e.g. saturated points) are white inside.
                chart.draw_series(usable.map(|(k, &p)| {
                    let fill = if s.hollow.get(k).copied().unwrap_or(false) { WHITE } else { color };
                    EmptyElement::at(p) + Circle::new((0, 0), 3, fill.filled()) + Circle::new((0, 0), 3, line)
                }))?;
            }
        }
        for (i, s) in plot.series.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let ly = MARGIN_TOP as i32 + 10 + 18 * i as i32;
            let key = vec![(0, ly), (22, ly)];
            if s.dashed {
                legend_area.draw(&DashedPathElement::new(key, 6, 4, color.stroke_width(2)))?;
            } else {
                legend_area.draw(&PathElement::new(key, color.stroke_width(2)))?;
            }
            let text = font(12.0).color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
            legend_area.draw(&Text::new(xml_text(&s.name), (28, ly), text))?;
        }
        root.present()?;
    }
    Ok(out)
}

impl Plot {
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

    fn legend_width(&self) -> f64 {
        let longest = self.series.iter().map(|s| s.name.chars().count()).max().unwrap_or(0);
        if longest == 0 {
            0.0
        } else {
            28.0 + 6.6 * longest as f64
        }
    }
}

/// `text` with the characters XML 1.0 cannot hold (controls other than tab and line
/// breaks, U+FFFE, U+FFFF) replaced by U+FFFD; plotters escapes `<`, `&` and quotes, so a
/// label read from a file keeps the SVG well-formed.
fn xml_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if c < ' ' || c == '\u{fffe}' || c == '\u{ffff}' => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// The largest magnitude an axis reaches (data beyond are drawn at its edge).
const AXIS_LIMIT: f64 = 1e300;

/// A resolved axis: range in (possibly log) coordinates and tick positions in data units.
struct Axis {
    lo: f64,
    hi: f64,
    /// 2 or 10 on a log axis (for tick labels), 0 on a linear one.
    log_base: f64,
    ticks: Vec<f64>,
}

impl Axis {
    fn new(range: Option<(f64, f64)>, log: bool, include_zero: bool) -> Axis {
        let (mut lo, mut hi) = range.unwrap_or(if log { (1.0, 10.0) } else { (0.0, 1.0) });
        // Data near the ends of f64 would round the axis to infinity; no plot needs more.
        (lo, hi) = (lo.clamp(-AXIS_LIMIT, AXIS_LIMIT), hi.clamp(-AXIS_LIMIT, AXIS_LIMIT));
        if log {
            lo = lo.max(f64::MIN_POSITIVE);
            hi = hi.max(lo);
            let (l2lo, l2hi) = (lo.log2().floor(), hi.log2().ceil().max(lo.log2().floor() + 1.0));
            let decades = (hi.log10() - lo.log10()).max(0.0);
            if decades > 6.0 {
                let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil().max(lo.log10().floor() + 1.0) as i32);
                let ticks = (a..=b).map(|e| 10f64.powi(e)).collect();
                return Axis { lo: 10f64.powi(a), hi: 10f64.powi(b), log_base: 10.0, ticks };
            }
            let span = (l2hi - l2lo) as i32;
            let step = ((span as f64 / 10.0).ceil() as i32).max(1);
            let ticks = (0..=span).step_by(step as usize).map(|i| 2f64.powi(l2lo as i32 + i)).collect();
            return Axis { lo: 2f64.powf(l2lo), hi: 2f64.powf(l2hi), log_base: 2.0, ticks };
        }
        if include_zero && range.is_some() {
            lo = lo.min(0.0);
            hi = hi.max(0.0);
        }
        // A flat or nearly flat series (down to subnormal values) gets an axis of its own
        // scale around it, never one narrower than plotters can divide.
        if hi - lo < 1e-12 * hi.abs().max(lo.abs()).max(1e-3) {
            let pad = (hi.abs() * 0.1).max(1e-3);
            lo -= pad;
            hi += pad;
        }
        let step = nice_step((hi - lo) / 6.0);
        let (nlo, nhi) = ((lo / step).floor() * step, (hi / step).ceil() * step);
        let n = ((nhi - nlo) / step).round() as i64;
        let ticks =
            (0..=n).map(|i| nlo + step * i as f64).map(|t| if t.abs() < step * 1e-9 { 0.0 } else { t }).collect();
        Axis { lo: nlo, hi: nhi, log_base: 0.0, ticks }
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
