//! Interrupted creates and removals: a signalled create rolls back what it
//! made; cleanup and reconcile finish a never-checked-out or half-deleted
//! worktree that holds nothing but git's files, and leave any other alone.

use std::fs;

use crate::common::TestRepo;

/// A repository whose base commit has files in subdirectories (and a
/// symlink), so a checkout and a removal have something to do.
fn repo_with_tree() -> TestRepo {
    let repo = TestRepo::new();
    for (path, text) in [
        ("src/main.rs", "fn main() {}\n"),
        ("src/lib/a.rs", "pub fn a() {}\n"),
        ("src/lib/b.rs", "pub fn b() {}\n"),
        ("docs/guide.md", "# Guide\n"),
    ] {
        let file = repo.root.join(path);
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(file, text).unwrap();
    }
    std::os::unix::fs::symlink("guide.md", repo.root.join("docs/link.md")).unwrap();
    repo.git(["add", "."]);
    repo.git(["commit", "-q", "-m", "tree"]);
    repo
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
    assert!(reason("detached").contains("is on no branch or tag"), "{v}");
    assert!(repo.wt("staged/src/main.rs").is_file());
    assert!(repo.wt("detached/src/main.rs").is_file());
}
