//! The SVG plots (plotters' SVG backend behind `hiradix::plot`).

use hiradix::plot::{format_tick, Plot, Series};

/// The text of every `<text>` element, trimmed.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| Some(t.split_once('>')?.1.split_once("</text>")?.0.trim().to_string()))
        .collect()
}

/// The `<polyline>` elements stroked in `color` (upper-case hex, as plotters writes it).
fn polylines<'a>(svg: &'a str, color: &str) -> Vec<&'a str> {
    let elements = svg.split("<polyline").skip(1).filter_map(|p| p.split_once("/>").map(|(e, _)| e));
    elements.filter(|p| p.contains(&format!("stroke=\"{color}\""))).collect()
}

#[test]
fn svg_has_series_legend_and_labels() {
    let mut p = Plot::new("Cost <per> node", "N", "$ / node");
    p.series.push(Series::new("folded Clos", vec![(1.0, 2.0), (2.0, 3.0), (3.0, 5.0)]));
    p.series.push(Series::new("FB & co", vec![(1.0, 1.0), (2.0, f64::NAN), (3.0, 2.0)]).dashed());
    let svg = p.to_svg();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let texts = texts(&svg);
    for text in ["Cost &lt;per&gt; node", "FB &amp; co", "folded Clos", "$ / node", "N"] {
        assert!(texts.iter().any(|t| t == text), "missing text {text}: {texts:?}");
    }
    // The first series is one line through its three points; the NaN splits the second
    // into two single points, so its only strokes are the legend's dashes (right of the
    // plotting area).
    let first = polylines(&svg, "#1F77B4");
    assert!(first.iter().any(|p| p.split("points=").nth(1).is_some_and(|pts| pts.matches(',').count() == 3)));
    let second = polylines(&svg, "#D62728");
    assert!(second.len() >= 2, "the legend's key is dashed: {second:?}");
    for p in &second {
        let x: f64 = p.split("points=\"").nth(1).and_then(|pts| pts.split(',').next()).unwrap().parse().unwrap();
        assert!(x > 72.0 + 560.0, "a dash of the NaN-split series inside the plot: {p}");
    }
    // Five markers, each a fill and a ring.
    assert_eq!(svg.matches("<circle").count(), 2 * 5);
}

#[test]
fn log_axis_uses_power_of_two_ticks() {
    let mut p = Plot::new("t", "N", "y");
    p.log_x = true;
    p.series.push(Series::new("s", vec![(256.0, 1.0), (65536.0, 2.0)]));
    let svg = p.to_svg();
    let texts = texts(&svg);
    for label in ["256", "1K", "64K"] {
        assert!(texts.iter().any(|t| t == label), "missing tick {label}: {texts:?}");
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
    let svg = Plot::new("empty", "x axis", "y axis").to_svg();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "a whole SVG document");
    let texts = texts(&svg);
    for label in ["empty", "x axis", "y axis"] {
        assert!(texts.iter().any(|t| t == label), "missing {label}: {texts:?}");
    }
    // No series: no curve, no marker, no legend entry, and no number that is not one.
    assert_eq!(svg.matches("<circle").count(), 0);
    assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
    let with_series =
        Plot::new("empty", "x axis", "y axis").with(Series::new("s", vec![(1.0, 1.0), (2.0, 2.0)])).to_svg();
    assert!(with_series.matches("<polyline").count() > svg.matches("<polyline").count(), "a series adds its curve");
}
