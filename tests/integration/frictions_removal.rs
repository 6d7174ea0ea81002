//! Frictions a new user met in cleanup, reconcile and `list --long`, each
//! with the message, code or field that shows it is gone.

use std::fs;

use crate::common::TestRepo;

#[test]
fn skipped_lines_speak_git_loops_words_and_json_keeps_gits() {
    let repo = TestRepo::new();
    repo.create("u");
    repo.create("l");
    fs::write(repo.wt("u").join("wip"), "x").unwrap();
    repo.git([
        "worktree",
        "lock",
        "--reason",
        "on a laptop",
        ".loop-worktrees/l",
    ]);
    for id in ["u", "l"] {
        repo.run(["mark", id, "rejected"]).ok();
    }
    let human = repo.run(["cleanup"]);
    human.ok();
    assert!(!human.stdout.contains("--force"), "{}", human.stdout);
    assert!(!human.stdout.contains("-f -f"), "{}", human.stdout);
    assert!(
        human
            .stdout
            .contains("skipped u: it has untracked files; commit, move or delete them"),
        "{}",
        human.stdout
    );
    assert!(
        human.stdout.contains(
            "skipped l: it is locked (on a laptop); if nothing uses it any more, run `git worktree unlock .loop-worktrees/l`"
        ),
        "{}",
        human.stdout
    );
    let v = repo.run(["--json", "cleanup"]).json();
    let reasons: Vec<&str> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["reason"].as_str().unwrap())
        .collect();
    assert!(reasons.iter().any(|r| r.contains("use --force")), "{v}");
}

#[test]
fn list_long_shows_a_locked_worktree_as_locked() {
    let repo = TestRepo::new();
    repo.create("l");
    repo.git(["worktree", "lock", ".loop-worktrees/l"]);
    let v = repo.run(["--json", "list", "--long"]).json();
    assert_eq!(v["worktrees"][0]["locked"], true, "{v}");
    let table = repo.run(["list", "--long"]);
    let row = table.stdout.lines().nth(1).unwrap();
    assert!(row.contains("locked") && !row.contains("clean"), "{row}");
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
