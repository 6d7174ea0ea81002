//! A run that must not land is refused with its code, and the refusal
//! changes nothing: every ref, the main checkout's index and files, each
//! worktree and its files, the manifest byte for byte.

use super::{
    LINES, advance_main, commit_as, events_of, land, rev, setup, shell, state, three_commits,
};
use crate::common::{JsonExt, TestRepo, git_line, git_ok, spawn_until};

/// Replace line `n` of `f` in `dir` with `text`.
fn edit_line(dir: &std::path::Path, n: usize, text: &str) -> String {
    let mut lines: Vec<&str> = LINES.lines().collect();
    lines[n - 1] = text;
    let content = lines.join("\n") + "\n";
    std::fs::write(dir.join("f"), &content).unwrap();
    content
}

/// Refused with `code`, nothing changed; the JSON's skipped entry.
fn refused(repo: &TestRepo, id: &str, args: &[&str], code: &str) -> serde_json::Value {
    let before = state(repo);
    let mut all = vec![id];
    all.extend_from_slice(args);
    let doc = land(repo, &all, 1);
    assert_eq!(doc.arr("landed").len(), 0, "{doc}");
    let skipped = doc.find_id("skipped", id).clone();
    assert_eq!(skipped["code"], code, "{doc}");
    assert_eq!(doc["error"]["code"], code);
    assert_eq!(state(repo), before, "a refusal ({code}) changed something");
    assert!(
        events_of(repo, id)
            .iter()
            .any(|e| *e == format!("land:{code}")),
        "the refusal is logged"
    );
    skipped
}

/// A repository whose run `c` and main both edit line 3 of `f`.
fn conflicting_run() -> TestRepo {
    let repo = setup();
    repo.create("c");
    let wt = repo.wt("c");
    edit_line(&wt, 3, "three, by the run");
    git_ok(&repo, &wt, &["commit", "-qam", "run edits line 3"]);
    edit_line(&repo.root, 3, "three, on main");
    repo.git(["commit", "-qam", "main edits line 3"]);
    repo
}

#[test]
fn a_conflict_is_refused_with_its_paths() {
    let repo = conflicting_run();
    let skipped = refused(&repo, "c", &[], "conflict");
    assert_eq!(skipped["paths"], serde_json::json!(["f"]));
    assert!(
        skipped.text("message").contains("conflicts in f"),
        "{skipped}"
    );
    let run = repo.run(["land", "c"]);
    run.code(1);
    assert!(
        run.stdout.starts_with("c: skipped (conflict): "),
        "{}",
        run.stdout
    );
}

/// A conflict names its fix, the exact command: the run rebased onto its
/// target in its own worktree. Done as said (through a shell, from the
/// main checkout), with the conflict resolved, the run lands.
#[test]
fn a_conflict_names_the_rebase_that_fixes_it() {
    let repo = conflicting_run();
    let wt = repo.wt("c");
    let skipped = refused(&repo, "c", &[], "conflict");
    let fix = "dir=$(git loop path c) && cd \"$dir\" && git rebase main";
    let message = skipped.text("message");
    assert!(
        message.contains(&format!(
            "in its worktree, resolve the conflicts there, then land it again: {fix}"
        )),
        "{skipped}"
    );
    let (code, _, stderr) = shell(&repo, &repo.root, fix);
    assert_ne!(code, 0, "the rebase stops at the conflict: {stderr}");
    edit_line(&wt, 3, "three, by both");
    git_ok(&repo, &wt, &["add", "f"]);
    let (code, _, stderr) = shell(&repo, &wt, "GIT_EDITOR=true git rebase --continue");
    assert_eq!(code, 0, "{stderr}");
    let doc = land(&repo, &["c"], 0);
    assert_eq!(doc.arr("landed").len(), 1, "{doc}");
    assert!(
        std::fs::read_to_string(repo.root.join("f"))
            .unwrap()
            .contains("three, by both")
    );
}

#[test]
fn a_run_with_uncommitted_work_is_refused() {
    let repo = setup();
    three_commits(&repo, "d");
    // Untracked files refuse it only with land.require-clean (see inside.rs).
    repo.git(["config", "loop.landRequireClean", "true"]);
    std::fs::write(repo.wt("d").join("scratch"), "not committed\n").unwrap();
    let skipped = refused(&repo, "d", &[], "dirty");
    assert!(
        skipped.text("message").contains("untracked files"),
        "{skipped}"
    );
    std::fs::remove_file(repo.wt("d").join("scratch")).unwrap();
    std::fs::write(repo.wt("d").join("d/one"), "changed\n").unwrap();
    let skipped = refused(&repo, "d", &[], "dirty");
    assert!(
        skipped.text("message").contains("uncommitted changes"),
        "{skipped}"
    );
}

#[test]
fn a_run_without_commits_of_its_own_is_empty() {
    let repo = setup();
    repo.create("e");
    refused(&repo, "e", &[], "empty");
}

#[test]
fn a_run_in_the_middle_of_an_operation_is_refused() {
    let repo = setup();
    three_commits(&repo, "o");
    let admin = git_ok(&repo, &repo.wt("o"), &["rev-parse", "--absolute-git-dir"]);
    std::fs::write(
        std::path::Path::new(admin.trim()).join("MERGE_HEAD"),
        rev(&repo, "main") + "\n",
    )
    .unwrap();
    refused(&repo, "o", &[], "operation-in-progress");
}

#[test]
fn a_failing_gate_refuses_with_its_exit_code_and_output() {
    let repo = setup();
    three_commits(&repo, "gt");
    let skipped = refused(
        &repo,
        "gt",
        &["--gate", "echo the tests failed; exit 3"],
        "gate-failed",
    );
    assert_eq!(skipped["gate"]["exitCode"], 3, "{skipped}");
    assert!(
        skipped["gate"].text("tail").contains("the tests failed"),
        "{skipped}"
    );
    assert!(skipped.text("message").contains("exited 3"), "{skipped}");
    let log = std::fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap();
    assert!(
        log.contains("the tests failed"),
        "the gate's output is in the log"
    );
    // A passing gate lands.
    let doc = land(&repo, &["gt", "--gate", "test -f gt/three"], 0);
    assert_eq!(doc.find_id("landed", "gt")["gate"]["passed"], true);
}

#[test]
fn a_base_that_is_not_a_local_branch_needs_into() {
    let repo = setup();
    let commit = rev(&repo, "main");
    repo.run(["create", "t", "--pattern", "p", "--base", &commit])
        .ok();
    commit_as(
        &repo,
        &repo.wt("t"),
        "t",
        "t\n",
        "Ada <ada@example.com>",
        "2026-02-01T10:00:00Z",
        "t",
    );
    let skipped = refused(&repo, "t", &[], "no-target");
    assert!(skipped.text("message").contains("pass --into"), "{skipped}");
    land(&repo, &["t", "--into", "main"], 0);
    // An --into that is no local branch refuses the whole command.
    let run = repo.run(["--json", "land", "t", "--into", "nope"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "base-not-found");
    let run = repo.run(["--json", "land", "nobody"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "unknown-id");
}

#[test]
fn a_local_change_in_a_landed_path_refuses_and_one_elsewhere_is_kept() {
    let repo = setup();
    repo.create("w");
    let wt = repo.wt("w");
    edit_line(&wt, 1, "one, by the run");
    git_ok(&repo, &wt, &["commit", "-qam", "run edits f"]);
    // The user's own edit of the same file, not committed (nor staged).
    edit_line(&repo.root, 20, "twenty, the user's, uncommitted");
    let skipped = refused(&repo, "w", &[], "target-dirty");
    assert_eq!(skipped["paths"], serde_json::json!(["f"]), "{skipped}");
    // Moved aside: a change to a file the landing does not touch stays as it was.
    repo.git(["checkout", "--", "f"]);
    std::fs::write(repo.root.join("g"), "the user's g, uncommitted\n").unwrap();
    std::fs::write(repo.root.join("notes"), "untracked notes\n").unwrap();
    repo.git(["add", "notes"]);
    let stash = repo.git_in(&repo.root, ["rev-parse", "-q", "--verify", "refs/stash"]);
    let old = rev(&repo, "main");
    let doc = land(&repo, &["w"], 0);
    assert_eq!(doc.find_id("landed", "w")["from"], old.as_str());
    assert_ne!(rev(&repo, "main"), old);
    assert!(
        std::fs::read_to_string(repo.root.join("f"))
            .unwrap()
            .starts_with("one, by the run\n")
    );
    assert_eq!(
        std::fs::read_to_string(repo.root.join("g")).unwrap(),
        "the user's g, uncommitted\n"
    );
    assert_eq!(repo.git(["status", "--porcelain"]), " M g\nA  notes\n");
    let after = repo.git_in(&repo.root, ["rev-parse", "-q", "--verify", "refs/stash"]);
    assert_eq!(after.stdout, stash.stdout, "refs/stash untouched");
}

#[test]
fn a_target_moved_after_the_build_is_refused_and_nothing_is_lost() {
    let repo = setup();
    three_commits(&repo, "m");
    let run_tip = rev(&repo, "loop/m");
    let manifest = std::fs::read(repo.manifest_path()).unwrap();
    let go = repo.base().join("go");
    let spec = format!("land-built:until:{}", go.display());
    let mut child = spawn_until(
        &repo,
        &[("GIT_LOOP_TEST_CRASH", spec.as_str())],
        &["land", "m"],
        "paused at land-built",
    );
    // Another process moves the target while the landing waits.
    let theirs = advance_main(&repo, "g", "someone else's\n");
    std::fs::write(&go, "").unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1));
    assert_eq!(rev(&repo, "main"), theirs);
    assert_eq!(rev(&repo, "loop/m"), run_tip);
    assert!(repo.wt("m").is_dir());
    assert_eq!(std::fs::read(repo.manifest_path()).unwrap(), manifest);
    assert!(
        events_of(&repo, "m")
            .iter()
            .any(|e| e == "land:target-moved")
    );
    assert_eq!(repo.git(["status", "--porcelain"]), "");
    // Landing again lands on the moved target.
    let doc = land(&repo, &["m"], 0);
    assert_eq!(doc.find_id("landed", "m")["from"], theirs.as_str());
}

/// A refusal changes nothing, not even an ignored directory: a failing
/// gate (set in git config, so trusted) and a target that moved while the
/// gate ran leave no `.loop-worktrees/.land-gate/` behind.
#[test]
fn a_refused_gated_landing_leaves_no_scratch_directory() {
    let repo = setup();
    three_commits(&repo, "gd");
    let scratch_dir = repo.loop_dir().join(".land-gate");
    repo.git(["config", "loop.landGate", "echo no; exit 1"]);
    refused(&repo, "gd", &[], "gate-failed");
    assert!(!scratch_dir.exists(), "a failed gate left .land-gate/");
    // A gate that passes, while the target moves under it.
    let theirs = advance_main(&repo, "g", "moved before\n");
    let script = format!(
        "git -C '{}' commit -q --allow-empty -m during",
        repo.root.display()
    );
    repo.git(["config", "loop.landGate", &script]);
    let doc = land(&repo, &["gd"], 1);
    assert_eq!(
        doc.find_id("skipped", "gd")["code"],
        "target-moved",
        "{doc}"
    );
    assert_ne!(rev(&repo, "main"), theirs);
    assert!(!scratch_dir.exists(), "a refused landing left .land-gate/");
    // One another process made (or left) is not this landing's to remove.
    std::fs::create_dir(&scratch_dir).unwrap();
    repo.git(["config", "loop.landGate", "exit 1"]);
    refused(&repo, "gd", &[], "gate-failed");
    assert!(
        scratch_dir.is_dir(),
        "a .land-gate/ it did not make is kept"
    );
}

/// Inside a run's worktree the id may be left out, as for `mark`: the run
/// whose worktree holds the directory lands. Anywhere else it is a usage
/// error naming the directory, and nothing lands.
#[test]
fn inside_a_runs_worktree_land_takes_that_run() {
    let repo = setup();
    three_commits(&repo, "x");
    let outside = repo.run(["--json", "land"]);
    outside.code(2);
    assert_eq!(
        outside.json()["error"]["code"],
        "usage",
        "{}",
        outside.json()
    );
    let subject = git_line(&repo, &repo.root, &["log", "-1", "--format=%s", "loop/x"]);
    let sub = repo.wt("x").join("x");
    let run = repo.run(["--json", "-C", sub.to_str().unwrap(), "land"]);
    run.ok();
    assert_eq!(run.json()["landed"][0]["id"], "x", "{}", run.json());
    assert_eq!(
        git_line(&repo, &repo.root, &["log", "-1", "--format=%s", "main"]),
        subject
    );
}
