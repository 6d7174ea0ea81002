//! Interrupted creates and removals: a signalled create rolls back what it
//! made; cleanup and reconcile finish a never-checked-out or half-deleted
//! worktree that holds nothing but git's files, and leave any other alone.

use std::fs;
use std::process::Stdio;

use crate::common::{
    TestRepo, assert_rolled_back, kill, make_executable, repo_with_tree, spawn_until,
};

#[test]
fn sigterm_between_add_no_checkout_and_checkout_rolls_the_create_back() {
    let repo = repo_with_tree();
    for (sig, code) in [("TERM", 143), ("INT", 130)] {
        let mut child = spawn_until(
            &repo,
            &[
                ("GIT_LOOP_TEST_SPLIT_ADD", "1"),
                ("GIT_LOOP_TEST_CRASH", "before-checkout:pause"),
            ],
            &["create", "x", "--pattern", "p"],
            "paused at before-checkout",
        );
        // The state the issue describes: registered, on loop/x, nothing
        // checked out.
        assert!(repo.registered().contains(&repo.wt("x")));
        assert!(repo.branch_exists("loop/x"));
        assert!(!repo.wt("x/src").exists());
        kill(&child, sig);
        assert_eq!(child.wait().unwrap().code(), Some(code), "SIG{sig}");
        assert_rolled_back(&repo, "x");
        repo.create("x");
        assert!(repo.wt("x/src/lib/a.rs").is_file());
        repo.run(["mark", "x", "rejected"]).ok();
        repo.run(["cleanup"]).ok();
        repo.git(["branch", "-d", "loop/x"]);
    }
}

#[test]
fn sigterm_after_the_checkout_before_recording_rolls_the_create_back() {
    let repo = repo_with_tree();
    let mut child = spawn_until(
        &repo,
        &[("GIT_LOOP_TEST_CRASH", "after-worktree-add:pause")],
        &["create", "x", "--pattern", "p"],
        "paused at after-worktree-add",
    );
    assert!(repo.wt("x/src/lib/a.rs").is_file(), "checked out");
    kill(&child, "TERM");
    assert_eq!(child.wait().unwrap().code(), Some(143));
    assert_rolled_back(&repo, "x");
    repo.create("x");
    assert_eq!(repo.ids(), ["x"]);
}

/// SIGTERM sent to git-loop alone while its git child runs (here: the
/// post-checkout hook, inside `git worktree add`): nothing is deleted under
/// the running child; the rollback runs when it returns.
#[test]
fn sigterm_while_git_runs_waits_for_it_then_rolls_back() {
    let repo = repo_with_tree();
    let started = repo.base().join("hook-started");
    let go = repo.base().join("hook-go");
    let finished = repo.base().join("hook-finished");
    let hook = repo.root.join(".git/hooks/post-checkout");
    fs::write(
        &hook,
        format!(
            "#!/bin/sh\ntouch '{}'\nwhile [ ! -e '{}' ]; do sleep 0.02; done\ntest -f src/lib/a.rs && touch '{}'\n",
            started.display(),
            go.display(),
            finished.display()
        ),
    )
    .unwrap();
    make_executable(&hook);
    for split in ["0", "1"] {
        let _ = fs::remove_file(&go);
        let _ = fs::remove_file(&finished);
        let _ = fs::remove_file(&started);
        let mut child = repo
            .command()
            .env("GIT_LOOP_TEST_SPLIT_ADD", split)
            .args(["create", "x", "--pattern", "p"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !started.exists() {
            assert!(
                child.try_wait().unwrap().is_none(),
                "exited before its hook ran"
            );
            assert!(std::time::Instant::now() < deadline, "the hook never ran");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        kill(&child, "TERM");
        // git-loop waits for its child: it is still running, and the
        // worktree is untouched.
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(child.try_wait().unwrap().is_none(), "exited under git");
        assert!(repo.wt("x/src/lib/a.rs").is_file());
        fs::write(&go, "").unwrap();
        assert_eq!(child.wait().unwrap().code(), Some(143), "split={split}");
        assert!(
            finished.exists(),
            "the hook ran to its end on a full worktree"
        );
        assert_rolled_back(&repo, "x");
    }
}

/// `git worktree add --no-checkout -b loop/<id>`, as an interrupted create
/// of an older git-loop left it: an orphan with nothing checked out.
fn never_checked_out(repo: &TestRepo, id: &str) {
    fs::create_dir_all(repo.loop_dir()).unwrap();
    repo.git([
        "worktree",
        "add",
        "-q",
        "--no-checkout",
        "-b",
        &format!("loop/{id}"),
        &format!(".loop-worktrees/{id}"),
        "main",
    ]);
}

#[test]
fn reconcile_removes_a_never_checked_out_orphan() {
    let repo = repo_with_tree();
    never_checked_out(&repo, "x");
    // What git itself says about it.
    let refused = repo.git_in(&repo.root, ["worktree", "remove", ".loop-worktrees/x"]);
    assert!(!refused.status.success());
    let run = repo.run([
        "--json",
        "reconcile",
        "--remove-orphan",
        "x",
        "--min-age",
        "0",
    ]);
    run.ok();
    let v = run.json();
    assert_eq!(v["removedOrphans"][0]["id"], "x", "{v}");
    assert_eq!(v["skipped"], serde_json::json!([]));
    assert!(
        v["removedOrphans"][0]["note"]
            .as_str()
            .unwrap()
            .contains("never checked out"),
        "{v}"
    );
    assert!(repo.wt("x").symlink_metadata().is_err());
    assert!(!repo.registered().contains(&repo.wt("x")));
    assert!(repo.branch_exists("loop/x"), "the branch is kept");
}

#[test]
fn reconcile_keeps_a_never_checked_out_orphan_holding_an_extra_file() {
    let repo = repo_with_tree();
    never_checked_out(&repo, "x");
    fs::write(repo.wt("x/notes.txt"), "mine\n").unwrap();
    let run = repo.run([
        "--json",
        "reconcile",
        "--remove-orphan",
        "x",
        "--min-age",
        "0",
    ]);
    run.ok();
    let v = run.json();
    assert_eq!(v["removedOrphans"], serde_json::json!([]));
    assert_eq!(v["skipped"][0]["id"], "x");
    assert!(
        v["skipped"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("notes.txt is not in git"),
        "{v}"
    );
    assert_eq!(
        fs::read_to_string(repo.wt("x/notes.txt")).unwrap(),
        "mine\n"
    );
    assert!(repo.registered().contains(&repo.wt("x")));
}

/// A rejected run whose `git worktree remove` was cut short: some files and
/// its `.git` file deleted.
fn half_deleted(repo: &TestRepo, id: &str) {
    repo.create(id);
    repo.run(["mark", id, "rejected"]).ok();
    fs::remove_file(repo.wt(id).join("src/lib/a.rs")).unwrap();
    fs::remove_file(repo.wt(id).join("docs/link.md")).unwrap();
    fs::remove_file(repo.wt(id).join("README")).unwrap();
    fs::remove_file(repo.wt(id).join(".git")).unwrap();
}

#[test]
fn cleanup_finishes_a_half_deleted_worktree() {
    let repo = repo_with_tree();
    half_deleted(&repo, "x");
    // Left as git left it, and with its .git file in place (the dirty case).
    repo.create("y");
    repo.run(["mark", "y", "rejected"]).ok();
    fs::remove_file(repo.wt("y/src/main.rs")).unwrap();
    fs::remove_dir_all(repo.wt("y/docs")).unwrap();
    let refused = repo.git_in(&repo.root, ["worktree", "remove", ".loop-worktrees/x"]);
    assert!(!refused.status.success(), "git refuses it");

    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["skipped"], serde_json::json!([]), "{v}");
    let removed = v["removed"].as_array().unwrap();
    assert_eq!(removed.len(), 2, "{v}");
    for r in removed {
        let note = r["note"].as_str().unwrap();
        assert!(
            note.starts_with("finished an interrupted removal: "),
            "{note}"
        );
        assert!(note.contains("all identical to"), "{note}");
    }
    for id in ["x", "y"] {
        assert!(repo.wt(id).symlink_metadata().is_err());
        assert!(!repo.registered().contains(&repo.wt(id)));
        assert!(repo.branch_exists(&format!("loop/{id}")), "branch kept");
    }
    assert_eq!(repo.ids(), Vec::<String>::new());
    let log = fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap();
    assert!(log.contains("finished an interrupted removal"), "{log}");
}

#[test]
fn cleanup_human_output_says_what_it_finished() {
    let repo = repo_with_tree();
    half_deleted(&repo, "x");
    let run = repo.run(["cleanup"]);
    run.ok();
    assert!(
        run.stdout
            .contains("removed x (.loop-worktrees/x)\n  finished an interrupted removal: 3 files, all identical to"),
        "{}",
        run.stdout
    );
}

#[test]
fn cleanup_keeps_a_half_deleted_worktree_with_work_in_it() {
    let repo = repo_with_tree();
    half_deleted(&repo, "extra");
    fs::write(repo.wt("extra/src/lib/new.rs"), "work\n").unwrap();
    half_deleted(&repo, "edited");
    fs::write(repo.wt("edited/src/lib/b.rs"), "pub fn b() { edited() }\n").unwrap();
    half_deleted(&repo, "staged");
    // Same length, other content: the hash, not the size, tells.
    fs::write(repo.wt("staged/docs/guide.md"), "# Giude\n").unwrap();

    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["removed"], serde_json::json!([]), "{v}");
    let skipped = v["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 3, "{v}");
    let reason = |id: &str| {
        skipped.iter().find(|s| s["id"] == id).unwrap()["reason"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(
        reason("extra").contains("src/lib/new.rs is not in git"),
        "{v}"
    );
    assert!(
        reason("edited").contains("src/lib/b.rs differs from git"),
        "{v}"
    );
    assert!(
        reason("staged").contains("docs/guide.md differs from git"),
        "{v}"
    );
    assert_eq!(
        fs::read_to_string(repo.wt("extra/src/lib/new.rs")).unwrap(),
        "work\n"
    );
    assert!(repo.wt("extra/src/lib/b.rs").is_file(), "nothing deleted");
    assert_eq!(
        fs::read_to_string(repo.wt("edited/src/lib/b.rs")).unwrap(),
        "pub fn b() { edited() }\n"
    );
    assert!(repo.wt("edited/src/main.rs").is_file(), "nothing deleted");
    assert!(repo.wt("staged/src/main.rs").is_file(), "nothing deleted");
    for id in ["extra", "edited", "staged"] {
        assert!(repo.registered().contains(&repo.wt(id)));
    }
    assert_eq!(repo.ids().len(), 3);
}

#[test]
fn cleanup_keeps_a_worktree_with_staged_work_or_a_detached_unreachable_head() {
    let repo = repo_with_tree();
    // Staged: a new file added to the index, then deleted from disk.
    repo.create("staged");
    repo.run(["mark", "staged", "rejected"]).ok();
    fs::write(repo.wt("staged/new.rs"), "work\n").unwrap();
    repo.git_in(&repo.wt("staged"), ["add", "new.rs"]);
    fs::remove_file(repo.wt("staged/new.rs")).unwrap();
    fs::remove_file(repo.wt("staged/README")).unwrap();
    // Detached on a commit no branch or tag holds, files partly deleted.
    repo.create("detached");
    repo.run(["mark", "detached", "rejected"]).ok();
    let wt = repo.wt("detached");
    assert!(
        repo.git_in(&wt, ["checkout", "-q", "--detach"])
            .status
            .success()
    );
    assert!(
        repo.git_in(&wt, ["commit", "-q", "--allow-empty", "-m", "only here"])
            .status
            .success()
    );
    fs::remove_file(wt.join("README")).unwrap();

    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["removed"], serde_json::json!([]), "{v}");
    let skipped = v["skipped"].as_array().unwrap();
    let reason = |id: &str| {
        skipped.iter().find(|s| s["id"] == id).unwrap()["reason"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(
        reason("staged").contains("new.rs is staged but not in HEAD"),
        "{v}"
    );
    // Caught before git is even asked (src/worktree.rs).
    let detached = skipped.iter().find(|s| s["id"] == "detached").unwrap();
    assert_eq!(detached["code"], "unreachable-commits", "{v}");
    assert!(repo.wt("staged/src/main.rs").is_file());
    assert!(repo.wt("detached/src/main.rs").is_file());
}
