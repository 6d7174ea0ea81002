//! Test-only fault injection, read from the environment in this one place.
//!
//! - `GIT_LOOP_TEST_CRASH=<point>` aborts the process (as `kill -9` would: no
//!   destructors, no signal handlers) when it reaches `<point>`.
//!   `GIT_LOOP_TEST_CRASH=<point>:pause` instead prints `paused at <point>` on
//!   stderr and sleeps for an hour, so a test can kill it there.
//!   `GIT_LOOP_TEST_CRASH=<point>:until:<file>` prints the same line, then
//!   waits until `<file>` exists and carries on normally, so a test can let
//!   something else happen at that point first (e.g. break the mutex).
//! - `GIT_LOOP_TEST_FAIL=<point>` makes the I/O at a fail point return an error.
//! - `GIT_LOOP_TEST_MUTEX_TRACE=1` prints how long each hold of the manifest
//!   mutex lasted (`mutex held <N> us`, on stderr; the benchmark reads it).
//! - `GIT_LOOP_TEST_OPS_DEADLINE_SECS=<n>` shortens how long a waiter waits
//!   for the worktree-operation lock held by a live process (normally
//!   `OPS_DEADLINE` of the `lock` module, ten minutes). This module uses no
//!   other module of the crate: those that inject faults call into it.
//!
//! - `GIT_LOOP_TEST_SPLIT_ADD=1` makes `create` always split its `git
//!   worktree add` into `add --no-checkout` and the checkout (it otherwise
//!   does so only when other creates are queuing, which a test cannot force
//!   reliably), so the point between the two can be reached.
//!
//! - `GIT_LOOP_TEST_FORCE_MERGED=1` makes the safety kernel judge every
//!   branch merged (`crate::safety::branch`): a deliberately wrong proof, so
//!   a test can show that the trash brings a wrongly deleted branch back.
//!
//! `pick` adds `pick-before-marks` (the manifest read, the winner and its
//! siblings chosen, nothing marked yet).
//!
//! `land --push` adds the point `land-before-push` (the landing built,
//! gated and checked, the local target not moved yet: it moves after the
//! push; reached before each `git push`, the first and each retry).
//!
//! Points: `after-worktree-add` (create: checkout done, run not recorded),
//! `before-checkout` (create, split add: after `add --no-checkout`, before
//! the checkout), `holding-mutex`, `before-manifest-write`,
//! `before-manifest-rename`, `after-manifest-rename`, `before-branch-delete`
//! (`branches --delete-merged`, `cleanup --delete-merged-branches`: checked,
//! not yet deleted), `after-salvage-ref` (`--salvage`: ref written, worktree
//! not removed), `salvage-switched` (`--salvage`: the worktree's `HEAD` and
//! index set to the salvage, `git worktree remove` not started),
//! `after-salvage-removal` (removed, entry not dropped), `land-before-ref`
//! (`land`: the landing checked and its commits written, the target not
//! moved), `land-after-ref` (the target moved, its checkout not updated
//! yet), `land-after-checkout` (both done, the run not yet marked); fail
//! points: `manifest-write`, `salvage-ref-write` (a salvage built and
//! verified, its ref not written).
//!
//! `land-built` (`land`: the landing built, persisted and gated, the target
//! not yet moved; a test moves the target there with `:until:`).
//!
//! `sync-index-held` (`sync`: the run's index locked and marked as the
//! sync's, its branch not yet moved).
//!
//! None of these variables is meant for users; all are documented in the README so
//! nobody is surprised by them.

use std::sync::OnceLock;

fn setting(var: &str, cell: &'static OnceLock<Option<String>>) -> Option<&'static str> {
    cell.get_or_init(|| std::env::var(var).ok()).as_deref()
}

/// Abort or pause here when `GIT_LOOP_TEST_CRASH` names this point.
pub fn point(name: &str) {
    static CRASH: OnceLock<Option<String>> = OnceLock::new();
    let Some(spec) = setting("GIT_LOOP_TEST_CRASH", &CRASH) else {
        return;
    };
    let (at, mode) = spec.split_once(':').unwrap_or((spec, "abort"));
    if at != name {
        return;
    }
    if mode == "pause" {
        announce(name);
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
    if let Some(file) = mode.strip_prefix("until:") {
        announce(name);
        while !std::path::Path::new(file).exists() {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        return;
    }
    std::process::abort();
}

/// `paused at <point>` on stderr, through a handle of its own: a point
/// reached in a worker thread (a `--salvage` removal) must not wait for the
/// lock on `std::io::stderr()` that the main thread holds for the whole run.
fn announce(name: &str) {
    use std::io::Write;
    let line = format!("paused at {name}\n");
    match std::fs::OpenOptions::new()
        .write(true)
        .open("/proc/self/fd/2")
    {
        Ok(mut f) => {
            let _ = f.write_all(line.as_bytes());
        }
        Err(_) => eprint!("{line}"),
    }
}

/// `GIT_LOOP_TEST_OPS_DEADLINE_SECS`: a shorter wait for the
/// worktree-operation lock.
pub fn ops_deadline() -> Option<std::time::Duration> {
    static DEADLINE: OnceLock<Option<String>> = OnceLock::new();
    setting("GIT_LOOP_TEST_OPS_DEADLINE_SECS", &DEADLINE)?
        .parse()
        .ok()
        .map(std::time::Duration::from_secs)
}

/// `GIT_LOOP_TEST_MUTEX_TRACE=1`: print `mutex held <N> us` on stderr each
/// time the manifest mutex is released (the benchmark reads it).
pub fn trace_mutex_hold(held: std::time::Duration) {
    static TRACE: OnceLock<Option<String>> = OnceLock::new();
    if setting("GIT_LOOP_TEST_MUTEX_TRACE", &TRACE).is_some() {
        eprintln!("mutex held {} us", held.as_micros());
    }
}

/// An injected I/O failure when `GIT_LOOP_TEST_FAIL` names this point.
pub fn fail_point(name: &str) -> std::io::Result<()> {
    static FAIL: OnceLock<Option<String>> = OnceLock::new();
    match setting("GIT_LOOP_TEST_FAIL", &FAIL) {
        Some(at) if at == name => Err(std::io::Error::other(format!(
            "injected failure at {name} (GIT_LOOP_TEST_FAIL)"
        ))),
        _ => Ok(()),
    }
}

/// `GIT_LOOP_TEST_SPLIT_ADD=1`: always split `git worktree add` in create.
pub fn force_split_add() -> bool {
    static SPLIT: OnceLock<Option<String>> = OnceLock::new();
    setting("GIT_LOOP_TEST_SPLIT_ADD", &SPLIT) == Some("1")
}

/// `GIT_LOOP_TEST_FORCE_MERGED=1`: the safety kernel judges every branch
/// merged (a deliberately wrong proof, to show the trash brings it back).
pub fn force_merged() -> bool {
    static FORCE: OnceLock<Option<String>> = OnceLock::new();
    setting("GIT_LOOP_TEST_FORCE_MERGED", &FORCE) == Some("1")
}
