//! Zero-load latency, conservation, determinism and watchdog tests of the engine.

use hiradix::config::{SimConfig, TopologyConfig};
use hiradix::experiment::run;
use hiradix::sim::Simulation;

fn fb(k: u32, n: u32, routing: &str, pattern: &str, load: f64) -> SimConfig {
    let mut c = SimConfig::default();
    c.topology = TopologyConfig::FlattenedButterfly { k, n };
    c.routing.algorithm = routing.into();
    c.traffic.pattern = pattern.into();
    c.traffic.load = load;
    c.measurement.warmup = 500;
    c.measurement.measure = 500;
    c.seed = 3;
    c
}

#[test]
fn smoke() {
    let r = run(&fb(4, 3, "min", "uniform", 0.3)).unwrap();
    eprintln!("{:?}", r.summary);
    assert!((r.summary.accepted - 0.3).abs() < 0.03);
}
