//! `git loop reconcile`: entries whose directory is gone are dropped,
//! orphans reported and removed only when named (or old enough), dirty or
//! locked ones kept, plain directories and symlinks left alone; its summary
//! and hints. `--adopt`: reconcile_adopt.rs; the last reference to commits
//! of a deleted detached worktree: safety.rs.

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

#[test]
fn reconcile_summary_reads_well_in_a_dry_run_and_hints_only_when_useful() {
    let repo = TestRepo::new();
    repo.create("x");
    repo.git(["worktree", "add", "-q", ".loop-worktrees/stray", "-b", "s"]);
    fs::remove_dir_all(repo.wt("x")).unwrap();
    let dry = repo.run(["reconcile", "--dry-run"]);
    dry.ok();
    assert!(
        dry.stderr
            .contains("1 orphan, would drop 1, would remove 0 orphans, skipped 0"),
        "{}",
        dry.stderr
    );
    assert!(dry.stderr.contains("hint: remove an orphan"));
    // A named orphan that is too young: its reason says what to do; the
    // hint does not repeat the command just run.
    let named = repo.run(["reconcile", "--remove-orphan", "stray"]);
    named.ok();
    assert!(named.stdout.contains("too young"), "{}", named.stdout);
    assert!(!named.stderr.contains("hint:"), "{}", named.stderr);
    assert!(
        named.stderr.contains("dropped 1, removed 0 orphans"),
        "{}",
        named.stderr
    );
}

#[test]
fn reconcile_reports_a_plain_directory_and_a_symlink_it_leaves_alone() {
    let repo = TestRepo::new();
    repo.create("x");
    fs::create_dir(repo.loop_dir().join("plain")).unwrap();
    fs::write(repo.loop_dir().join("plain/keep"), "mine").unwrap();
    std::os::unix::fs::symlink(repo.base(), repo.loop_dir().join("link")).unwrap();
    let v = repo.run(["--json", "reconcile"]).json();
    let skipped: Vec<(&str, &str)> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["id"].as_str().unwrap(), s["code"].as_str().unwrap()))
        .collect();
    assert_eq!(
        skipped,
        [("link", "foreign-clone"), ("plain", "foreign-clone")],
        "{v}"
    );
    assert!(repo.loop_dir().join("plain/keep").exists());
    assert!(repo.loop_dir().join("link").symlink_metadata().is_ok());
    let human = repo.run(["reconcile"]);
    assert!(
        human
            .stdout
            .contains("skipped plain: a directory that is neither")
    );
    // Not a change: nothing is logged for them.
    let log = repo.run(["--json", "log"]).json();
    assert!(
        log["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["event"] != "skip"),
        "{log}"
    );
}
