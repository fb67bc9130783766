//! Hostile story documents never panic the engine's check: a built-in story with one to
//! three of its values replaced (by a wrong type, an out-of-range or huge number, hostile
//! or invisible text, deep nesting, an unknown key) or its text cut or corrupted, as a link,
//! a file or a hosted document may bring it, is either accepted — and then every pane of it
//! builds and runs, and its focus is selected — or refused with problems that each name a
//! field of the document. `HIRADIX_FUZZ_STORIES` cases (default 400) from seed
//! `HIRADIX_FUZZ_SEED` (default 1); scripts/fuzz.sh runs a long campaign (docs/reliability.md).

use std::path::Path;

use hiradix::config::SimConfig;
use hiradix::sim::Simulation;
use hiradix::story::{check, focus_mask, MAX_STORY_BYTES};
use serde_json::{json, Value};

/// The built-in story documents, and one as the page's editor writes them: the failed-links
/// story with a picked focus, and a scene that zooms and changes the focus.
fn builtin() -> Vec<Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("www/stories/builtin");
    let ids: Vec<String> = serde_json::from_str(&std::fs::read_to_string(dir.join("index.json")).unwrap()).unwrap();
    let mut docs: Vec<Value> = ids
        .iter()
        .map(|id| serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{id}.json"))).unwrap()).unwrap())
        .collect();
    let mut edited = docs.iter().find(|d| d["id"] == "dal-failed-links").expect("the failed-links story").clone();
    edited["id"] = json!("edited");
    edited["focus"] = json!({"selector": "picked", "channels": [[5, 4], [4, 6]], "routers": [], "label": "the detour"});
    edited["scenes"][2]["focus"] = json!({"selector": "picked", "channels": [], "routers": [5], "label": "router 5's"});
    edited["scenes"][2]["view"] = json!({"zoom": 2.5, "center": [0.3, 0.6]});
    docs.push(edited);
    docs
}

/// Every value's JSON pointer in `v` (objects' fields and arrays' items, the root left out).
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
            out.push(p.clone());
            pointers(x, p, out);
        }),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| {
            let p = format!("{at}/{i}");
            out.push(p.clone());
            pointers(x, p, out);
        }),
        _ => {}
    }
}

/// A hostile replacement value.
fn hostile(rng: &mut hiradix::rng::SimRng, old: &Value) -> Value {
    let mut deep = json!("x");
    for _ in 0..40 {
        deep = json!({ "b": deep });
    }
    let cases = [
        json!(null),
        json!(true),
        json!(-1),
        json!(0),
        json!(1e300),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(2.5),
        json!(""),
        json!("<img src=x onerror=alert(1)>"),
        json!("\u{202e}\u{200b}\u{0007}x"),
        json!("x".repeat(5000)),
        json!([]),
        json!([1, "a", null]),
        json!({}),
        json!({"__proto__": {"polluted": 1}}),
        deep,
        json!({"until": "decision", "router": 4_000_000_000u32}),
        json!({"until": "cycle", "cycle": 0}),
        json!({"ask": "?", "choices": ["a"], "answer": 9, "why": "x"}),
        json!(["minimal", {"sub": {"i": {"b": "x"}}}]),
    ];
    // Sometimes a nearby value of the same type: a number off by a little, a string
    // changed, so that the cases also land just inside and just outside the ranges.
    match (rng.below(3), old) {
        (0, Value::Number(n)) => {
            json!(n.as_f64().unwrap_or(0.0) * (rng.below(5) as f64 - 1.0) + rng.below(3) as f64 - 1.0)
        }
        (0, Value::String(s)) => json!(format!("{s}{}", ["-", "é", "\n", "0"][rng.below(4) as usize])),
        _ => cases[rng.below(cases.len() as u32) as usize].clone(),
    }
}

/// Checks `text` as the page does; an accepted story must run in every pane.
fn try_story(text: &str) -> Result<(), Vec<String>> {
    let story = check(text).map_err(|e| e.0.iter().map(|e| e.path.clone()).collect::<Vec<_>>())?;
    let base = &story.experiment.config;
    let values: Vec<Option<&Value>> = match &story.experiment.compare {
        None => vec![None],
        Some(c) => c.values.iter().map(Some).collect(),
    };
    for value in values {
        let mut v = base.clone();
        if let (Some(c), Some(x)) = (&story.experiment.compare, value) {
            hiradix::config::apply_override(&mut v, &format!("{}={x}", c.param)).expect("a checked parameter");
        }
        let mut cfg = SimConfig::from_value(v).expect("a checked pane");
        cfg.measurement.warmup = 10;
        cfg.measurement.measure = 10;
        let mut sim = Simulation::new(&cfg).expect("an accepted story's pane builds");
        sim.advance(20).expect("an accepted story's pane runs");
        if let Some(f) = &story.focus {
            let _ = focus_mask(f, &sim);
        }
    }
    Ok(())
}

#[test]
fn hostile_story_documents_are_refused_by_field_or_run() {
    let count: u64 = std::env::var("HIRADIX_FUZZ_STORIES").ok().and_then(|s| s.parse().ok()).unwrap_or(400);
    let seed: u64 = std::env::var("HIRADIX_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let stories = builtin();
    let mut rng = hiradix::rng::SimRng::new(seed, 0x7374_6f72);
    let (mut accepted, mut refused) = (0u64, 0u64);
    let start = std::time::Instant::now();
    for i in 0..count {
        let mut doc = stories[rng.below(stories.len() as u32) as usize].clone();
        let mut all = Vec::new();
        pointers(&doc, String::new(), &mut all);
        for _ in 0..1 + rng.below(3) {
            let at = &all[rng.below(all.len() as u32) as usize];
            if let Some(slot) = doc.pointer_mut(at) {
                let old = slot.clone();
                *slot = hostile(&mut rng, &old);
            }
        }
        if rng.below(8) == 0 {
            doc[["script", "__proto__", "scenes", "numbers"][rng.below(4) as usize]] = json!({"x": 1});
        }
        let mut text = doc.to_string();
        // One case in eight: the text itself damaged (cut, a byte changed, padded past the cap).
        match rng.below(16) {
            0 => {
                let mut at = text.len() * rng.below(100) as usize / 100;
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text.truncate(at);
            }
            1 => {
                let at = rng.below(text.len() as u32) as usize;
                if text.is_char_boundary(at) && text.is_char_boundary(at + 1) {
                    text.replace_range(at..at + 1, ["{", "\"", "\\", "\u{0}"][rng.below(4) as usize]);
                }
            }
            2 => text.push_str(&" ".repeat(MAX_STORY_BYTES)),
            _ => {}
        }
        let outcome = std::panic::catch_unwind(|| try_story(&text));
        match outcome {
            Err(_) => panic!("case {i} (seed {seed}) panicked on\n{}", &text[..text.len().min(4000)]),
            Ok(Ok(())) => accepted += 1,
            Ok(Err(paths)) => {
                assert!(!paths.is_empty(), "case {i}: refused without a problem");
                for p in &paths {
                    assert!(!p.is_empty() && p.len() <= 200, "case {i}: problem path {p:?}");
                }
                refused += 1;
            }
        }
    }
    println!(
        "{count} hostile story documents (seed {seed}): {accepted} accepted and run, {refused} refused with a field, 0 panics, {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert!(refused > count / 4, "the mutations reach the checks: {refused} refused of {count}");
}
