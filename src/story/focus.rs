//! The channels a story's focus selects, computed from the network and the traffic pattern
//! the engine runs (the page cases them in orange; no pattern geometry is kept in JS).

use super::{applies, Focus, Selector};
use crate::sim::Simulation;
use crate::topology::LinkClass;
use crate::traffic::Pattern;

/// The channels `focus` selects on a simulation's network, as a mask over its router
/// channels in the page's order ([`Simulation::router_channels`]; 1 = selected). `None`
/// when the focus does not show on it: it runs another traffic pattern than the focus is
/// about, the selector does not apply to its network, or nothing is selected. The page
/// cases these channels in orange.
pub fn focus_mask(focus: &Focus, sim: &Simulation) -> Option<Vec<u8>> {
    let (cfg, topo) = (sim.config(), sim.topology());
    if focus.pattern.as_ref().is_some_and(|p| *p != cfg.traffic.pattern) || applies(focus, cfg).is_err() {
        return None;
    }
    let net = topo.network();
    let (mut src, mut dst, mut global, mut failed) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (a, port, b, _) in sim.router_channels() {
        let id = net.port_id(a, port);
        src.push(a);
        dst.push(b);
        global.push(net.port_by_id(id).class == LinkClass::Global);
        failed.push(sim.faults().failed(id));
    }
    let routers = net.routers() as u32;
    let shift = cfg.traffic.shift;
    let mut mask = vec![0u8; src.len()];
    let mut select = |c: usize| mask[c] = 1;
    match focus.selector {
        // Router i's terminals all send to router i + shift: the direct channel(s) to it.
        Selector::ShiftDirect => {
            for c in 0..src.len() {
                if dst[c] == (src[c] + shift) % routers {
                    select(c);
                }
            }
        }
        // Group i sends to group i + shift: the global channels between them, within each
        // slice of a sliced dragonfly.
        Selector::GroupShiftGlobal => {
            let df = topo.as_dragonfly()?;
            for c in 0..src.len() {
                let (a, b) = (src[c], dst[c]);
                let same_slice = net.slice_of(a) == net.slice_of(b);
                if global[c] && same_slice && df.group(b) == (df.group(a) + shift) % df.g {
                    select(c);
                }
            }
        }
        // The direct channels between each switch and the switches its terminals send to:
        // with Swap2, one per switch in each of dimensions 0 and 1 (HyperX §4.1), taken
        // from the pattern the engine runs rather than recomputed.
        Selector::Swap2Minimal => {
            let pattern = Pattern::build(&cfg.traffic, topo, cfg.seed).ok()?;
            let Pattern::Table(table) = &pattern else { return None };
            let mut pairs = std::collections::HashSet::new();
            for (s, &d) in table.iter().enumerate() {
                pairs.insert((net.terminal_router(s as u32), net.terminal_router(d)));
            }
            for c in 0..src.len() {
                if src[c] != dst[c] && pairs.contains(&(src[c], dst[c])) {
                    select(c);
                }
            }
        }
        // Around each failed link a–b: the working channels a → x → b and b → x → a through
        // every router x linked to both (in a HyperX, the rest of the link's line: DAL's
        // detour, §6).
        Selector::FailedLinkDetours => {
            let mut out: Vec<Vec<usize>> = vec![Vec::new(); routers as usize];
            let mut between: std::collections::HashMap<(u32, u32), Vec<usize>> = Default::default();
            for c in (0..src.len()).filter(|&c| !failed[c]) {
                out[src[c] as usize].push(c);
                between.entry((src[c], dst[c])).or_default().push(c);
            }
            let both = |a: u32, b: u32| {
                let none = Vec::new();
                let ab = between.get(&(a, b)).unwrap_or(&none).clone();
                ab.into_iter().chain(between.get(&(b, a)).cloned().unwrap_or_default())
            };
            for c in (0..src.len()).filter(|&c| failed[c] && src[c] < dst[c]) {
                let (a, b) = (src[c], dst[c]);
                for &first in &out[a as usize] {
                    let x = dst[first];
                    if x == b || !between.contains_key(&(x, b)) {
                        continue;
                    }
                    for d in both(a, x).chain(both(x, b)) {
                        select(d);
                    }
                }
            }
        }
        // The channels picked, every parallel one from the first router to the second, and
        // every channel out of a picked router.
        Selector::Picked => {
            let pairs: std::collections::HashSet<(u32, u32)> = focus.channels.iter().map(|&[a, b]| (a, b)).collect();
            for c in 0..src.len() {
                if pairs.contains(&(src[c], dst[c])) || focus.routers.contains(&src[c]) {
                    select(c);
                }
            }
        }
        // Every channel of one slice (routers are numbered slice by slice).
        Selector::Slice => {
            let slice = focus.slice?;
            for (c, &a) in src.iter().enumerate() {
                if net.slice_of(a) == slice {
                    select(c);
                }
            }
        }
    }
    mask.contains(&1).then_some(mask)
}
