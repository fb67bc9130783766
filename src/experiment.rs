//! The papers' measurement methodology (FB paper §3.2).
//!
//! Bernoulli runs: warm up for `warmup` cycles without measuring, label every packet
//! created during the next `measure` cycles, then keep simulating (injection continues,
//! unlabeled) until every labeled packet has arrived. Accepted throughput is measured over
//! the labeled window; latency over the labeled packets. Whether the point is *saturated*
//! is decided by the one rule of [`crate::saturation`]: labeled packets that do not drain
//! within `drain_limit` cycles, a source queue that overflows during the window, or
//! accepted throughput below the offered load beyond its statistical tolerance.
//!
//! Batch runs (FB paper Fig. 5): every terminal injects `batch_size` packets as fast as it
//! can; the result is the cycle the last one arrives, divided by the batch size.

use crate::config::{ConfigErrors, InjectionMode, SimConfig};
use crate::saturation::{self, BacklogSamples, SaturationCause, WindowCounts};
use crate::sim::{SimError, Simulation};
use crate::stats::Summary;
use serde::Serialize;
use std::fmt;

/// Why a run produced no result.
#[derive(Clone, Debug)]
pub enum RunError {
    Config(ConfigErrors),
    Sim(SimError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Config(e) => write!(f, "{e}"),
            RunError::Sim(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RunError {}

impl From<ConfigErrors> for RunError {
    fn from(e: ConfigErrors) -> Self {
        RunError::Config(e)
    }
}
impl From<SimError> for RunError {
    fn from(e: SimError) -> Self {
        RunError::Sim(e)
    }
}

/// Everything measured in one run.
#[derive(Clone, Debug, Serialize)]
pub struct RunResult {
    pub summary: Summary,
    /// Flits per cycle sent on each output port during the window, indexed by port id.
    pub channel_utilization: Vec<f32>,
    /// Latency histogram of labeled packets as (latency, count) for non-empty bins.
    pub latency_histogram: Vec<(u64, u32)>,
    /// Batch mode: cycles until the whole batch arrived, divided by the batch size.
    pub batch_normalized_latency: Option<f64>,
}

/// What the page's load sweep gets of a run (`runExperiment`): the summary, named as the
/// CLI's JSON names it, and in batch mode the batch's time per packet.
#[derive(Clone, Debug, Serialize)]
pub struct SweepPoint<'a> {
    pub summary: &'a Summary,
    pub batch_normalized_latency: Option<f64>,
}

impl RunResult {
    /// The part of the result the page's load sweep reads.
    pub fn sweep_point(&self) -> SweepPoint<'_> {
        SweepPoint { summary: &self.summary, batch_normalized_latency: self.batch_normalized_latency }
    }
}

/// The phase of a run, for progress reports (see [`run_reporting`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    WarmUp,
    Measure,
    /// Until every labeled packet has arrived.
    Drain,
    /// Batch mode: until every batch packet has arrived.
    Batch,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::WarmUp => "warm-up",
            Phase::Measure => "measurement",
            Phase::Drain => "drain",
            Phase::Batch => "batch",
        }
    }
}

/// Runs one configuration to completion with the papers' methodology.
pub fn run(cfg: &SimConfig) -> Result<RunResult, RunError> {
    run_reporting(cfg, &mut |_, _| {})
}

/// [`run`], calling `progress(phase, cycle)` every few hundred simulated cycles.
pub fn run_reporting(cfg: &SimConfig, progress: &mut dyn FnMut(Phase, u64)) -> Result<RunResult, RunError> {
    let mut sim = Simulation::new(cfg)?;
    run_sim_reporting(&mut sim, progress)
}

/// Runs an already built simulation (at cycle 0) to completion.
pub fn run_sim(sim: &mut Simulation) -> Result<RunResult, RunError> {
    run_sim_reporting(sim, &mut |_, _| {})
}

/// Advances `sim` by `cycles` in slices, reporting `phase` after each (the slices do not
/// change the result: advancing is cycle by cycle).
fn advance_reporting(
    sim: &mut Simulation,
    cycles: u64,
    phase: Phase,
    progress: &mut dyn FnMut(Phase, u64),
) -> Result<(), RunError> {
    const SLICE: u64 = 256;
    let end = sim.now() + cycles;
    while sim.now() < end {
        sim.advance(SLICE.min(end - sim.now()))?;
        progress(phase, sim.now());
    }
    Ok(())
}

/// Advances `sim` through the measurement window of `cycles`, sampling the backlog
/// (packets generated, not dropped, not yet delivered) 256 to 511 times for the saturation
/// rule's tolerance ([`saturation`]).
fn measure_window(
    sim: &mut Simulation,
    cycles: u64,
    progress: &mut dyn FnMut(Phase, u64),
) -> Result<BacklogSamples, RunError> {
    let stride = (cycles / 256).max(1);
    let end = sim.now() + cycles;
    let mut samples = Vec::with_capacity((cycles / stride + 1) as usize);
    let mut reported = sim.now();
    while sim.now() < end {
        sim.advance(stride.min(end - sim.now()))?;
        let s = sim.stats();
        samples.push(s.backlog() as f64);
        if sim.now() - reported >= 256 {
            reported = sim.now();
            progress(Phase::Measure, sim.now());
        }
    }
    Ok(BacklogSamples(samples))
}

/// [`run_sim`], calling `progress(phase, cycle)` every few hundred simulated cycles.
pub fn run_sim_reporting(sim: &mut Simulation, progress: &mut dyn FnMut(Phase, u64)) -> Result<RunResult, RunError> {
    let cfg = sim.config().clone();
    if cfg.traffic.injection == InjectionMode::Batch {
        return run_batch(sim, &cfg, progress);
    }
    let m = &cfg.measurement;
    let (start, end) = (m.warmup, m.warmup + m.measure);
    sim.stats_mut().label_start = start;
    sim.stats_mut().label_end = end;
    advance_reporting(sim, start, Phase::WarmUp, progress)?;
    let sent_before = sim.sent_flits();
    let backlog = measure_window(sim, m.measure, progress)?;
    let sent_after = sim.sent_flits();
    // Drain: run until every labeled packet has arrived, or give up.
    let mut drained = false;
    for _ in 0..m.drain_limit / 64 + 1 {
        if sim.stats().labeled_done() {
            drained = true;
            break;
        }
        sim.advance(64)?;
        progress(Phase::Drain, sim.now());
    }
    let s = sim.stats();
    drained |= s.labeled_done();
    let terminals = sim.network().terminals() as f64;
    let window = m.measure as f64;
    let lat = &s.latency;
    let nonmin = s.latency_nonminimal.count;
    let saturation = saturation::cause(&WindowCounts {
        drained,
        dropped: s.window_dropped,
        offered_flits: s.window_offered_flits,
        accepted_flits: s.window_accepted_flits,
        unroutable_flits: s.window_unroutable_flits,
        window: m.measure,
        packet_size: cfg.traffic.packet_size,
        mean_latency: lat.mean(),
        backlog_variance: backlog.detrended_variance(),
    });
    let per_terminal = |flits: u64| flits as f64 * cfg.router.terminal_period as f64 / (terminals * window);
    let summary = Summary {
        offered_load: cfg.traffic.load,
        offered_measured: per_terminal(s.window_offered_flits),
        // As a fraction of the terminal bandwidth (1/terminal_period flits per cycle).
        accepted: per_terminal(s.window_accepted_flits),
        avg_latency: lat.mean(),
        p50_latency: lat.percentile(0.5),
        p99_latency: lat.percentile(0.99),
        max_latency: lat.max,
        avg_hops: if lat.count == 0 { f64::NAN } else { s.labeled_hops as f64 / lat.count as f64 },
        nonminimal_fraction: if lat.count == 0 { 0.0 } else { nonmin as f64 / lat.count as f64 },
        avg_latency_minimal: s.latency_minimal.mean(),
        avg_latency_nonminimal: s.latency_nonminimal.mean(),
        labeled_packets: s.labeled_created,
        unroutable_fraction: if s.labeled_created == 0 {
            0.0
        } else {
            s.labeled_unroutable as f64 / s.labeled_created as f64
        },
        saturated: saturation.is_some(),
        saturation,
        cycles: sim.now(),
    };
    let channel_utilization =
        sent_after.iter().zip(&sent_before).map(|(a, b)| ((a - b) as f64 / window) as f32).collect();
    let latency_histogram = lat.hist.iter().enumerate().filter(|(_, &n)| n > 0).map(|(l, &n)| (l as u64, n)).collect();
    Ok(RunResult { summary, channel_utilization, latency_histogram, batch_normalized_latency: None })
}

fn run_batch(
    sim: &mut Simulation,
    cfg: &SimConfig,
    progress: &mut dyn FnMut(Phase, u64),
) -> Result<RunResult, RunError> {
    let limit = cfg.measurement.drain_limit.max(cfg.traffic.batch_size as u64 * 64);
    // Label the whole run so latency statistics cover every batch packet.
    sim.stats_mut().label_start = 0;
    sim.stats_mut().label_end = u64::MAX;
    while sim.batch_pending() && sim.now() < limit {
        sim.advance(16)?;
        if sim.now().is_multiple_of(256) {
            progress(Phase::Batch, sim.now());
        }
    }
    let s = sim.stats();
    let done = !sim.batch_pending();
    let cycles = s.last_delivery + 1;
    let accepted = s.delivered_flits as f64 * cfg.router.terminal_period as f64
        / (sim.network().terminals() as f64 * cycles as f64);
    let summary = Summary {
        offered_load: 1.0,
        // A batch offers exactly what it delivers once it completes.
        offered_measured: accepted,
        accepted,
        avg_latency: s.latency.mean(),
        p50_latency: s.latency.percentile(0.5),
        p99_latency: s.latency.percentile(0.99),
        max_latency: s.latency.max,
        avg_hops: s.labeled_hops as f64 / s.latency.count.max(1) as f64,
        nonminimal_fraction: s.latency_nonminimal.count as f64 / s.latency.count.max(1) as f64,
        avg_latency_minimal: s.latency_minimal.mean(),
        avg_latency_nonminimal: s.latency_nonminimal.mean(),
        labeled_packets: s.labeled_created,
        unroutable_fraction: s.labeled_unroutable as f64 / s.labeled_created.max(1) as f64,
        saturated: !done,
        saturation: (!done).then_some(SaturationCause::NotDrained),
        cycles: sim.now(),
    };
    Ok(RunResult {
        summary,
        channel_utilization: Vec::new(),
        latency_histogram: Vec::new(),
        batch_normalized_latency: done.then(|| cycles as f64 / cfg.traffic.batch_size as f64),
    })
}

/// The offered loads of a sweep, as the CLI's `--loads`, a story's `experiment.sweep` and
/// the page's sweep box write them: `start:stop:step` (each load rounded to 1e-9, so float
/// noise goes) or a list of loads separated by commas or spaces; each in (0, 1], at most
/// `max` of them. The error says what is wrong in one sentence.
pub fn parse_loads(text: &str, max: usize) -> Result<Vec<f64>, String> {
    let shown: String = text.chars().take(40).collect();
    let number = |s: &str| s.trim().parse::<f64>().ok().filter(|x| x.is_finite());
    let loads: Vec<f64> = match text.split(':').collect::<Vec<_>>()[..] {
        [a, b, step] => {
            let (Some(a), Some(b), Some(step)) = (number(a), number(b), number(step)) else {
                return Err(format!("'{shown}': start:stop:step, three numbers"));
            };
            if !(step > 0.0 && b >= a) {
                return Err(format!("'{shown}': a positive step from start up to stop"));
            }
            let steps = ((b - a) / step + 1e-9).floor();
            if steps >= max as f64 {
                return Err(format!("'{shown}': {} loads; at most {max}", steps + 1.0));
            }
            (0..=steps as usize).map(|i| ((a + i as f64 * step) * 1e9).round() / 1e9).collect()
        }
        [_] => {
            let parts: Vec<&str> = text.split([',', ' ', '\t', '\n']).filter(|s| !s.trim().is_empty()).collect();
            if parts.len() > max {
                return Err(format!("{} loads; at most {max}", parts.len()));
            }
            let mut loads = Vec::with_capacity(parts.len());
            for s in parts {
                let shown: String = s.chars().take(40).collect();
                loads.push(number(s).ok_or_else(|| format!("'{shown}' is not a number"))?);
            }
            loads
        }
        _ => return Err(format!("'{shown}': start:stop:step or a list a, b, c")),
    };
    if loads.is_empty() {
        return Err("no load: give start:stop:step or a list a, b, c".into());
    }
    match loads.iter().find(|&&x| !(x > 0.0 && x <= 1.0)) {
        Some(x) => Err(format!("load {x}: offered loads are in (0, 1]")),
        None => Ok(loads),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_loads;

    /// One grammar for the CLI, the stories and the page: a range rounded to 1e-9, a list
    /// by commas or spaces, loads in (0, 1], a bounded count, and a sentence for each fault.
    #[test]
    fn loads_parse_as_range_or_list_within_bounds() {
        assert_eq!(parse_loads("0.1:0.3:0.1", 10), Ok(vec![0.1, 0.2, 0.3]));
        assert_eq!(parse_loads(" 0.1, 0.5 1", 10), Ok(vec![0.1, 0.5, 1.0]));
        let err = |text: &str, max: usize| parse_loads(text, max).unwrap_err();
        assert!(err("0.01:1:0.01", 40).contains("100 loads; at most 40"));
        assert!(err("0.1,0.2,0.3", 2).contains("3 loads; at most 2"));
        assert!(err("0.1:2:0.1", 40).contains("(0, 1]"));
        assert!(err("0,0.5", 40).contains("load 0"));
        assert!(err("0.5:0.1:0.1", 40).contains("positive step"));
        assert!(err("0.1:inf:0.1", 40).contains("three numbers"));
        assert!(err("a", 40).contains("'a' is not a number"));
        assert!(err("1:2", 40).contains("start:stop:step or a list"));
        assert!(err(" ", 40).contains("no load"));
        assert!(err("0:1:1e-12", 1000).contains("at most 1000"), "no allocation before the count is checked");
    }
}
