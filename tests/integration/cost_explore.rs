//! The page's cost view (`hiradix::cost::explore`): input checking, the plot data and the
//! HyperX search it shows, for every radix and size the view accepts.

use hiradix::cost::explore::*;
use hiradix::cost::Technology;
use hiradix::cost::{dragonfly, fb};
use serde_json::Value;
use std::time::Instant;

fn q(n: &str, r: &str, b: &str) -> CostQuery {
    CostQuery::parse(n, r, b).unwrap_or_else(|e| panic!("{n} {r} {b}: {e:?}"))
}

fn fields(n: &str, r: &str, b: &str) -> Vec<(&'static str, String)> {
    CostQuery::parse(n, r, b).expect_err("should be rejected").into_iter().map(|e| (e.field, e.message)).collect()
}

#[test]
fn inputs_are_read_as_typed() {
    assert_eq!(q("131072", "128", "0.5"), CostQuery { nodes: 131072, radix: 128, beta: 0.5 });
    assert_eq!(q("2^17", " 128 ", "1/8"), CostQuery { nodes: 131072, radix: 128, beta: 0.125 });
    assert_eq!(q("64K", "64", ".25").nodes, 65536);
    assert_eq!(q("1M", "64", "1").nodes, 1 << 20);
    assert_eq!(q("1.5K", "64", "1").nodes, 1536);
    assert_eq!(q("131,072", "64", "1").nodes, 131072);
    assert_eq!(q("16 384", "64", "1").nodes, 16384);
}

#[test]
fn bad_inputs_name_their_field() {
    let e = fields("abc", "3", "0");
    assert_eq!(e.iter().map(|e| e.0).collect::<Vec<_>>(), vec!["nodes", "radix", "beta"], "{e:?}");
    assert!(e[0].1.contains("'abc' is not a whole number"), "{}", e[0].1);
    assert!(e[1].1.contains("between 4 and 1024"), "{}", e[1].1);
    assert!(e[2].1.contains("greater than 0"), "{}", e[2].1);
    assert!(fields("12.5", "64", "1")[0].1.contains("whole number"));
    assert!(fields("1", "64", "1")[0].1.contains("between 2 and 16777216"));
    assert!(fields("2^30", "64", "1")[0].1.contains("got 1073741824"));
    assert!(fields("-5", "64", "1")[0].1.contains("positive") || fields("-5", "64", "1")[0].1.contains("whole number"));
    assert!(fields("", "64", "1")[0].1.starts_with("enter the number of terminals"));
    assert_eq!(fields("4096", "2000", "1")[0].0, "radix");
    assert!(fields("4096", "64", "1.5")[0].1.contains("at most 1"));
    assert!(fields("4096", "64", "x")[0].1.contains("not a number"));
    assert!(fields("4096", "64", "1/0")[0].1.contains("not a number"));
    assert_eq!(fields("x", "64", "1")[0].0, "nodes");
}

fn plot<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["plots"].as_array().unwrap().iter().find(|p| p["id"] == id).unwrap_or_else(|| panic!("no plot {id}"))
}

fn y_at(p: &Value, series: &str, x: f64) -> Option<f64> {
    let s = p["series"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == series)
        .unwrap_or_else(|| panic!("no series {series}"));
    s["points"].as_array().unwrap().iter().find(|pt| pt[0].as_f64() == Some(x)).and_then(|pt| pt[1].as_f64())
}

#[test]
fn radix_64_gives_the_reports_numbers() {
    let v = figures(&q("4096", "64", "1"));
    let tech = Technology::default();
    let lib = fb::fig11(&tech, &[4096]);
    for p in &lib {
        let y = y_at(plot(&v, "fb-fig11"), p.topology.name(), 4096.0).unwrap();
        assert!((y - p.cost.per_node()).abs() < 1e-9, "{}", p.topology.name());
    }
    // Fig. 13 at 4K: Table 4's five flats, n' = 1, 2, 3, 5, 11.
    let f13 = plot(&v, "fb-fig13");
    let xs: Vec<f64> = f13["series"][0]["points"].as_array().unwrap().iter().map(|p| p[0].as_f64().unwrap()).collect();
    assert_eq!(xs, vec![1.0, 2.0, 3.0, 5.0, 11.0]);
    // The summary: FB 50% below the folded Clos at 4K (docs/cost.md), §5.1.2 n' = 2.
    assert!((v["at_n"]["fb_saving_vs_clos"].as_f64().unwrap() - fb::fb_vs_clos_reduction(&tech, 4096)).abs() < 1e-12);
    assert_eq!(v["at_n"]["fb_dimension"]["n_prime"], 2);
    // The curves span the papers' 128..64K and include N.
    let s = &plot(&v, "df-fig19")["series"][0]["points"];
    assert_eq!(s[0][0], 128.0);
    assert_eq!(s.as_array().unwrap().last().unwrap()[0], 65536.0);
}

#[test]
fn radix_changes_the_fb_curves_and_the_dragonfly_groups() {
    let a = figures(&q("16384", "64", "1"));
    let b = figures(&q("16384", "128", "1"));
    let fa = y_at(plot(&a, "fb-fig11"), "flattened butterfly", 16384.0).unwrap();
    let fbb = y_at(plot(&b, "fb-fig11"), "flattened butterfly", 16384.0).unwrap();
    assert!(fbb < fa, "radix 128 FB at 16K ({fbb}) should be cheaper than radix 64 ({fa}): fewer dimensions");
    assert!(plot(&b, "df-fig19")["note"].as_str().unwrap().contains("p = 32, a = 64, h = 32"));
    // Radix 64 is the paper's §5 dragonfly: p = h = 16, a = 32, the 1-D FB up to 1K.
    assert_eq!(dragonfly::group_params(64), (16, 32, 16));
    assert_eq!(dragonfly::dragonfly_flat_limit(64), 1024);
    assert_eq!(dragonfly::dragonfly_max_nodes(64), 262_656);
    // Radix 64 beyond 256K: no dragonfly (g ≤ ah + 1 = 513 groups of 512).
    let c = figures(&q("2^19", "64", "1"));
    assert_eq!(y_at(plot(&c, "df-fig19"), "dragonfly", 524288.0), None);
    assert!(y_at(plot(&c, "df-fig19"), "dragonfly", 262144.0).is_some());
    // N that is no perfect power: Fig. 13 says so instead of drawing.
    assert!(plot(&figures(&q("5000", "64", "1")), "fb-fig13")["empty"].as_str().unwrap().contains("not k^n"));
}

#[test]
fn table1_through_the_view() {
    let v = hyperx(&q("2^17", "128", "0.5"));
    assert_eq!(v["regular"]["switches"], 4096);
    assert_eq!(v["regular"]["text"], "L = 3, S = 16, K = 2, T = 32");
    assert_eq!(v["general"]["switches"], 3780);
    assert_eq!(v["general"]["shape"], serde_json::json!([3, 35, 36]));
    assert_eq!(v["general"]["trunking"], serde_json::json!([12, 1, 1]));
    assert_eq!(v["general"]["terminals_per_switch"], 35);
    let p = &v["plot"];
    let hx = y_at(p, "HyperX β = 0.5", 131072.0).unwrap();
    assert!((hx - 3780.0 / 131072.0).abs() < 1e-12);
    assert!(y_at(p, "folded Clos β = 1", 131072.0).is_some());
    let none = hyperx(&q("4096", "4", "1"));
    assert!(none["general"].is_null() && none["regular"].is_null());
}

/// Every radix and size the view accepts: no panic, every number finite or null.
#[test]
fn the_whole_input_range_is_safe() {
    fn check(v: &Value, path: &str) {
        match v {
            Value::Number(n) => assert!(n.as_f64().unwrap().is_finite(), "{path}"),
            Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| check(x, &format!("{path}[{i}]"))),
            Value::Object(o) => o.iter().for_each(|(k, x)| check(x, &format!("{path}.{k}"))),
            _ => {}
        }
    }
    let mut slowest = (0.0, String::new());
    for r in [4, 5, 7, 8, 12, 16, 31, 32, 48, 64, 100, 128, 256, 512, 1000, 1024] {
        for n in [2, 3, 5, 100, 1000, 4096, 5000, 131072, 1 << 20, (1 << 24) - 1, 1 << 24] {
            for b in [0.01, 0.125, 0.5, 1.0] {
                let query = CostQuery { nodes: n, radix: r, beta: b };
                check(&figures(&query), "figures");
                let t = Instant::now();
                check(&hyperx(&query), "hyperx");
                let s = t.elapsed().as_secs_f64();
                if s > slowest.0 {
                    slowest = (s, format!("N = {n}, R = {r}, β = {b}"));
                }
            }
        }
    }
    println!("slowest hyperx (search + Fig. 8): {:.1} ms at {}", slowest.0 * 1e3, slowest.1);
}

#[test]
fn search_and_fig8_for_table1_in_under_a_second() {
    let t = Instant::now();
    for b in ["1/8", "1/4", "1/2", "1"] {
        hyperx(&q("2^17", "128", b));
    }
    let s = t.elapsed().as_secs_f64();
    println!("four (N = 2^17, R = 128) searches with their Fig. 8 curves: {:.1} ms", s * 1e3);
    if !cfg!(debug_assertions) {
        assert!(s < 1.0, "{s} s");
    }
}
