//! Every ref git-loop reads goes through the ref layer (`src/git/refs/`),
//! which reads a reftable through git and the files backend through gix:
//! a gix ref read anywhere else would read a reftable repository's stub
//! files (`HEAD` naming `refs/heads/.invalid`) and take every branch for
//! missing.

/// gix calls that read a ref (directly, or `HEAD` on the way to a tree).
const REF_READS: [&str; 16] = [
    "find_reference(",
    "try_find_reference(",
    ".references()",
    ".head()",
    ".head_id()",
    ".head_name()",
    ".head_commit()",
    ".head_tree_id()",
    ".head_tree()",
    "rev_parse",
    "log_iter(",
    ".is_dirty()",
    ".head_ref()",
    ".head_tree_id_or_empty()",
    ".refs.",
    "join(\"HEAD\")",
];

/// Calls of the same name that read no ref: (file prefix, call).
const NOT_REFS: [(&str, &str); 4] = [
    // The manifest reader's own step past the document's head.
    ("manifest/fast/", ".head()"),
    // A nested repository is recognised by its files (`HEAD`, `objects/`).
    ("safety/risk/scan.rs", "join(\"HEAD\")"),
    // The ref layer's writes (`apply`) use gix's ref store in process.
    ("git/refs/", ".refs."),
    // The bare layout logs ref updates as its worktrees would: a write
    // setting of the store, not a read.
    ("git/repo/discover.rs", ".refs."),
];

#[test]
fn no_ref_is_read_with_gix_outside_the_ref_layer() {
    let mut found = Vec::new();
    for (rel, code) in crate::kernel::sources() {
        // The layer itself, and unit tests (each in a files repository).
        if rel.starts_with("git/refs/") || rel.contains("/tests/") || rel.ends_with("/tests.rs") {
            continue;
        }
        for (n, line) in code.lines().enumerate() {
            let exempt = |call: &&str| {
                NOT_REFS
                    .iter()
                    .any(|(file, c)| rel.starts_with(file) && c == call)
            };
            let call = REF_READS.iter().find(|c| line.contains(*c) && !exempt(c));
            if let Some(call) = call {
                found.push(format!("src/{rel}:{}: {call}", n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "refs read with gix outside src/git/refs/ (use crate::git::refs):\n{}",
        found.join("\n")
    );
}
