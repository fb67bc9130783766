//! Rewind: periodic copies of a simulation plus deterministic replay, so that stepping
//! back is exact (the page's rewind for teaching, docs/lecture.md, Time).
//!
//! A [`History`] takes a copy ("snapshot") of the simulation every [`History::SPACING`]
//! cycles and keeps as many as fit in its byte budget, each counted at what it holds when
//! it is taken ([`History::cost`]: a simulation whose source queues have grown costs more
//! than the fresh one): when the next does not fit, it drops the snapshots whose loss
//! leaves the smallest gap relative to their age, so the snapshots stay dense near the
//! present and thin out into the past. Stepping back a cycle or a few replays at most
//! `SPACING` cycles however long the run; going far back replays at most the gap around
//! the target ([`History::max_replay`]). A snapshot that does not fit even beside the
//! first alone is not taken (rewinding then replays from further back), and a simulation
//! too large for the budget keeps none: it cannot be rewound, and [`History::earliest`]
//! says so.
//!
//! What changes the simulation from outside between cycles (the offered load, failing or
//! restoring a link) is kept as [`Event`]s stamped with their cycle and applied again
//! during replay. Since a simulation is a deterministic function of its configuration,
//! seed and these events, the replayed state equals the one first reached, bit for bit
//! (`tests/integration/history.rs`).
//!
//! Rewinding is an undo: snapshots and events after the target cycle are dropped.

use super::Simulation;
use crate::config::ConfigErrors;

/// What running until an event did (the page's `runUntil`).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct RunUntil {
    /// Cycles advanced.
    pub cycles: u32,
    /// The awaited event happened (else `max_cycles` ran out, or a deadlock stopped it).
    pub reached: bool,
    /// For `saturated`: the channel found saturated.
    pub channel: Option<u32>,
    /// The deadlock report's text if the watchdog tripped.
    pub error: Option<String>,
}

/// How far back a simulation can be rewound (the page's `rewindable`).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Rewindable {
    /// The earliest cycle reachable (the current one when the simulation is too large
    /// for any snapshot: it cannot be rewound).
    pub earliest: f64,
    /// The most cycles a rewind replays (see `History::max_replay`).
    pub max_replay: f64,
    pub snapshots: u32,
    /// Bytes the snapshots take, and the most they may take (the simulation's share of
    /// its worker's budget, `src/web/budget.rs`).
    pub bytes: f64,
    pub budget: f64,
}

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
    /// Copies of the simulation, in increasing cycle order; the first is where the
    /// history started (cycle 0 in the page), unless it did not fit in the budget.
    snapshots: Vec<Simulation>,
    /// The bytes each snapshot is counted as ([`History::cost`] when it was taken).
    sizes: Vec<usize>,
    /// Events in the order they were applied, with the cycle they were applied at.
    events: Vec<(u64, Event)>,
    /// The most bytes of snapshots kept.
    budget: usize,
}

impl History {
    /// Cycles between the snapshots the history takes.
    pub const SPACING: u64 = 64;
    /// Most snapshots kept whatever the budget (choosing which to drop looks at each).
    pub const MAX_SNAPSHOTS: usize = 256;

    /// Starts the history of `sim` (at its current cycle), keeping at most `budget` bytes
    /// of snapshots: the first is taken now if it fits.
    pub fn new(sim: &Simulation, budget: usize) -> History {
        let mut history = History { snapshots: Vec::new(), sizes: Vec::new(), events: Vec::new(), budget };
        let cost = History::cost(sim);
        if cost <= budget {
            history.snapshots.push(sim.clone());
            history.sizes.push(cost);
        }
        history
    }

    /// The bytes a copy of `sim` is counted as: twice the engine's arrays as they are now
    /// ([`Simulation::memory_bytes`], source queues and packets included), which covers
    /// the network and routing tables a copy also holds (`tests/integration/history.rs` measures
    /// copies against it).
    pub fn cost(sim: &Simulation) -> usize {
        sim.memory_bytes().saturating_mul(2)
    }

    /// The earliest cycle the simulation, now at cycle `now`, can be rewound to (`now`
    /// itself when the history holds no snapshot: the simulation is too large for it).
    pub fn earliest(&self, now: u64) -> u64 {
        self.snapshots.first().map_or(now, Simulation::now)
    }

    /// The most cycles a rewind to a cycle before `now` replays: the largest gap between
    /// consecutive snapshots, or between the last one and `now` (0 without snapshots).
    pub fn max_replay(&self, now: u64) -> u64 {
        let times = || self.snapshots.iter().map(Simulation::now).chain([now]);
        times().zip(times().skip(1)).map(|(a, b)| b - a).max().unwrap_or(0)
    }

    /// The cycles of the snapshots kept, oldest first.
    pub fn cycles(&self) -> impl Iterator<Item = u64> + '_ {
        self.snapshots.iter().map(Simulation::now)
    }

    /// The cycle of the latest snapshot.
    pub fn latest(&self) -> u64 {
        self.snapshots.last().map_or(0, Simulation::now)
    }

    /// Snapshots kept now.
    pub fn snapshots(&self) -> usize {
        self.snapshots.len()
    }

    /// The bytes the snapshots kept are counted as (at most the budget).
    pub fn bytes(&self) -> usize {
        self.sizes.iter().sum()
    }

    /// The most bytes of snapshots kept.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// How far back the simulation, now at cycle `now`, can be rewound.
    pub fn rewindable(&self, now: u64) -> Rewindable {
        Rewindable {
            earliest: self.earliest(now) as f64,
            max_replay: self.max_replay(now) as f64,
            snapshots: self.snapshots() as u32,
            bytes: self.bytes() as f64,
            budget: self.budget() as f64,
        }
    }

    /// Advances `sim` by `cycles`, taking snapshots on the way; stops early (with the
    /// engine's error) on deadlock.
    pub fn advance(&mut self, sim: &mut Simulation, cycles: u64) -> Result<(), super::SimError> {
        let end = sim.now() + cycles;
        while sim.now() < end {
            let next = (sim.now() / History::SPACING + 1) * History::SPACING;
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
        let target = target.clamp(self.earliest(sim.now()), sim.now());
        if target == sim.now() {
            return target;
        }
        let keep = self.snapshots.partition_point(|s| s.now() <= target);
        self.snapshots.truncate(keep);
        self.sizes.truncate(keep);
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

    /// Keeps a copy of `sim` if it fits in the budget beside the first snapshot, first
    /// dropping snapshots until it fits (and fewer than [`History::MAX_SNAPSHOTS`] are
    /// kept): each time the one (not the first) whose two neighbours are closest relative
    /// to how long ago the earlier one was, `(t[i+1] − t[i−1]) / (now − t[i−1])` — so
    /// spacing grows with age and the latest snapshot, whose score is 1, goes last.
    fn snapshot(&mut self, sim: &Simulation) {
        let (now, cost) = (sim.now(), History::cost(sim));
        if self.sizes.first().copied().unwrap_or(0).saturating_add(cost) > self.budget {
            return;
        }
        while self.snapshots.len() > 1
            && (self.snapshots.len() >= History::MAX_SNAPSHOTS || self.bytes() + cost > self.budget)
        {
            let t = |i: usize| self.snapshots.get(i).map_or(now, Simulation::now);
            let score = |i: usize| (t(i + 1) - t(i - 1)) as f64 / (now - t(i - 1)).max(1) as f64;
            let drop = (1..self.snapshots.len()).min_by(|&a, &b| score(a).total_cmp(&score(b))).expect("two or more");
            self.snapshots.remove(drop);
            self.sizes.remove(drop);
        }
        self.snapshots.push(sim.clone());
        self.sizes.push(cost);
    }
}
