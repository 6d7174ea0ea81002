//! `git loop land` against the git sequence a user types to land a run:
//! `cargo bench --bench land` (or `scripts/bench`, which runs every target).
//!
//! Fixture: a 10,000-file repository; each run is a worktree on
//! `loop/<id>` started from `main` with 5 commits of its own (each editing
//! one file no other run edits), and `main` moved on by one commit since
//! (so every landing really replays the run's commits).
//!
//! Rows, interleaved in one process tree (ABBA, `sync` between pairs),
//! medians:
//! - one run of 5 commits: `git loop land <id> --keep` against `git rebase
//!   main` in the run's worktree, then `git merge --ff-only loop/<id>` in
//!   the main checkout. Target: at most 0.3 of git's time;
//! - a queue of 20 such runs: `git loop land --queue --status active
//!   --keep` (its landing order computed, each run built on the one before)
//!   against the same two git commands per run, one run after another.
//!   Target: at most 0.2;
//! - the same two without `--keep`, as a user lands: the run's worktree
//!   removed and its branch deleted, against the git sequence that does
//!   the same — `git worktree remove` (not forced) of the run's worktree
//!   and `git branch -d loop/<id>` after the merge. Targets: one run at most
//!   0.9 (the removal of a 10,000-file worktree dominates both sides, so
//!   it must be at parity with git's), a queue of 20 at most 0.5 (a run's
//!   removal overlaps the next runs' landings, see `src/ops/land/tidy.rs`).
//!
//! Both sides end with `main` at the landed commits and its checkout
//! updated; neither runs a gate (the gate's own time is excluded). `--keep`:
//! the run's worktree is left in place, as the first git sequence leaves it
//! (removing it is `cleanup`'s cost, measured in `compare.rs`). The runs
//! are made untimed before each side: git-loop's by `git loop create`,
//! git's by `git worktree add -b` (so git-loop's manifest holds only its
//! own) — for the removal rows by `git loop create` too, so both sides
//! delete worktrees laid out alike (`Side::GitOnCreated`) —, their commits
//! by one `git fast-import`, then `sync` (the fresh
//! checkouts written back before either side is timed). `BENCH_QUICK=1` runs one
//! pair a row; `BENCH_ITERS=<n>` sets the count; `BENCH_LAND=keep` or
//! `BENCH_LAND=remove` runs only the `--keep` rows or only the others.

mod common;

use common::*;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

const FILES: usize = 10_000;
const COMMITS: usize = 5;
const QUEUE: usize = 20;

fn main() {
    let (_tmp, base, env) = setup();
    eprintln!("building the fixture in a temporary directory…");
    let repo = base.join("big");
    init_repo(&env, &repo, FILES);
    let m0 = rev(&env, &repo, "main");
    // main moves on by a commit no run touches.
    std::fs::write(repo.join("d99/f9999.txt"), "file 9999\nmain moved on\n").unwrap();
    run(env.git(&repo, &["commit", "-q", "-am", "main moves on"]));
    let m1 = rev(&env, &repo, "main");
    let fixture = Fixture {
        env: &env,
        repo: &repo,
        m0,
        m1,
    };

    let mut rows = Vec::new();
    let only = std::env::var("BENCH_LAND").unwrap_or_default();
    if only != "remove" {
        keep_rows(&fixture, &mut rows);
    }
    if only != "keep" {
        removal_rows(&fixture, &mut rows);
    }
    print_rows(&rows);
}

/// `land --keep` against rebase and `merge --ff-only`, one run and a queue.
fn keep_rows(fixture: &Fixture<'_>, rows: &mut Vec<Row>) {
    let (env, repo) = (fixture.env, fixture.repo);
    let it = iters(5, 1);
    let (o, b) = compare(
        it,
        |i| {
            let ids = fixture.runs(&format!("o{i}"), 1, Side::GitLoop);
            let t = timed(env.gl(repo, &["land", &ids[0], "--keep"]));
            fixture.check_landed(&ids);
            t
        },
        |i| {
            let ids = fixture.runs(&format!("g{i}"), 1, Side::Git);
            let t = fixture.git_sequence(&ids);
            fixture.check_landed(&ids);
            t
        },
        |_| {},
    );
    rows.push(Row {
        scenario: format!("land, one run of {COMMITS} commits, 10k-file repo"),
        ours: o,
        base: b,
        target: Some(0.3),
        note: format!(
            "baseline: git rebase main in the run's worktree, then git merge --ff-only in the main checkout; git-loop with --keep, no gate; {it} pairs"
        ),
    });

    let it = iters(3, 1);
    let (o, b) = compare(
        it,
        |i| {
            let ids = fixture.runs(&format!("qo{i}"), QUEUE, Side::GitLoop);
            let t = timed(env.gl(repo, &["land", "--queue", "--status", "active", "--keep"]));
            fixture.check_landed(&ids);
            t
        },
        |i| {
            let ids = fixture.runs(&format!("qg{i}"), QUEUE, Side::Git);
            let t = fixture.git_sequence(&ids);
            fixture.check_landed(&ids);
            t
        },
        |_| {},
    );
    rows.push(Row {
        scenario: format!("land --queue, {QUEUE} runs of {COMMITS} commits, 10k-file repo"),
        ours: o,
        base: b,
        target: Some(0.2),
        note: format!(
            "baseline: per run, git rebase main in its worktree then git merge --ff-only in the main checkout, one run after another; git-loop with --keep, no gate; {it} pairs"
        ),
    });
}

/// `land` as a user types it (the worktree removed, the branch deleted)
/// against the git sequence that ends the same way, one run and a queue.
fn removal_rows(fixture: &Fixture<'_>, rows: &mut Vec<Row>) {
    let (env, repo) = (fixture.env, fixture.repo);
    let it = iters(5, 1);
    let (o, b) = compare(
        it,
        |i| {
            let ids = fixture.runs(&format!("ro{i}"), 1, Side::GitLoop);
            let t = timed(env.gl(repo, &["land", &ids[0]]));
            fixture.check_removed(&ids);
            t
        },
        |i| {
            let ids = fixture.runs(&format!("rg{i}"), 1, Side::GitOnCreated);
            let t = fixture.git_sequence_removing(&ids);
            fixture.check_removed(&ids);
            t
        },
        |_| {},
    );
    rows.push(Row {
        scenario: format!(
            "land, one run of {COMMITS} commits, worktree removed, 10k-file repo"
        ),
        ours: o,
        base: b,
        target: Some(0.9),
        note: format!(
            "baseline: git rebase main in the run's worktree, git merge --ff-only in the main checkout, git worktree remove, git branch -d, on a run made by git loop create; git-loop without --keep, no gate; {it} pairs"
        ),
    });

    let it = iters(3, 1);
    let (o, b) = compare(
        it,
        |i| {
            let ids = fixture.runs(&format!("rqo{i}"), QUEUE, Side::GitLoop);
            let t = timed(env.gl(repo, &["land", "--queue", "--status", "active"]));
            fixture.check_removed(&ids);
            t
        },
        |i| {
            let ids = fixture.runs(&format!("rqg{i}"), QUEUE, Side::GitOnCreated);
            let t = fixture.git_sequence_removing(&ids);
            fixture.check_removed(&ids);
            t
        },
        |_| {},
    );
    rows.push(Row {
        scenario: format!(
            "land --queue, {QUEUE} runs of {COMMITS} commits, worktrees removed, 10k-file repo"
        ),
        ours: o,
        base: b,
        target: Some(0.5),
        note: format!(
            "baseline: per run, git rebase main, git merge --ff-only, git worktree remove, git branch -d, one run after another, runs made by git loop create; git-loop without --keep, no gate; {it} pairs"
        ),
    });
}

#[derive(Clone, Copy, PartialEq)]
enum Side {
    GitLoop,
    Git,
    /// The git sequence on runs made by `git loop create`, as git-loop's
    /// are: the removal rows' baseline, so both sides delete worktrees
    /// checked out the same way (`create`'s parallel checkout lays the
    /// files out differently from `git worktree add`, and how long the
    /// filesystem takes to delete them follows the layout). Its entries
    /// are dropped afterwards by `git loop reconcile` (untimed).
    GitOnCreated,
}

struct Fixture<'a> {
    env: &'a Env,
    repo: &'a Path,
    /// `main` when the runs start, and after it moved on.
    m0: String,
    m1: String,
}

impl Fixture<'_> {
    /// `n` runs `<prefix>-<j>` started from `m0`, `COMMITS` commits each,
    /// clean worktrees, and `main` (checked out) at `m1`: untimed.
    fn runs(&self, prefix: &str, n: usize, side: Side) -> Vec<String> {
        let (env, repo) = (self.env, self.repo);
        run(env.git(repo, &["reset", "-q", "--hard", &self.m0]));
        let ids: Vec<String> = (0..n).map(|j| format!("{prefix}-{j}")).collect();
        for id in &ids {
            match side {
                Side::GitLoop | Side::GitOnCreated => {
                    run(env.gl(repo, &["create", id, "--pattern", "bench"]))
                }
                Side::Git => run(env.git(
                    repo,
                    &[
                        "worktree",
                        "add",
                        "-q",
                        "-b",
                        &format!("loop/{id}"),
                        &format!(".loop-worktrees/{id}"),
                        "main",
                    ],
                )),
            }
        }
        let mut stream = String::new();
        for (j, id) in ids.iter().enumerate() {
            for k in 0..COMMITS {
                let n = 100 + (j * COMMITS + k) % 9_800;
                let text = format!("file {n}\nedited by {id}, commit {k}\n");
                // The first commit starts from the branch as `create` made
                // it; the next ones follow on in the stream.
                let from = if k == 0 {
                    format!("from refs/heads/loop/{id}^0\n")
                } else {
                    String::new()
                };
                let _ = writeln!(
                    stream,
                    "commit refs/heads/loop/{id}\ncommitter Bench <bench@example.com> 1767225600 +0000\ndata 8\ncommit {k}\n{from}M 100644 inline d{}/f{n}.txt\ndata {}\n{text}",
                    n / 100,
                    text.len()
                );
            }
        }
        let mut c = env.git(repo, &["fast-import", "--quiet"]);
        let mut child = c.stdin(Stdio::piped()).spawn().unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stream.as_bytes())
            .unwrap();
        assert!(child.wait().unwrap().success());
        // fast-import moved each branch under its worktree: check them out.
        for id in &ids {
            run(env.git(&self.wt(id), &["reset", "-q", "--hard"]));
        }
        run(env.git(repo, &["reset", "-q", "--hard", &self.m1]));
        // The runs' fresh checkouts (200,000 files for a queue) written back
        // before the clock starts, so neither side is timed against the
        // fixture's writeback.
        let _ = std::process::Command::new("sync").status();
        ids
    }

    fn wt(&self, id: &str) -> PathBuf {
        self.repo.join(".loop-worktrees").join(id)
    }

    /// What the user types, per run in order: `git rebase main` in its
    /// worktree, then `git merge --ff-only` in the main checkout.
    fn git_sequence(&self, ids: &[String]) -> Duration {
        let (env, repo) = (self.env, self.repo);
        let t = Instant::now();
        for id in ids {
            run(env.git(&self.wt(id), &["rebase", "-q", "main"]));
            run(env.git(repo, &["merge", "-q", "--ff-only", &format!("loop/{id}")]));
        }
        t.elapsed()
    }

    /// What the user types to land and tidy up, per run in order: `git
    /// rebase main` in its worktree, `git merge --ff-only` in the main
    /// checkout, `git worktree remove` (not forced), `git branch -d`.
    fn git_sequence_removing(&self, ids: &[String]) -> Duration {
        let (env, repo) = (self.env, self.repo);
        let t = Instant::now();
        for id in ids {
            let branch = format!("loop/{id}");
            run(env.git(&self.wt(id), &["rebase", "-q", "main"]));
            run(env.git(repo, &["merge", "-q", "--ff-only", &branch]));
            let rel = format!(".loop-worktrees/{id}");
            run(env.git(repo, &["worktree", "remove", &rel]));
            run(env.git(repo, &["branch", "-q", "-d", &branch]));
        }
        t.elapsed()
    }

    /// Landed as [`Fixture::check_landed`] says, and every run's worktree
    /// and branch gone, and its entry (dropped by `reconcile` after the git
    /// sequence).
    fn check_removed(&self, ids: &[String]) {
        let (env, repo) = (self.env, self.repo);
        run(env.gl(repo, &["reconcile"]));
        let mut c = env.git(
            repo,
            &["rev-list", "--count", &format!("{}..main", self.m1)],
        );
        c.stdout(Stdio::piped());
        let out = c.output().unwrap();
        let landed: usize = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
        assert_eq!(landed, ids.len() * COMMITS, "not everything landed");
        for id in ids {
            assert!(!self.wt(id).exists(), "{id}'s worktree is still there");
            let mut c = env.git(repo, &["branch", "--list", &format!("loop/{id}")]);
            c.stdout(Stdio::piped());
            let out = c.output().unwrap();
            assert!(out.stdout.is_empty(), "{id}'s branch is still there");
        }
        let manifest = repo.join(".loop-worktrees/manifest.json");
        let text = std::fs::read_to_string(manifest).unwrap_or_default();
        for id in ids {
            assert!(
                !text.contains(&format!("\"{id}\"")),
                "{id}'s entry is still in the manifest"
            );
        }
    }

    /// `main` holds every run's commits on `m1`, its checkout clean; then
    /// the runs' worktrees and branches go (untimed).
    fn check_landed(&self, ids: &[String]) {
        let (env, repo) = (self.env, self.repo);
        let mut c = env.git(
            repo,
            &["rev-list", "--count", &format!("{}..main", self.m1)],
        );
        c.stdout(Stdio::piped());
        let out = c.output().unwrap();
        let landed: usize = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
        assert_eq!(landed, ids.len() * COMMITS, "not everything landed");
        let mut c = env.git(repo, &["status", "--porcelain", "--untracked-files=no"]);
        c.stdout(Stdio::piped());
        let out = c.output().unwrap();
        assert!(out.stdout.is_empty(), "the main checkout is not clean");
        for id in ids {
            drop_worktree(env, repo, &format!(".loop-worktrees/{id}"));
            let branch = format!("loop/{id}");
            // The fixture's own branches, landed a moment ago.
            run(env.git(repo, &["branch", "-q", "-D", &branch]));
        }
    }
}

fn rev(env: &Env, repo: &Path, spec: &str) -> String {
    let mut c = env.git(repo, &["rev-parse", spec]);
    c.stdout(Stdio::piped());
    let out = c.output().unwrap();
    assert!(out.status.success(), "rev-parse {spec}");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}
