//! Every ✓/≈/✗ mark and measured number in the claims tables of docs/dragonfly.md and
//! docs/hyperx.md, and the list of disagreements in docs/faithfulness.md, is what the
//! committed figure data (docs/*/*.csv, written by `hiradix figure`) gives under the rules
//! of `hiradix::figures::claims`: a document that claims more than its data fails here.
//! `hiradix claims --write` regenerates them.

use std::path::Path;

#[test]
fn the_documents_claims_are_what_their_data_gives() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &str| std::fs::read_to_string(root.join(path)).map_err(|e| format!("{path}: {e}"));
    let documents = hiradix::figures::claims::regenerate(&read).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(documents.len(), 3);
    for (path, expected) in documents {
        let current = read(&path).unwrap();
        assert!(current == expected, "{path} differs from its data; run `hiradix claims --write` (and read the diff)");
        assert!(
            !current.contains(hiradix::figures::claims::NO_REASON),
            "{path}: a claim that does not fully hold gives no reason (Claim::because)"
        );
    }
}
