//! Best of N: `create <TASK> --attempts <N>` (N runs in one command, from the
//! pool when there is one, all or none) and `list --task <TASK>` (the
//! attempts in order, with their judge results from the event log).

use std::fs;

use crate::common::{JsonExt, TestRepo, assert_rolled_back, kill, repo_with_tree, spawn_until};

fn attempts(_repo: &TestRepo, task: &str, n: u32) -> Vec<String> {
    (1..=n).map(|k| format!("{task}.{k}")).collect()
}

/// Nothing of any attempt of `task` is left, and `.loop-worktrees/` holds
/// only git-loop's own files (no worktree directory at all).
fn assert_no_attempt_left(repo: &TestRepo, task: &str, n: u32) {
    for id in attempts(repo, task, n) {
        assert_rolled_back(repo, &id);
    }
    let names: Vec<String> = fs::read_dir(repo.loop_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.starts_with('.') && n != "manifest.json" && n != "events.jsonl")
        .collect();
    assert!(names.is_empty(), "left in .loop-worktrees/: {names:?}");
    let listed = repo.git(["worktree", "list", "--porcelain"]);
    assert_eq!(listed.matches("worktree ").count(), 1, "{listed}");
}

#[test]
fn create_attempts_makes_n_runs_prints_n_paths_and_json_has_n_entries() {
    let repo = repo_with_tree();
    let run = repo.run(["create", "fix", "--attempts", "5", "--pattern", "p"]);
    run.ok();
    let paths: Vec<&str> = run.stdout.lines().collect();
    let expected: Vec<String> = attempts(&repo, "fix", 5)
        .iter()
        .map(|id| repo.wt(id).to_string_lossy().into_owned())
        .collect();
    assert_eq!(paths, expected);
    assert_eq!(repo.ids(), attempts(&repo, "fix", 5));
    for id in attempts(&repo, "fix", 5) {
        assert!(repo.wt(&format!("{id}/src/lib/a.rs")).is_file(), "{id}");
        assert!(repo.branch_exists(&format!("loop/{id}")));
        assert_eq!(repo.status_of(&id).as_deref(), Some("active"));
    }
    assert_eq!(
        run.stderr.matches("created .loop-worktrees/fix.").count(),
        5
    );

    let doc = repo
        .run([
            "--json",
            "create",
            "other",
            "--attempts",
            "5",
            "--pattern",
            "p",
        ])
        .ok()
        .json();
    let entries = doc.as_array().expect("an array of create documents");
    let ids: Vec<&str> = entries.iter().map(|e| e.text("id")).collect();
    assert_eq!(ids, attempts(&repo, "other", 5));
    assert_eq!(entries[4].text("branch"), "loop/other.5");
    assert_eq!(entries[0].text("status"), "active");
}

#[test]
fn create_attempts_takes_its_runs_from_a_filled_pool() {
    let repo = repo_with_tree();
    repo.git(["config", "loop.poolSize", "3"]);
    repo.run(["pool", "fill", "3"]).ok();
    let doc = repo
        .run([
            "--json",
            "create",
            "fix",
            "--attempts",
            "5",
            "--pattern",
            "p",
        ])
        .ok()
        .json();
    let methods: Vec<Option<&str>> = doc
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.get("method").and_then(|m| m.as_str()))
        .collect();
    // Three from the pool, the rest checked out fresh.
    assert_eq!(methods.iter().filter(|m| **m == Some("pooled")).count(), 3);
    assert_eq!(methods.iter().filter(|m| m.is_none()).count(), 2);
    let pool = repo.run(["--json", "pool"]).ok().json();
    assert!(pool.arr("members").is_empty(), "members consumed: {pool}");
    for id in attempts(&repo, "fix", 5) {
        let head = repo.git_in(&repo.wt(&id), ["symbolic-ref", "HEAD"]);
        assert_eq!(
            String::from_utf8_lossy(&head.stdout).trim(),
            format!("refs/heads/loop/{id}")
        );
        let status = repo.git_in(&repo.wt(&id), ["status", "--porcelain"]);
        assert!(status.stdout.is_empty(), "{id} is clean");
    }
}

#[test]
fn a_post_command_failing_in_the_third_attempt_rolls_every_attempt_back() {
    let repo = repo_with_tree();
    repo.git([
        "config",
        "loop.createPostCommand",
        "test \"$GIT_LOOP_ID\" != fix.3",
    ]);
    let run = repo.run(["create", "fix", "--attempts", "5", "--pattern", "p"]);
    run.code(1);
    assert!(run.stdout.is_empty(), "no path printed: {}", run.stdout);
    assert!(
        run.stderr.contains("create fix --attempts failed")
            && run.stderr.contains("in .loop-worktrees/fix.3")
            && run
                .stderr
                .contains("rolled back fix.1, fix.2, fix.3, fix.4, fix.5"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("rolled back the create of fix.3: removed .loop-worktrees/fix.3, deleted branch loop/fix.3"),
        "{}",
        run.stderr
    );
    assert_no_attempt_left(&repo, "fix", 5);
    assert!(!repo.manifest_path().exists(), "nothing was recorded");

    let doc = repo
        .run([
            "--json",
            "create",
            "fix",
            "--attempts",
            "5",
            "--pattern",
            "p",
        ])
        .code(1)
        .json();
    assert_eq!(doc["error"]["code"], "post-command-failed");
    assert_no_attempt_left(&repo, "fix", 5);
}

/// A branch of one attempt number left behind (`loop/fix.3`, no run): the
/// round is numbered past it, and the branch is left where it was.
#[test]
fn an_existing_branch_of_one_attempt_moves_the_numbering_past_it() {
    let repo = repo_with_tree();
    repo.git(["branch", "loop/fix.3"]);
    let tip = repo.git(["rev-parse", "loop/fix.3"]);
    let run = repo.run([
        "--json",
        "create",
        "fix",
        "--attempts",
        "2",
        "--pattern",
        "p",
    ]);
    run.ok();
    assert_eq!(run.json().as_array().unwrap().len(), 2);
    assert_eq!(repo.ids(), ["fix.4", "fix.5"]);
    assert!(
        run.stderr.contains("left attempts up to \"fix.3\"")
            || run.stderr.contains("left attempts up to fix.3"),
        "{}",
        run.stderr
    );
    assert_eq!(repo.git(["rev-parse", "loop/fix.3"]), tip);
    for id in ["fix.1", "fix.2"] {
        assert!(!repo.branch_exists(&format!("loop/{id}")));
    }
}

/// `create fix --attempts 3` after an earlier round of `fix` was judged,
/// picked and cleaned up (its worktrees and entries gone, its branches
/// kept, as cleanup keeps them): the new round is `fix.4` … `fix.6`, with
/// a note; every branch of the earlier round keeps its tip and its work;
/// `judge fix` takes only the new round's attempts (issue 41: it failed
/// on `loop/fix.1`).
#[test]
fn a_later_round_continues_the_numbering_and_keeps_the_earlier_one() {
    let repo = repo_with_tree();
    repo.run(["create", "fix", "--attempts", "3", "--pattern", "p"])
        .ok();
    for id in ["fix.1", "fix.2", "fix.3"] {
        crate::common::commit(&repo, &repo.wt(id), "work", &format!("{id}\n"));
    }
    repo.run(["pick", "fix.2"]).ok();
    repo.run(["cleanup", "--status", "rejected,escalated"]).ok();
    let tips: Vec<String> = ["fix.1", "fix.2", "fix.3"]
        .iter()
        .map(|id| repo.git(["rev-parse", &format!("loop/{id}")]))
        .collect();

    let run = repo.run([
        "--json",
        "create",
        "fix",
        "--attempts",
        "3",
        "--pattern",
        "p",
    ]);
    run.ok();
    let made: Vec<String> = run
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.text("id").to_owned())
        .collect();
    assert_eq!(made, ["fix.4", "fix.5", "fix.6"]);
    assert!(
        run.stderr.contains("this round is fix.4 … fix.6"),
        "{}",
        run.stderr
    );
    for (id, tip) in ["fix.1", "fix.2", "fix.3"].iter().zip(&tips) {
        assert_eq!(&repo.git(["rev-parse", &format!("loop/{id}")]), tip, "{id}");
    }
    assert_eq!(repo.ids(), ["fix.4", "fix.5", "fix.6"]);
    repo.git(["config", "loop.judgeGate", "true"]);
    let judged = repo.run(["--json", "judge", "fix"]).ok().json();
    let mut ids = judged.ids("attempts");
    ids.sort();
    assert_eq!(ids, ["fix.4", "fix.5", "fix.6"]);
}

#[test]
fn sigint_or_sigterm_mid_create_leaves_no_attempt_behind() {
    let repo = repo_with_tree();
    for (sig, code) in [("INT", 130), ("TERM", 143)] {
        let mut child = spawn_until(
            &repo,
            &[("GIT_LOOP_TEST_CRASH", "before-checkout:pause")],
            &["create", "fix", "--attempts", "4", "--pattern", "p"],
            "paused at before-checkout",
        );
        // All four added (registered, on their branches), none checked out.
        for id in attempts(&repo, "fix", 4) {
            assert!(repo.registered().contains(&repo.wt(&id)), "{id}");
            assert!(repo.branch_exists(&format!("loop/{id}")));
        }
        kill(&child, sig);
        assert_eq!(child.wait().unwrap().code(), Some(code), "SIG{sig}");
        assert_no_attempt_left(&repo, "fix", 4);
    }
    // After the checkouts, before the record.
    let mut child = spawn_until(
        &repo,
        &[("GIT_LOOP_TEST_CRASH", "after-worktree-add:pause")],
        &["create", "fix", "--attempts", "3", "--pattern", "p"],
        "paused at after-worktree-add",
    );
    assert!(repo.wt("fix.3/src/lib/a.rs").is_file(), "checked out");
    kill(&child, "INT");
    assert_eq!(child.wait().unwrap().code(), Some(130));
    assert_no_attempt_left(&repo, "fix", 3);
    repo.run(["create", "fix", "--attempts", "3", "--pattern", "p"])
        .ok();
    assert_eq!(repo.ids(), attempts(&repo, "fix", 3));
}

#[test]
fn a_task_with_active_attempts_is_refused_naming_them() {
    let repo = repo_with_tree();
    repo.run(["create", "fix", "--attempts", "2", "--pattern", "p"])
        .ok();
    repo.run(["create", "fix.10", "--pattern", "p"]).ok();
    repo.run(["mark", "fix.1", "rejected"]).ok();
    let run = repo.run(["create", "fix", "--attempts", "3", "--pattern", "p"]);
    run.code(1);
    assert!(
        run.stderr
            .contains("task \"fix\" already has active attempts: fix.2, fix.10"),
        "{}",
        run.stderr
    );
    assert!(!repo.branch_exists("loop/fix.3"), "nothing was created");
    assert_eq!(repo.ids(), ["fix.1", "fix.2", "fix.10"]);
    let doc = repo
        .run([
            "--json",
            "create",
            "fix",
            "--attempts",
            "3",
            "--pattern",
            "p",
        ])
        .code(1)
        .json();
    assert_eq!(doc["error"]["code"], "attempts-active");
}

#[test]
fn attempts_out_of_range_with_reuse_or_an_invalid_task_are_usage_errors() {
    let repo = repo_with_tree();
    for (args, said) in [
        (
            &["--attempts", "0"][..],
            "invalid --attempts 0: give a number from 1 to 64",
        ),
        (&["--attempts", "65"], "invalid --attempts 65"),
        (
            &["--attempts", "2", "--reuse"],
            "attempts are always new runs",
        ),
    ] {
        let mut all = vec!["create", "fix", "--pattern", "p"];
        all.extend_from_slice(args);
        let run = repo.run(&all);
        run.code(2);
        assert!(run.stderr.contains(said), "{args:?}: {}", run.stderr);
    }
    let long = "t".repeat(127);
    let run = repo.run(["create", &long, "--attempts", "2", "--pattern", "p"]);
    run.code(2);
    assert!(
        run.stderr.contains("longer than 128 bytes"),
        "{}",
        run.stderr
    );
    assert!(!repo.loop_dir().exists(), "nothing was written");
}

/// A `judge` event as `git loop judge` logs it (the Judgement record in
/// `detail`), appended to the event log by hand.
fn judged(repo: &TestRepo, id: &str, rank: u32, passed: bool, agreement: f64) {
    let judgement = serde_json::json!({
        "id": id, "task": "fix", "gate": "make test",
        "head": "0123456789abcdef0123456789abcdef01234567",
        "passed": passed, "exitCode": if passed { 0 } else { 1 }, "timedOut": false,
        "seconds": 1.25, "conflictsWithBase": false, "agreement": agreement,
        "linesChanged": 12, "filesChanged": 2, "dirty": false,
        "wroteToWorktree": false, "rank": rank,
    });
    let event = serde_json::json!({
        "at": "2026-01-01T00:00:00Z", "event": "judge", "id": id,
        "to": "0123456789abcdef0123456789abcdef01234567",
        "detail": judgement.to_string(),
    });
    let mut log = fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap_or_default();
    log.push_str(&format!("{event}\n"));
    fs::write(repo.loop_dir().join("events.jsonl"), log).unwrap();
}

#[test]
fn list_task_shows_the_attempts_in_number_order_with_their_judge_results() {
    let repo = repo_with_tree();
    repo.run(["create", "fix", "--attempts", "2", "--pattern", "p"])
        .ok();
    repo.run(["create", "fix.10", "--pattern", "p"]).ok();
    repo.run(["create", "other", "--pattern", "p"]).ok();
    repo.run(["create", "fixer.1", "--pattern", "p"]).ok();
    judged(&repo, "fix.10", 2, false, 0.0);
    judged(&repo, "fix.2", 3, true, 0.25);
    judged(&repo, "fix.2", 1, true, 0.5);

    let run = repo.run(["list", "--task", "fix"]);
    run.ok();
    let lines: Vec<&str> = run.stdout.lines().collect();
    let words =
        |line: &str| -> Vec<String> { line.split_whitespace().map(str::to_owned).collect() };
    // judge's table, the same columns (judge.rs holds judge's to them).
    assert_eq!(words(lines[0]), crate::judge::ATTEMPTS_HEADER);
    assert_eq!(lines.len(), 4, "{}", run.stdout);
    let row = |i: usize| words(lines[i]);
    assert_eq!(
        row(1),
        ["-", "fix.1", "active", "-", "-", "-", "-", "-", "-"]
    );
    assert_eq!(
        row(2),
        [
            "1", "leader", "fix.2", "active", "passed", "clean", "0.50", "12", "2", "1.25"
        ]
    );
    assert_eq!(
        row(3),
        [
            "2", "fix.10", "active", "exit", "1", "clean", "0.00", "12", "2", "1.25"
        ]
    );

    let doc = repo.run(["--json", "list", "--task", "fix"]).ok().json();
    assert_eq!(doc.ids("worktrees"), ["fix.1", "fix.2", "fix.10"]);
    let entries = doc.arr("worktrees");
    assert!(entries[0]["judge"].is_null(), "{doc}");
    assert_eq!(entries[1]["judge"]["rank"], 1);
    assert_eq!(entries[1]["judge"]["agreement"], 0.5);
    assert_eq!(entries[2]["judge"]["passed"], false);
    // Without --task, no `judge` field: the document is as it was.
    let plain = repo.run(["--json", "list"]).ok().json();
    assert!(plain.arr("worktrees")[0].get("judge").is_none());

    let none = repo.run(["list", "--task", "nope"]);
    none.ok();
    assert!(none.stdout.is_empty());
    assert!(
        none.stderr.contains("no attempts of nope recorded"),
        "{}",
        none.stderr
    );
}
