//! The advance refused as busy: an operation in progress in the checkout,
//! an unresolved conflict, a rebase of the target elsewhere, a second
//! checkout, a worktree whose directory is gone. Nothing changes.

use super::super::*;
use super::fixture::Fixture;
use super::refused_and_unchanged;

#[test]
fn a_merge_in_progress_refuses_as_busy() {
    let f = Fixture::new();
    let old = f.id("main");
    let other = f.commit_on(old, &[("e", Some("e other\n"))]);
    f.git(
        &f.root,
        &["update-ref", "refs/heads/other", &other.to_string()],
    );
    f.git(&f.root, &["merge", "-q", "--no-commit", "--no-ff", "other"]);
    assert!(f.root.join(".git/MERGE_HEAD").exists());
    let new = f.commit_on(old, &[("a", Some("a2\n"))]);
    let expected = Advance::TargetBusy {
        checkout: f.root.clone(),
        operation: "merge".to_owned(),
    };
    refused_and_unchanged(&f, old, new, expected);
}

#[test]
fn an_unresolved_conflict_refuses_as_busy() {
    let f = Fixture::new();
    let old = f.id("main");
    // A conflict left in the index with no operation recorded (as a `git
    // stash pop` that conflicts leaves it): stages 1, 2 and 3 of `e`.
    let blob = |text: &str| f.git_input(None, &["hash-object", "-w", "--stdin"], text);
    let zero = ObjectId::null(gix::hash::Kind::Sha1);
    let info = format!(
        "0 {zero}\te\n100644 {} 1\te\n100644 {} 2\te\n100644 {} 3\te\n",
        blob("e1\n"),
        blob("ours\n"),
        blob("theirs\n")
    );
    f.git_input(None, &["update-index", "--index-info"], &info);
    assert_eq!(f.status(&f.root), "UU e");
    let new = f.commit_on(old, &[("a", Some("a2\n"))]);
    let expected = Advance::TargetBusy {
        checkout: f.root.clone(),
        operation: UNMERGED.to_owned(),
    };
    refused_and_unchanged(&f, old, new, expected);
}

#[test]
fn a_rebase_of_the_target_elsewhere_refuses_as_busy() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    // HEAD detached, the branch named by the rebase's state.
    f.git(&f.root, &["switch", "-q", "--detach"]);
    std::fs::create_dir(f.root.join(".git/rebase-merge")).unwrap();
    std::fs::write(
        f.root.join(".git/rebase-merge/head-name"),
        "refs/heads/main\n",
    )
    .unwrap();
    let expected = Advance::TargetBusy {
        checkout: f.root.clone(),
        operation: "rebase".to_owned(),
    };
    refused_and_unchanged(&f, old, new, expected);
}

#[test]
fn a_second_checkout_or_a_missing_worktree_refuses_as_busy() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    // A linked worktree made on another branch, then pointed at `main`
    // too (what `--ignore-other-worktrees` allows).
    let wt = f.dir.path().join("second");
    let path = wt.to_str().unwrap();
    f.git(&f.root, &["worktree", "add", "-q", "-b", "other", path]);
    f.git(&wt, &["symbolic-ref", "HEAD", "refs/heads/main"]);
    let wt = wt.canonicalize().unwrap();
    let expected = Advance::TargetBusy {
        checkout: wt.clone(),
        operation: SECOND_CHECKOUT.to_owned(),
    };
    refused_and_unchanged(&f, old, new, expected);

    // The main checkout elsewhere, the linked one's directory gone: it
    // cannot follow, so the ref does not move.
    f.git(&f.root, &["switch", "-q", "other"]);
    let moved_away = f.dir.path().join("moved-away");
    std::fs::rename(&wt, &moved_away).unwrap();
    let expected = Advance::TargetBusy {
        checkout: wt,
        operation: MISSING.to_owned(),
    };
    refused_and_unchanged(&f, old, new, expected);
}
