//! [`super::super::move_ref`]: the target's compare-and-swap in process
//! when no hook could run, with git's reflog line; through `git
//! update-ref` when a `reference-transaction` hook may exist, so it runs.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::super::move_ref;
use super::fixture::Fixture;

const FULL: &str = "refs/heads/main";

fn hook(dir: &Path, log: &Path) {
    let script = dir.join("reference-transaction");
    let body = format!("#!/bin/sh\necho \"$1\" >> '{}'\n", log.display());
    std::fs::write(&script, body).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn without_a_hook_the_ref_moves_by_compare_and_swap_with_its_reflog_line() {
    let f = Fixture::new();
    f.git(&f.root, &["config", "--unset", "core.hooksPath"]);
    let (old, new) = f.landing();
    let repo = f.repo();
    assert!(!repo.may_have_hook("reference-transaction"));
    move_ref(&repo, FULL, old, new, "git-loop land: x").unwrap();
    assert_eq!(f.id("main"), new);
    let line = f.git(&f.root, &["reflog", "-1", "--format=%H %gs", "main"]);
    assert_eq!(line, format!("{new} git-loop land: x"));
    assert_eq!(f.git(&f.root, &["rev-parse", "main@{1}"]), old.to_string());
    // From a tip it no longer has: refused, nothing moved.
    let other = f.commit_on(new, &[("a", Some("a3\n"))]);
    let refused = move_ref(&repo, FULL, old, other, "git-loop land: y");
    assert!(refused.is_err(), "{refused:?}");
    assert_eq!(f.id("main"), new);
    let line = f.git(&f.root, &["reflog", "-1", "--format=%gs", "main"]);
    assert_eq!(line, "git-loop land: x");
}

#[test]
fn a_reference_transaction_hook_is_run_by_git_update_ref() {
    // The default hooks directory.
    let f = Fixture::new();
    f.git(&f.root, &["config", "--unset", "core.hooksPath"]);
    let log = f.dir.path().join("hook.log");
    let hooks = f.root.join(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    hook(&hooks, &log);
    let (old, new) = f.landing();
    let repo = f.repo();
    assert!(repo.may_have_hook("reference-transaction"));
    move_ref(&repo, FULL, old, new, "git-loop land: x").unwrap();
    assert_eq!(f.id("main"), new);
    let ran = std::fs::read_to_string(&log).unwrap();
    assert!(
        ran.contains("prepared") && ran.contains("committed"),
        "{ran}"
    );
    // `core.hooksPath` (the fixture's own directory).
    let f = Fixture::new();
    let log = f.dir.path().join("hook.log");
    hook(&f.dir.path().join("no-hooks"), &log);
    let (old, new) = f.landing();
    move_ref(&f.repo(), FULL, old, new, "git-loop land: x").unwrap();
    let ran = std::fs::read_to_string(&log).unwrap();
    assert!(ran.contains("committed"), "{ran}");
}
