//! The worktree-operation lock (a flock on `.loop-worktrees/` itself) and the
//! manifest mutex under hostile conditions: a holder that never lets go, files
//! a clone brought along as symlinks, a mutex broken while its holder still
//! runs, and refusals that must leave no trace.

use std::collections::BTreeMap;
use std::fs;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use crate::common::{Run, TestRepo, age_file, hermetic, manifest_with, spawn_paused};

/// A spawned git-loop whose stderr is read line by line on a thread (so it
/// can keep writing after the test has seen what it waited for).
struct Spawned {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Spawned {
    fn start(mut cmd: Command) -> Spawned {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stderr)
                .lines()
                .map_while(Result::ok)
            {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Spawned {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Wait (at most 60 s) for a stderr line containing `text`.
    fn wait_for_line(&mut self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            match self.lines.recv_timeout(Duration::from_millis(100)) {
                Ok(line) => {
                    let found = line.contains(text);
                    self.seen.push(line);
                    if found {
                        return;
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        let _ = self.child.kill();
        panic!("never printed {text:?}; stderr: {:?}", self.seen);
    }

    /// Wait for the exit (killing it and failing after `limit`), with all of
    /// stdout and stderr.
    fn finish(mut self, limit: Duration) -> Run {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "still running after {limit:?} (waits without end); stderr so far: {:?}",
                    self.seen
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let mut stdout = String::new();
        std::io::Read::read_to_string(&mut self.child.stdout.take().unwrap(), &mut stdout).unwrap();
        // The reader thread ends at EOF, once every holder of the pipe exited.
        let mut stderr = self.seen.join("\n");
        for line in self.lines.iter() {
            stderr.push('\n');
            stderr.push_str(&line);
        }
        Run {
            code: status.code().unwrap_or(-1),
            stdout,
            stderr,
        }
    }
}

fn signal(pid: u32, sig: &str) {
    let status = Command::new("kill")
        .args([&format!("-{sig}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill -{sig} {pid}");
}

/// The state letter in /proc/<pid>/stat.
fn proc_state(pid: u32) -> char {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after = &stat[stat.rfind(')').unwrap() + 1..];
    after.trim_start().chars().next().unwrap()
}

/// Bug: a `cleanup` stopped with Ctrl-Z (or just slow) held the
/// worktree-operation lock and every `create`/`reconcile` waited without end.
/// Now a waiter says once who holds it, gives up at the deadline (shortened
/// here with GIT_LOOP_TEST_OPS_DEADLINE_SECS) naming the lock and the holder,
/// gives up after a short grace when the holder is stopped (saying how to
/// resume it), and gets the lock at once when the holder dies.
#[test]
fn ops_lock_waiters_name_the_holder_and_give_up() {
    let repo = TestRepo::new();
    repo.create("a");
    // The cleanup holds the ops lock from before it takes the mutex.
    let mut holder = spawn_paused(&repo, "holding-mutex", &["cleanup"]);
    let pid = holder.id();
    let loop_dir = repo.loop_dir().display().to_string();

    // A live holder: the waiter gives up at the (shortened) deadline.
    for args in [
        &["--json", "create", "b", "--pattern", "p"][..],
        &["--json", "reconcile"],
    ] {
        let mut cmd = repo.command();
        cmd.env("GIT_LOOP_TEST_OPS_DEADLINE_SECS", "2").args(args);
        let run = Spawned::start(cmd).finish(Duration::from_secs(120));
        run.code(1);
        assert_eq!(run.json()["error"]["code"], "lock-timeout", "{args:?}");
        let waiting = format!(
            "waiting for the worktree-operation lock on {loop_dir}/, held by pid {pid} (git-loop cleanup)"
        );
        assert_eq!(
            run.stderr.matches(&waiting).count(),
            1,
            "{args:?}: {}",
            run.stderr
        );
        let message = run.json()["error"]["message"].as_str().unwrap().to_owned();
        assert!(
            message.contains(&loop_dir)
                && message.contains(&format!("pid {pid} (git-loop cleanup)"))
                && message.contains("after 2s"),
            "{message}"
        );
    }
    assert!(!repo.branch_exists("loop/b"));
    assert!(!repo.wt("b").exists());

    // A stopped holder (Ctrl-Z): the waiter gives up after a short grace, not
    // at the 10-minute deadline, and says how to resume it.
    signal(pid, "STOP");
    let start = Instant::now();
    while proc_state(pid) != 'T' {
        assert!(start.elapsed() < Duration::from_secs(30), "never stopped");
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut cmd = repo.command();
    cmd.args(["create", "b", "--pattern", "p"]);
    let run = Spawned::start(cmd).finish(Duration::from_secs(120));
    run.code(1);
    assert!(
        run.stderr
            .contains("error: gave up waiting for the worktree-operation lock")
            && run
                .stderr
                .contains(&format!("pid {pid} (git-loop cleanup), is stopped"))
            && run.stderr.contains("`fg`")
            && run.stderr.contains(&format!("kill -CONT {pid}")),
        "{}",
        run.stderr
    );
    assert!(!repo.branch_exists("loop/b"));

    // The holder dies: the kernel releases the lock; nothing was left behind.
    holder.kill().unwrap();
    holder.wait().unwrap();
    repo.create("b");
    assert!(!repo.loop_dir().join(".worktree-ops.lock").exists());
}

/// The victim directory's listing and every file's bytes.
fn snapshot_dir(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// Set a symlink's own mtime `secs` into the past (`touch -h`).
fn age_link(path: &Path, secs: u64) {
    let when = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        - secs;
    let status = Command::new("touch")
        .args(["-h", "-d", &format!("@{when}")])
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

/// An upstream that committed `.loop-worktrees/<name>` as a symlink to
/// `<victim>/<name>`, cloned next to it. Returns the clone's root.
fn clone_with_link(upstream: &TestRepo, victim: &Path, name: &str) -> PathBuf {
    let link = upstream.loop_dir().join(name);
    fs::create_dir_all(upstream.loop_dir()).unwrap();
    std::os::unix::fs::symlink(victim.join(name), &link).unwrap();
    upstream.git(["add", "-f", link.to_str().unwrap()]);
    upstream.git(["commit", "-q", "-m", "a symlink under .loop-worktrees"]);
    let clone = upstream.base().join("clone");
    upstream.git(["clone", "-q", ".", clone.to_str().unwrap()]);
    assert!(
        fs::symlink_metadata(clone.join(".loop-worktrees").join(name))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    clone
}

fn run_in(repo: &TestRepo, dir: &Path, args: &[&str]) -> Run {
    let mut cmd = Command::new(crate::common::BIN);
    hermetic(&mut cmd, &repo.home);
    cmd.current_dir(dir).args(args);
    TestRepo::output(&mut cmd)
}

fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

fn victim_dir(repo: &TestRepo) -> PathBuf {
    let victim = repo.base().join("victim");
    fs::create_dir(&victim).unwrap();
    fs::write(
        victim.join("events.jsonl"),
        "{\"at\":\"2026-01-01T00:00:00Z\",\"event\":\"create\",\"id\":\"victim-secret\"}\n",
    )
    .unwrap();
    fs::write(victim.join(".manifest.mutex"), "git-loop pid 1 victim\n").unwrap();
    // `.worktree-ops.lock` and `.manifest.mutex.break` point at absent files:
    // creating them through the link is what must not happen.
    victim
}

/// Bug: an upstream committed `.loop-worktrees/.worktree-ops.lock` as a
/// symlink, and `create`/`cleanup`/`reconcile` in a clone created its target
/// outside the repository. The ops lock now locks the directory itself and
/// never opens that file.
#[test]
fn a_cloned_ops_lock_symlink_is_never_followed() {
    let upstream = TestRepo::new();
    let victim = victim_dir(&upstream);
    let before = snapshot_dir(&victim);
    let clone = clone_with_link(&upstream, &victim, ".worktree-ops.lock");
    let link = clone.join(".loop-worktrees/.worktree-ops.lock");
    for args in [
        &["create", "a", "--pattern", "p"][..],
        &["mark", "a", "rejected"],
        &["cleanup"],
        &["reconcile"],
        &["create", "b", "--pattern", "p"],
        &["log"],
    ] {
        run_in(&upstream, &clone, args).ok();
        assert_eq!(snapshot_dir(&victim), before, "{args:?} touched the victim");
        assert!(is_link(&link), "{args:?} removed the link");
    }
    assert!(clone.join(".loop-worktrees/b").is_dir());
    assert!(!clone.join(".loop-worktrees/a").exists(), "cleanup ran");
}

/// A cloned `events.jsonl` symlink is never appended to or read through:
/// mutations succeed with a warning naming it, `log` refuses naming it.
#[test]
fn a_cloned_event_log_symlink_is_never_followed() {
    let upstream = TestRepo::new();
    let victim = victim_dir(&upstream);
    let before = snapshot_dir(&victim);
    let clone = clone_with_link(&upstream, &victim, "events.jsonl");
    let link = clone.join(".loop-worktrees/events.jsonl");
    for args in [
        &["create", "a", "--pattern", "p"][..],
        &["mark", "a", "rejected"],
        &["cleanup"],
        &["reconcile"],
    ] {
        let run = run_in(&upstream, &clone, args);
        run.ok();
        if args[0] != "reconcile" {
            assert!(
                run.stderr.contains("events.jsonl") && run.stderr.contains("symlink"),
                "{args:?}: {}",
                run.stderr
            );
        }
        assert_eq!(snapshot_dir(&victim), before, "{args:?} touched the victim");
        assert!(is_link(&link), "{args:?} removed the link");
    }
    let run = run_in(&upstream, &clone, &["--json", "log"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "unsafe-path");
    assert!(!run.stdout.contains("victim-secret"), "{}", run.stdout);
    assert!(
        run.stderr.contains(&link.display().to_string()) && run.stderr.contains("symlink"),
        "{}",
        run.stderr
    );
    assert_eq!(snapshot_dir(&victim), before);
}

/// A cloned `.manifest.mutex` symlink (even one old enough to look stale) is
/// refused by every mutation, naming it: never read through, never removed.
/// Same for a `.manifest.mutex.break` symlink met while breaking a stale mutex.
#[test]
fn cloned_mutex_symlinks_are_refused_and_kept() {
    let upstream = TestRepo::new();
    let victim = victim_dir(&upstream);
    let before = snapshot_dir(&victim);
    let clone = clone_with_link(&upstream, &victim, ".manifest.mutex");
    let link = clone.join(".loop-worktrees/.manifest.mutex");
    // Old enough that the mutex looks stale: the old code then read the
    // token through the link and removed the link.
    age_link(&link, 120);
    // A recorded run whose directory is gone: reconcile wants to drop it.
    fs::write(
        clone.join(".loop-worktrees/manifest.json"),
        manifest_with(&[("gone", "rejected", "2026-01-01T00:00:00Z")]),
    )
    .unwrap();
    for args in [
        &["create", "a", "--pattern", "p"][..],
        &["mark", "gone", "merged"],
        &["cleanup"],
        &["reconcile"],
    ] {
        let start = Instant::now();
        let run = run_in(&upstream, &clone, &[&["--json"][..], args].concat());
        run.code(1);
        assert_eq!(run.json()["error"]["code"], "unsafe-path", "{args:?}");
        assert!(
            run.stderr.contains(&link.display().to_string()) && run.stderr.contains("symlink"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(start.elapsed() < Duration::from_secs(20), "{args:?} waited");
        assert_eq!(snapshot_dir(&victim), before, "{args:?} touched the victim");
        assert!(is_link(&link), "{args:?} removed the link");
    }
    assert!(!clone.join(".loop-worktrees/a").exists());

    // The breaker: a stale regular mutex (a dead process's) and a committed
    // `.manifest.mutex.break` symlink.
    let upstream = TestRepo::new();
    let victim = victim_dir(&upstream);
    let before = snapshot_dir(&victim);
    let clone = clone_with_link(&upstream, &victim, ".manifest.mutex.break");
    let link = clone.join(".loop-worktrees/.manifest.mutex.break");
    age_link(&link, 120);
    fs::write(
        clone.join(".loop-worktrees/manifest.json"),
        manifest_with(&[("a", "active", "2026-01-01T00:00:00Z")]),
    )
    .unwrap();
    let mutex = clone.join(".loop-worktrees/.manifest.mutex");
    fs::write(&mutex, "git-loop pid 1 dead\n").unwrap();
    age_file(&mutex, 60);
    let run = run_in(&upstream, &clone, &["--json", "mark", "a", "rejected"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "unsafe-path");
    assert!(
        run.stderr.contains(&link.display().to_string()),
        "{}",
        run.stderr
    );
    assert!(is_link(&link));
    assert_eq!(snapshot_dir(&victim), before);
    assert!(
        fs::read_to_string(clone.join(".loop-worktrees/manifest.json"))
            .unwrap()
            .contains("\"active\"")
    );
}

fn spawn_until(repo: &TestRepo, point: &str, go: &Path, args: &[&str]) -> Spawned {
    let mut cmd = repo.command();
    cmd.env(
        "GIT_LOOP_TEST_CRASH",
        format!("{point}:until:{}", go.display()),
    )
    .args(args);
    let mut spawned = Spawned::start(cmd);
    spawned.wait_for_line(&format!("paused at {point}"));
    spawned
}

fn mark_events(repo: &TestRepo) -> Vec<String> {
    fs::read_to_string(repo.loop_dir().join("events.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| l.contains("\"event\":\"mark\""))
        .map(str::to_owned)
        .collect()
}

/// Bug: a `mark` that ran past 30 s while holding the mutex had it broken as
/// stale by a second `mark`, which succeeded; the first then wrote its old
/// copy over it, losing a change that had been reported done. Now a writer
/// checks right before the rename that the mutex is still its own, and fails
/// with `mutex-lost` (exit 1, nothing changed) when it is not.
#[test]
fn a_writer_whose_mutex_was_broken_fails_and_changes_nothing() {
    for point in ["before-manifest-write", "before-manifest-rename"] {
        let repo = TestRepo::new();
        repo.create("a");
        repo.create("b");
        let go = repo.base().join(format!("go-{point}"));
        let first = spawn_until(&repo, point, &go, &["--json", "mark", "a", "merged"]);
        // The first holder has now held the mutex "for over 30 s". A mark of
        // another run breaks it (one of the same run would wait for the first
        // on the run lock, see src/worktree.rs).
        age_file(&repo.mutex_path(), 31);
        repo.run(["mark", "b", "rejected"]).ok();
        assert_eq!(repo.status_of("b").unwrap(), "rejected");
        fs::write(&go, "").unwrap();
        let run = first.finish(Duration::from_secs(60));
        run.code(1);
        assert_eq!(run.json()["error"]["code"], "mutex-lost", "{point}");
        assert!(
            run.stderr
                .contains(&repo.mutex_path().display().to_string()),
            "{}",
            run.stderr
        );
        assert_eq!(repo.status_of("a").unwrap(), "active", "{point}");
        assert_eq!(repo.status_of("b").unwrap(), "rejected", "{point}");
        let marks = mark_events(&repo);
        assert_eq!(marks.len(), 1, "{marks:?}");
        assert!(marks[0].contains("\"to\":\"rejected\""), "{marks:?}");
        // No temp manifest, no mutex left behind.
        let names: Vec<String> = fs::read_dir(repo.loop_dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.starts_with(".manifest"))
            .collect();
        assert!(names.is_empty(), "{names:?}");
    }
}

/// Names, sizes and mtimes of a directory's entries.
fn listing(dir: &Path) -> Vec<(String, u64, std::time::SystemTime)> {
    let mut entries: Vec<_> = match fs::read_dir(dir) {
        Ok(entries) => entries
            .map(|e| {
                let e = e.unwrap();
                let meta = fs::symlink_metadata(e.path()).unwrap();
                (
                    e.file_name().into_string().unwrap(),
                    meta.len(),
                    meta.modified().unwrap(),
                )
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    entries.sort();
    entries
}

/// A command refused for an invalid manifest leaves no trace: no lock file,
/// no mutex, no temp file, no ref, no worktree registration.
#[test]
fn refusals_for_an_invalid_manifest_leave_no_trace() {
    let repo = TestRepo::new();
    repo.write_manifest(r#"{"version":2,"worktrees":[]}"#);
    let admin = repo.root.join(".git/worktrees");
    let before = (
        listing(&repo.loop_dir()),
        repo.git(["for-each-ref"]),
        listing(&admin),
    );
    for args in [
        &["create", "a", "--pattern", "p"][..],
        &["cleanup"],
        &["reconcile"],
        &["reconcile", "--remove-orphan", "a"],
        &["mark", "a", "merged"],
    ] {
        let run = repo.run([&["--json"][..], args].concat());
        run.code(1);
        assert_eq!(run.json()["error"]["code"], "invalid-manifest", "{args:?}");
        let after = (
            listing(&repo.loop_dir()),
            repo.git(["for-each-ref"]),
            listing(&admin),
        );
        assert_eq!(after, before, "{args:?} left a trace");
    }
}
