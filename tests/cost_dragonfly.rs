//! Dragonfly paper cost model: Fig. 2, Fig. 19, Table 2.

use hiradix::cost::cables::*;
use hiradix::cost::dragonfly::*;
use hiradix::cost::*;

#[test]
fn figure_2_cable_lines() {
    let t = Technology::default();
    let o = OpticalCable::dragonfly_fig2(&t);
    let (a, b) = electrical_per_gbps_line(&t);
    // Optical: higher intercept, lower slope, crossing the electrical line at 10 m.
    assert!(o.fixed_per_gbps > a && o.per_m_per_gbps < b);
    assert!((crossover_m(&t, &o).unwrap() - 10.0).abs() < 1e-9);
    let curve = cable_cost_curve(&t, &o, 30.0, 1.0);
    assert!(curve.iter().all(|p| (p.length_m < 10.0) == (p.electrical_per_gbps < p.optical_per_gbps - 1e-12) || p.length_m == 10.0));
    // §5 pricing switches to optical at 8 m.
    let pr = CablePricing::dragonfly(&t);
    assert!(!pr.is_optical(7.9) && pr.is_optical(8.0));
}

#[test]
fn up_to_1k_the_dragonfly_is_the_1d_flattened_butterfly() {
    let t = Technology::default();
    for n in [256, 512, 1024] {
        assert_eq!(dragonfly_reduction(&t, n, DfPaperTopology::FlattenedButterfly), 0.0);
    }
    let df = dragonfly(&t, 65536);
    assert_eq!(df.config, "p = 16, a = 32, h = 16, g = 128");
    // Fig. 18(c): the dragonfly uses 25% of its router ports for global channels, the
    // flattened butterfly 50% (30 of its 61).
    let ports = |inv: &Inventory, label: &str| inv.groups.iter().filter(|g| g.label.starts_with(label)).map(|g| g.channels).sum::<f64>() / inv.routers;
    assert_eq!(ports(&df, "global"), 16.0);
    assert!((16.0_f64 / 63.0 - 0.25).abs() < 0.01);
    let fb = hiradix::cost::fb::flattened_butterfly(&t, 65536);
    assert_eq!(ports(&fb, "dimension 2") + ports(&fb, "dimension 3"), 30.0);
    // "the dragonfly requires only half the number of global cables compared to the FB".
    let global = |inv: &Inventory| inv.groups.iter().filter(|g| g.placement == Placement::Global).map(|g| g.channels).sum::<f64>();
    assert!((global(&df) / global(&fb) - 16.0 / 30.0).abs() < 1e-9);
}

#[test]
fn table2_diameters_and_cable_lengths() {
    let [fb, df] = table2();
    assert_eq!((fb.minimal, fb.nonminimal), ((1, 2), (2, 4)));
    assert_eq!((df.minimal, df.nonminimal), ((2, 1), (3, 2)));
    assert_eq!((fb.avg_cable_e, fb.max_cable_e), (1.0 / 3.0, 1.0));
    assert_eq!((df.avg_cable_e, df.max_cable_e), (2.0 / 3.0, 2.0));
    // 2E/3 is the mean Manhattan distance between random points of an E × E floor.
    assert!((mean_manhattan_on_square(1.0, 2001) - 2.0 / 3.0).abs() < 1e-3);
}

#[test]
fn figure_19_torus_and_clos() {
    let t = Technology::default();
    // The 3-D torus is the most expensive everywhere; the dragonfly saves ≈ 62% at 1K
    // and more than 60% at large sizes.
    for e in 10..=16 {
        let n = 1 << e;
        let r = dragonfly_reduction(&t, n, DfPaperTopology::Torus3D);
        assert!(r > 0.4, "N = {n}: {r}");
    }
    assert!((dragonfly_reduction(&t, 1024, DfPaperTopology::Torus3D) - 0.62).abs() < 0.1);
    for n in [32768, 65536] {
        assert!(dragonfly_reduction(&t, n, DfPaperTopology::Torus3D) > 0.6);
    }
    // Cheaper than the folded Clos at every size ≥ 1K.
    for e in 10..=16 {
        assert!(dragonfly_reduction(&t, 1 << e, DfPaperTopology::FoldedClos) > 0.15);
    }
}

#[test]
fn figure_19_dragonfly_vs_flattened_butterfly_as_modelled() {
    // The paper: ≈ 20% below the flattened butterfly and ≈ 52% below the folded Clos at
    // ≥ 16K nodes. NOT reproduced by this reconstruction (docs/cost.md explains why: with
    // the text's prices the dragonfly's extra local channels cost about what its fewer global
    // channels save). These are the model's values, pinned as a regression.
    let t = Technology::default();
    let vs_fb = [(16384, -0.214), (32768, -0.053), (65536, -0.033)];
    for (n, expect) in vs_fb {
        let r = dragonfly_reduction(&t, n, DfPaperTopology::FlattenedButterfly);
        assert!((r - expect).abs() < 0.01, "N = {n}: {r}");
    }
    let r = dragonfly_reduction(&t, 65536, DfPaperTopology::FoldedClos);
    assert!((r - 0.57).abs() < 0.01, "{r}");
}
