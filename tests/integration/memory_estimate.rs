//! The memory estimate (`sim::memory::estimate`) bounds what a run really takes: for a
//! network of every family at overload, where every buffer, queue and source queue fills,
//! the peak resident memory of a process that runs it (Linux `VmHWM`) exceeds its fixed
//! baseline by at most the estimate plus 10 %. Each run is a child process (this test
//! binary re-run with `HIRADIX_MEMORY_CHILD` set), so that the peaks do not mix.

use crate::common::every_topology;
use hiradix::config::SimConfig;
use serde_json::json;

/// Peak resident memory of this process, in bytes (Linux only).
fn peak_resident() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

/// One network per declared topology at overload, by its `topology.type`.
fn configs() -> Vec<(&'static str, serde_json::Value)> {
    let overload = |topology: serde_json::Value, algorithm: &str, pattern: &str, vcs: u32| {
        json!({"topology": topology, "routing": {"algorithm": algorithm}, "router": {"vcs": vcs, "buffer_depth": 32},
               "traffic": {"pattern": pattern, "load": 1.0, "source_queue_cap": 2048},
               "measurement": {"warmup": 600, "measure": 600, "drain_limit": 400}})
    };
    let cases = vec![
        (
            "flattened_butterfly",
            overload(json!({"type": "flattened_butterfly", "k": 16, "n": 3}), "min", "router_shift", 2),
        ),
        (
            "dragonfly",
            overload(json!({"type": "dragonfly", "p": 4, "a": 8, "h": 4, "g": 33}), "ugal_l_cr", "group_shift", 3),
        ),
        ("hyperx", overload(json!({"type": "hyperx", "s": [8, 8, 8], "k": [1], "t": 8}), "dal", "swap2", 6)),
        (
            "dilated_flattened_butterfly",
            overload(
                json!({"type": "dilated_flattened_butterfly", "k": 16, "n": 3}),
                "adaptive_2dfb",
                "adversarial",
                4,
            ),
        ),
        (
            "folded_clos",
            overload(json!({"type": "folded_clos", "down": [16, 16, 8], "up": [8, 8]}), "updown_ad", "uniform", 2),
        ),
        ("butterfly", overload(json!({"type": "butterfly", "k": 8, "n": 4}), "dest_tag", "uniform", 1)),
        ("hypercube", overload(json!({"type": "hypercube", "n": 12}), "ecube", "bit_complement", 1)),
    ];
    // Every declared topology: one without a case above runs its default at overload.
    every_topology(cases, |topology, algorithm| overload(topology, algorithm, "uniform", 8))
}

#[test]
fn peak_memory_stays_within_the_estimate() {
    if let Ok(name) = std::env::var("HIRADIX_MEMORY_CHILD") {
        // The child: the baseline, then the run, then the peak.
        let (_, config) = configs().into_iter().find(|(n, _)| *n == name).expect("a known configuration");
        let cfg = SimConfig::from_value(config).expect("a valid configuration");
        let baseline = peak_resident().expect("VmHWM");
        let (estimate, _) = hiradix::sim::memory::estimate(&cfg).expect("an estimate");
        hiradix::experiment::run(&cfg).expect("the run completes");
        println!("MEMORY {baseline} {} {estimate}", peak_resident().expect("VmHWM"));
        return;
    }
    if peak_resident().is_none() {
        eprintln!("no /proc/self/status VmHWM here: nothing measured");
        return;
    }
    for (name, _) in configs() {
        let exe = std::env::current_exe().unwrap();
        let out = std::process::Command::new(exe)
            .args(["--exact", "memory_estimate::peak_memory_stays_within_the_estimate", "--nocapture"])
            .env("HIRADIX_MEMORY_CHILD", name)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let line =
            text.lines().find_map(|l| l.split_once("MEMORY ")).map(|(_, rest)| rest.to_string()).unwrap_or_else(|| {
                panic!("{name}: the child printed no measurement: {text} {}", String::from_utf8_lossy(&out.stderr))
            });
        let [baseline, peak, estimate]: [u64; 3] =
            line.split_whitespace().map(|x| x.parse().unwrap()).collect::<Vec<_>>().try_into().unwrap();
        let used = peak.saturating_sub(baseline);
        let mib = |b: u64| b as f64 / (1 << 20) as f64;
        eprintln!(
            "{name}: peak {:.1} MiB above a baseline of {:.1} MiB, estimate {:.1} MiB",
            mib(used),
            mib(baseline),
            mib(estimate)
        );
        assert!(
            used as f64 <= 1.1 * estimate as f64,
            "{name}: {:.1} MiB used, over the estimate of {:.1} MiB",
            mib(used),
            mib(estimate)
        );
    }
}

/// A configuration over the memory limit names the setting to change: the source queue cap
/// when it is what weighs most, the network when it is too large at the least of every
/// per-port and per-terminal setting.
#[test]
fn over_the_limit_names_what_stands_in_the_way() {
    let refused = |config: serde_json::Value| {
        let cfg = SimConfig::from_value(config).expect("a valid configuration");
        let errors = hiradix::sim::memory::check(&cfg, hiradix::sim::memory::MEMORY_LIMIT).expect_err("over the limit");
        errors.0.iter().map(|e| e.path.clone()).collect::<Vec<_>>()
    };
    // 64-ary 4-flat: 16.8 M terminals, too many with one-flit buffers and one-packet queues too.
    let huge = serde_json::json!({"topology": {"type": "flattened_butterfly", "k": 64, "n": 4}});
    assert_eq!(refused(huge), ["topology"]);
    // 1 024 terminals whose queues may each hold a million packets over a long run.
    let deep = serde_json::json!({
        "topology": {"type": "flattened_butterfly", "k": 32, "n": 2},
        "traffic": {"load": 1.0, "source_queue_cap": 1000000},
        "measurement": {"warmup": 1000000, "measure": 1000000}
    });
    assert_eq!(refused(deep), ["traffic.source_queue_cap"]);
}
