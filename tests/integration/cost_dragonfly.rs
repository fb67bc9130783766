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
    assert!(curve
        .iter()
        .all(|p| (p.length_m < 10.0) == (p.electrical_per_gbps < p.optical_per_gbps - 1e-12) || p.length_m == 10.0));
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
    let ports = |inv: &Inventory, label: &str| {
        inv.groups.iter().filter(|g| g.label.starts_with(label)).map(|g| g.channels).sum::<f64>() / inv.routers
    };
    assert_eq!(ports(&df, "global"), 16.0);
    assert!((16.0_f64 / 63.0 - 0.25).abs() < 0.01);
    let fb = DfPaperTopology::FlattenedButterfly.inventory(&t, 65536);
    assert_eq!(ports(&fb, "dimension 2") + ports(&fb, "dimension 3"), 30.0);
    // "the dragonfly requires only half the number of global cables compared to the FB".
    let global = |inv: &Inventory| {
        inv.groups.iter().filter(|g| g.placement == Placement::Global).map(|g| g.channels).sum::<f64>()
    };
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
    // The 3-D torus is the most expensive everywhere (the 1K and large-N percentages are in
    // `figure_19_claims_that_hold_within_the_plot_tolerance`).
    for e in 10..=16 {
        let n = 1 << e;
        let r = dragonfly_reduction(&t, n, DfPaperTopology::Torus3D);
        assert!(r > 0.4, "N = {n}: {r}");
    }
    // Cheaper than the folded Clos at every size ≥ 1K.
    for e in 10..=16 {
        assert!(dragonfly_reduction(&t, 1 << e, DfPaperTopology::FoldedClos) > 0.15);
    }
}

/// Paper's savings read off Fig. 19's plot: the values are not in the text, so a claim
/// "holds" within ±10 percentage points.
const PLOT_TOLERANCE: f64 = 0.10;

#[test]
fn figure_19_flattened_butterfly_is_the_papers_16_ary_design() {
    // §5: "the group size of the dragonfly is 16 routers (256 terminals) and this is also
    // the size of each dimension of the flattened butterfly"; at 64K "two additional
    // dimensions, each of size 16". Up to 1K it is the 1-D flattened butterfly.
    let t = Technology::default();
    let fb = |n| DfPaperTopology::FlattenedButterfly.inventory(&t, n);
    for n in [512, 1024] {
        assert_eq!(fb(n), hiradix::cost::fb::flattened_butterfly(&t, n));
        assert_eq!(fb(n).groups.len(), 2, "terminal + one dimension at N = {n}");
    }
    let expected = [
        (2048, "16/router, S = (16, 8), top ×2"),
        (4096, "16-ary 3-flat"),
        (8192, "16/router, S = (16, 16, 2), top ×8"),
        (16384, "16/router, S = (16, 16, 4), top ×4"),
        (32768, "16/router, S = (16, 16, 8), top ×2"),
        (65536, "16-ary 4-flat"),
    ];
    for (n, config) in expected {
        let inv = fb(n);
        assert_eq!(inv.config, config);
        assert_eq!(inv.routers * 16.0, n as f64, "16 terminals per router at N = {n}");
        // The FB paper's own cheapest design is the same network except at 8K (21 × 19
        // routers of 21 terminals).
        let same_as_fb_paper = inv == hiradix::cost::fb::flattened_butterfly(&t, n);
        assert_eq!(same_as_fb_paper, n != 8192, "N = {n}");
    }
    assert_eq!(dragonfly_paper_fb_dimensions(64, 65536), Some(3));
    assert_eq!(dragonfly_paper_fb_dimensions(64, 65537), None, "a 16-ary FB has at most 3 dimensions at radix 64");
    assert!(dragonfly_paper_fb(&t, 1 << 17).is_none());
}

#[test]
fn up_to_4k_the_dragonfly_costs_more_than_the_fb_under_any_pricing() {
    // §5 claims ≈ 10% savings up to 4K. The model's dragonfly has the FB's routers, at least
    // its global channels on longer cables and more local channels on cables instead of a
    // backplane — dearer whatever the cable prices (docs/cost.md).
    let t = Technology::default();
    for n in [2048, 4096] {
        let c = DfFbChannels::new(&t, n);
        assert!(c.dragonfly_dearer_under_any_pricing(), "N = {n}: {c:?}");
        assert_eq!((c.df_local, c.fb_backplane), (31.0 / 16.0, 15.0 / 16.0));
        // Checked under three unrelated pricings: the paper's, all electrical, optical ×10.
        let dear_optical = OpticalCable { fixed_per_gbps: 10.0, per_m_per_gbps: 0.2 };
        for pricing in [
            CablePricing::dragonfly(&t),
            CablePricing::ElectricalWithRepeaters,
            CablePricing::OpticalBeyond { threshold_m: 0.0, optical: dear_optical },
        ] {
            let df = dragonfly(&t, n).cost(&t, &pricing).per_node();
            let fb = DfPaperTopology::FlattenedButterfly.inventory(&t, n).cost(&t, &pricing).per_node();
            assert!(df > fb, "N = {n}, {pricing:?}: {df} ≤ {fb}");
        }
    }
    // Beyond 4K the FB needs a third dimension (1.44 global channels per node at 8K) and the
    // comparison depends on prices.
    assert!(!DfFbChannels::new(&t, 8192).dragonfly_dearer_under_any_pricing());
    // "the dragonfly has a shorter average cable length than the flattened butterfly": true
    // at 4K counting the short intra-group cables, equal within 2% at 2K.
    let (c2, c4) = (DfFbChannels::new(&t, 2048), DfFbChannels::new(&t, 4096));
    assert!(c4.df_mean_cable_m < c4.fb_mean_cable_m);
    assert!((c2.df_mean_cable_m / c2.fb_mean_cable_m - 1.0).abs() < 0.02);
}

#[test]
fn figure_19_claims_that_hold_within_the_plot_tolerance() {
    let t = Technology::default();
    let r = |n, o| dragonfly_reduction(&t, n, o);
    // "For networks up to 1K nodes … the cost of the two networks are identical."
    for n in [128, 256, 512, 1024] {
        assert_eq!(r(n, DfPaperTopology::FlattenedButterfly), 0.0);
    }
    // Torus: ≈ 62% at 1K, > 60% at large sizes.
    assert!((r(1024, DfPaperTopology::Torus3D) - 0.62).abs() < PLOT_TOLERANCE);
    for n in [16384, 32768, 65536] {
        assert!(r(n, DfPaperTopology::Torus3D) > 0.6);
    }
    // Folded Clos: "over 50% cost savings" holds at 64K only (≈ 52% read at ≥ 16K).
    assert!(r(65536, DfPaperTopology::FoldedClos) > 0.5);
    // The Clos claim is consistent with the FB claim: a dragonfly 20% below our FB would be
    // ≈ 52% below our Clos at 16K–32K.
    for n in [16384, 32768] {
        let fb_over_clos = |pricing: &CablePricing| {
            let cost = |o: DfPaperTopology| o.inventory(&t, n).cost(&t, pricing).per_node();
            cost(DfPaperTopology::FlattenedButterfly) / cost(DfPaperTopology::FoldedClos)
        };
        let implied = 1.0 - 0.8 * fb_over_clos(&CablePricing::dragonfly(&t));
        assert!((implied - 0.52).abs() < PLOT_TOLERANCE, "N = {n}: {implied}");
    }
}

#[test]
fn figure_19_values_as_modelled() {
    // The paper: ≈ 10% below the FB up to 4K, ≈ 20% beyond, ≈ 52% below the folded Clos at
    // ≥ 16K, 47% below the torus at 8K. NOT reproduced (docs/cost.md explains why); these
    // are the model's values, pinned as a regression.
    let t = Technology::default();
    let pinned = [
        (
            DfPaperTopology::FlattenedButterfly,
            [(2048, -0.614), (4096, -0.595), (8192, -0.382), (16384, -0.214), (32768, -0.053), (65536, -0.033)],
        ),
        (
            DfPaperTopology::FoldedClos,
            [(2048, 0.195), (4096, 0.201), (8192, 0.194), (16384, 0.242), (32768, 0.298), (65536, 0.570)],
        ),
        (
            DfPaperTopology::Torus3D,
            [(2048, 0.404), (4096, 0.487), (8192, 0.573), (16384, 0.645), (32768, 0.701), (65536, 0.757)],
        ),
    ];
    for (other, values) in pinned {
        for (n, expect) in values {
            let r = dragonfly_reduction(&t, n, other);
            assert!((r - expect).abs() < 0.001, "{other:?}, N = {n}: {r}");
        }
    }
    // With each group on one backplane (a packaging the paper does not describe) the
    // saving over the FB would be within the tolerance of ≈ 20% at 32K–64K, not at 16K.
    let on_backplane =
        |n| dragonfly_reduction_packaged(&t, n, DfPaperTopology::FlattenedButterfly, GroupPackaging::OneBackplane);
    for n in [32768, 65536] {
        assert!((on_backplane(n) - 0.20).abs() < PLOT_TOLERANCE, "N = {n}: {}", on_backplane(n));
    }
    assert!((on_backplane(16384) - 0.20).abs() > PLOT_TOLERANCE);
    for n in [2048, 4096, 8192] {
        assert!(on_backplane(n) < 0.0);
    }
}
