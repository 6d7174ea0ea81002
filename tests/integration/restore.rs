//! `git loop restore <ID>`: a salvaged run comes back as it was (same `git
//! status --porcelain`, same files), recorded active, the salvage ref kept;
//! `list --salvaged` shows it; an existing run or a missing salvage is
//! refused before anything changes.

use std::fs;

use crate::common::{JsonExt, TestRepo};
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
