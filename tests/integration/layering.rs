//! The library's layers import one way (docs/ARCHITECTURE.md): values at the bottom, then
//! topology, traffic, routing, statistics, the engine, the experiment methodology, the
//! registries and reports built on them, and the web front end on top. This test reads
//! every `crate::…` path in src/ (outside comments and test modules) and fails when a
//! module names one of its own layer or a higher one, so no import cycle can come back.

use std::path::Path;

/// The layers, lowest first; a module may only name modules of lower layers.
const LAYERS: &[&[&str]] = &[
    // Values: packets, random streams, the configuration and its declarations, the
    // saturation rule, SVG plotting.
    &["packet", "rng", "config", "saturation", "plot"],
    &["topology"],
    &["traffic"],
    &["routing"],
    &["stats"],
    &["sim"],
    &["experiment"],
    // What is built on whole runs: the registry the CLI and the page read, the paper
    // figures and their claims, the cost models, the page's views of a running simulation.
    &["catalog", "figures", "cost", "inspect"],
    // Story documents, checked against the catalog and the engine.
    &["story"],
    // The front end (the CLI is a separate crate target in src/bin).
    &["web"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The top-level module names the code of `text` reaches: every `crate::x`, and every
/// `super::…::x` whose `super`s climb out of the file's module (`depth`: how deep the
/// file's module sits below the crate root, 1 for `src/sim/mod.rs` or `src/plot.rs`) —
/// comments and `#[cfg(test)]` modules left out.
fn named_modules_at(text: &str, depth: usize) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let ident =
        |rest: &str| -> String { rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '{').collect() };
    let mut out = Vec::new();
    for line in code.lines().map(str::trim).filter(|l| !l.starts_with("//")) {
        let line = line.split("//").next().unwrap_or_default();
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            out.push(ident(rest));
        }
        let mut rest = line;
        while let Some(at) = rest.find("super::") {
            rest = &rest[at..];
            let mut climbs = 0;
            while let Some(after) = rest.strip_prefix("super::") {
                rest = after;
                climbs += 1;
            }
            if climbs >= depth {
                out.push(ident(rest));
            }
        }
    }
    out
}

/// [`named_modules_at`] of a file of a module directly below the crate root.
fn named_modules(text: &str) -> Vec<String> {
    named_modules_at(text, 1)
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn layers_import_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut violations = Vec::new();
    let mut checked = 0;
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
        if top == "bin" || top == "lib" {
            continue;
        }
        let own =
            layer(&top).unwrap_or_else(|| panic!("src/{}: module `{top}` is in no layer of LAYERS", rel.display()));
        let depth = rel.components().count() - usize::from(rel.ends_with("mod.rs"));
        for name in named_modules_at(&std::fs::read_to_string(&file).unwrap(), depth) {
            checked += 1;
            if name.starts_with('{') {
                violations.push(format!(
                    "src/{}: `crate::{{…}}` groups modules; import each module in its own `use`",
                    rel.display()
                ));
                continue;
            }
            if name == top {
                continue;
            }
            match layer(&name) {
                Some(l) if l < own => {}
                Some(l) => violations
                    .push(format!("src/{}: `{top}` (layer {own}) names `crate::{name}` (layer {l})", rel.display())),
                None => violations.push(format!("src/{}: `crate::{name}` is in no layer of LAYERS", rel.display())),
            }
        }
    }
    assert!(checked > 100, "only {checked} crate paths found: is the scan broken?");
    assert!(violations.is_empty(), "imports against the layering:\n{}", violations.join("\n"));
}

#[test]
fn the_scan_sees_what_it_must() {
    let text = "use crate::sim::Packet;\n// crate::web in a comment\nlet x = crate::config::X; // crate::web\n#[cfg(test)]\nuse crate::web;";
    assert_eq!(named_modules(text), vec!["sim", "config"]);
    // `super::` that stays inside the file's module is not a crate path; one that climbs
    // out of it is.
    assert_eq!(named_modules_at("use super::table::Table;", 2), Vec::<String>::new());
    assert_eq!(named_modules_at("use super::super::web::X;", 2), vec!["web"]);
    assert_eq!(named_modules_at("use super::config::X;", 1), vec!["config"]);
}
