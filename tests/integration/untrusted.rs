//! What an untrusted repository's `.git-loop.toml` may do: every key has a
//! class (docs/cli.md's key table), and only `plain` values take effect
//! before `git loop trust`. A value that weakens a guard is ignored, with a
//! note; a command never runs (hooks.rs). And no command expires a trash
//! entry it made itself, whatever `trash.keep` says.

use std::collections::BTreeMap;
use std::fs;

use serde_json::Value;

use crate::common::{JsonExt, TestRepo, commit, git_line, git_ok};

/// Each key's class, from docs/cli.md's key table (its last column).
fn classes() -> BTreeMap<String, String> {
    let contract = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md")).unwrap();
    let table = contract.split("## Configuration").nth(1).unwrap();
    table
        .lines()
        .skip_while(|l| !l.starts_with("| TOML key"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let key = row.split('`').nth(1).unwrap().to_owned();
            let class = row.trim_end_matches('|').rsplit('|').next().unwrap().trim();
            (key, class.to_owned())
        })
        .collect()
}

/// A value for every key, none of them the built-in default.
const EVERY_KEY: &str = r#"base = "dev"
[create]
copy = [".env"]
post-command = "true"
ignore-file = "info-exclude"
fetch = true
ports = 2
pattern = "experiment"
[claude]
pattern = "agent"
[cleanup]
status = ["active"]
older-than = "1d"
delete-merged-branches = true
salvage = true
pre-command = "true"
recycle = true
[pool]
size = 2
keep = ["dist/"]
[trash]
keep = "0s"
[land]
gate = "true"
strategy = "squash"
into = "dev"
queue-status = ["active"]
push-retries = 5
require-clean = true
[sync]
strategy = "merge"
gate = "true"
[judge]
gate = "true"
[notify]
command = "true"
[watch]
bell = false
[fleet]
name = "box"
remote = "upstream"
lease = "5m"
publish = true
"#;

fn config(repo: &TestRepo) -> (Value, String) {
    let run = repo.run(["--json", "config"]);
    run.ok();
    (run.json().clone(), run.stderr.clone())
}

/// Every key, each set in the untrusted file: a plain value applies, a
/// value that weakens a guard does not (the default shows, and the source
/// says why), a command shows as not trusted; once trusted, all apply.
#[test]
fn only_plain_values_of_an_untrusted_repo_file_take_effect() {
    let repo = TestRepo::new();
    repo.git(["branch", "dev"]);
    let (defaults, _) = config(&repo);
    fs::write(repo.root.join(".git-loop.toml"), EVERY_KEY).unwrap();
    let (untrusted, note) = config(&repo);
    repo.run(["trust"]).ok();
    let (trusted, after) = config(&repo);
    assert!(!after.contains("ignored"), "{after}");

    let classes = classes();
    let keys: Vec<&String> = defaults.as_object().unwrap().keys().collect();
    assert_eq!(
        keys.len(),
        classes.len(),
        "config --json and docs/cli.md's table name the same keys"
    );
    let mut weakening = Vec::new();
    for key in keys {
        let class = classes
            .get(key)
            .unwrap_or_else(|| panic!("docs/cli.md gives {key} no class"));
        let (default, before, after) = (&defaults[key], &untrusted[key], &trusted[key]);
        assert_ne!(
            default["value"], after["value"],
            "{key}: EVERY_KEY must set a value other than the default"
        );
        match class.as_str() {
            "plain" => assert_eq!(before["value"], after["value"], "{key}"),
            "runs a command" => {
                assert_eq!(before["value"], after["value"], "{key}");
                assert!(
                    before.text("source").contains("NOT trusted"),
                    "{key}: {before}"
                );
            }
            "weakens a guard" => {
                assert_eq!(before["value"], default["value"], "{key}: {before}");
                assert!(
                    before.text("source").contains("ignored")
                        && before.text("source").contains("git loop trust"),
                    "{key}: {before}"
                );
                assert!(!after.text("source").contains("ignored"), "{key}: {after}");
                weakening.push(key.as_str());
            }
            other => panic!("{key}: unknown class {other:?}"),
        }
    }
    assert!(weakening.contains(&"trash.keep") && weakening.contains(&"create.copy"));
    // One note names every key ignored, and how to trust.
    for key in &weakening {
        assert!(note.contains(key), "the note names {key}: {note}");
    }
    assert!(note.contains("git loop trust"), "{note}");
}

/// A run whose worktree holds a commit only `refs/worktree/experiment`
/// keeps: cleanup removes it and keeps that commit in the trash.
fn run_with_a_lone_commit(repo: &TestRepo, id: &str) -> String {
    repo.create(id).ok();
    let wt = repo.wt(id);
    git_ok(repo, &wt, &["checkout", "-q", "--detach"]);
    commit(repo, &wt, id, "only here\n");
    let lone = git_line(repo, &wt, &["rev-parse", "HEAD"]);
    git_ok(
        repo,
        &wt,
        &["update-ref", "refs/worktree/experiment", &lone],
    );
    git_ok(repo, &wt, &["checkout", "-q", &format!("loop/{id}")]);
    repo.run(["mark", id, "rejected"]).ok();
    lone
}

fn trash_tips(repo: &TestRepo) -> Vec<String> {
    let doc = repo.run(["--json", "trash"]).json().clone();
    doc.arr("trash")
        .iter()
        .map(|e| e.text("tip").to_owned())
        .collect()
}

fn reachable(repo: &TestRepo, id: &str) -> bool {
    let out = repo.git_in(&repo.root, ["fsck", "--unreachable", "--no-reflogs"]);
    !String::from_utf8_lossy(&out.stdout).contains(id)
}

/// The cloned repository's file says `trash.keep = "0s"` and nobody trusted
/// it: a cleanup keeps the run's lone commit in the trash and the trash
/// keeps it. Trusted, `0s` still never drops what the same cleanup kept:
/// only entries from before it started.
#[test]
fn an_untrusted_trash_keep_never_empties_the_trash_and_no_command_expires_its_own_entry() {
    let repo = TestRepo::new();
    fs::write(repo.root.join(".git-loop.toml"), "[trash]\nkeep = \"0s\"\n").unwrap();
    repo.git(["add", ".git-loop.toml"]);
    repo.git(["commit", "-q", "-m", "the project's settings"]);

    let first = run_with_a_lone_commit(&repo, "x");
    let run = repo.run(["cleanup"]);
    run.ok();
    assert!(
        run.stderr.contains("trash.keep") && run.stderr.contains("git loop trust"),
        "{}",
        run.stderr
    );
    assert!(trash_tips(&repo).contains(&first));
    assert!(reachable(&repo, &first));
    // A later cleanup, untrusted: still kept (the default 30d applies).
    repo.run(["cleanup"]).ok();
    assert!(trash_tips(&repo).contains(&first));

    // Trusted: `0s` applies, but only to entries from before the command.
    repo.run(["trust"]).ok();
    let second = run_with_a_lone_commit(&repo, "y");
    let mut later = repo.command();
    later
        .args(["cleanup"])
        .env("GIT_LOOP_TEST_NOW", "2099-01-01T00:00:00.5Z");
    let run = TestRepo::output(&mut later);
    run.ok();
    let tips = trash_tips(&repo);
    assert!(
        tips.contains(&second),
        "this cleanup's own entry was expired: {tips:?}"
    );
    assert!(reachable(&repo, &second));
    assert!(
        !tips.contains(&first),
        "the older entry is dropped as trash.keep says: {tips:?}"
    );
}

/// `cleanup.status = "active"` from an untrusted file removes no active run.
#[test]
fn an_untrusted_cleanup_status_removes_no_active_run() {
    let repo = TestRepo::new();
    fs::write(
        repo.root.join(".git-loop.toml"),
        "[cleanup]\nstatus = \"active\"\n",
    )
    .unwrap();
    repo.create("busy").ok();
    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    assert!(run.json().arr("removed").is_empty(), "{}", run.json());
    assert!(repo.wt("busy").exists());
    assert!(run.stderr.contains("cleanup.status"), "{}", run.stderr);
}
