//! A story's scenes: the sequence a lecture is played in, one step per clicker press. Each
//! scene has a caption, where the run stops (a cycle, or an event the page can run until:
//! the next decision or non-minimal decision at a router, the first saturated channel),
//! what changes as it starts (the view, the focus, the offered load, links failed or
//! restored, the router shown in the inspector) and, optionally, a question the class
//! answers before the run reveals it (predict, then watch).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashSet;

use super::{line, rich_text, Focus, Problems, View};
use crate::config::{ConfigErrors, SimConfig};
use crate::sim::Simulation;

/// The most scenes a story plays.
pub const MAX_SCENES: usize = 40;
/// The latest cycle a scene may stop at, and the most cycles one may run until its event.
pub const MAX_SCENE_CYCLE: u64 = 1_000_000;

/// One scene (see the module documentation).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// What the class is told during the scene: structured text.
    pub caption: Value,
    /// Where the run stops.
    pub stop: Stop,
    /// The view as the scene starts (unset fields keep the previous scene's).
    #[serde(default)]
    pub view: Option<View>,
    /// The offered load set as the scene starts, as the load control sets it while running.
    #[serde(default)]
    pub load: Option<f64>,
    /// Links that fail as the scene starts, as `faults.links` lists them (`[router, router]`
    /// or `[router, router, trunk]`; HyperX paper §6), in every pane, as a click in the
    /// page's fail-links mode fails them while running.
    #[serde(default)]
    pub fail: Vec<Vec<u32>>,
    /// Links restored as the scene starts (failed by the configuration or an earlier scene).
    #[serde(default)]
    pub restore: Vec<Vec<u32>>,
    /// The channels cased in orange from this scene on (unset: the previous scene's, or the
    /// story's focus).
    #[serde(default)]
    pub focus: Option<Focus>,
    /// The router the inspector shows once the scene has stopped (in the first pane).
    #[serde(default)]
    pub inspect: Option<u32>,
    /// A question asked before the run, answered by it.
    #[serde(default)]
    pub question: Option<Question>,
}

/// Where a scene's run stops.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(tag = "until", rename_all = "snake_case", deny_unknown_fields)]
pub enum Stop {
    /// At this cycle (the page animates up to it).
    Cycle { cycle: u64 },
    /// At the next routing decision at `router` (in the first pane).
    Decision { router: u32 },
    /// At the next packet `router` sends off its minimal path (in the first pane).
    Nonminimal { router: u32 },
    /// At the first saturated channel: a VC buffer it feeds is full.
    Saturated {},
}

/// A question for the class: a few answers to choose from, the right one, and why, shown
/// once the run has answered it.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub ask: String,
    pub choices: Vec<String>,
    /// The index of the right choice.
    pub answer: usize,
    /// Why: structured text, shown with the answer.
    pub why: Value,
}

/// The most links one scene fails or restores.
pub const MAX_SCENE_LINKS: usize = 64;

/// Checks the scenes against the panes' configurations (the routers they name must exist
/// in every pane; cycle stops must move forward; the links they fail must be able to fail
/// together with the configuration's, and those they restore must have failed).
pub(super) fn problems(p: &mut Problems, scenes: &[Scene], panes: &[SimConfig]) {
    p.check(scenes.len() <= MAX_SCENES, "scenes", || format!("{} scenes; at most {MAX_SCENES}", scenes.len()));
    let routers = panes.iter().filter_map(|c| c.topology.size().map(|(r, _, _)| r)).min();
    let mut last_cycle = 0;
    for (i, s) in scenes.iter().enumerate().take(MAX_SCENES) {
        let at = format!("scenes[{i}]");
        rich_text(p, &format!("{at}.caption"), &s.caption);
        let router = |p: &mut Problems, path: &str, r: u32| {
            if let Some(n) = routers {
                p.check(u64::from(r) < n, path, || format!("router {r}; the network has {n} (0 to {})", n - 1));
            }
        };
        match s.stop {
            Stop::Cycle { cycle } => {
                p.check(cycle > last_cycle && cycle <= MAX_SCENE_CYCLE, &format!("{at}.stop.cycle"), || {
                    format!("cycle {cycle}: after the previous stop ({last_cycle}) and at most {MAX_SCENE_CYCLE}")
                });
                last_cycle = last_cycle.max(cycle);
            }
            Stop::Decision { router: r } | Stop::Nonminimal { router: r } => router(p, &format!("{at}.stop.router"), r),
            Stop::Saturated {} => {}
        }
        if let Some(view) = &s.view {
            view.problems(p, &format!("{at}.view"));
        }
        if let Some(load) = s.load {
            p.check(load.is_finite() && load > 0.0 && load <= 1.0, &format!("{at}.load"), || {
                format!("{load}: an offered load in (0, 1]")
            });
        }
        if let Some(r) = s.inspect {
            router(p, &format!("{at}.inspect"), r);
        }
        if let Some(focus) = &s.focus {
            focus.problems(p, &format!("{at}.focus"), panes);
        }
        for (field, links) in [("fail", &s.fail), ("restore", &s.restore)] {
            p.check(links.len() <= MAX_SCENE_LINKS, &format!("{at}.{field}"), || {
                format!("{} links; at most {MAX_SCENE_LINKS}", links.len())
            });
            for (j, l) in links.iter().enumerate().take(MAX_SCENE_LINKS) {
                p.check(matches!(l.len(), 2 | 3), &format!("{at}.{field}[{j}]"), || {
                    crate::config::schema::link_shape_error(l.len())
                });
            }
        }
        if let Some(q) = &s.question {
            line(p, &format!("{at}.question.ask"), &q.ask, 300);
            p.check((2..=6).contains(&q.choices.len()), &format!("{at}.question.choices"), || {
                format!("{} choices; 2 to 6", q.choices.len())
            });
            for (j, c) in q.choices.iter().enumerate().take(6) {
                line(p, &format!("{at}.question.choices[{j}]"), c, 200);
            }
            p.check(q.answer < q.choices.len(), &format!("{at}.question.answer"), || {
                format!("choice {}; there are {}", q.answer, q.choices.len())
            });
            rich_text(p, &format!("{at}.question.why"), &q.why);
        }
    }
}

/// A link as `faults.links` names it, with its routers in order and trunk 0 spelled out.
fn link_key(link: &[u32]) -> Option<(u32, u32, u32)> {
    match *link {
        [a, b] => Some((a.min(b), a.max(b), 0)),
        [a, b, t] => Some((a.min(b), a.max(b), t)),
        _ => None,
    }
}

/// The scenes' failures against each pane: every link a scene restores has failed by then,
/// and the configuration's failed links with every link a scene fails must build together
/// (each link exists, the routing takes failures, the network stays connected). Any state
/// the scenes reach fails a subset of these, so each fails and restores as the page plays it.
pub(super) fn link_problems(p: &mut Problems, scenes: &[Scene], panes: &[SimConfig]) {
    let sized = |s: &Scene| s.fail.len() <= MAX_SCENE_LINKS && s.restore.len() <= MAX_SCENE_LINKS;
    let scenes = &scenes[..scenes.len().min(MAX_SCENES)];
    if !scenes.iter().any(|s| !s.fail.is_empty() || !s.restore.is_empty()) || !scenes.iter().all(sized) {
        return;
    }
    for (i, cfg) in panes.iter().enumerate() {
        // The links failed as the scenes go, and every link failed at some point.
        let mut failed: HashSet<(u32, u32, u32)> = cfg.faults.links.iter().filter_map(|l| link_key(l)).collect();
        let mut ever = failed.clone();
        // Where each link added to the configuration's list comes from.
        let mut origin = Vec::new();
        let mut all = cfg.clone();
        let mut found = false;
        for (k, s) in scenes.iter().enumerate() {
            for (j, l) in s.restore.iter().enumerate() {
                let Some(key) = link_key(l) else { continue };
                let was = failed.remove(&key);
                p.check(was, &format!("scenes[{k}].restore[{j}]"), || {
                    format!("link {l:?} has not failed by this scene (in pane {i})")
                });
                found |= !was;
            }
            for (j, l) in s.fail.iter().enumerate() {
                let Some(key) = link_key(l) else { continue };
                failed.insert(key);
                if ever.insert(key) {
                    all.faults.links.push(l.clone());
                    origin.push(format!("scenes[{k}].fail[{j}]"));
                }
            }
        }
        let base = cfg.faults.links.len();
        if let Err(ConfigErrors(errors)) = Simulation::check(&all) {
            for e in errors {
                let listed = e
                    .path
                    .strip_prefix("faults.links[")
                    .and_then(|r| r.strip_suffix(']'))
                    .and_then(|n| n.parse::<usize>().ok());
                match listed.and_then(|n| n.checked_sub(base)).and_then(|n| origin.get(n)) {
                    Some(path) => p.add(path.clone(), format!("{} (in pane {i})", e.message)),
                    None => {
                        p.add("scenes", format!("the links the scenes fail, in pane {i}: {}: {}", e.path, e.message))
                    }
                }
                found = true;
            }
        }
        if found {
            break;
        }
    }
}
