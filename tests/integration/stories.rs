//! Story documents (src/story.rs): the built-in stories the page reads
//! (www/stories/builtin/) all pass the check, and a broken or hostile document is refused
//! with every problem naming its field, by the library and by `hiradix story check`.

use hiradix::config::SimConfig;
use hiradix::sim::Simulation;
use hiradix::story::{check, Selector, Stop, MAX_STORY_BYTES};
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
    // The picked selector is the editor's (a lecturer's clicks): it is checked against real
    // networks in `a_picked_focus_selects_the_channels_clicked`.
    let used: Vec<Selector> =
        builtin().iter().filter_map(|(_, t)| check(t).expect("passes").focus.map(|f| f.selector)).collect();
    for s in Selector::ALL.into_iter().filter(|&s| s != Selector::Picked) {
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

/// A picked focus (the channels and routers a lecturer clicked) selects every parallel
/// channel from the first router to the second and every channel out of a picked router;
/// it is refused when a channel or router does not exist in a pane, and only it lists them.
#[test]
fn a_picked_focus_selects_the_channels_clicked() {
    let picked = |channels: Value, routers: Value| {
        with(|d| {
            d["focus"] =
                json!({"selector": "picked", "channels": channels, "routers": routers, "label": "the channels clicked"})
        })
    };
    // A 4-ary 2-flat: 4 routers, each linked to the 3 others.
    let doc = picked(json!([[0, 1], [1, 0], [2, 3]]), json!([3]));
    let story = check(&doc.to_string()).expect("a picked focus");
    let focus = story.focus.as_ref().expect("a focus");
    for cfg in pane_configs(&story) {
        let sim = hiradix::sim::Simulation::new(&cfg).expect("builds");
        let mask = hiradix::story::focus_mask(focus, &sim).expect("selects");
        let chosen: Vec<(u32, u32)> =
            sim.router_channels().zip(&mask).filter(|(_, &m)| m == 1).map(|((a, _, b, _), _)| (a, b)).collect();
        let mut want = vec![(0, 1), (1, 0), (2, 3), (3, 0), (3, 1), (3, 2)];
        want.sort();
        let mut got = chosen.clone();
        got.sort();
        assert_eq!(got, want, "{}", cfg.routing.algorithm);
    }
    refused(&picked(json!([[0, 4]]), json!([])), "focus.channels[0]", "no channel runs from router 0 to router 4");
    refused(&picked(json!([[2, 2]]), json!([])), "focus.channels[0]", "no channel runs from router 2 to router 2");
    refused(&picked(json!([]), json!([4])), "focus.routers[0]", "router 4; pane 0's network has 4");
    refused(&picked(json!([]), json!([])), "focus.channels", "click them on the picture");
    refused(&picked(json!(vec![[0, 1]; 257]), json!([])), "focus.channels", "at most 256");
    refused(&picked(json!([[0]]), json!([])), "focus.channels[0]", "");
    refused(&with(|d| d["focus"]["channels"] = json!([[0, 1]])), "focus.channels", "only the picked selector");
}

/// Scenes fail and restore links: each link must exist, a restored one must have failed by
/// then, and the links failed together must leave the routing a way (checked as the engine
/// builds the configuration with them failed).
#[test]
fn scenes_fail_and_restore_links_the_network_has() {
    let scenes = |fail: Value, restore: Value| {
        with(|d| {
            d["scenes"] = json!([
                {"caption": "Both links work.", "stop": {"until": "cycle", "cycle": 100}},
                {"caption": "Link 0–1 fails.", "stop": {"until": "cycle", "cycle": 200}, "fail": fail},
                {"caption": "It is repaired.", "stop": {"until": "cycle", "cycle": 300}, "restore": restore}
            ]);
        })
    };
    let story = check(&scenes(json!([[0, 1], [2, 3]]), json!([[1, 0]])).to_string()).expect("fails and restores");
    assert_eq!(story.scenes[1].fail, vec![vec![0, 1], vec![2, 3]]);
    refused(&scenes(json!([[0, 4]]), json!([])), "scenes[1].fail[0]", "router 4 does not exist");
    refused(&scenes(json!([[1, 1]]), json!([])), "scenes[1].fail[0]", "not linked");
    refused(&scenes(json!([[0, 1, 1]]), json!([])), "scenes[1].fail[0]", "trunk 1 does not exist");
    refused(&scenes(json!([[0, 1]]), json!([[2, 3]])), "scenes[2].restore[0]", "has not failed by this scene");
    refused(&scenes(json!([[0, 1, 2, 3]]), json!([])), "scenes[1].fail[0]", "got 4 numbers");
    refused(&scenes(json!(vec![[0, 1]; 65]), json!([])), "scenes[1].fail", "at most 64");
    // Every link of router 0 failed: it is cut off from the network.
    let cut = json!([[0, 1], [0, 2], [0, 3]]);
    let found = problems(&scenes(cut, json!([])));
    assert!(found.iter().any(|p| p.starts_with("scenes")), "a disconnected network is refused: {found:?}");
}

/// Scenes: a caption, a stop (a cycle that moves forward, or an event at a router the
/// network has), view and load changes, and a question whose answer is one of its choices.
#[test]
fn scenes_are_checked_against_the_network() {
    let scene = |stop: Value| json!({"caption": ["Watch the ", {"b": "direct"}, " channels."], "stop": stop});
    let played = with(|d| {
        d["scenes"] = json!([
            scene(json!({"until": "cycle", "cycle": 200})),
            {
                "caption": "What will router 3 do next?",
                "stop": {"until": "nonminimal", "router": 3},
                "view": {"metric": "vc0"},
                "load": 0.5,
                "inspect": 3,
                "question": {"ask": "Which path?", "choices": ["minimal", "non-minimal"], "answer": 1, "why": "Its direct channel is full."}
            },
            scene(json!({"until": "saturated"})),
            scene(json!({"until": "decision", "router": 0}))
        ]);
    });
    let story = check(&played.to_string()).expect("four scenes");
    assert_eq!(story.scenes.len(), 4);
    assert_eq!(story.scenes[1].stop, Stop::Nonminimal { router: 3 });
    let edit = |f: fn(&mut Value)| {
        let mut d = played.clone();
        f(&mut d);
        d
    };
    refused(
        &edit(|d| d["scenes"][1]["stop"]["router"] = json!(4)),
        "scenes[1].stop.router",
        "router 4; the network has 4",
    );
    refused(&edit(|d| d["scenes"][1]["inspect"] = json!(9)), "scenes[1].inspect", "router 9");
    refused(
        &edit(|d| d["scenes"][3]["stop"] = json!({"until": "cycle", "cycle": 100})),
        "scenes[3].stop.cycle",
        "after the previous stop (200)",
    );
    refused(&edit(|d| d["scenes"][0]["stop"] = json!({"until": "someday"})), "scenes[0].stop.until", "someday");
    refused(&edit(|d| d["scenes"][0]["stop"]["color"] = json!(1)), "scenes[0].stop", "color");
    refused(&edit(|d| d["scenes"][1]["question"]["answer"] = json!(2)), "scenes[1].question.answer", "there are 2");
    refused(&edit(|d| d["scenes"][1]["question"]["choices"] = json!(["only"])), "scenes[1].question.choices", "2 to 6");
    refused(
        &edit(|d| d["scenes"][1]["question"]["why"] = json!({"script": 1})),
        "scenes[1].question.why.script",
        "emphasis",
    );
    refused(&edit(|d| d["scenes"][1]["load"] = json!(1.5)), "scenes[1].load", "(0, 1]");
    refused(&edit(|d| d["scenes"][1]["view"]["metric"] = json!("heat")), "scenes[1].view.metric", "link colour");
    refused(&edit(|d| d["scenes"][1]["view"]["zoom"] = json!(100)), "scenes[1].view.zoom", "a zoom from 0.25 to 64");
    refused(
        &edit(|d| d["scenes"][1]["view"]["center"] = json!([0.5, 0.5])),
        "scenes[1].view.center",
        "goes with a zoom",
    );
    refused(
        &edit(|d| d["experiment"]["view"] = json!({"zoom": 2, "center": [0.5, 1e9]})),
        "experiment.view.center",
        "two numbers from -100 to 100",
    );
    refused(
        &edit(|d| d["scenes"][1]["focus"] = json!({"selector": "group_shift_global", "label": "x"})),
        "scenes[1].focus.selector",
        "only a dragonfly",
    );
    refused(
        &edit(|d| d["scenes"][1]["focus"] = json!({"selector": "picked", "routers": [7], "label": "x"})),
        "scenes[1].focus.routers[0]",
        "router 7",
    );
    let refocused =
        edit(|d| d["scenes"][1]["focus"] = json!({"selector": "picked", "routers": [3], "label": "router 3's"}));
    assert!(check(&refocused.to_string()).expect("a scene's focus").scenes[1].focus.is_some());
    let zoomed = edit(|d| d["scenes"][1]["view"] = json!({"zoom": 2.5, "center": [0.25, 0.75]}));
    assert_eq!(
        check(&zoomed.to_string()).expect("a zoomed scene").scenes[1].view.as_ref().and_then(|v| v.zoom),
        Some(2.5)
    );
    refused(
        &edit(|d| d["scenes"] = json!(vec![json!({"caption": "x", "stop": {"until": "saturated"}}); 41])),
        "scenes",
        "at most 40",
    );
}

/// The UGAL-L story's question is answered by the run, as the page plays it in the first
/// pane: at cycle 2000, router 3's next decision takes the minimal path (the answer) while
/// the minimal global channel's true queue is far longer than the queue it compared; then
/// router 0, which owns that channel, sends a packet non-minimally.
#[test]
fn the_ugal_l_story_s_question_is_answered_by_the_run() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("www/stories/builtin/ugal-l-misjudges.json"),
    )
    .expect("the story");
    let story = check(&text).expect("checks");
    let mut cfg = SimConfig::from_value(story.experiment.config.clone()).expect("a config");
    cfg.routing.algorithm =
        story.experiment.compare.as_ref().expect("panes").values[0].as_str().expect("a name").into();
    let mut sim = Simulation::new(&cfg).expect("builds");
    // As the page's WebSim: every packet labeled.
    sim.stats_mut().label_start = 0;
    sim.stats_mut().label_end = u64::MAX;
    let until = |sim: &mut Simulation, router: usize, nonminimal: bool| {
        let count = |sim: &Simulation| {
            let d = sim.router_decisions()[router];
            if nonminimal {
                d.nonminimal
            } else {
                d.routed
            }
        };
        let before = count(sim);
        while count(sim) == before {
            sim.advance(1).expect("runs");
            assert!(sim.now() < 100_000, "no event at router {router}");
        }
    };
    let [first, asked, owner] = &story.scenes[..] else { panic!("three scenes") };
    assert_eq!(first.stop, Stop::Cycle { cycle: 2000 });
    sim.advance(2000).expect("runs");
    assert_eq!(asked.stop, Stop::Decision { router: 3 });
    until(&mut sim, 3, false);
    let note = sim.route_notes()[3];
    assert_eq!(note.cycle + 1, sim.now(), "the decision the inspector shows is the one the scene stopped at");
    let question = asked.question.as_ref().expect("a question");
    assert_eq!(note.chose_minimal, question.answer == 0, "{note:?}");
    assert!(note.q_true >= 2 * note.q_min.max(1), "the true queue is far longer: {note:?}");
    let stated = (note.q_min, note.h_min, note.q_nonmin, note.h_nonmin, note.q_true);
    assert_eq!(stated, (5, 3, 5, 4, 20), "docs/lecture.md (Scenes) states these numbers");
    assert_eq!(owner.stop, Stop::Nonminimal { router: 0 });
    until(&mut sim, 0, true);
    let note = sim.route_notes()[0];
    assert!(note.cycle + 1 == sim.now() && !note.chose_minimal, "{note:?}");
}

/// The failed-links story's scenes, played as the page plays them in each pane: the two
/// links of the configuration cost DOR packets and DAL none; with switch 5's last row links
/// failed too, DAL loses packets as well (the question's answer); repaired, it loses none.
#[test]
fn the_failed_links_story_s_scenes_are_answered_by_the_run() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("www/stories/builtin/dal-failed-links.json"),
    )
    .expect("the story");
    let story = check(&text).expect("checks");
    let [first, asked, repaired] = &story.scenes[..] else { panic!("three scenes") };
    let question = asked.question.as_ref().expect("a question");
    let mut lost = Vec::new();
    for cfg in pane_configs(&story) {
        let mut sim = Simulation::new(&cfg).expect("builds");
        let mut per_scene = Vec::new();
        for scene in [first, asked, repaired] {
            for (links, failed) in [(&scene.restore, false), (&scene.fail, true)] {
                for l in links {
                    let port = sim.network().link_port(l[0], l[1], 0).expect("a link");
                    sim.set_link_failed(port, failed).expect("the engine takes it");
                }
            }
            let before = sim.stats().unroutable;
            let Stop::Cycle { cycle } = scene.stop else { panic!("cycle stops") };
            sim.advance(cycle - sim.now()).expect("runs");
            per_scene.push(sim.stats().unroutable - before);
        }
        lost.push(per_scene);
    }
    let (dor, dal) = (&lost[0], &lost[1]);
    assert!(dor.iter().all(|&n| n > 100), "DOR loses packets in every scene: {dor:?}");
    assert_eq!(dal[0], 0, "DAL detours around 5–6 and 9–10");
    assert_eq!(dal[1] > 0, question.answer == 1, "the question's answer: DAL loses packets too ({dal:?})");
    assert_eq!(dal[2], 0, "repaired, DAL loses none: {dal:?}");
}

/// The minimal-routing story's scenes, played natively in both panes: at load 0.03 both
/// deliver what is offered; raised to 0.3, MIN delivers 1/16 per terminal (its one direct
/// channel per router shared by 16 terminals: the question's answer) while VAL delivers
/// the offered 0.3.
#[test]
fn the_minimal_routing_story_s_question_is_answered_by_the_run() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("www/stories/builtin/min-worst-case.json"))
            .expect("the story");
    let story = check(&text).expect("checks");
    let question = story.scenes[1].question.as_ref().expect("a question");
    let mut accepted = Vec::new();
    for cfg in pane_configs(&story) {
        let mut sim = Simulation::new(&cfg).expect("builds");
        let terminals = sim.network().terminals() as f64;
        let mut per_scene = Vec::new();
        for scene in &story.scenes {
            sim.set_load(scene.load.expect("a load")).expect("a load");
            let Stop::Cycle { cycle } = scene.stop else { panic!("cycle stops") };
            let (t0, flits) = (sim.now(), sim.stats().delivered_flits);
            sim.advance(cycle - t0).expect("runs");
            per_scene.push((sim.stats().delivered_flits - flits) as f64 / ((cycle - t0) as f64 * terminals));
        }
        accepted.push(per_scene);
    }
    let (min, val) = (&accepted[0], &accepted[1]);
    for a in [min[0], val[0]] {
        assert!((a - 0.03).abs() < 0.005, "at 0.03 both deliver what is offered: {accepted:?}");
    }
    assert!((min[1] - 1.0 / 16.0).abs() < 0.005, "MIN delivers 1/16: {accepted:?}");
    assert_eq!(question.answer, 1, "the answer says so");
    assert!((val[1] - 0.3).abs() < 0.02, "VAL delivers the offered 0.3: {accepted:?}");
}

/// The Swap2 story's question is answered by the run, as the page plays it in the first
/// pane (DAL): at cycle 1200, router 0's next decision, for a packet offset in the second
/// dimension only, deroutes within that dimension (the answer), because its minimal output
/// has 29 free slots, one short of uncongested, and the deroute 31 (the numbers the
/// question states).
#[test]
fn the_swap2_story_s_question_is_answered_by_the_run() {
    let text = std::fs::read_to_string(builtin_dir().join("dal-swap2.json")).expect("the story");
    let story = check(&text).expect("checks");
    let mut cfg = SimConfig::from_value(story.experiment.config.clone()).expect("a config");
    cfg.routing.algorithm =
        story.experiment.compare.as_ref().expect("panes").values[0].as_str().expect("a name").into();
    assert_eq!(cfg.routing.algorithm, "dal");
    let mut sim = Simulation::new(&cfg).expect("builds");
    // As the page's WebSim: every packet labeled, the per-hop notes recorded.
    sim.stats_mut().label_start = 0;
    sim.stats_mut().label_end = u64::MAX;
    sim.record_hop_notes(true);
    let [watch, asked] = &story.scenes[..] else { panic!("two scenes") };
    assert_eq!(watch.stop, Stop::Cycle { cycle: 1200 });
    sim.advance(1200).expect("runs");
    assert_eq!(asked.stop, Stop::Decision { router: 0 });
    let before = sim.router_decisions()[0].routed;
    while sim.router_decisions()[0].routed == before {
        sim.advance(1).expect("runs");
        assert!(sim.now() < 10_000, "no decision at router 0");
    }
    let note = sim.hop_note(0).expect("a note");
    assert_eq!(note.cycle + 1, sim.now(), "the decision the inspector shows is the one the scene stopped at");
    assert_eq!((note.packet_dst / 4, note.packet_hops, note.dim), (8, 0, 1), "a new packet for router 8: {note:?}");
    let question = asked.question.as_ref().expect("a question");
    let chosen = match note.rule {
        "minimal" | "minimal_congested" => 0,
        "deroute" => 1,
        _ => 2,
    };
    assert_eq!(chosen, question.answer, "{note:?}");
    let second = note.per_dim[1];
    assert_eq!(
        (second.min_free, second.der_free, note.need_uncongested),
        (29, 31, 30),
        "the question states these numbers: {note:?}"
    );
}
