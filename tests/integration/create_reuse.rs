//! `create --reuse` adopts an existing `loop/<id>` that has no worktree:
//! the branch is checked out as it is (never moved, never reset), the run is
//! recorded `active`, and an interrupted or failed adoption never deletes it.

use crate::common::*;
use std::fs;

/// A run that made a commit, then was cleaned up: its branch is left.
fn leftover_branch(repo: &TestRepo, id: &str) -> String {
    repo.create(id);
    fs::write(repo.wt(id).join("work.txt"), "work\n").unwrap();
    repo.git_in(&repo.wt(id), ["add", "work.txt"]);
    assert!(
        repo.git_in(&repo.wt(id), ["commit", "-q", "-m", "work"])
            .status
            .success()
    );
    repo.run(["mark", id, "rejected"]).ok();
    repo.run(["cleanup"]).ok();
    assert!(!repo.wt(id).exists());
    repo.git(["rev-parse", &format!("loop/{id}")])
        .trim()
        .to_owned()
}

#[test]
fn reuse_adopts_a_leftover_branch_as_it_is() {
    let repo = TestRepo::new();
    let tip = leftover_branch(&repo, "again");

    let run = repo.run(["--json", "create", "again", "--pattern", "p", "--reuse"]);
    run.ok();
    let doc = run.json();
    assert_eq!(doc["method"], "adopted");
    assert_eq!(doc["status"], "active");
    assert_eq!(doc["branch"], "loop/again");
    // Checked out on the branch, at its own tip, with its own work.
    let wt = repo.wt("again");
    assert_eq!(repo.git(["rev-parse", "loop/again"]).trim(), tip);
    assert_eq!(
        String::from_utf8(repo.git_in(&wt, ["rev-parse", "HEAD"]).stdout)
            .unwrap()
            .trim()
            .to_owned(),
        tip
    );
    assert_eq!(
        String::from_utf8(repo.git_in(&wt, ["symbolic-ref", "HEAD"]).stdout)
            .unwrap()
            .trim()
            .to_owned(),
        "refs/heads/loop/again"
    );
    assert_eq!(fs::read_to_string(wt.join("work.txt")).unwrap(), "work\n");
    assert!(
        repo.git_in(&wt, ["status", "--porcelain"])
            .stdout
            .is_empty()
    );
    // Recorded and logged.
    let list = repo.run(["--json", "list"]);
    assert_eq!(list.json()["worktrees"][0]["status"], "active");
    let log = repo.run(["--json", "log", "again"]);
    let events = log.json()["events"].as_array().unwrap().clone();
    let last = events.last().unwrap();
    assert_eq!(last["event"], "create");
    assert!(last["detail"].as_str().unwrap().contains(&tip), "{last}");
    // A human adoption says so.
    repo.run(["mark", "again", "rejected"]).ok();
    repo.run(["cleanup"]).ok();
    let human = repo.run(["create", "again", "--pattern", "p", "--reuse"]);
    human.ok();
    assert!(
        human
            .stderr
            .contains("adopted the existing branch loop/again"),
        "{}",
        human.stderr
    );
}

#[test]
fn without_reuse_the_branch_is_still_refused_and_the_help_names_reuse() {
    let repo = TestRepo::new();
    let tip = leftover_branch(&repo, "again");
    let run = repo.run(["create", "again", "--pattern", "p"]);
    run.code(1);
    assert!(run.stderr.contains("--reuse"), "{}", run.stderr);
    assert!(!repo.wt("again").exists());
    assert_eq!(repo.git(["rev-parse", "loop/again"]).trim(), tip);
}

#[test]
fn a_branch_checked_out_elsewhere_is_not_adopted_and_not_deleted() {
    let repo = TestRepo::new();
    let tip = leftover_branch(&repo, "busy");
    // Someone checked the branch out by hand in a worktree of their own.
    let elsewhere = repo.root.join("by-hand");
    assert!(
        repo.git_in(
            &repo.root,
            [
                "worktree",
                "add",
                "-q",
                elsewhere.to_str().unwrap(),
                "loop/busy"
            ]
        )
        .status
        .success()
    );
    let run = repo.run(["--json", "create", "busy", "--pattern", "p", "--reuse"]);
    run.code(1);
    assert!(!repo.wt("busy").exists());
    assert_eq!(repo.git(["rev-parse", "loop/busy"]).trim(), tip);
    assert!(elsewhere.join("work.txt").exists());
    let list = repo.run(["--json", "list"]);
    assert!(list.json()["worktrees"].as_array().unwrap().is_empty());
}

#[test]
fn an_interrupted_adoption_keeps_the_branch() {
    let repo = TestRepo::new();
    let tip = leftover_branch(&repo, "cut");
    // A failed manifest write makes create undo its own work: the worktree
    // goes, the branch it did not make stays where it was.
    let run = TestRepo::output(
        repo.command()
            .args(["create", "cut", "--pattern", "p", "--reuse"])
            .env("GIT_LOOP_TEST_FAIL", "manifest-write"),
    );
    run.code(1);
    assert!(run.stderr.contains("injected failure"), "{}", run.stderr);
    assert_eq!(
        repo.git(["rev-parse", "loop/cut"]).trim(),
        tip,
        "the adopted branch must survive"
    );
    assert!(!repo.wt("cut").exists());
    // The same at the base commit: the branch is not this create's to
    // delete, even though it points where a new one would.
    repo.create("empty");
    repo.run(["mark", "empty", "rejected"]).ok();
    repo.run(["cleanup"]).ok();
    let at_base = repo.git(["rev-parse", "loop/empty"]).trim().to_owned();
    assert_eq!(at_base, repo.git(["rev-parse", "main"]).trim());
    let run = TestRepo::output(
        repo.command()
            .args(["create", "empty", "--pattern", "p", "--reuse"])
            .env("GIT_LOOP_TEST_FAIL", "manifest-write"),
    );
    run.code(1);
    assert!(repo.branch_exists("loop/empty"), "{}", run.stderr);
}

#[test]
fn a_signalled_adoption_rolls_back_the_worktree_and_keeps_the_branch() {
    let repo = TestRepo::new();
    repo.create("sig");
    repo.run(["mark", "sig", "rejected"]).ok();
    repo.run(["cleanup"]).ok();
    // At the base commit, where a rollback of a new branch would delete it.
    let at_base = repo.git(["rev-parse", "loop/sig"]).trim().to_owned();
    for (envs, wait_for) in [
        (
            vec![("GIT_LOOP_TEST_CRASH", "after-worktree-add:pause")],
            "paused at after-worktree-add",
        ),
        (
            vec![
                ("GIT_LOOP_TEST_SPLIT_ADD", "1"),
                ("GIT_LOOP_TEST_CRASH", "before-checkout:pause"),
            ],
            "paused at before-checkout",
        ),
    ] {
        let mut child = crate::common::spawn_until(
            &repo,
            &envs,
            &["create", "sig", "--pattern", "p", "--reuse"],
            wait_for,
        );
        assert!(repo.registered().contains(&repo.wt("sig")));
        crate::common::kill(&child, "TERM");
        assert_eq!(child.wait().unwrap().code(), Some(143));
        assert!(repo.wt("sig").symlink_metadata().is_err(), "{wait_for}");
        assert!(!repo.registered().contains(&repo.wt("sig")));
        assert_eq!(
            repo.git(["rev-parse", "loop/sig"]).trim(),
            at_base,
            "{wait_for}"
        );
    }
    // And the adoption then goes through.
    repo.run(["create", "sig", "--pattern", "p", "--reuse"])
        .ok();
    assert_eq!(repo.ids(), ["sig"]);
}

/// `--reuse` of an active run recorded with another pattern keeps reusing it
/// as it is, and says that the given pattern is not applied.
#[test]
fn reuse_with_another_pattern_warns_naming_both() {
    let repo = TestRepo::new();
    repo.run(["create", "r", "--pattern", "first-label"]).ok();
    let run = repo.run(["create", "r", "--pattern", "other-label", "--reuse"]);
    run.ok();
    assert!(
        run.stderr.contains("warning: reusing run r")
            && run.stderr.contains("\"first-label\"")
            && run.stderr.contains("\"other-label\""),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("reusing .loop-worktrees/r"),
        "{}",
        run.stderr
    );
    assert_eq!(repo.manifest()["worktrees"][0]["pattern"], "first-label");

    let run = repo.run([
        "--json",
        "create",
        "r",
        "--pattern",
        "other-label",
        "--reuse",
    ]);
    run.ok();
    assert_eq!(run.json()["method"], "reused");
    assert_eq!(run.json()["pattern"], "first-label");
    assert!(
        run.stderr.contains("warning: reusing run r"),
        "{}",
        run.stderr
    );

    let same = repo.run(["create", "r", "--pattern", "first-label", "--reuse"]);
    same.ok();
    assert!(!same.stderr.contains("warning"), "{}", same.stderr);
}

#[test]
fn reuse_returns_an_intact_active_run_and_changes_nothing() {
    let repo = TestRepo::new();
    let first = repo.run(["--json", "create", "agent", "--pattern", "p", "--reuse"]);
    first.ok();
    assert_eq!(first.json()["method"], "created");
    let before = fs::read(repo.manifest_path()).unwrap();
    fs::write(repo.wt("agent").join("progress"), "half done").unwrap();

    let again = repo.run(["--json", "create", "agent", "--pattern", "p", "--reuse"]);
    again.ok();
    assert_eq!(again.json()["method"], "reused");
    assert_eq!(again.json()["createdAt"], first.json()["createdAt"]);
    assert_eq!(
        fs::read(repo.manifest_path()).unwrap(),
        before,
        "nothing changed"
    );
    assert_eq!(
        fs::read_to_string(repo.wt("agent").join("progress")).unwrap(),
        "half done"
    );
    let human = repo.run(["create", "agent", "--pattern", "p", "--reuse"]);
    human.ok();
    assert_eq!(human.stdout.trim(), repo.wt("agent").display().to_string());
    // Without --reuse it is still refused, and plain create JSON has no method.
    repo.run(["create", "agent", "--pattern", "p"]).code(1);
    let plain = repo.run(["--json", "create", "other", "--pattern", "p"]);
    assert!(plain.json().get("method").is_none());

    // Detached: not on loop/<id>, so not reused.
    repo.git_in(&repo.wt("other"), ["checkout", "-q", "--detach"]);
    let run = repo.run(["--json", "create", "other", "--pattern", "p", "--reuse"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "not-reusable");

    // Directory gone: say so, and point at reconcile.
    fs::remove_dir_all(repo.wt("agent")).unwrap();
    let run = repo.run(["--json", "create", "agent", "--pattern", "p", "--reuse"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "worktree-missing");
    assert!(run.stderr.contains("reconcile"), "{}", run.stderr);
    assert_eq!(
        repo.status_of("agent").as_deref(),
        Some("active"),
        "left for reconcile"
    );
}

#[test]
fn reuse_never_adopts_another_clones_worktree() {
    let repo = TestRepo::new();
    repo.foreign_worktree("x", "loop/x");
    repo.write_manifest(&manifest_with(&[("x", "active", "2026-01-01T00:00:00Z")]));
    let run = repo.run(["--json", "create", "x", "--pattern", "p", "--reuse"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "not-reusable");
    assert!(repo.wt("x").join("README").exists());
}
