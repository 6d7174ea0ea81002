//! `git loop claude-hook create|remove` fed the JSON Claude Code sends to its
//! WorktreeCreate and WorktreeRemove hooks.

use std::path::Path;

use serde_json::{Value, json};

use std::fs;

use crate::common::{JsonExt, Run, TestRepo, git_ok};

fn hook(repo: &TestRepo, dir: &Path, event: &str, payload: &str) -> Run {
    TestRepo::output_with_stdin(
        repo.command().current_dir(dir).args(["claude-hook", event]),
        payload,
    )
}

fn create_payload(repo: &TestRepo, field: &str, name: &str) -> String {
    json!({
        "session_id": "abc123",
        "transcript_path": "/nowhere/t.jsonl",
        "cwd": repo.root,
        "hook_event_name": "WorktreeCreate",
        field: name,
        "some_future_field": {"nested": [1, 2]},
    })
    .to_string()
}

fn events(repo: &TestRepo, id: &str) -> Vec<String> {
    repo.run(["log", id, "--json"])
        .ok()
        .json()
        .arr("events")
        .iter()
        .map(|e| e.text("event").to_owned())
        .collect()
}

#[test]
fn create_prints_exactly_the_path_and_records_a_claude_code_run() {
    let repo = TestRepo::new();
    // Run from elsewhere: the payload's cwd names the repository.
    let run = hook(
        &repo,
        &repo.home,
        "create",
        &create_payload(&repo, "name", "bold-fox"),
    );
    run.ok();
    assert_eq!(run.stdout, format!("{}\n", repo.wt("bold-fox").display()));
    assert!(run.stderr.contains("bold-fox"), "{}", run.stderr);
    assert!(repo.wt("bold-fox").join("README").is_file());
    let entry = repo.manifest().find_id("worktrees", "bold-fox").clone();
    assert_eq!(entry["pattern"], "claude-code");
    assert_eq!(entry["status"], "active");
    assert_eq!(entry["branch"], "loop/bold-fox");
}

#[test]
fn create_reads_worktree_name_when_name_is_absent() {
    let repo = TestRepo::new();
    let payload = create_payload(&repo, "worktree_name", "older-build");
    let run = hook(&repo, &repo.root, "create", &payload);
    run.ok();
    assert_eq!(
        run.stdout,
        format!("{}\n", repo.wt("older-build").display())
    );
    assert_eq!(repo.ids(), ["older-build"]);
}

#[test]
fn a_name_that_is_not_a_run_id_is_made_into_one() {
    let repo = TestRepo::new();
    let payload = create_payload(&repo, "name", " Fix: the/login  bug.. ü!");
    let run = hook(&repo, &repo.root, "create", &payload);
    run.ok();
    assert_eq!(
        run.stdout,
        format!("{}\n", repo.wt("Fix-the-login-bug").display())
    );
    assert_eq!(repo.ids(), ["Fix-the-login-bug"]);
}

#[test]
fn a_name_with_nothing_usable_fails_on_stderr_with_empty_stdout() {
    let repo = TestRepo::new();
    for name in ["...", "///", ""] {
        let run = hook(
            &repo,
            &repo.root,
            "create",
            &create_payload(&repo, "name", name),
        );
        assert_ne!(run.code, 0, "{name:?}");
        assert_eq!(run.stdout, "", "{name:?}");
        assert!(run.stderr.contains("invalid run id"), "{}", run.stderr);
    }
    for payload in ["not json", r#"{"cwd": "."}"#, r#"{"name": 7}"#] {
        let run = hook(&repo, &repo.root, "create", payload);
        run.code(1);
        assert_eq!(run.stdout, "");
        assert!(run.stderr.contains("WorktreeCreate"), "{}", run.stderr);
    }
    assert!(!repo.manifest_path().exists());
}

#[test]
fn an_existing_active_run_is_reused() {
    let repo = TestRepo::new();
    let payload = create_payload(&repo, "name", "again");
    let first = hook(&repo, &repo.root, "create", &payload);
    first.ok();
    std::fs::write(repo.wt("again").join("work"), "in progress\n").unwrap();
    let second = hook(&repo, &repo.root, "create", &payload);
    second.ok();
    assert_eq!(second.stdout, first.stdout);
    assert_eq!(repo.ids(), ["again"]);
    assert!(repo.wt("again").join("work").is_file());
    assert_eq!(events(&repo, "again"), ["create", "reuse"]);
}

fn remove_payload(path: &Path) -> String {
    json!({"session_id": "abc", "hook_event_name": "WorktreeRemove",
           "worktree_path": path, "extra": true})
    .to_string()
}

#[test]
fn remove_removes_the_worktree_keeps_the_branch_and_logs_it() {
    let repo = TestRepo::new();
    hook(
        &repo,
        &repo.root,
        "create",
        &create_payload(&repo, "name", "done"),
    )
    .ok();
    let run = hook(
        &repo,
        &repo.home,
        "remove",
        &remove_payload(&repo.wt("done")),
    );
    run.ok();
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("removed done"), "{}", run.stderr);
    assert!(!repo.wt("done").exists());
    assert!(repo.branch_exists("loop/done"));
    assert!(repo.ids().is_empty());
    assert_eq!(events(&repo, "done"), ["create", "mark", "remove"]);
}

#[test]
fn remove_skips_a_dirty_worktree_with_its_reason() {
    let repo = TestRepo::new();
    hook(
        &repo,
        &repo.root,
        "create",
        &create_payload(&repo, "name", "dirty"),
    )
    .ok();
    std::fs::write(repo.wt("dirty").join("README"), "changed\n").unwrap();
    let run = hook(
        &repo,
        &repo.root,
        "remove",
        &remove_payload(&repo.wt("dirty")),
    );
    run.ok();
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("skipped dirty"), "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(repo.wt("dirty").join("README")).unwrap(),
        "changed\n"
    );
    assert_eq!(repo.status_of("dirty").as_deref(), Some("stale"));
    assert!(repo.branch_exists("loop/dirty"));
    let logged = events(&repo, "dirty");
    assert_eq!(
        logged.last().map(String::as_str),
        Some("skip"),
        "{logged:?}"
    );
}

#[test]
fn remove_leaves_a_path_that_is_no_run_alone() {
    let repo = TestRepo::new();
    repo.create("kept");
    let other = repo.base().join("elsewhere");
    std::fs::create_dir(&other).unwrap();
    let not_recorded = repo.loop_dir().join("stray");
    std::fs::create_dir(&not_recorded).unwrap();
    for path in [other.clone(), not_recorded.clone(), repo.root.clone()] {
        let run = hook(&repo, &repo.root, "remove", &remove_payload(&path));
        run.ok();
        assert_eq!(run.stdout, "");
        assert!(run.stderr.contains("left alone"), "{}", run.stderr);
    }
    assert!(other.is_dir() && not_recorded.is_dir());
    assert_eq!(repo.ids(), ["kept"]);
    let run = hook(&repo, &repo.root, "remove", r#"{"cwd": "."}"#);
    run.code(1);
    assert!(run.stderr.contains("worktree_path"), "{}", run.stderr);
    let _: Value = repo.manifest();
}

#[test]
fn the_pattern_is_the_claude_pattern_setting() {
    let repo = TestRepo::new();
    repo.git(["config", "loop.claudePattern", "claude-review"]);
    hook(
        &repo,
        &repo.root,
        "create",
        &create_payload(&repo, "name", "r1"),
    )
    .ok();
    assert_eq!(
        repo.manifest().find_id("worktrees", "r1")["pattern"],
        "claude-review"
    );
    let shown = repo.run(["config", "--json"]).ok().json();
    assert_eq!(shown["claude.pattern"]["value"], "claude-review");
    let source = shown["claude.pattern"]["source"].as_str().unwrap();
    assert!(
        source.starts_with("git config loop.claudePattern"),
        "{source}"
    );

    // A layer setting a pattern that cannot be one refuses, naming it.
    std::fs::write(
        repo.root.join(".git-loop.toml"),
        "[claude]\npattern = \"\"\n",
    )
    .unwrap();
    let run = hook(
        &repo,
        &repo.root,
        "create",
        &create_payload(&repo, "name", "r2"),
    );
    run.code(1);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("claude.pattern"), "{}", run.stderr);
    assert_eq!(repo.ids(), ["r1"]);
}

#[test]
fn create_never_hands_out_a_persons_run_and_remove_never_takes_one() {
    let repo = TestRepo::new();
    repo.run(["create", "fix-login", "--pattern", "human"]).ok();
    std::fs::write(repo.wt("fix-login").join("mine"), "a person's work\n").unwrap();
    // Claude Code's `fix/login` makes the id `fix-login`: a person's run.
    let payload = create_payload(&repo, "name", "fix/login");
    let first = hook(&repo, &repo.root, "create", &payload);
    first.ok();
    assert_eq!(
        first.stdout,
        format!("{}\n", repo.wt("fix-login-2").display())
    );
    assert!(first.stderr.contains("fix-login-2"), "{}", first.stderr);
    assert_eq!(repo.status_of("fix-login").as_deref(), Some("active"));
    assert_eq!(
        repo.manifest().find_id("worktrees", "fix-login-2")["pattern"],
        "claude-code"
    );
    // The same name again: the hook's own run, reused.
    let again = hook(&repo, &repo.root, "create", &payload);
    again.ok();
    assert_eq!(again.stdout, first.stdout);
    assert_eq!(events(&repo, "fix-login-2"), ["create", "reuse"]);
    // Another name that makes the same id gets a run of its own.
    let other = hook(
        &repo,
        &repo.root,
        "create",
        &create_payload(&repo, "name", "fix login"),
    );
    other.ok();
    assert_eq!(
        other.stdout,
        format!("{}\n", repo.wt("fix-login-3").display())
    );

    // Remove of the person's run: left alone, not marked, not removed.
    let run = hook(
        &repo,
        &repo.root,
        "remove",
        &remove_payload(&repo.wt("fix-login")),
    );
    run.ok();
    assert!(run.stderr.contains("left alone"), "{}", run.stderr);
    assert!(run.stderr.contains("\"human\""), "{}", run.stderr);
    assert_eq!(repo.status_of("fix-login").as_deref(), Some("active"));
    assert!(repo.wt("fix-login").join("mine").is_file());
    assert_eq!(events(&repo, "fix-login"), ["create"]);

    // A run of the hook's pattern that the hook did not make: left alone too.
    repo.run(["create", "by-hand", "--pattern", "claude-code"])
        .ok();
    let run = hook(
        &repo,
        &repo.root,
        "remove",
        &remove_payload(&repo.wt("by-hand")),
    );
    run.ok();
    assert!(run.stderr.contains("left alone"), "{}", run.stderr);
    assert_eq!(repo.status_of("by-hand").as_deref(), Some("active"));
    assert!(repo.wt("by-hand").is_dir());

    // The hook's own run is removed as before.
    hook(
        &repo,
        &repo.root,
        "remove",
        &remove_payload(&repo.wt("fix-login-2")),
    )
    .ok();
    assert!(!repo.wt("fix-login-2").exists());
}

#[test]
fn create_never_adopts_a_persons_leftover_branch() {
    let repo = TestRepo::new();
    repo.git(["branch", "loop/notes"]);
    let tip = repo.git(["rev-parse", "loop/notes"]);
    let run = hook(
        &repo,
        &repo.root,
        "create",
        &create_payload(&repo, "name", "notes"),
    );
    run.ok();
    assert_eq!(run.stdout, format!("{}\n", repo.wt("notes-2").display()));
    assert!(!repo.wt("notes").exists());
    assert_eq!(repo.git(["rev-parse", "loop/notes"]), tip);
}

/// `claude-hook remove` given `.loop-worktrees/<id>` that is a symlink to
/// the main worktree (the run's directory replaced), or a path with `..`
/// components: the main worktree and its files are never touched.
#[test]
fn claude_hook_remove_never_touches_what_a_symlink_or_dots_name() {
    use std::io::Write;
    use std::process::Stdio;
    let repo = TestRepo::new();
    repo.create("x");
    fs::write(repo.root.join("untracked-main"), "main work\n").unwrap();
    let wt = repo.wt("x");
    git_ok(
        &repo,
        &repo.root,
        &["worktree", "move", wt.to_str().unwrap(), "../moved"],
    );
    std::os::unix::fs::symlink(&repo.root, &wt).unwrap();
    let dotted = repo.loop_dir().join("x").join("..").join("..");
    for path in [wt.clone(), dotted] {
        let payload = serde_json::json!({"worktree_path": path}).to_string();
        let mut child = repo
            .command()
            .current_dir(&repo.root)
            .args(["claude-hook", "remove"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.as_bytes())
            .unwrap();
        let _ = child.wait_with_output().unwrap();
    }
    assert_eq!(
        fs::read_to_string(repo.root.join("untracked-main")).unwrap(),
        "main work\n"
    );
    assert!(repo.root.join("README").exists());
    assert!(repo.base().join("moved/README").exists());
}
