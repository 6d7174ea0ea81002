//! `remove --salvage` / `cleanup --salvage`: a dirty run is saved to
//! `refs/loop/salvage/<id>` (checked against the files) before it is
//! removed; a failed salvage removes nothing; a crash at either side of the
//! removal leaves a state reconcile accepts, with the ref in place.

use std::collections::BTreeMap;
use std::fs;

use crate::common::{JsonExt, TestRepo, git_line, git_ok, make_dirty, snapshot};

/// The tree of `rev`, in the same shape, read with git.
fn tree_of(repo: &TestRepo, rev: &str) -> BTreeMap<String, (String, Vec<u8>)> {
    let list = repo.git(["ls-tree", "-r", "-z", rev]);
    let mut out = BTreeMap::new();
    for item in list.split('\0').filter(|l| !l.is_empty()) {
        let (meta, path) = item.split_once('\t').unwrap();
        let fields: Vec<&str> = meta.split(' ').collect();
        let bytes = repo
            .git_in(&repo.root, ["cat-file", "blob", fields[2]])
            .stdout;
        out.insert(path.to_owned(), (fields[0].to_owned(), bytes));
    }
    out
}

fn rejected_dirty(repo: &TestRepo, id: &str) {
    repo.create(id);
    make_dirty(repo, id);
    repo.run(["mark", id, "rejected"]).ok();
}

#[test]
fn the_salvage_tree_is_the_worktree_byte_for_byte_then_it_is_removed() {
    let repo = TestRepo::new();
    rejected_dirty(&repo, "d");
    let before = snapshot(&repo.wt("d"));
    let head = repo.git_in(&repo.wt("d"), ["rev-parse", "HEAD"]).stdout;
    // Without --salvage it is kept, as ever.
    let kept = repo.run(["--json", "remove", "d"]).json();
    assert_eq!(kept.arr("skipped")[0]["code"], "dirty", "{kept}");
    let run = repo.run(["--json", "remove", "--salvage", "d"]);
    run.ok();
    let v = run.json();
    let removed = v.find_id("removed", "d");
    let salvage = &removed["salvage"];
    assert_eq!(salvage["ref"], "refs/loop/salvage/d", "{v}");
    let commit = salvage.text("commit");
    assert_eq!(
        repo.git(["rev-parse", "refs/loop/salvage/d"]).trim(),
        commit
    );
    assert!(!repo.wt("d").exists());
    assert!(repo.ids().is_empty());
    // Byte for byte: modified, staged, untracked, exec bit, symlink, empty.
    assert_eq!(tree_of(&repo, commit), before);
    // First parent: the worktree's HEAD; second: the index.
    let parent = repo.git(["rev-parse", &format!("{commit}^1")]);
    assert_eq!(parent.trim(), String::from_utf8_lossy(&head).trim());
    let index = tree_of(&repo, &format!("{commit}^2"));
    assert_eq!(index["tracked.txt"].1, b"one\nstaged\n");
    assert!(index.contains_key("new-staged.txt") && !index.contains_key("dir/sub/untracked.rs"));
    // Ignored files are listed, not kept.
    assert_eq!(salvage["ignored"]["count"], 1, "{v}");
    assert_eq!(salvage["ignored"]["bytes"], 15, "{v}");
    assert_eq!(salvage["ignored"]["paths"][0], "build.log", "{v}");
    let log = repo.run(["--json", "log", "d"]).json();
    let ev = log
        .arr("events")
        .iter()
        .find(|e| e["event"] == "salvage")
        .expect("salvage event");
    assert_eq!(ev["to"], commit);
    assert!(ev.text("detail").contains("build.log"), "{ev}");
}

#[test]
fn cleanup_salvages_untracked_and_unreachable_but_never_locked_or_nested() {
    let repo = TestRepo::new();
    for id in ["untracked", "detached", "locked", "nested"] {
        repo.create(id);
        repo.run(["mark", id, "rejected"]).ok();
    }
    fs::write(repo.wt("untracked").join("new.txt"), "x\n").unwrap();
    let det = repo.wt("detached");
    repo.git_in(&det, ["checkout", "-q", "--detach"]);
    repo.git_in(&det, ["commit", "-q", "--allow-empty", "-m", "only here"]);
    let lone = String::from_utf8(repo.git_in(&det, ["rev-parse", "HEAD"]).stdout).unwrap();
    fs::write(repo.wt("locked").join("new.txt"), "x\n").unwrap();
    repo.git(["worktree", "lock", ".loop-worktrees/locked"]);
    fs::create_dir(repo.wt("nested").join("inner")).unwrap();
    repo.git_in(&repo.wt("nested").join("inner"), ["init", "-q"]);
    let v = repo.run(["--json", "cleanup", "--salvage"]).json();
    assert_eq!(v.ids("removed"), ["untracked", "detached"], "{v}");
    assert_eq!(v.find_id("skipped", "locked")["code"], "locked", "{v}");
    assert_eq!(v.find_id("skipped", "nested")["code"], "nested-repo", "{v}");
    assert!(repo.wt("locked").join("new.txt").exists() && repo.wt("nested").exists());
    // The lone commit is held by the salvage ref.
    let first = repo.git(["rev-parse", "refs/loop/salvage/detached^1"]);
    assert_eq!(first.trim(), lone.trim());
    let untracked = tree_of(&repo, "refs/loop/salvage/untracked");
    assert_eq!(untracked["new.txt"].1, b"x\n");
    for id in ["locked", "nested"] {
        assert!(
            !repo
                .git_in(
                    &repo.root,
                    [
                        "rev-parse",
                        "-q",
                        "--verify",
                        &format!("refs/loop/salvage/{id}")
                    ]
                )
                .status
                .success()
        );
    }
}

#[test]
fn a_failed_salvage_write_removes_nothing() {
    let repo = TestRepo::new();
    rejected_dirty(&repo, "d");
    let before = snapshot(&repo.wt("d"));
    let manifest = fs::read(repo.manifest_path()).unwrap();
    let run = crate::common::TestRepo::output(
        repo.command()
            .env("GIT_LOOP_TEST_FAIL", "salvage-ref-write")
            .args(["--json", "remove", "--salvage", "d"]),
    );
    run.code(1);
    let v = run.json();
    assert_eq!(v.find_id("skipped", "d")["code"], "error", "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("injected"),
        "{v}"
    );
    assert_eq!(snapshot(&repo.wt("d")), before);
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), manifest);
    assert!(
        !repo
            .git_in(
                &repo.root,
                ["rev-parse", "-q", "--verify", "refs/loop/salvage/d"]
            )
            .status
            .success()
    );
    // A ref git itself cannot write (a ref below its name): same.
    repo.git(["update-ref", "refs/loop/salvage/d/x", "HEAD"]);
    let run = repo.run(["--json", "remove", "--salvage", "d"]);
    run.code(1);
    assert_eq!(snapshot(&repo.wt("d")), before);
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), manifest);
    // The worktree's own index was never written: the staged state is intact.
    let status = repo.git_in(&repo.wt("d"), ["status", "--porcelain"]).stdout;
    assert!(String::from_utf8_lossy(&status).contains("MM tracked.txt"));
}

/// `kill -9` at `point`: the process pauses there (a test switch) and is
/// killed with SIGKILL, so no handler of its own runs.
fn crash_at(repo: &TestRepo, point: &str) {
    let pause = format!("{point}:pause");
    let mut child = crate::common::spawn_until(
        repo,
        &[("GIT_LOOP_TEST_CRASH", pause.as_str())],
        &["remove", "--salvage", "d"],
        &format!("paused at {point}"),
    );
    crate::common::kill(&child, "KILL");
    let status = child.wait().unwrap();
    assert!(!status.success(), "did not die at {point}: {status:?}");
}

#[test]
fn a_crash_after_the_ref_write_leaves_a_consistent_state() {
    let repo = TestRepo::new();
    rejected_dirty(&repo, "d");
    let before = snapshot(&repo.wt("d"));
    crash_at(&repo, "after-salvage-ref");
    let commit = repo.git(["rev-parse", "refs/loop/salvage/d"]);
    // Nothing removed: the run is as it was, and reconcile finds nothing wrong.
    assert_eq!(snapshot(&repo.wt("d")), before);
    let v = repo.run(["--json", "reconcile"]).json();
    assert_eq!(repo.ids(), ["d"], "{v}");
    assert_eq!(repo.git(["rev-parse", "refs/loop/salvage/d"]), commit);
    // The next salvage replaces the ref; the first stays in its reflog.
    fs::write(repo.wt("d").join("later.txt"), "later\n").unwrap();
    repo.run(["--json", "remove", "--salvage", "d"]).ok();
    assert!(!repo.wt("d").exists());
    assert_eq!(repo.git(["rev-parse", "refs/loop/salvage/d@{1}"]), commit);
}

#[test]
fn a_crash_after_the_removal_leaves_a_consistent_state() {
    let repo = TestRepo::new();
    rejected_dirty(&repo, "d");
    let before = snapshot(&repo.wt("d"));
    crash_at(&repo, "after-salvage-removal");
    assert!(!repo.wt("d").exists());
    assert_eq!(repo.ids(), ["d"], "the entry was not dropped yet");
    let v = repo.run(["--json", "reconcile"]).json();
    assert!(repo.ids().is_empty(), "{v}");
    assert!(repo.registered().iter().all(|p| !p.ends_with("d")));
    assert_eq!(tree_of(&repo, "refs/loop/salvage/d"), before);
}

#[test]
fn config_cleanup_salvage_turns_it_on_and_is_off_by_default() {
    let repo = TestRepo::new();
    rejected_dirty(&repo, "d");
    let v = repo.run(["--json", "cleanup"]).json();
    assert_eq!(v.find_id("skipped", "d")["code"], "dirty", "{v}");
    let shown = repo.run(["--json", "config"]).json();
    assert_eq!(shown["cleanup.salvage"]["value"], false, "{shown}");
    repo.git(["config", "loop.cleanupSalvage", "true"]);
    let dry = repo.run(["--json", "cleanup", "--dry-run"]).json();
    let planned = &dry.find_id("removed", "d")["salvage"];
    assert_eq!(planned["ref"], "refs/loop/salvage/d", "{dry}");
    assert!(planned["commit"].is_null() && repo.wt("d").exists());
    let v = repo.run(["--json", "cleanup"]).json();
    assert_eq!(v.ids("removed"), ["d"], "{v}");
    assert!(v.find_id("removed", "d")["salvage"]["commit"].is_string());
}

/// A file written after the check (paused between the ref write and the
/// removal) makes git refuse the removal: nothing is lost, and `HEAD`, the
/// index and the files are as they were.
#[test]
fn a_write_after_the_check_keeps_the_worktree_as_it_was() {
    use std::io::BufRead;
    let repo = TestRepo::new();
    rejected_dirty(&repo, "d");
    let status_before = repo.git_in(&repo.wt("d"), ["status", "--porcelain"]).stdout;
    let go = repo.base().join("go");
    let mut child = repo
        .command()
        .env(
            "GIT_LOOP_TEST_CRASH",
            format!("after-salvage-ref:until:{}", go.display()),
        )
        .args(["--json", "remove", "--salvage", "d"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = std::io::BufReader::new(stderr).lines();
    assert!(lines.any(|l| l.unwrap().contains("paused at after-salvage-ref")));
    fs::write(repo.wt("d").join("late.txt"), "written after the check\n").unwrap();
    fs::write(&go, "").unwrap();
    let out = child.wait_with_output().unwrap();
    // The one run named was not removed: `remove` fails (nothing-removed).
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["code"], "nothing-removed", "{v}");
    let skip = v.find_id("skipped", "d");
    assert_eq!(skip["code"], "untracked", "{v}");
    assert!(skip.text("reason").contains("refs/loop/salvage/d"), "{v}");
    assert_eq!(
        fs::read(repo.wt("d").join("late.txt")).unwrap(),
        b"written after the check\n"
    );
    let mut expected = String::from_utf8(status_before).unwrap();
    expected.push_str("?? late.txt\n");
    let mut now: Vec<String> =
        String::from_utf8(repo.git_in(&repo.wt("d"), ["status", "--porcelain"]).stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
    let mut want: Vec<String> = expected.lines().map(str::to_owned).collect();
    now.sort();
    want.sort();
    assert_eq!(now, want);
    let head = repo.git_in(&repo.wt("d"), ["symbolic-ref", "HEAD"]).stdout;
    assert_eq!(String::from_utf8(head).unwrap().trim(), "refs/heads/loop/d");
    assert_eq!(repo.ids(), ["d"]);
}

/// A salvage of run `x` that was never restored, then a *different* run
/// `x` (re-created with `--reuse` on the kept branch, later) salvaged in its
/// turn: the first salvage must not be overwritten (it would stay only in
/// the reflog, unreachable, for gc to prune). The second run is kept as it
/// is, skipped with its own code, and the first salvage stays restorable.
#[test]
fn a_salvage_of_an_older_run_is_never_overwritten_by_another_run() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    fs::write(repo.wt("x").join("first"), "first run's work\n").unwrap();
    repo.run(["mark", "x", "rejected"]).ok();
    repo.run(["remove", "--salvage", "x"]).ok();
    let first = git_line(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]);
    repo.command();
    let mut cmd = repo.command();
    cmd.env("GIT_LOOP_TEST_NOW", "2030-01-01T00:00:00Z").args([
        "create",
        "x",
        "--pattern",
        "p",
        "--reuse",
    ]);
    crate::common::TestRepo::output(&mut cmd).ok();
    fs::write(repo.wt("x").join("second"), "second run's work\n").unwrap();
    repo.run(["mark", "x", "rejected"]).ok();
    let run = repo.run(["--json", "remove", "--salvage", "x"]);
    assert_eq!(
        git_line(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]),
        first,
        "{}",
        run.stdout
    );
    assert_eq!(
        fs::read_to_string(repo.wt("x").join("second")).unwrap(),
        "second run's work\n"
    );
    assert!(run.stdout.contains("untracked"), "{}", run.stdout);
}

/// The same run, restored and salvaged again, replaces its own salvage.
#[test]
fn a_restored_run_salvaged_again_replaces_its_own_salvage() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    fs::write(repo.wt("x").join("work"), "one\n").unwrap();
    repo.run(["mark", "x", "rejected"]).ok();
    repo.run(["remove", "--salvage", "x"]).ok();
    let first = git_line(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]);
    repo.run(["restore", "x"]).ok();
    fs::write(repo.wt("x").join("work"), "two\n").unwrap();
    repo.run(["mark", "x", "rejected"]).ok();
    repo.run(["remove", "--salvage", "x"]).ok();
    assert!(!repo.wt("x").exists());
    let second = git_line(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]);
    assert_ne!(first, second);
    let work = git_line(&repo, &repo.root, &["show", "refs/loop/salvage/x:work"]);
    assert_eq!(work, "two");
}

/// Salvage against conversions and odd names: with `core.autocrlf` a CRLF
/// file is saved converted, so the saved tree is not the files — the
/// salvage must refuse and keep the worktree byte for byte; files named
/// like git options are saved and restored as they are.
#[test]
fn salvage_refuses_a_converting_add_and_keeps_option_like_names() {
    let repo = TestRepo::new();
    repo.create("crlf");
    let wt = repo.wt("crlf");
    fs::write(wt.join("win.txt"), "a\r\nb\r\n").unwrap();
    git_ok(&repo, &wt, &["config", "core.autocrlf", "true"]);
    repo.run(["mark", "crlf", "rejected"]).ok();
    let run = repo.run(["remove", "--salvage", "crlf"]);
    eprintln!("{}{}", run.stdout, run.stderr);
    assert_eq!(fs::read(wt.join("win.txt")).unwrap(), b"a\r\nb\r\n");
    git_ok(&repo, &wt, &["config", "core.autocrlf", "false"]);

    repo.create("opts");
    let wt = repo.wt("opts");
    for name in ["--force", "-A", ":(glob)*", "-"] {
        fs::write(wt.join(name), name).unwrap();
    }
    repo.run(["mark", "opts", "rejected"]).ok();
    repo.run(["remove", "--salvage", "opts"]).ok();
    assert!(!wt.exists());
    repo.run(["restore", "opts"]).ok();
    for name in ["--force", "-A", ":(glob)*", "-"] {
        assert_eq!(fs::read_to_string(wt.join(name)).unwrap(), name);
    }
}
