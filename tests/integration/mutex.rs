//! The manifest mutex: a stale one is broken (also after 30 s in real time),
//! a live one waited for and a timeout names its path, signals release it,
//! two waiters never both hold it, a kill -9 leaves it breakable, and
//! reconcile clears a stale one even with nothing to change.

use std::fs;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::{TestRepo, age_file, kill_9_at, manifest_with, spawn, spawn_paused};

#[test]
fn stale_mutex_is_broken() {
    let repo = TestRepo::new();
    repo.create("a");
    fs::write(repo.mutex_path(), "git-loop pid 1 dead\n").unwrap();
    age_file(&repo.mutex_path(), 31);
    let start = Instant::now();
    repo.run(["mark", "a", "merged"]).ok();
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(repo.status_of("a").unwrap(), "merged");
}

#[test]
fn live_mutex_is_waited_for() {
    let repo = TestRepo::new();
    repo.create("a");
    fs::write(repo.mutex_path(), "someone else\n").unwrap();
    let start = Instant::now();
    let child = repo
        .command()
        .args(["mark", "a", "rejected"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        repo.status_of("a").unwrap(),
        "active",
        "did not write while the mutex was held"
    );
    fs::remove_file(repo.mutex_path()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(start.elapsed() >= Duration::from_millis(1500));
    assert_eq!(repo.status_of("a").unwrap(), "rejected");
    assert!(!repo.mutex_path().exists());
}

/// A mutex that stays fresh (a line of other holders) makes a waiter give up
/// after 30 s, naming the path, without removing a mutex it does not own.
#[test]
fn mutex_timeout_names_the_path_and_leaves_the_other_holder_alone() {
    let repo = TestRepo::new();
    repo.write_manifest(&manifest_with(&[("a", "active", "2026-01-01T00:00:00Z")]));
    fs::write(repo.mutex_path(), "held by another\n").unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let toucher = {
        let stop = stop.clone();
        let path = repo.mutex_path();
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                age_file(&path, 0);
                std::thread::sleep(Duration::from_millis(500));
            }
        })
    };
    let start = Instant::now();
    let run = TestRepo::output(repo.command().args(["--json", "mark", "a", "merged"]));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    toucher.join().unwrap();
    run.code(1);
    assert!(
        start.elapsed() >= Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(run.json()["error"]["code"], "mutex-timeout");
    assert!(
        run.stderr
            .contains(&repo.mutex_path().display().to_string()),
        "{}",
        run.stderr
    );
    assert_eq!(
        fs::read_to_string(repo.mutex_path()).unwrap(),
        "held by another\n"
    );
    assert_eq!(repo.status_of("a").unwrap(), "active");
}

#[test]
fn sigterm_and_sigint_while_holding_the_mutex_remove_it() {
    let repo = TestRepo::new();
    repo.create("a");
    let before = fs::read(repo.manifest_path()).unwrap();
    for (sig, code) in [("TERM", 143), ("INT", 130)] {
        let mut child = spawn_paused(&repo, "holding-mutex", &["mark", "a", "merged"]);
        assert!(repo.mutex_path().exists());
        let kill = std::process::Command::new("kill")
            .args([&format!("-{sig}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code));
        assert!(!repo.mutex_path().exists(), "SIG{sig} left the mutex");
        assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
    }
}

#[test]
fn kill_9_before_the_rename_leaves_the_old_manifest_and_a_breakable_mutex() {
    let repo = TestRepo::new();
    repo.create("a");
    let before = fs::read(repo.manifest_path()).unwrap();
    let mut child = spawn_paused(&repo, "before-manifest-rename", &["mark", "a", "merged"]);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        fs::read(repo.manifest_path()).unwrap(),
        before,
        "old manifest, never partial"
    );
    assert!(repo.mutex_path().exists(), "a kill -9 leaves the mutex");
    age_file(&repo.mutex_path(), 31);
    repo.run(["mark", "a", "merged"]).ok();
    assert_eq!(repo.status_of("a").unwrap(), "merged");
}

#[test]
fn crash_after_worktree_add_leaves_an_orphan_that_reconcile_reports() {
    let repo = TestRepo::new();
    let run = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_TEST_CRASH", "after-worktree-add")
            .args(["create", "crashed", "--pattern", "p"]),
    );
    assert_ne!(run.code, 0);
    assert!(repo.wt("crashed").exists());
    let v = repo.run(["--json", "reconcile"]).json();
    assert_eq!(v["orphans"][0]["id"], "crashed");
    assert!(repo.wt("crashed").exists(), "reported, not removed");
}

#[test]
fn reconcile_with_nothing_to_change_removes_a_stale_mutex() {
    let repo = TestRepo::new();
    repo.create("x");
    fs::write(repo.mutex_path(), "git-loop pid 1 dead\n").unwrap();
    crate::common::age_file(&repo.mutex_path(), 60);
    let v = repo.run(["--json", "reconcile"]).json();
    assert!(v["dropped"].as_array().unwrap().is_empty());
    assert!(!repo.mutex_path().exists());
}

/// The contract's own recovery, in real time: a mutex left by kill -9 is
/// broken by a waiter once it is 30 s old, not a timeout.
#[test]
#[ignore = "waits 30 s in real time; run by .ci/run with --ignored"]
fn leftover_mutex_is_broken_after_30_seconds_in_real_time() {
    let repo = TestRepo::new();
    repo.create("a");
    kill_9_at(&repo, "holding-mutex", &["mark", "a", "merged"]);
    let start = Instant::now();
    let run = repo.run(["mark", "a", "rejected"]);
    run.ok();
    let waited = start.elapsed();
    assert!(
        waited >= Duration::from_secs(29) && waited < Duration::from_secs(40),
        "{waited:?}"
    );
    assert_eq!(repo.status_of("a").unwrap(), "rejected");
}

#[test]
fn two_waiters_on_one_stale_mutex_never_both_hold_it() {
    // Each waiter records the instant it held the mutex by marking; if two
    // held it at once, one read-modify-write would overwrite the other.
    let repo = TestRepo::new();
    let entries: Vec<(String, &str, &str)> = (0..2)
        .map(|i| (format!("w{i}"), "active", "2026-01-01T00:00:00Z"))
        .collect();
    let refs: Vec<(&str, &str, &str)> = entries
        .iter()
        .map(|(a, b, c)| (a.as_str(), *b, *c))
        .collect();
    for attempt in 0..20 {
        repo.write_manifest(&manifest_with(&refs));
        fs::write(repo.mutex_path(), "dead\n").unwrap();
        age_file(&repo.mutex_path(), 40);
        let a = spawn(&repo, &["mark", "w0", "merged"]);
        let b = spawn(&repo, &["mark", "w1", "merged"]);
        for child in [a, b] {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        assert_eq!(
            repo.status_of("w0").unwrap(),
            "merged",
            "attempt {attempt}: lost update"
        );
        assert_eq!(
            repo.status_of("w1").unwrap(),
            "merged",
            "attempt {attempt}: lost update"
        );
        assert!(!repo.mutex_path().exists());
    }
}
