//! Rewind: periodic copies of a simulation plus deterministic replay, so that stepping
//! back is exact (issue 17: "time control for teaching").
//!
//! A [`History`] keeps copies ("snapshots") of the simulation every `interval` cycles from
//! cycle 0 on, within a byte budget: when the budget is reached, every second snapshot is
//! dropped and the interval doubles, so the snapshots always cover the whole run evenly and
//! going back to any cycle replays at most `interval` cycles. What changes the simulation
//! from outside between cycles (the offered load, failing or restoring a link) is kept as
//! [`Event`]s stamped with their cycle and applied again during replay. Since a simulation
//! is a deterministic function of its configuration, seed and these events, the replayed
//! state equals the one first reached, bit for bit (`tests/history.rs`).
//!
//! Rewinding is an undo: snapshots and events after the target cycle are dropped.

use super::Simulation;
use crate::config::ConfigErrors;

/// A change made to a running simulation from outside, replayed on rewind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// [`Simulation::set_load`].
    Load(f64),
    /// [`Simulation::set_link_failed`] on the link of output port id `port`.
    LinkFailed { port: usize, failed: bool },
}

impl Event {
    fn apply(self, sim: &mut Simulation) -> Result<(), ConfigErrors> {
        match self {
            Event::Load(load) => sim.set_load(load),
            Event::LinkFailed { port, failed } => {
                sim.set_link_failed(port, failed).map_err(|e| ConfigErrors::one("faults.links", e))
            }
        }
    }
}

/// Snapshots and events of one simulation's run.
pub struct History {
    /// Copies of the simulation, in increasing cycle order; the first is at cycle 0.
    snapshots: Vec<Simulation>,
    /// Events in the order they were applied, with the cycle they were applied at.
    events: Vec<(u64, Event)>,
    /// Cycles between snapshots (a power of two).
    interval: u64,
    /// Most snapshots kept (at least 1).
    capacity: usize,
}

impl History {
    /// First snapshot interval, in cycles.
    pub const FIRST_INTERVAL: u64 = 64;

    /// Starts the history of `sim` (at its current cycle), keeping at most `capacity`
    /// snapshots (at least the first: with one, every rewind replays from it).
    pub fn new(sim: &Simulation, capacity: usize) -> History {
        History {
            snapshots: vec![sim.clone()],
            events: Vec::new(),
            interval: History::FIRST_INTERVAL,
            capacity: capacity.max(1),
        }
    }

    /// The earliest cycle the simulation can be rewound to.
    pub fn earliest(&self) -> u64 {
        self.snapshots[0].now()
    }

    /// Cycles between snapshots now (the most a rewind replays).
    pub fn interval(&self) -> u64 {
        self.interval
    }

    /// Snapshots kept now.
    pub fn snapshots(&self) -> usize {
        self.snapshots.len()
    }

    /// Advances `sim` by `cycles`, taking snapshots on the way; stops early (with the
    /// engine's error) on deadlock.
    pub fn advance(&mut self, sim: &mut Simulation, cycles: u64) -> Result<(), super::SimError> {
        let end = sim.now() + cycles;
        while sim.now() < end {
            let next = (sim.now() / self.interval + 1) * self.interval;
            sim.advance(next.min(end) - sim.now())?;
            if sim.now() == next {
                self.snapshot(sim);
            }
        }
        Ok(())
    }

    /// Applies `event` to `sim` now and records it, if the simulation accepts it.
    pub fn apply(&mut self, sim: &mut Simulation, event: Event) -> Result<(), ConfigErrors> {
        event.apply(sim)?;
        self.events.push((sim.now(), event));
        Ok(())
    }

    /// Puts `sim` back to cycle `target` (clamped to [`History::earliest`] and to now),
    /// exactly as it was when first reached there, with the events of that cycle applied.
    /// Snapshots and events after `target` are dropped. Returns the cycle reached.
    pub fn rewind(&mut self, sim: &mut Simulation, target: u64) -> u64 {
        let target = target.clamp(self.earliest(), sim.now());
        if target == sim.now() {
            return target;
        }
        let keep = self.snapshots.partition_point(|s| s.now() <= target);
        self.snapshots.truncate(keep);
        self.events.retain(|&(at, _)| at <= target);
        *sim = self.snapshots[keep - 1].clone();
        let from = sim.now();
        let mut pending = self.events.iter().filter(|&&(at, _)| at >= from).peekable();
        loop {
            while let Some(&(_, event)) = pending.next_if(|&&(at, _)| at == sim.now()) {
                event.apply(sim).expect("an event accepted before is accepted again");
            }
            if sim.now() == target {
                break;
            }
            // The state was reached before, so no deadlock can stop the replay.
            sim.advance(1).expect("replaying a run that did not deadlock");
        }
        target
    }

    /// Keeps a copy of `sim` (at a multiple of the interval), first thinning the snapshots
    /// if there are `capacity` of them: every second one goes and the interval doubles.
    fn snapshot(&mut self, sim: &Simulation) {
        while self.snapshots.len() >= self.capacity && self.snapshots.len() > 1 {
            self.interval *= 2;
            let (interval, first) = (self.interval, self.earliest());
            self.snapshots.retain(|s| s.now() == first || s.now().is_multiple_of(interval));
        }
        if self.snapshots.len() < self.capacity && sim.now().is_multiple_of(self.interval) {
            self.snapshots.push(sim.clone());
        }
    }
}
