//! The reftable reads against real `git init --ref-format=reftable`
//! repositories.

use std::path::Path;

use super::Value;
use crate::test_git::git;

fn reftable_repo(tmp: &Path) -> std::path::PathBuf {
    let main = tmp.join("repo");
    std::fs::create_dir(&main).unwrap();
    git(
        &main,
        &["init", "-q", "-b", "main", "--ref-format=reftable"],
    );
    git(&main, &["commit", "-q", "--allow-empty", "-m", "one"]);
    main
}

/// `git worktree move` changes a registration's `gitdir` and no stack: the
/// worktrees' `HEAD`s are read again, found at the new path, not the old.
#[test]
fn a_moved_worktrees_head_is_read_at_its_new_path() {
    let tmp = tempfile::tempdir().unwrap();
    let main = reftable_repo(tmp.path());
    let (old, new) = (tmp.path().join("wt"), tmp.path().join("moved"));
    git(
        &main,
        &["worktree", "add", "-q", "-b", "x", old.to_str().unwrap()],
    );
    let common = main.join(".git");
    let canonical = |p: &Path| crate::fsx::canonical_best_effort(p);
    let before = super::table::heads(&common).unwrap();
    assert_eq!(
        before.linked.get(&canonical(&old)),
        Some(&Value::Symbolic("refs/heads/x".into()))
    );
    git(
        &main,
        &[
            "worktree",
            "move",
            old.to_str().unwrap(),
            new.to_str().unwrap(),
        ],
    );
    let after = super::table::heads(&common).unwrap();
    assert_eq!(
        after.linked.get(&canonical(&new)),
        Some(&Value::Symbolic("refs/heads/x".into()))
    );
    assert_eq!(after.linked.get(&canonical(&old)), None);
}

/// A reflog read through `git log -g`: old ids inferred between adjacent
/// lines, the creation's old id null (git's `branch: Created from`).
#[test]
fn a_reftable_reflog_has_its_old_ids_and_its_creation() {
    let tmp = tempfile::tempdir().unwrap();
    let main = reftable_repo(tmp.path());
    let start = git(&main, &["rev-parse", "HEAD"]);
    git(&main, &["switch", "-q", "-c", "x"]);
    git(&main, &["commit", "-q", "--allow-empty", "-m", "two"]);
    let tip = git(&main, &["rev-parse", "HEAD"]);
    let lines = super::table::reflog(&main.join(".git"), "refs/heads/x");
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].new.to_string(), tip);
    assert_eq!(lines[0].old.map(|o| o.to_string()), Some(start.clone()));
    assert_eq!(lines[1].new.to_string(), start);
    assert!(lines[1].old.is_some_and(|o| o.is_null()), "{lines:?}");
}

/// One worktree's `HEAD` looked up alone follows that worktree's own
/// changes (a switch writes only its stack), and a change elsewhere (a
/// commit on main, another worktree's switch) leaves it right.
#[test]
fn a_linked_worktrees_head_follows_its_own_stack() {
    let tmp = tempfile::tempdir().unwrap();
    let main = reftable_repo(tmp.path());
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    git(
        &main,
        &["worktree", "add", "-q", "-b", "x", a.to_str().unwrap()],
    );
    git(
        &main,
        &["worktree", "add", "-q", "-b", "y", b.to_str().unwrap()],
    );
    let common = main.join(".git");
    let admin = common.join("worktrees/a");
    let head = || super::table::linked_head(&common, &admin, &a).unwrap();
    assert_eq!(head(), Some(Value::Symbolic("refs/heads/x".into())));
    git(&a, &["switch", "-q", "-c", "z"]);
    assert_eq!(head(), Some(Value::Symbolic("refs/heads/z".into())));
    git(&main, &["commit", "-q", "--allow-empty", "-m", "two"]);
    git(&b, &["switch", "-q", "--detach"]);
    assert_eq!(head(), Some(Value::Symbolic("refs/heads/z".into())));
    git(&a, &["switch", "-q", "--detach"]);
    let id = git(&a, &["rev-parse", "HEAD"]);
    assert_eq!(head().and_then(|v| v.id()).map(|i| i.to_string()), Some(id));
}
