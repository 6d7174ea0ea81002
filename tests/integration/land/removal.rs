//! `land --queue` without `--keep`: every run lands, and its worktree is
//! removed and its branch deleted behind the queue, on a thread of its own
//! (`src/ops/land/tidy.rs`), while the next runs land; a removal the
//! safety kernel refuses is reported on its run, in the same place and
//! shape as when each run was tidied at once, and the other runs still
//! land and are removed.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{LINES, events_of, land, rev};
use crate::common::{JsonExt, TestRepo, git_ok};

/// Runs `ids`, escalated, each adding a file of its own (so `conflicts`
/// orders them by id).
fn runs(repo: &TestRepo, ids: &[&str]) {
    for id in ids {
        repo.create(id);
        let wt = repo.wt(id);
        std::fs::write(wt.join(format!("{id}.txt")), format!("{id}\n")).unwrap();
        git_ok(repo, &wt, &["add", "-A"]);
        git_ok(repo, &wt, &["commit", "-qm", &format!("{id}'s work")]);
        repo.run(["mark", id, "escalated"]).ok();
    }
}

/// A process working in `dir` (its current directory): the kernel keeps
/// a worktree someone works in (`in-use`). Killed on drop.
struct Working(Child);

impl Working {
    fn in_dir(dir: &Path) -> Working {
        let child = Command::new("sleep")
            .arg("120")
            .current_dir(dir)
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        Working(child)
    }
}

impl Drop for Working {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `cleanup.pre-command` (removal's hook, which `land` runs as `remove`
/// does): for run `waiter`, wait up to `secs` seconds for `main` to hold
/// `landed`'s work, and refuse the removal if it never does; every other
/// run's removal goes ahead.
fn hook_waiting_for(repo: &TestRepo, waiter: &str, landed: &str, secs: u32) {
    let script = repo.base().join("pre-command.sh");
    std::fs::write(
        &script,
        format!(
            "[ \"$GIT_LOOP_ID\" = {waiter} ] || exit 0\n\
             i=0\n\
             while [ $i -lt {tenths} ]; do\n\
             \x20 git -C '{root}' log --format=%s main | grep -qx \"{landed}'s work\" && exit 0\n\
             \x20 sleep 0.1; i=$((i + 1))\n\
             done\n\
             exit 1\n",
            tenths = secs * 10,
            root = repo.root.display(),
        ),
    )
    .unwrap();
    repo.git([
        "config",
        "loop.cleanupPreCommand",
        &format!("sh '{}'", script.display()),
    ]);
}

/// The queue's removals run behind it: the removal of the first run (held
/// by its hook until the second run has landed) does not keep the second
/// from landing, so both land and both worktrees go; a worktree someone
/// works in is kept (`in-use`, its branch kept as checked out) and said on
/// its run, while the runs after it land and are removed; every run's own
/// events stay in order. Tidied at once after each landing, the first
/// run's hook would wait in vain and keep its worktree (`hook-refused`).
#[test]
fn a_queue_removes_each_landed_worktree_behind_it_and_reports_a_refused_one_on_its_run() {
    let repo = super::setup();
    let ids = ["r1", "r2", "r3", "r4", "r5"];
    runs(&repo, &ids);
    hook_waiting_for(&repo, "r1", "r2", 20);
    let old = rev(&repo, "main");
    let working = Working::in_dir(&repo.wt("r3"));
    let started = std::time::Instant::now();
    let doc = land(&repo, &["--queue"], 0);
    let took = started.elapsed();
    drop(working);

    assert_eq!(doc.ids("landed"), ids, "{doc}");
    assert_eq!(doc.arr("skipped").len(), 0, "{doc}");
    assert_eq!(doc.arr("notAttempted").len(), 0, "{doc}");
    assert_eq!(
        repo.git(["rev-list", "--count", &format!("{old}..main")])
            .trim(),
        "5"
    );
    for id in ["r1", "r2", "r4", "r5"] {
        let landed = doc.find_id("landed", id);
        assert_eq!(landed["worktree"], "removed", "{id}: {doc} ({took:?})");
        assert_eq!(landed["branch"], "deleted", "{id}: {doc}");
        assert!(landed["trashRef"].is_string(), "{id}: {doc}");
        assert!(!repo.wt(id).exists(), "{id}'s worktree is still there");
        assert!(!repo.branch_exists(&format!("loop/{id}")), "{id}");
        assert_eq!(repo.status_of(id), None, "{id}'s entry is still there");
        assert_eq!(
            events_of(&repo, id),
            [
                "create",
                "mark:escalated",
                "land",
                "mark:merged",
                "remove",
                "branch-delete"
            ],
            "{id}"
        );
    }
    // The run someone works in: landed, its worktree and branch kept, the
    // kernel's reason on the run, where the report always put it.
    let r3 = doc.find_id("landed", "r3");
    assert_eq!(r3["worktree"], "in-use", "{doc}");
    assert_eq!(r3["branch"], "kept", "{doc}");
    let notes: Vec<&str> = r3["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert!(notes[0].starts_with("worktree kept: "), "{notes:?}");
    assert!(
        notes[1].starts_with("branch kept: ") && notes[1].contains("checked out"),
        "{notes:?}"
    );
    assert!(
        notes[2].starts_with("to finish: ") && notes[2].contains("git loop remove r3"),
        "{notes:?}"
    );
    assert!(repo.wt("r3").join("r3.txt").exists());
    assert!(repo.branch_exists("loop/r3"));
    assert_eq!(repo.status_of("r3").as_deref(), Some("merged"));
    assert_eq!(
        events_of(&repo, "r3"),
        [
            "create",
            "mark:escalated",
            "land",
            "mark:merged",
            "skip:in-use"
        ]
    );
    // Nothing left behind: no mutex, and the text says the same per run.
    assert!(!repo.mutex_path().exists());

    // Once nobody works in it, `remove` tidies it as the landing would have.
    repo.run(["remove", "r3"]).ok();
    assert!(!repo.wt("r3").exists());
}

/// `f` with line `n` (1-based) set to `text`.
fn with_line(n: usize, text: &str) -> String {
    let mut lines: Vec<&str> = LINES.lines().collect();
    lines[n - 1] = text;
    lines.join("\n") + "\n"
}

/// A run stacked on another (made from its branch) that changes the same
/// line again: the first run's branch is retired behind the queue after
/// the second landed (its hook holds its removal until then), yet it is
/// judged at the commit its own landing made — where merging it changes
/// nothing — as retiring it at once judged it, so it is deleted as then.
/// Judged against `main` as the second run left it, merging it would
/// conflict (the line changed again) and the branch would be kept.
#[test]
fn a_branch_retired_behind_the_queue_is_judged_where_its_own_landing_left_the_target() {
    let repo = super::setup();
    repo.create("s1");
    let wt = repo.wt("s1");
    std::fs::write(wt.join("f"), with_line(5, "s1 was here")).unwrap();
    git_ok(&repo, &wt, &["commit", "-qam", "s1's work"]);
    repo.run(["create", "s2", "--pattern", "test", "--base", "loop/s1"])
        .ok();
    let wt = repo.wt("s2");
    std::fs::write(wt.join("f"), with_line(5, "s2 was here")).unwrap();
    std::fs::write(wt.join("s2.txt"), "s2\n").unwrap();
    git_ok(&repo, &wt, &["add", "-A"]);
    git_ok(&repo, &wt, &["commit", "-qm", "s2's work"]);
    for id in ["s1", "s2"] {
        repo.run(["mark", id, "escalated"]).ok();
    }
    // main moves on, so each landing makes new commits (a rebase, not an
    // ancestor).
    super::advance_main(&repo, "g", "g moved on\n");
    hook_waiting_for(&repo, "s1", "s2", 20);
    let doc = land(&repo, &["--queue", "--into", "main"], 0);
    assert_eq!(doc.ids("landed"), ["s1", "s2"], "{doc}");
    for id in ["s1", "s2"] {
        let landed = doc.find_id("landed", id);
        assert_eq!(landed["worktree"], "removed", "{id}: {doc}");
        assert_eq!(landed["branch"], "deleted", "{id}: {doc}");
    }
    assert_eq!(
        std::fs::read_to_string(repo.root.join("f")).unwrap(),
        with_line(5, "s2 was here")
    );
    // Logged against the target's name, as a branch retired at once is.
    let log = repo.run(["--json", "log", "s1"]);
    log.ok();
    let deleted = log.json()["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"] == "branch-delete")
        .cloned()
        .unwrap();
    let detail = deleted["detail"].as_str().unwrap();
    assert!(detail.contains("merged into main: rebase"), "{detail}");
}

/// The same queue as text: one line per run, in the order landed, each
/// saying what became of its worktree and branch; the refused removal on
/// its own run's line; exit 0 (every run landed).
#[test]
fn a_queue_with_a_refused_removal_says_it_on_that_runs_line() {
    let repo = super::setup();
    let ids = ["a1", "a2", "a3"];
    runs(&repo, &ids);
    let working = Working::in_dir(&repo.wt("a2"));
    let run = repo.run(["land", "--queue"]);
    drop(working);
    run.ok();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", run.stdout);
    for (line, id) in lines.iter().zip(ids) {
        assert!(line.contains(id), "{line}");
    }
    assert!(lines[1].contains("in-use"), "{}", run.stdout);
    assert!(!lines[0].contains("in-use") && !lines[2].contains("in-use"));
    assert!(!repo.wt("a1").exists() && !repo.wt("a3").exists());
    assert!(repo.wt("a2").exists());
}

/// Ctrl-C (SIGINT) while a queue's removals lag behind its landings: every
/// run that landed is recorded (`merged`, its `land` and `mark` events),
/// and every run is whole — the removal that was running (held in its hook)
/// and those not begun leave their worktrees and branches as they were,
/// nothing half removed, no mutex left; `remove` then tidies them.
#[test]
fn ctrl_c_while_removals_lag_leaves_every_landed_run_recorded_and_whole() {
    let repo = super::setup();
    let ids = ["c1", "c2", "c3", "c4"];
    runs(&repo, &ids);
    let started = repo.base().join("hook-started");
    let go = repo.base().join("go");
    let script = repo.base().join("pre-command.sh");
    std::fs::write(
        &script,
        format!(
            "[ \"$GIT_LOOP_ID\" = c1 ] || exit 0\n\
             touch '{started}'\n\
             i=0\n\
             while [ ! -e '{go}' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done\n",
            started = started.display(),
            go = go.display(),
        ),
    )
    .unwrap();
    repo.git([
        "config",
        "loop.cleanupPreCommand",
        &format!("sh '{}'", script.display()),
    ]);
    let old = rev(&repo, "main");
    let mut child = repo
        .command()
        .args(["land", "--queue"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    // Every run landed and recorded (marked, its events logged) while the
    // first one's removal waits.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !(started.exists()
        && ids
            .iter()
            .all(|id| repo.status_of(id).as_deref() == Some("merged"))
        && events_of(&repo, "c4").iter().any(|e| e == "mark:merged"))
    {
        assert!(Instant::now() < deadline, "the queue did not land");
        std::thread::sleep(Duration::from_millis(20));
    }
    crate::common::kill(&child, "INT");
    let status = child.wait().unwrap();
    // The hook, left running in c1's worktree, goes too.
    std::fs::write(&go, "").unwrap();
    let group = format!("-{}", child.id());
    let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
    let gone = Instant::now() + Duration::from_secs(10);
    while Command::new("kill")
        .args(["-0", "--", &group])
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success()
    {
        assert!(Instant::now() < gone, "the hook's processes linger");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(status.code(), Some(130), "{status:?}");

    assert_eq!(
        repo.git(["rev-list", "--count", &format!("{old}..main")])
            .trim(),
        "4"
    );
    for id in ids {
        assert_eq!(repo.status_of(id).as_deref(), Some("merged"), "{id}");
        assert!(repo.wt(id).join(format!("{id}.txt")).exists(), "{id}");
        assert!(repo.registered().contains(&repo.wt(id)), "{id}");
        assert!(repo.branch_exists(&format!("loop/{id}")), "{id}");
        assert_eq!(
            repo.git_in(&repo.wt(id), ["status", "--porcelain"]).stdout,
            b"",
            "{id}"
        );
        assert_eq!(
            events_of(&repo, id),
            ["create", "mark:escalated", "land", "mark:merged"],
            "{id}"
        );
    }
    assert!(!repo.mutex_path().exists(), "a mutex was left");
    let mut all = vec!["remove"];
    all.extend(ids);
    repo.run(&all).ok();
    for id in ids {
        assert!(!repo.wt(id).exists(), "{id}");
    }
}
