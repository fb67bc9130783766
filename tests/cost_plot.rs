//! The dependency-free SVG plot writer.

use hiradix::plot::{format_tick, Plot, Series};

#[test]
fn svg_has_series_legend_and_labels() {
    let mut p = Plot::new("Cost <per> node", "N", "$ / node");
    p.series.push(Series::new("folded Clos", vec![(1.0, 2.0), (2.0, 3.0), (3.0, 5.0)]));
    p.series.push(Series::new("FB & co", vec![(1.0, 1.0), (2.0, f64::NAN), (3.0, 2.0)]).dashed());
    let svg = p.to_svg();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("Cost &lt;per&gt; node"));
    assert!(svg.contains("FB &amp; co"));
    assert!(svg.contains("$ / node"));
    // The NaN splits the second series: one polyline for the first, none for the
    // two single points of the second.
    assert_eq!(svg.matches("<polyline").count(), 1);
    assert!(svg.contains("stroke-dasharray"));
    assert_eq!(svg.matches("<circle").count(), 5);
}

#[test]
fn log_axis_uses_power_of_two_ticks() {
    let mut p = Plot::new("t", "N", "y");
    p.log_x = true;
    p.series.push(Series::new("s", vec![(256.0, 1.0), (65536.0, 2.0)]));
    let svg = p.to_svg();
    for label in [">256<", ">1K<", ">64K<"] {
        assert!(svg.contains(label), "missing {label}");
    }
    // Non-positive x on a log axis is skipped, not drawn at -inf.
    p.series[0].points.push((0.0, 3.0));
    assert!(!p.to_svg().contains("NaN") && !p.to_svg().contains("inf"));
}

#[test]
fn tick_labels() {
    assert_eq!(format_tick(1024.0, 2.0), "1K");
    assert_eq!(format_tick(1048576.0, 2.0), "1M");
    assert_eq!(format_tick(0.5, 0.0), "0.5");
    assert_eq!(format_tick(120.0, 0.0), "120");
    assert_eq!(format_tick(0.0, 0.0), "0");
}

#[test]
fn empty_plot_renders() {
    let svg = Plot::new("empty", "x", "y").to_svg();
    assert!(svg.contains("empty"));
}
