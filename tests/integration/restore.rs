//! `git loop restore <ID>`: a salvaged run comes back as it was (same `git
//! status --porcelain`, same files), recorded active, the salvage ref kept;
//! `list --salvaged` shows it; an existing run or a missing salvage is
//! refused before anything changes.

use std::fs;

use crate::common::{JsonExt, TestRepo, git_line, manifest_with};
use crate::common::{make_dirty, snapshot};

fn porcelain(repo: &TestRepo, id: &str) -> String {
    let out = repo.git_in(
        &repo.wt(id),
        ["status", "--porcelain", "--untracked-files=all"],
    );
    String::from_utf8(out.stdout).unwrap()
}

fn salvaged_run(
    repo: &TestRepo,
    id: &str,
) -> (
    String,
    std::collections::BTreeMap<String, (String, Vec<u8>)>,
) {
    repo.create(id);
    make_dirty(repo, id);
    repo.run(["mark", id, "rejected"]).ok();
    let status = porcelain(repo, id);
    let files = snapshot(&repo.wt(id));
    repo.run(["remove", "--salvage", id]).ok();
    assert!(!repo.wt(id).exists());
    (status, files)
}

#[test]
fn restore_brings_the_run_back_as_it_was() {
    let repo = TestRepo::new();
    let (status, files) = salvaged_run(&repo, "d");
    assert!(
        status.contains("MM tracked.txt") && status.contains("A  new-staged.txt"),
        "{status}"
    );
    assert!(
        status.contains(" D gone.txt") && status.contains("?? dir/sub/untracked.rs"),
        "{status}"
    );
    let listed = repo.run(["--json", "list", "--salvaged"]).json();
    let item = listed.find_id("salvaged", "d");
    assert_eq!(item["recorded"], false, "{listed}");
    let commit = repo.git(["rev-parse", "refs/loop/salvage/d"]);
    let run = repo.run(["--json", "restore", "d"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["commit"], commit.trim(), "{v}");
    assert_eq!(v["branchRecreated"], false);
    assert_eq!(porcelain(&repo, "d"), status);
    assert_eq!(snapshot(&repo.wt("d")), files);
    assert_eq!(repo.status_of("d").as_deref(), Some("active"));
    assert_eq!(repo.manifest().find_id("worktrees", "d")["pattern"], "test");
    // The ref is kept; the log says what happened.
    assert_eq!(repo.git(["rev-parse", "refs/loop/salvage/d"]), commit);
    let log = repo.run(["--json", "log", "d"]).json();
    let kinds: Vec<&str> = log.arr("events").iter().map(|e| e.text("event")).collect();
    assert!(
        kinds.ends_with(&["salvage", "remove", "restore"]),
        "{kinds:?}"
    );
    let listed = repo.run(["--json", "list", "--salvaged"]).json();
    assert_eq!(listed.find_id("salvaged", "d")["recorded"], true);
}

#[test]
fn a_gone_branch_is_recreated_at_the_salvage_first_parent() {
    let repo = TestRepo::new();
    let (status, files) = salvaged_run(&repo, "d");
    let head = repo.git(["rev-parse", "refs/loop/salvage/d^1"]);
    // `branch -D` by hand: the salvage holds the commits.
    repo.git(["branch", "-D", "loop/d"]);
    let v = repo.run(["--json", "restore", "d"]).json();
    assert_eq!(v["branchRecreated"], true, "{v}");
    assert_eq!(repo.git(["rev-parse", "loop/d"]), head);
    assert_eq!(porcelain(&repo, "d"), status);
    assert_eq!(snapshot(&repo.wt("d")), files);
}

#[test]
fn restore_refuses_an_existing_run_or_a_missing_salvage() {
    let repo = TestRepo::new();
    repo.create("live");
    let manifest = fs::read(repo.manifest_path()).unwrap();
    let run = repo.run(["--json", "restore", "live"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "no-salvage");
    // Salvaged, restored, then restored again while its worktree is there.
    salvaged_run(&repo, "d");
    repo.run(["restore", "d"]).ok();
    fs::write(repo.wt("d").join("after.txt"), "new work\n").unwrap();
    let manifest_now = fs::read(repo.manifest_path()).unwrap();
    let run = repo.run(["--json", "restore", "d"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "run-exists");
    assert!(run.stderr.contains(".loop-worktrees/d"), "{}", run.stderr);
    assert_eq!(
        fs::read(repo.wt("d").join("after.txt")).unwrap(),
        b"new work\n"
    );
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), manifest_now);
    assert_ne!(manifest_now, manifest);
}

/// `restore` of a run whose branch `loop/<id>` is checked out in another
/// worktree (here the main one) is refused, and changes nothing: no
/// worktree, no manifest entry, the salvage ref kept, the other worktree's
/// files untouched.
#[test]
fn restore_refuses_while_the_branch_is_checked_out_elsewhere() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    fs::write(repo.wt("x").join("wip"), "unsaved work\n").unwrap();
    repo.run(["mark", "x", "rejected"]).ok();
    repo.run(["remove", "--salvage", "x"]).ok();
    let salvage = git_line(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]);
    git_line(&repo, &repo.root, &["checkout", "-q", "loop/x"]);
    fs::write(repo.root.join("README"), "main worktree edit\n").unwrap();
    let manifest = fs::read(repo.manifest_path()).unwrap();
    let run = repo.run(["--json", "restore", "x"]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert!(!repo.wt("x").exists());
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), manifest);
    assert_eq!(
        git_line(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]),
        salvage
    );
    assert_eq!(
        fs::read_to_string(repo.root.join("README")).unwrap(),
        "main worktree edit\n"
    );
    assert!(!repo.root.join("wip").exists());
}

/// `restore` when the manifest still holds an *active* entry for the id
/// whose worktree is gone (rm -rf, never reconciled): the run comes back,
/// with one entry for the id, and the salvaged file.
#[test]
fn restore_over_an_active_entry_whose_worktree_is_gone() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    fs::write(repo.wt("x").join("wip"), "unsaved work\n").unwrap();
    repo.run(["mark", "x", "rejected"]).ok();
    repo.run(["remove", "--salvage", "x"]).ok();
    repo.write_manifest(&manifest_with(&[("x", "active", "2026-11-30T14:44:32Z")]));
    assert_eq!(repo.status_of("x").as_deref(), Some("active"));
    repo.run(["--json", "restore", "x"]).ok();
    assert_eq!(
        fs::read_to_string(repo.wt("x").join("wip")).unwrap(),
        "unsaved work\n"
    );
    assert_eq!(repo.ids(), vec!["x".to_owned()]);
    assert_eq!(repo.status_of("x").as_deref(), Some("active"));
}

/// A salvage ref whose message records an entry the manifest's validation
/// refuses (an empty base): restore must not write it into the manifest
/// (a manifest that fails validation stops every later command).
#[test]
fn restore_never_writes_an_entry_that_fails_validation() {
    let repo = TestRepo::new();
    let entry = r#"{"id":"x","path":".loop-worktrees/x","branch":"loop/x","baseBranch":"","pattern":"","createdAt":"2026-11-30T14:44:32Z","status":"merged"}"#;
    let message = format!("salvage x\n\n{entry}\n");
    let index = repo.git(["commit-tree", "HEAD^{tree}", "-m", "index"]);
    let commit = repo
        .git([
            "commit-tree",
            "HEAD^{tree}",
            "-p",
            "HEAD",
            "-p",
            index.trim(),
            "-m",
            &message,
        ])
        .trim()
        .to_owned();
    repo.git(["update-ref", "refs/loop/salvage/x", &commit]);
    repo.run(["restore", "x"]).ok();
    repo.run(["list"]).ok();
    let m = repo.manifest();
    let e = &m["worktrees"][0];
    assert_eq!(e["id"], "x");
    assert_ne!(e["baseBranch"], "", "{m}");
    assert_ne!(e["pattern"], "", "{m}");
}

/// `restore` says what it kept (the salvage ref, with the command that
/// drops it); `restore --drop` moves the salvage to the trash, never
/// deletes it outright: the trash entry holds the very commit, `trash
/// restore` brings it back, and a second drop or a drop of an unknown id
/// is `no-salvage`, changing nothing.
#[test]
fn restore_says_the_salvage_is_kept_and_drop_moves_it_to_the_trash() {
    let repo = TestRepo::new();
    salvaged_run(&repo, "d");
    let commit = repo.git(["rev-parse", "refs/loop/salvage/d"]);
    let commit = commit.trim();
    let run = repo.run(["restore", "d"]);
    run.ok();
    assert!(
        run.stderr.contains(
            "the salvage refs/loop/salvage/d is kept; `git loop restore --drop d` moves it to the trash"
        ),
        "{}",
        run.stderr
    );
    // The run is back; its salvage is still there until dropped.
    assert_eq!(
        repo.git(["rev-parse", "refs/loop/salvage/d"]).trim(),
        commit
    );

    let dropped = repo.run(["--json", "restore", "--drop", "d"]);
    dropped.ok();
    let doc = dropped.json();
    assert_eq!(doc["ref"], "refs/loop/salvage/d", "{doc}");
    assert_eq!(doc["commit"], commit, "{doc}");
    let name = doc["trash"].as_str().unwrap().to_owned();
    assert!(name.contains("/salvage-dropped/loop/salvage/d"), "{name}");
    assert!(
        repo.git_in(
            &repo.root,
            ["rev-parse", "--verify", "-q", "refs/loop/salvage/d"]
        )
        .stdout
        .is_empty(),
        "the salvage ref is gone"
    );
    let kept = repo.git(["rev-parse", &format!("refs/loop/trash/{name}")]);
    assert_eq!(kept.trim(), commit);
    let log = fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap();
    assert!(log.contains("\"salvage-drop\""), "{log}");
    // The run it came from is untouched.
    assert_eq!(repo.status_of("d").as_deref(), Some("active"));

    for id in ["d", "nope"] {
        let again = repo.run(["--json", "restore", "--drop", id]);
        again.code(1);
        assert_eq!(again.json()["error"]["code"], "no-salvage");
    }
    let text = repo.run(["trash"]).ok().stdout.clone();
    assert!(text.contains("salvage-dropped"), "{text}");
    // Brought back: as the salvage again, since d has none now.
    let back = repo.run(["--json", "trash", "restore", &name]);
    back.ok();
    assert_eq!(back.json()["restored"], "refs/loop/salvage/d");
    assert_eq!(
        repo.git(["rev-parse", "refs/loop/salvage/d"]).trim(),
        commit
    );

    // A salvage dropped before it was ever restored: trash restore, then
    // restore brings the run back as it was.
    let (status, files) = salvaged_run(&repo, "e");
    let name = repo.run(["--json", "restore", "--drop", "e"]).ok().json()["trash"]
        .as_str()
        .unwrap()
        .to_owned();
    repo.run(["restore", "e"]).code(1);
    repo.run(["trash", "restore", &name]).ok();
    repo.run(["restore", "e"]).ok();
    assert_eq!(porcelain(&repo, "e"), status);
    assert_eq!(snapshot(&repo.wt("e")), files);
}
