//! Story documents (src/story.rs): the built-in stories the page reads
//! (www/stories/builtin/) all pass the check, and a broken or hostile document is refused
//! with every problem naming its field, by the library and by `hiradix story check`.

use hiradix::story::{check, Selector, MAX_STORY_BYTES};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn builtin_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("www/stories/builtin")
}

/// The built-in stories, in the menu's order (index.json).
fn builtin() -> Vec<(String, String)> {
    let index = std::fs::read_to_string(builtin_dir().join("index.json")).expect("index.json");
    let ids: Vec<String> = serde_json::from_str(&index).expect("a list of ids");
    ids.into_iter()
        .map(|id| {
            let text = std::fs::read_to_string(builtin_dir().join(format!("{id}.json"))).expect("the story");
            (id, text)
        })
        .collect()
}

/// The paths of the problems of a document, or nothing if it passes.
fn problems(doc: &Value) -> Vec<String> {
    match check(&doc.to_string()) {
        Ok(_) => Vec::new(),
        Err(e) => e.0.iter().map(|e| format!("{}: {}", e.path, e.message)).collect(),
    }
}

/// A small valid story to break one field at a time.
fn valid() -> Value {
    json!({
        "hiradix_story": 1,
        "id": "my-story",
        "title": "Minimal routing on the worst case",
        "source": {"paper": "Flattened butterfly, ISCA 2007", "where": "§3.2, Fig. 4(b)"},
        "point": "Under MIN only the channels i → i+1 carry traffic.",
        "explanation": ["A 4-ary 2-flat under ", {"b": "router shift"}, "."],
        "look": ["The cased channels are dark."],
        "experiment": {
            "config": {"topology": {"type": "flattened_butterfly", "k": 4, "n": 2}, "traffic": {"pattern": "router_shift", "load": 0.3}},
            "compare": {"param": "routing.algorithm", "values": ["min", "val"]},
            "speed": 2,
            "view": {"metric": "utilization"},
            "sweep": "0.05:0.6:0.05"
        },
        "focus": {"selector": "shift_direct", "pattern": "router_shift", "label": "channels router i → i+1"},
        "key_plots": ["classes", "throughput"]
    })
}

/// `valid()` with `edit` applied to it.
fn with(edit: impl FnOnce(&mut Value)) -> Value {
    let mut doc = valid();
    edit(&mut doc);
    doc
}

/// Asserts that `doc` is refused with a problem at `path` whose message contains `words`.
fn refused(doc: &Value, path: &str, words: &str) {
    let found = problems(doc);
    assert!(
        found.iter().any(|p| p.starts_with(&format!("{path}: ")) && p.contains(words)),
        "expected a problem at {path} saying '{words}', got {found:?}"
    );
}

#[test]
fn the_builtin_stories_pass_and_the_index_lists_every_one() {
    let stories = builtin();
    assert_eq!(stories.len(), 7);
    for (id, text) in &stories {
        let story = check(text).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(&story.id, id, "a story's id is its file name");
    }
    let mut files: Vec<String> = std::fs::read_dir(builtin_dir())
        .expect("the folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n != "index.json")
        .collect();
    files.sort();
    let mut listed: Vec<String> = stories.iter().map(|(id, _)| format!("{id}.json")).collect();
    listed.sort();
    assert_eq!(files, listed, "index.json lists every document of the folder");
}

#[test]
fn the_builtin_stories_use_every_selector_but_none_twice_by_accident() {
    // Every selector the format declares is exercised by a built-in story, so each one's
    // applicability rule is checked against a real network.
    let used: Vec<Selector> =
        builtin().iter().filter_map(|(_, t)| check(t).expect("passes").focus.map(|f| f.selector)).collect();
    for s in Selector::ALL {
        assert!(used.contains(&s), "no built-in story uses {s:?}");
    }
}

#[test]
fn a_valid_story_passes() {
    assert_eq!(problems(&valid()), Vec::<String>::new());
}

#[test]
fn structure_and_names_are_checked() {
    refused(&with(|d| d["hiradix_story"] = json!(2)), "hiradix_story", "reads 1");
    refused(&with(|d| d["id"] = json!("My Story")), "id", "lower-case");
    refused(&with(|d| d["colour"] = json!("red")), "colour", "unknown field `colour`");
    refused(&with(|d| d["experiment"]["wat"] = json!(1)), "experiment.wat", "unknown field `wat`");
    refused(&with(|d| d["focus"]["selector"] = json!("everything")), "focus.selector", "unknown variant");
    refused(&with(|d| d["key_plots"] = json!(["pie"])), "key_plots[0]", "unknown variant");
    refused(&with(|d| d["title"] = json!("")), "title", "1 to 100");
    refused(&with(|d| d["point"] = json!("line\u{1b}[31m")), "point", "U+001B");
    refused(&with(|d| d["title"] = json!("\u{202e}txet")), "title", "U+202E");
    refused(&with(|d| d["explanation"] = json!(["a", {"i": "b\u{200b}"}])), "explanation[1].i", "U+200B");
    assert!(check("{\"hiradix_story\": 1, \"hiradix_story\": 1}").is_err(), "a repeated key");
    assert!(check(&" ".repeat(MAX_STORY_BYTES + 1)).is_err(), "too large");
}

#[test]
fn structured_text_is_text_only() {
    refused(&with(|d| d["explanation"] = json!(["a ", {"script": "alert(1)"}])), "explanation[1].script", "emphasis");
    refused(&with(|d| d["explanation"] = json!([{"b": "x", "i": "y"}])), "explanation[0]", "text is a string");
    refused(&with(|d| d["look"] = json!([42])), "look[0]", "text is a string");
    let mut deep = json!("x");
    for _ in 0..20 {
        deep = json!({ "b": deep });
    }
    refused(&with(|d| d["explanation"] = deep), &format!("explanation{}", ".b".repeat(9)), "nested deeper than 8");
    refused(&with(|d| d["explanation"] = json!("x".repeat(5000))), "explanation", "at most 4000");
}

#[test]
fn the_experiment_must_build_in_every_pane() {
    refused(
        &with(|d| d["experiment"]["config"]["router"] = json!({"vcs": 99})),
        "experiment.compare.values[0].router.vcs",
        "1..=16",
    );
    refused(
        &with(|d| d["experiment"]["compare"]["values"][1] = json!("warp")),
        "experiment.compare.values[1].routing.algorithm",
        "warp",
    );
    refused(
        &with(|d| d["experiment"]["compare"]["param"] = json!("router.colour")),
        "experiment.compare.param",
        "not a parameter",
    );
    refused(&with(|d| d["experiment"]["compare"]["values"] = json!(["min"])), "experiment.compare.values", "2 to 3");
    let single = with(|d| {
        d["experiment"].as_object_mut().expect("object").remove("compare");
        d["experiment"]["config"]["topology"]["k"] = json!(1);
    });
    refused(&single, "experiment.config.topology.k", "");
    refused(&with(|d| d["experiment"]["speed"] = json!(0)), "experiment.speed", "1/120");
    refused(&with(|d| d["experiment"]["view"]["metric"] = json!("vc99")), "experiment.view.metric", "link colour");
    refused(&with(|d| d["experiment"]["ranges"] = json!({"occupancy": 2})), "experiment.ranges.occupancy", "(0, 1]");
    refused(&with(|d| d["experiment"]["sweep"] = json!("0.1:2:0.1")), "experiment.sweep", "(0, 1]");
    refused(&with(|d| d["experiment"]["sweep"] = json!("0.01:1:0.01")), "experiment.sweep", "at most 40");
}

#[test]
fn the_focus_must_show_on_the_experiment() {
    refused(&with(|d| d["focus"]["selector"] = json!("group_shift_global")), "focus.selector", "only a dragonfly");
    refused(&with(|d| d["focus"]["selector"] = json!("swap2_minimal")), "focus.selector", "HyperX");
    refused(&with(|d| d["focus"]["selector"] = json!("failed_link_detours")), "focus.selector", "no link has failed");
    refused(&with(|d| d["focus"]["selector"] = json!("slice")), "focus.slice", "names its slice");
    refused(&with(|d| d["focus"]["slice"] = json!(0)), "focus.slice", "only the slice selector");
    refused(&with(|d| d["focus"]["pattern"] = json!("uniform")), "focus.pattern", "no pane runs 'uniform'");
    refused(&with(|d| d["focus"]["pattern"] = json!("<b>")), "focus.pattern", "not a traffic pattern");
    refused(&with(|d| d["focus"]["dim"] = json!(1.5)), "focus.dim", "[0, 1]");
    refused(&with(|d| d["focus"] = Value::Null), "key_plots", "give a focus");
}

#[test]
fn stated_numbers_name_a_pane_and_a_tolerance() {
    let number = |pane: usize, within: f64| json!({"says": "MIN accepts 0.0625", "pane": pane, "quantity": "accepted", "value": 0.0625, "within": within});
    assert_eq!(
        problems(&with(|d| d["numbers"] = json!({"at_cycle": 400, "values": [number(1, 0.01)]}))),
        Vec::<String>::new()
    );
    refused(
        &with(|d| d["numbers"] = json!({"at_cycle": 400, "values": [number(2, 0.01)]})),
        "numbers.values[0].pane",
        "the story has 2",
    );
    refused(
        &with(|d| d["numbers"] = json!({"at_cycle": 400, "values": [number(0, -1.0)]})),
        "numbers.values[0].within",
        "0 or more",
    );
    refused(&with(|d| d["numbers"] = json!({"at_cycle": 0, "values": []})), "numbers.at_cycle", "from 1");
    refused(
        &with(|d| {
            d["numbers"] = json!({"at_cycle": 9, "values": [{"says": "x", "pane": 0, "quantity": "vibes", "value": 1, "within": 0}]})
        }),
        "numbers.values[0].quantity",
        "unknown variant",
    );
}

#[test]
fn hiradix_story_check_reports_each_document() {
    let run = |files: &[&Path]| {
        Command::new(env!("CARGO_BIN_EXE_hiradix"))
            .arg("story")
            .arg("check")
            .args(files)
            .output()
            .expect("the hiradix binary runs")
    };
    let files: Vec<PathBuf> = builtin().iter().map(|(id, _)| builtin_dir().join(format!("{id}.json"))).collect();
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let out = run(&refs);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).matches(": ok (").count(), 7);

    let dir = std::env::temp_dir().join(format!("hiradix-stories-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.json");
    let doc = with(|d| {
        d["title"] = json!("\u{202e}evil");
        d["focus"]["selector"] = json!("swap2_minimal");
    });
    std::fs::write(&bad, doc.to_string()).expect("write");
    let out = run(&[&files[0], &bad]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("focus.selector") && err.contains("title") && err.contains("1 of 2 story documents"), "{err}");
    assert!(!err.contains('\u{202e}'), "a bidi control reached the terminal: {err}");

    // A missing file and a device are refused by name, not read without end.
    for path in ["/nonexistent/story.json", "/dev/zero"] {
        let out = run(&[Path::new(path)]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{path}: {err}");
        assert!(err.contains(path) && err.contains("cannot read it"), "{path}: {err}");
    }
}

/// Each pane's configuration of a story: its config with the compared value set.
fn pane_configs(story: &hiradix::story::Story) -> Vec<hiradix::config::SimConfig> {
    let base = story.experiment.config.clone();
    let values: Vec<Option<&Value>> = match &story.experiment.compare {
        Some(c) => c.values.iter().map(Some).collect(),
        None => vec![None],
    };
    values
        .into_iter()
        .map(|v| {
            let mut config = base.clone();
            if let (Some(v), Some(c)) = (v, &story.experiment.compare) {
                hiradix::config::apply_override(&mut config, &format!("{}={v}", c.param)).expect("applies");
            }
            hiradix::config::SimConfig::from_value(config).expect("builds")
        })
        .collect()
}

#[test]
fn the_engine_selects_as_many_focus_channels_as_each_builtin_story_states() {
    use hiradix::story::Quantity;
    for (id, text) in builtin() {
        let story = check(&text).expect("passes");
        let focus = story.focus.as_ref().expect("a focus");
        let stated =
            story.numbers.as_ref().and_then(|n| n.values.iter().find(|v| v.quantity == Quantity::FocusChannels));
        let want = stated.unwrap_or_else(|| panic!("{id}: states no focus_channels")).value as usize;
        for cfg in pane_configs(&story) {
            let sim = hiradix::sim::Simulation::new(&cfg).expect("builds");
            let mask = hiradix::story::focus_mask(focus, &sim).unwrap_or_else(|| panic!("{id}: no focus"));
            assert_eq!(mask.len(), sim.router_channels().count());
            let count = mask.iter().filter(|&&m| m == 1).count();
            assert_eq!(count, want, "{id} ({}): focus channels", cfg.routing.algorithm);
        }
    }
}

#[test]
fn a_focus_on_another_pattern_selects_nothing() {
    let story = check(&valid().to_string()).expect("passes");
    let mut cfg = pane_configs(&story).remove(0);
    let focus = story.focus.expect("a focus");
    let sim = hiradix::sim::Simulation::new(&cfg).expect("builds");
    assert_eq!(hiradix::story::focus_mask(&focus, &sim).map(|m| m.iter().filter(|&&x| x == 1).count()), Some(4));
    cfg.traffic.pattern = "uniform".into();
    let sim = hiradix::sim::Simulation::new(&cfg).expect("builds");
    assert_eq!(hiradix::story::focus_mask(&focus, &sim), None, "the focus is about router_shift");
}
