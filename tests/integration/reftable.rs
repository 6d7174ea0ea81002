//! Reads a reftable repository gets through git, not gix, each compared
//! with what the files backend gives for the same steps: a branch's
//! creation in its reflog, a half-removed worktree's HEAD, a broken ref.

use std::fs;

use crate::common::{JsonExt, TestRepo};

fn kinds() -> [(&'static str, TestRepo); 2] {
    [
        ("files", TestRepo::new()),
        ("reftable", TestRepo::new_with(&["--ref-format=reftable"])),
    ]
}

/// A run whose commit main took by fast-forward is merged (`ancestor`),
/// not taken for a run with no commits of its own: its branch's creation
/// is read from its reflog's first line in both backends.
#[test]
fn a_fast_forwarded_run_is_proven_merged_in_both_backends() {
    for (kind, repo) in kinds() {
        repo.create("x").ok();
        crate::common::commit(&repo, &repo.wt("x"), "fix", "fix\n");
        repo.git(["merge", "-q", "--ff-only", "loop/x"]);
        let list = repo.run(["--json", "list", "--long"]);
        list.ok();
        let entry = list.json().find_id("worktrees", "x").clone();
        assert_eq!(entry["mergedBy"], "ancestor", "{kind}: {entry}");
        let detect = repo.run(["--json", "mark", "--detect-merged"]);
        detect.ok();
        assert_eq!(
            detect.json()["marked"][0]["id"],
            "x",
            "{kind}: {}",
            detect.json()
        );
    }
}

/// A run whose tracked file was deleted, marked rejected: cleanup does in
/// a reftable repository what it does with files (the worktree's HEAD is
/// read from its own stack, not from git's stub `HEAD` file).
#[test]
fn cleanup_of_a_run_missing_a_tracked_file_is_the_same_in_both_backends() {
    let outcome = |repo: &TestRepo| {
        repo.create("x").ok();
        fs::remove_file(repo.wt("x").join("README")).unwrap();
        repo.run(["mark", "x", "rejected"]).ok();
        let run = repo.run(["--json", "cleanup"]);
        let doc = run.json();
        let removed: Vec<String> = doc
            .arr("removed")
            .iter()
            .map(|e| e.text("id").to_owned())
            .collect();
        let skipped: Vec<String> = doc
            .arr("skipped")
            .iter()
            .map(|e| format!("{} {}", e.text("id"), e.text("code")))
            .collect();
        (removed, skipped, repo.wt("x").exists())
    };
    let [(_, files), (_, reftable)] = kinds();
    assert_eq!(outcome(&reftable), outcome(&files));
}

/// A ref file a crash left empty is left out of every listing, as git
/// leaves it out (`ignoring broken ref`): `list --long` and `cleanup` go on.
#[test]
fn a_broken_ref_file_stops_no_listing() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    repo.git(["checkout", "-q", "--detach"]);
    repo.git(["checkout", "-q", "main"]);
    fs::write(repo.root.join(".git/refs/heads/junk"), "").unwrap();
    repo.run(["list", "--long"]).ok();
    repo.run(["mark", "x", "rejected"]).ok();
    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    assert_eq!(run.json()["removed"][0]["id"], "x", "{}", run.json());
}

/// A worktree whose HEAD cannot be read is kept (code `error`): what only
/// it holds could not be looked for.
#[test]
fn a_worktree_whose_head_cannot_be_read_is_kept() {
    for (kind, repo) in kinds() {
        repo.create("x").ok();
        repo.run(["mark", "x", "rejected"]).ok();
        let admin = repo.root.join(".git/worktrees/x");
        match kind {
            "files" => fs::write(admin.join("HEAD"), "garbage\n").unwrap(),
            _ => {
                // Its stack names a table that is gone.
                fs::write(
                    admin.join("reftable/tables.list"),
                    "0x000000000009-0x000000000009-deadbeef.ref\n",
                )
                .unwrap();
            }
        }
        let run = repo.run(["--json", "cleanup"]);
        assert!(repo.wt("x").exists(), "{kind}: {}", run.json());
        assert!(
            run.json().to_string().contains("HEAD"),
            "{kind}: {}",
            run.json()
        );
    }
}
