use std::fs;

use crate::common::{JsonExt, TestRepo};

#[test]
fn deleted_directory_is_dropped_and_its_registration_removed() {
    let repo = TestRepo::new();
    repo.create("keep");
    repo.create("vanished");
    fs::remove_dir_all(repo.wt("vanished")).unwrap();
    let dry = repo.run(["--json", "reconcile", "--dry-run"]);
    dry.ok();
    assert_eq!(dry.json()["dropped"][0]["id"], "vanished");
    assert_eq!(repo.ids(), ["keep", "vanished"]);

    let run = repo.run(["--json", "reconcile"]);
    run.ok();
    let v = run.json();
    assert_eq!(
        v["dropped"],
        serde_json::json!([{"id":"vanished","path":".loop-worktrees/vanished"}])
    );
    assert_eq!(v["orphans"], serde_json::json!([]));
    assert_eq!(repo.ids(), ["keep"]);
    assert!(!repo.registered().contains(&repo.wt("vanished")));
    assert!(repo.branch_exists("loop/vanished"));
    assert!(repo.wt("keep").exists());
}

#[test]
fn whole_loop_dir_wiped_is_not_an_error() {
    let repo = TestRepo::new();
    repo.create("a");
    let manifest = fs::read_to_string(repo.manifest_path()).unwrap();
    fs::remove_dir_all(repo.wt("a")).unwrap();
    let run = repo.run(["--json", "reconcile"]);
    run.ok();
    assert_eq!(run.json()["dropped"][0]["id"], "a");
    // A wipe of everything: git still lists the registration; it is an orphan.
    fs::write(repo.manifest_path(), manifest).unwrap();
    repo.create("b");
    fs::remove_dir_all(repo.loop_dir()).unwrap();
    let run = repo.run(["--json", "reconcile"]);
    run.ok();
    assert_eq!(run.json()["orphans"][0]["id"], "b");
}

#[test]
fn orphan_is_reported_and_removed_only_when_named() {
    let repo = TestRepo::new();
    repo.create("tracked");
    fs::create_dir_all(repo.loop_dir()).unwrap();
    repo.git([
        "worktree",
        "add",
        "-q",
        "-b",
        "loop/orphan",
        "--",
        ".loop-worktrees/orphan",
    ]);
    repo.git([
        "worktree",
        "add",
        "-q",
        "--detach",
        "--",
        ".loop-worktrees/detached",
    ]);
    // Worktrees outside .loop-worktrees are none of git-loop's business.
    repo.git([
        "worktree",
        "add",
        "-q",
        "-b",
        "elsewhere",
        "--",
        "../elsewhere",
    ]);

    let run = repo.run(["--json", "reconcile"]);
    run.ok();
    let v = run.json();
    assert_eq!(
        v["orphans"],
        serde_json::json!([
            {"id":"detached","path":".loop-worktrees/detached","branch":null},
            {"id":"orphan","path":".loop-worktrees/orphan","branch":"loop/orphan"},
        ])
    );
    assert_eq!(v["removedOrphans"], serde_json::json!([]));
    assert!(repo.wt("orphan").exists() && repo.wt("detached").exists());

    // Naming something that is not an orphan changes nothing.
    for name in ["tracked", "nothing-here"] {
        let run = repo.run([
            "--json",
            "reconcile",
            "--remove-orphan",
            "orphan",
            "--remove-orphan",
            name,
        ]);
        run.code(1);
        assert_eq!(run.json()["error"]["code"], "not-an-orphan");
        assert!(repo.wt("orphan").exists());
    }
    repo.run(["reconcile", "--remove-orphan", "../elsewhere"])
        .code(2);

    // Created seconds ago: refused without --min-age 0 (a create may still be
    // recording it).
    let young = repo.run(["--json", "reconcile", "--remove-orphan", "orphan"]);
    young.ok();
    assert_eq!(young.json()["removedOrphans"], serde_json::json!([]));
    assert_eq!(young.json()["skipped"][0]["code"], "too-young");
    assert!(repo.wt("orphan").exists());
    repo.run(["reconcile", "--remove-orphan", "orphan", "--min-age", "1w"])
        .code(2);

    let run = repo.run([
        "--json",
        "reconcile",
        "--remove-orphan",
        "orphan",
        "--min-age",
        "0",
    ]);
    run.ok();
    assert_eq!(
        run.json()["removedOrphans"],
        serde_json::json!([{"id":"orphan","path":".loop-worktrees/orphan"}])
    );
    assert!(!repo.wt("orphan").exists());
    assert!(repo.branch_exists("loop/orphan"));
    assert!(repo.wt("detached").exists());
    assert!(repo.base().join("elsewhere").join("README").exists());
    assert!(repo.root.join("README").exists());
    assert_eq!(repo.ids(), ["tracked"]);
}

#[test]
fn dirty_orphan_is_skipped_not_forced() {
    let repo = TestRepo::new();
    fs::create_dir_all(repo.loop_dir()).unwrap();
    repo.git([
        "worktree",
        "add",
        "-q",
        "-b",
        "loop/o",
        "--",
        ".loop-worktrees/o",
    ]);
    fs::write(repo.wt("o").join("work"), "unsaved").unwrap();
    let run = repo.run([
        "--json",
        "reconcile",
        "--remove-orphan",
        "o",
        "--min-age",
        "0",
    ]);
    run.ok();
    let v = run.json();
    assert_eq!(v["removedOrphans"], serde_json::json!([]));
    assert_eq!(v["skipped"][0]["id"], "o");
    assert_eq!(v["skipped"][0]["code"], "untracked");
    assert_eq!(
        fs::read_to_string(repo.wt("o").join("work")).unwrap(),
        "unsaved"
    );
}

#[test]
fn locked_missing_worktree_is_kept() {
    let repo = TestRepo::new();
    repo.create("usb");
    repo.git([
        "worktree",
        "lock",
        "--reason",
        "unmounted",
        ".loop-worktrees/usb",
    ]);
    fs::remove_dir_all(repo.wt("usb")).unwrap();
    let run = repo.run(["--json", "reconcile"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["dropped"], serde_json::json!([]));
    assert_eq!(v["skipped"][0]["id"], "usb");
    assert!(v["skipped"][0].text("reason").contains("locked"));
    assert_eq!(repo.ids(), ["usb"]);
}

#[test]
fn an_old_orphan_is_removed_with_the_default_min_age() {
    let repo = TestRepo::new();
    fs::create_dir_all(repo.loop_dir()).unwrap();
    repo.git([
        "worktree",
        "add",
        "-q",
        "-b",
        "loop/old",
        "--",
        ".loop-worktrees/old",
    ]);
    // Three hours from now, the orphan is older than the default 2h.
    let run = TestRepo::output(
        repo.command()
            .env(
                "GIT_LOOP_TEST_NOW",
                jiff::Timestamp::now()
                    .checked_add(jiff::SignedDuration::from_hours(3))
                    .unwrap()
                    .to_string(),
            )
            .args(["--json", "reconcile", "--remove-orphan", "old"]),
    );
    run.ok();
    assert_eq!(run.json()["removedOrphans"][0]["id"], "old");
    assert!(!repo.wt("old").exists());
}
