//! Bad input never panics: every catalog parameter set to values at, beyond and outside its
//! range, of the wrong type, or missing, on a network of every family, gives either a running
//! simulation or errors that name a field.

use crate::common::every_topology;
use hiradix::catalog::catalog;
use hiradix::config::{ConfigErrors, SimConfig};
use hiradix::sim::Simulation;
use serde_json::{json, Value};

/// Sets the dotted `path` of `v` to `x`, as the CLI's `--set` does.
fn set(v: &mut Value, path: &str, x: Value) {
    hiradix::config::apply_override(v, &format!("{path}={x}")).expect("a valid path");
}

/// One small network per declared topology, each with an algorithm of its own.
fn bases() -> Vec<Value> {
    let c = catalog();
    let with = |topology: Value, algorithm: &str, pattern: &str, vcs: u32| {
        let mut v = c.default_config.clone();
        v["topology"] = topology;
        set(&mut v, "routing.algorithm", json!(algorithm));
        set(&mut v, "traffic.pattern", json!(pattern));
        set(&mut v, "router.vcs", json!(vcs));
        v
    };
    let cases = vec![
        (
            "flattened_butterfly",
            with(json!({"type": "flattened_butterfly", "k": 4, "n": 3}), "ugal", "router_shift", 4),
        ),
        (
            "dragonfly",
            with(json!({"type": "dragonfly", "p": 2, "a": 4, "h": 2, "g": 9}), "ugal_l_cr", "group_shift", 3),
        ),
        ("hyperx", with(json!({"type": "hyperx", "s": [3, 4], "k": [1, 2], "t": 2}), "dal", "swap2", 4)),
        (
            "dilated_flattened_butterfly",
            with(json!({"type": "dilated_flattened_butterfly", "k": 4, "n": 2}), "adaptive_2dfb", "adversarial", 4),
        ),
        ("folded_clos", with(json!({"type": "folded_clos", "down": [4, 4], "up": [2]}), "updown_ad", "uniform", 2)),
        ("butterfly", with(json!({"type": "butterfly", "k": 2, "n": 3}), "dest_tag", "bit_complement", 1)),
        ("hypercube", with(json!({"type": "hypercube", "n": 4}), "ecube", "transpose", 1)),
    ];
    // Every declared topology: one without a case above runs its default with the first
    // algorithm of its family.
    every_topology(cases, |topology, algorithm| with(topology, algorithm, "uniform", 8))
        .into_iter()
        .map(|(_, v)| v)
        .collect()
}

/// `x` as the JSON of parameter `p`'s kind: a whole number for integer parameters.
fn number(p: &hiradix::catalog::Param, x: f64) -> Value {
    if p.kind == "float" {
        json!(x)
    } else {
        json!(x as i64)
    }
}

/// Builds and briefly runs `config`; panics only if the library does.
/// Validates and builds `config`, then runs 40 cycles: a refusal is the configuration's
/// errors; a configuration that is accepted must run (a deadlock or any other run error
/// of a valid configuration is a bug, and fails the test here).
fn try_config(config: &Value) -> Result<(), ConfigErrors> {
    let cfg = SimConfig::from_value(config.clone())?;
    let mut sim = Simulation::new(&cfg)?;
    sim.advance(40).unwrap_or_else(|e| panic!("an accepted configuration failed to run: {e}\n{config}"));
    Ok(())
}

/// The sections a configuration error may name (and `(config)` for the document itself).
const SECTIONS: [&str; 7] = ["topology", "routing", "traffic", "router", "measurement", "faults", "seed"];

/// Errors that concern a whole section rather than one of its fields: (section, a phrase
/// the message contains). Any other error must name a field inside its section (`seed`
/// is a field itself).
const SECTION_ERRORS: &[(&str, &str)] = &[
    ("topology", "limit"),
    ("topology", "overflows"),
    ("topology", "radix"),
    ("measurement", "warmup + measure + drain_limit"),
    ("faults", "links cannot fail in the unidirectional butterfly"),
    ("faults", "table of"),
    ("seed", ""),
];

/// Every error names a field of the configuration (its path starts with a section and
/// names a field inside it, unless the error concerns the whole section, or it is the
/// unknown key itself) and says what is wrong with it.
fn names_its_fields(errors: &ConfigErrors) -> bool {
    !errors.0.is_empty()
        && errors.0.iter().all(|e| {
            let first = e.path.split(['.', '[']).next().unwrap_or_default();
            let unknown_key = e.message.starts_with("unknown field") && e.message.contains(&format!("`{first}`"));
            let in_section = SECTIONS.contains(&first)
                && (e.path != first || SECTION_ERRORS.iter().any(|&(s, m)| s == first && e.message.contains(m)));
            (e.path == "(config)" || in_section || unknown_key) && !e.message.trim().is_empty()
        })
}

#[test]
fn bad_values_are_errors_not_panics() {
    let c = catalog();
    let mut tried = 0;
    for base in bases() {
        try_config(&base).unwrap_or_else(|e| panic!("base configuration fails: {e}\n{base}"));
        let topology = c.topologies.iter().find(|t| t.name == base["topology"]["type"]).expect("a catalog topology");
        for p in topology.params.iter().chain(&c.params) {
            let mut values = vec![
                json!(null),
                json!("x"),
                json!(true),
                json!([]),
                json!({}),
                json!(-1),
                json!(0),
                json!(1),
                json!(0.5),
                json!(1e12),
                number(p, p.min),
                number(p, p.max),
                number(p, p.min - 1.0),
                number(p, p.max + 1.0),
            ];
            if p.kind == "link_list" {
                values.extend([
                    json!([[0, 1]]),
                    json!([[0, 1, 7]]),
                    json!([[0, 4_000_000_000u32]]),
                    json!([[0]]),
                    json!([[1, 1]]),
                    json!([[0, 1], [0, 1]]),
                    json!([[0, 1, 2, 3]]),
                ]);
            }
            if p.kind == "int_list" {
                values.extend([
                    json!([0]),
                    json!([1, 2, 3, 4, 5, 6, 7]),
                    json!([p.max, p.max]),
                    json!([2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]),
                ]);
            }
            for x in values {
                let mut v = base.clone();
                set(&mut v, p.path, x.clone());
                let outcome = std::panic::catch_unwind(|| try_config(&v));
                match outcome {
                    Err(_) => panic!("{} = {x} panicked on\n{v}", p.path),
                    Ok(Err(e)) => assert!(names_its_fields(&e), "{} = {x}: an error without a field: {e:?}", p.path),
                    Ok(Ok(())) => {}
                }
                tried += 1;
            }
        }
        // Whole sections missing, or of the wrong type.
        for section in ["topology", "routing", "traffic", "router", "measurement"] {
            for x in [json!(null), json!(3), json!([])] {
                let mut v = base.clone();
                v[section] = x.clone();
                assert!(std::panic::catch_unwind(|| try_config(&v)).is_ok(), "{section} = {x} panicked");
            }
        }
    }
    assert!(tried > 1000, "only {tried} cases");
}

/// Valid values in combination: every parameter at its minimum, at its maximum, or drawn
/// among minimum, maximum, default and a middle value, many times over (packets longer than
/// buffers, long channels with slow terminals, one-packet output queues, ...).
#[test]
fn extreme_combinations_are_errors_or_run() {
    let c = catalog();
    let mut rng = hiradix::rng::SimRng::new(7, 0);
    let (mut ran, mut refused) = (0, 0);
    for base in bases() {
        let topology = c.topologies.iter().find(|t| t.name == base["topology"]["type"]).expect("a catalog topology");
        // The network's own parameters stay as they are (their maxima are networks too large
        // to build, which the single-value test covers).
        let params: Vec<_> = c
            .params
            .iter()
            .filter(|p| p.kind != "int_list" && !topology.params.iter().any(|t| t.path == p.path))
            .collect();
        for round in 0..60 {
            let mut v = base.clone();
            for p in &params {
                let pick = match round {
                    0 => 0,
                    1 => 1,
                    _ => rng.below(4),
                };
                let x = match (p.kind, pick) {
                    ("enum", k) => json!(p.options[k as usize % p.options.len()]),
                    (_, 0) => number(p, p.min),
                    (_, 1) => number(p, if p.path.starts_with("measurement.") { p.max.min(5000.0) } else { p.max }),
                    (_, 2) => continue, // the default
                    ("float", _) => number(p, (p.min + p.max) / 2.0),
                    _ => number(p, ((p.min + p.max.min(64.0)) / 2.0).round()),
                };
                set(&mut v, p.path, x);
            }
            match std::panic::catch_unwind(|| try_config(&v)) {
                Err(_) => panic!("panicked on\n{v}"),
                Ok(Err(e)) => {
                    assert!(names_its_fields(&e), "an error without a field: {e:?}");
                    refused += 1;
                }
                Ok(Ok(())) => ran += 1,
            }
        }
    }
    assert!(ran > 20 && refused > 20, "{ran} ran, {refused} refused: the combinations test little");
}

/// A seeded stream of random configurations: every catalog parameter of the network's
/// family set, with some probability, to a value drawn from its range, just outside it, far
/// outside it, of the wrong type or a hostile string, plus unknown and prototype-named
/// keys; each is parsed, validated, built and run for 40 cycles. Nothing may panic, and
/// every refusal names a field. `HIRADIX_FUZZ_CONFIGS` sets the count (default 1500, about
/// 15 s here); `scripts/fuzz.sh` runs a long campaign.
#[test]
fn random_configs_are_errors_or_run() {
    let count: u64 = std::env::var("HIRADIX_FUZZ_CONFIGS").ok().and_then(|s| s.parse().ok()).unwrap_or(1500);
    let seed: u64 = std::env::var("HIRADIX_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let c = catalog();
    let bases = bases();
    let mut rng = hiradix::rng::SimRng::new(seed, 0x6675_7a7a);
    let hostile = [
        json!("<img src=x onerror=alert(1)>"),
        json!("__proto__"),
        json!("x".repeat(10_000)),
        json!(f64::MAX),
        json!(-1e300),
        json!(u64::MAX),
        json!(i64::MIN),
        json!([[[[[[1]]]]]]),
        json!({"__proto__": {"polluted": 1}}),
    ];
    let (mut ran, mut refused) = (0u64, 0u64);
    let start = std::time::Instant::now();
    for i in 0..count {
        let mut v = bases[rng.below(bases.len() as u32) as usize].clone();
        let topology =
            c.topologies.iter().find(|t| t.name == v["topology"]["type"]).expect("a catalog topology").clone();
        // Two cases in five carry one bad value (and perhaps a bad key); the rest only
        // values in range, in combination.
        let params: Vec<_> = topology.params.iter().chain(&c.params).collect();
        let bad = (rng.below(5) < 2).then(|| rng.below(params.len() as u32) as usize);
        for (k, p) in params.iter().enumerate() {
            if bad != Some(k) && rng.below(4) != 0 {
                continue;
            }
            let span = (p.max - p.min).max(1.0);
            let x = match if bad == Some(k) { 5 + rng.below(5) } else { 0 } {
                0 if p.kind == "enum" => json!(p.options[rng.below(p.options.len() as u32) as usize]),
                0 if p.kind == "int_list" => json!((0..1 + rng.below(4))
                    .map(|_| (p.min + rng.below(span.min(8.0) as u32 + 1) as f64) as i64)
                    .collect::<Vec<_>>()),
                // Small values in range: large networks take long to build.
                0 => number(p, p.min + (rng.below(1000) as f64 / 1000.0) * span.min(16.0)),
                5 => number(p, p.min - 1.0),
                6 => number(p, p.max + 1.0),
                7 => number(p, p.max * 1e6 + 1e9),
                8 => json!("x"),
                _ => hostile[rng.below(hostile.len() as u32) as usize].clone(),
            };
            set(&mut v, p.path, x);
        }
        // Measurement kept short so that each case runs in milliseconds.
        for (path, max) in [("measurement.warmup", 50.0), ("measurement.measure", 50.0)] {
            if v.pointer(&format!("/{}", path.replace('.', "/"))).and_then(Value::as_f64).is_some_and(|x| x > max) {
                set(&mut v, path, json!(max as i64));
            }
        }
        if bad.is_some() && rng.below(10) == 0 {
            v["router"]["__proto__"] = json!(1);
        }
        if bad.is_some() && rng.below(10) == 0 {
            v["unknown_section"] = json!({"x": 1});
        }
        match std::panic::catch_unwind(|| try_config(&v)) {
            Err(_) => panic!("case {i} (seed {seed}) panicked on\n{v}"),
            Ok(Err(e)) => {
                assert!(names_its_fields(&e), "case {i}: an error without a field: {e:?}");
                refused += 1;
            }
            Ok(Ok(())) => ran += 1,
        }
    }
    eprintln!(
        "random configurations: {count} (seed {seed}), {ran} ran, {refused} refused, none panicked, in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert!(ran > count / 20 && refused > count / 20, "{ran} ran, {refused} refused: the generator tests little");
}

#[test]
fn the_field_rule_is_strict() {
    let one = |path: &str, msg: &str| names_its_fields(&ConfigErrors::one(path, msg));
    assert!(one("topology.k", "must be 2..=64, got 1"));
    assert!(one("topology", "2000000 terminals is larger than the simulator's limit of 131072"));
    assert!(!one("topology", "invalid type"), "a bare section must say what about the whole section");
    assert!(!one("routing", "something"));
    assert!(!one("router", "something"));
    assert!(!one("nonsense.k", "bad"));
    assert!(!one("topology.k", " "));
}
