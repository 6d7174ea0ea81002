//! A `--salvage` removal interrupted anywhere leaves the run either intact
//! as it was (same `git status --porcelain`, same `HEAD`, same files) or
//! removed and restorable (`restore` gives the same status and files) —
//! with real SIGINTs to the whole process group (git included), at the
//! crash points and while `git worktree remove` runs, and after a `kill -9`
//! in the window (then the next command recognises the state). A run
//! salvaged detached comes back detached at its own commit.

use std::fs;
use std::os::unix::process::CommandExt;
use std::process::{Child, Stdio};

use crate::common::{JsonExt, TestRepo};
use crate::common::{make_dirty, snapshot};

type Files = std::collections::BTreeMap<String, (String, Vec<u8>)>;

/// What "as it was" compares.
struct State {
    status: String,
    symbolic_head: String,
    head: String,
    files: Files,
}

fn state(repo: &TestRepo, id: &str) -> State {
    let wt = repo.wt(id);
    let text = |args: &[&str]| String::from_utf8(repo.git_in(&wt, args).stdout).unwrap();
    State {
        status: text(&["status", "--porcelain", "--untracked-files=all"]),
        symbolic_head: text(&["symbolic-ref", "-q", "HEAD"]),
        head: text(&["rev-parse", "HEAD"]),
        files: snapshot(&wt),
    }
}

/// `now` is `before`, or a panic naming what differs (not every file).
fn assert_same(now: &State, before: &State, what: &str) {
    assert_eq!(now.status, before.status, "{what}: git status");
    assert_eq!(
        now.symbolic_head, before.symbolic_head,
        "{what}: HEAD's branch"
    );
    assert_eq!(now.head, before.head, "{what}: HEAD");
    let differ: Vec<&String> = before
        .files
        .keys()
        .chain(now.files.keys())
        .filter(|p| now.files.get(*p) != before.files.get(*p))
        .take(10)
        .collect();
    assert!(differ.is_empty(), "{what}: files differ: {differ:?}");
}

fn registered(repo: &TestRepo, id: &str) -> bool {
    repo.registered().iter().any(|p| p.ends_with(id))
}

/// Intact as it was, or removed and brought back as it was by `restore`.
/// Returns whether it had been removed.
fn assert_intact_or_restorable(repo: &TestRepo, id: &str, before: &State, when: &str) -> bool {
    if registered(repo, id) && repo.wt(id).exists() {
        assert_same(&state(repo, id), before, &format!("not intact ({when})"));
        return false;
    }
    assert!(!repo.wt(id).exists(), "half there ({when})");
    let v = repo.run(["--json", "restore", id]).json();
    assert_same(
        &state(repo, id),
        before,
        &format!("not restored ({when}): {v}"),
    );
    true
}

/// A rejected run with every kind of change, and `extra` committed files.
fn dirty_run(repo: &TestRepo, id: &str, extra: usize) {
    repo.create(id);
    if extra > 0 {
        let wt = repo.wt(id);
        for d in 0..extra.div_ceil(100) {
            fs::create_dir_all(wt.join(format!("many/{d}"))).unwrap();
        }
        for i in 0..extra {
            fs::write(
                wt.join(format!("many/{}/f{i}.txt", i / 100)),
                format!("{i}\n"),
            )
            .unwrap();
        }
        repo.git_in(&wt, ["add", "many"]);
        repo.git_in(&wt, ["commit", "-q", "-m", "many files"]);
    }
    make_dirty(repo, id);
    repo.run(["mark", id, "rejected"]).ok();
}

/// `remove --salvage <id>` in a process group of its own (so the test can
/// signal git-loop and its git children at once, as a terminal's Ctrl-C
/// does), with `envs`.
fn spawn_group(repo: &TestRepo, id: &str, envs: &[(&str, &str)]) -> Child {
    let mut cmd = repo.command();
    cmd.envs(envs.iter().copied())
        .args(["remove", "--salvage", id])
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd.spawn().unwrap()
}

/// Read `child`'s stderr until `line` shows up (panic if it exits first);
/// keep draining it afterwards.
fn wait_for_line(child: &mut Child, line: &str) {
    use std::io::BufRead;
    let stderr = child.stderr.take().unwrap();
    let mut lines = std::io::BufReader::new(stderr).lines();
    let reached = lines
        .by_ref()
        .map_while(Result::ok)
        .any(|l| l.contains(line));
    assert!(reached, "exited before printing {line:?}");
    std::thread::spawn(move || {
        lines
            .map_while(Result::ok)
            .for_each(|l| eprintln!("  | {l}"))
    });
}

fn signal_group(child: &Child, sig: &str) {
    let status = std::process::Command::new("kill")
        .args([&format!("-{sig}"), "--", &format!("-{}", child.id())])
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn sigint_to_the_group_at_each_salvage_point_leaves_the_run_intact_or_restorable() {
    for point in [
        "after-salvage-ref",
        "salvage-switched",
        "after-salvage-removal",
    ] {
        let repo = TestRepo::new();
        dirty_run(&repo, "d", 0);
        let before = state(&repo, "d");
        let pause = format!("{point}:pause");
        let mut child = spawn_group(&repo, "d", &[("GIT_LOOP_TEST_CRASH", &pause)]);
        wait_for_line(&mut child, &format!("paused at {point}"));
        signal_group(&child, "INT");
        let status = child.wait().unwrap();
        assert!(!status.success(), "{point}: {status:?}");
        let removed = assert_intact_or_restorable(&repo, "d", &before, point);
        assert_eq!(removed, point == "after-salvage-removal", "{point}");
    }
}

#[test]
fn sigint_while_git_worktree_remove_runs_leaves_the_run_intact_or_restorable() {
    let repo = TestRepo::new();
    dirty_run(&repo, "d", 3000);
    let before = state(&repo, "d");
    let go = repo.base().join("go");
    let until = format!("salvage-switched:until:{}", go.display());
    for delay_ms in [0, 2, 5, 10, 20, 40, 80, 160, 320, 640] {
        let _ = fs::remove_file(&go);
        let mut child = spawn_group(&repo, "d", &[("GIT_LOOP_TEST_CRASH", &until)]);
        wait_for_line(&mut child, "paused at salvage-switched");
        fs::write(&go, "").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        signal_group(&child, "INT");
        child.wait().unwrap();
        let when = format!("SIGINT {delay_ms} ms into the removal");
        let removed = assert_intact_or_restorable(&repo, "d", &before, &when);
        eprintln!(
            "{when}: {}",
            if removed {
                "removed, restored"
            } else {
                "intact"
            }
        );
        repo.run(["mark", "d", "rejected"]).ok();
    }
}

/// `kill -9` after the switch: no handler runs, the worktree stays detached
/// at its salvage. Returns the salvage commit.
fn killed_after_the_switch(repo: &TestRepo, id: &str) -> String {
    let mut child = spawn_group(
        repo,
        id,
        &[("GIT_LOOP_TEST_CRASH", "salvage-switched:pause")],
    );
    wait_for_line(&mut child, "paused at salvage-switched");
    signal_group(&child, "KILL");
    child.wait().unwrap();
    let w = repo.git(["rev-parse", &format!("refs/loop/salvage/{id}")]);
    let head = repo.git_in(&repo.wt(id), ["rev-parse", "HEAD"]).stdout;
    assert_eq!(String::from_utf8(head).unwrap().trim(), w.trim());
    w
}

/// What an interrupted `git worktree remove` leaves: some files, the
/// `.git` file among them, deleted.
fn delete_part(repo: &TestRepo, id: &str) {
    let wt = repo.wt(id);
    fs::remove_file(wt.join(".git")).unwrap();
    fs::remove_file(wt.join("tracked.txt")).unwrap();
    fs::remove_dir_all(wt.join("dir")).unwrap();
    fs::remove_file(wt.join("link")).unwrap();
}

#[test]
fn restore_puts_back_a_run_left_detached_at_its_salvage() {
    for deleted in ["nothing", "part", "all"] {
        let repo = TestRepo::new();
        dirty_run(&repo, "d", 0);
        let before = state(&repo, "d");
        killed_after_the_switch(&repo, "d");
        match deleted {
            "part" => delete_part(&repo, "d"),
            // git killed after deleting the directory, before the registration.
            "all" => fs::remove_dir_all(repo.wt("d")).unwrap(),
            _ => {}
        }
        let v = repo.run(["--json", "restore", "d"]).json();
        assert_eq!(v["inPlace"], true, "{v}");
        assert_eq!(v["branchMoved"], false, "{v}");
        assert_same(&state(&repo, "d"), &before, &format!("deleted: {deleted}"));
        assert_eq!(repo.status_of("d").as_deref(), Some("active"));
    }
}

#[test]
fn a_salvage_removal_first_puts_back_a_run_left_detached_at_its_salvage() {
    let repo = TestRepo::new();
    dirty_run(&repo, "d", 0);
    let before = state(&repo, "d");
    let w = killed_after_the_switch(&repo, "d");
    delete_part(&repo, "d");
    let v = repo.run(["--json", "remove", "--salvage", "d"]).json();
    assert!(
        v.find_id("skipped", "d")
            .text("reason")
            .contains("put back"),
        "{v}"
    );
    assert_same(&state(&repo, "d"), &before, "restored");
    // The salvage was not replaced by one of the half-deleted worktree.
    assert_eq!(repo.git(["rev-parse", "refs/loop/salvage/d"]), w);
    // And the next one salvages and removes it; restore brings it back.
    repo.run(["remove", "--salvage", "d"]).ok();
    assert!(!repo.wt("d").exists());
    repo.run(["restore", "d"]).ok();
    assert_same(&state(&repo, "d"), &before, "restored");
}

#[test]
fn a_run_salvaged_detached_comes_back_detached_at_its_commit() {
    let repo = TestRepo::new();
    repo.create("d");
    let wt = repo.wt("d");
    repo.git_in(&wt, ["checkout", "-q", "--detach"]);
    fs::write(wt.join("own.txt"), "its own commit\n").unwrap();
    repo.git_in(&wt, ["add", "own.txt"]);
    repo.git_in(&wt, ["commit", "-q", "-m", "detached work"]);
    make_dirty(&repo, "d");
    repo.run(["mark", "d", "rejected"]).ok();
    let before = state(&repo, "d");
    assert!(before.symbolic_head.is_empty());
    let tip = repo.git(["rev-parse", "loop/d"]);
    repo.run(["remove", "--salvage", "d"]).ok();
    assert!(!repo.wt("d").exists());
    let run = repo.run(["--json", "restore", "d"]);
    let v = run.json();
    assert_eq!(v["detached"], true, "{v}");
    assert_eq!(v["branchMoved"], false, "{v}");
    assert_same(&state(&repo, "d"), &before, "restored");
    assert_eq!(
        repo.git(["rev-parse", "loop/d"]),
        tip,
        "the branch is untouched"
    );
    // The human output says nothing moved.
    repo.run(["mark", "d", "rejected"]).ok();
    repo.run(["remove", "--salvage", "d"]).ok();
    let human = repo.run(["restore", "d"]);
    human.ok();
    assert!(!human.stderr.contains("moved"), "{}", human.stderr);
    assert_same(&state(&repo, "d"), &before, "restored");
}
