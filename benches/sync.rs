//! `git loop sync` against the git sequence a careful user runs to bring
//! `main` into every run: `cargo bench --bench sync` (or `scripts/bench`,
//! which runs every target).
//!
//! Fixture: a 10,000-file repository made by one `git fast-import`; 20
//! runs made by `git loop create`, each with 3 commits of its own (each
//! editing a file no other run edits), the last run's first commit editing
//! a file `main` edits too (so it conflicts); then `main` moved on by 5
//! commits (as 5 landings would: 10 files each, none a run touches but the
//! conflicting one's).
//!
//! Rows, interleaved in one process tree (ABBA, `sync` between pairs),
//! medians:
//! - `git loop sync --keep-going` (every active run: 19 rebased onto
//!   `main`, their worktrees updated, the conflicting one skipped untouched)
//!   against, in each run's worktree, `git rebase main`, and on a conflict
//!   `git rebase --abort`. Target: at most 0.3 of git's time;
//! - `git loop sync --dry-run` of the same 20 runs (each rebase built in
//!   memory, nothing written) against the same git sequence. Target: at most
//!   0.1 of git's time.
//!
//! Both sides start from the same runs in the same worktrees, reset
//! (untimed) before each side: each branch back at its tip before the
//! sync, its worktree `git reset --hard` there, git-loop's trash entries
//! dropped; then `sync` (the page cache written back). Each side's result
//! is checked: 19 branches with `main` in their history and their 3
//! commits on it, worktrees clean, the conflicting run where it was with
//! no rebase in progress. `BENCH_QUICK=1` runs one pair a row;
//! `BENCH_ITERS=<n>` sets the count. `BENCH_KEEP=1` builds the fixture,
//! keeps it and prints where it is, and times nothing (for a profiler).

mod common;

use common::*;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FILES: usize = 10_000;
const RUNS: usize = 20;
const COMMITS: usize = 3;
const MOVES: usize = 5;
/// The run whose first commit edits a file `main` edits too.
const CONFLICTING: usize = RUNS - 1;
/// The file both the conflicting run and `main` edit.
const CONTESTED: usize = 9_990;

fn main() {
    let (_tmp, base, env) = setup();
    eprintln!("building the fixture in a temporary directory…");
    let repo = base.join("big");
    let fixture = Fixture::new(&env, repo);
    if std::env::var_os("BENCH_KEEP").is_some() {
        // For a profiler: the fixture kept, reset, and named; nothing timed.
        fixture.reset();
        println!(
            "fixture kept: {} (HOME {})",
            fixture.repo.display(),
            env.home.display()
        );
        std::mem::forget(_tmp);
        return;
    }

    let mut rows = Vec::new();
    let it = iters(5, 1);
    let (o, b) = compare(
        it,
        |_| {
            fixture.reset();
            let t = fixture.gl_sync(&["sync", "--keep-going"]);
            fixture.check_synced();
            t
        },
        |_| {
            fixture.reset();
            let t = fixture.git_sequence();
            fixture.check_synced();
            t
        },
        |_| {},
    );
    rows.push(Row {
        scenario: format!(
            "sync, {RUNS} runs of {COMMITS} commits, main moved by {MOVES}, 10k-file repo"
        ),
        ours: o,
        base: b,
        target: Some(0.3),
        note: format!(
            "baseline: in each run's worktree git rebase main, on a conflict git rebase --abort (1 of {RUNS} conflicts); no gate; {it} pairs"
        ),
    });

    let it = iters(5, 1);
    let (o, b) = compare(
        it,
        |_| {
            fixture.reset();
            let t = fixture.gl_sync(&["sync", "--keep-going", "--dry-run"]);
            fixture.check_untouched();
            t
        },
        |_| {
            fixture.reset();
            let t = fixture.git_sequence();
            fixture.check_synced();
            t
        },
        |_| {},
    );
    rows.push(Row {
        scenario: format!("sync --dry-run, {RUNS} runs, 10k-file repo"),
        ours: o,
        base: b,
        target: Some(0.1),
        note: format!(
            "baseline: the same git sequence (git rebase main, git rebase --abort on a conflict) per run; {it} pairs"
        ),
    });
    print_rows(&rows);
}

struct Fixture<'a> {
    env: &'a Env,
    repo: PathBuf,
    ids: Vec<String>,
    /// Each run's tip before any sync.
    tips: Vec<String>,
    /// `main`'s tip, moved on.
    main: String,
}

impl<'a> Fixture<'a> {
    /// The repository (one `git fast-import` of 10,000 files), the runs
    /// and their commits, `main` moved on.
    fn new(env: &'a Env, repo: PathBuf) -> Fixture<'a> {
        std::fs::create_dir_all(&repo).unwrap();
        run(env.git(&repo, &["init", "-q", "-b", "main"]));
        import(env, &repo, &initial_stream());
        run(env.git(&repo, &["reset", "-q", "--hard", "main"]));
        let ids: Vec<String> = (0..RUNS).map(|j| format!("s{j}")).collect();
        for id in &ids {
            run(env.gl(&repo, &["create", id, "--pattern", "bench"]));
        }
        import(env, &repo, &runs_stream(&ids));
        for id in &ids {
            run(env.git(
                &repo.join(".loop-worktrees").join(id),
                &["reset", "-q", "--hard"],
            ));
        }
        import(env, &repo, &moves_stream());
        run(env.git(&repo, &["reset", "-q", "--hard", "main"]));
        let tips = ids
            .iter()
            .map(|id| rev(env, &repo, &format!("loop/{id}")))
            .collect();
        let main = rev(env, &repo, "main");
        Fixture {
            env,
            repo,
            ids,
            tips,
            main,
        }
    }

    fn wt(&self, id: &str) -> PathBuf {
        self.repo.join(".loop-worktrees").join(id)
    }

    /// Every run back where it was before any sync (untimed): its branch
    /// at its tip, its worktree reset there, the trash emptied; then the
    /// page cache written back.
    fn reset(&self) {
        let (env, repo) = (self.env, &self.repo);
        for (id, tip) in self.ids.iter().zip(&self.tips) {
            run(env.git(&self.wt(id), &["reset", "-q", "--hard", tip]));
        }
        let mut c = env.git(
            repo,
            &[
                "for-each-ref",
                "--format=delete %(refname)",
                "refs/loop/trash/",
            ],
        );
        c.stdout(Stdio::piped());
        let out = c.output().unwrap();
        let mut c = env.git(repo, &["update-ref", "--stdin"]);
        let mut child = c.stdin(Stdio::piped()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(&out.stdout).unwrap();
        assert!(child.wait().unwrap().success());
        let _ = Command::new("sync").status();
    }

    /// git-loop's `args`, timed; exit 1 (a run skipped) is expected.
    fn gl_sync(&self, args: &[&str]) -> Duration {
        let t = Instant::now();
        let out = self.env.gl(&self.repo, args).output().unwrap();
        let took = t.elapsed();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "git-loop {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        took
    }

    /// What the careful user types, per run in order: `git rebase main` in
    /// its worktree, `git rebase --abort` when it stops on a conflict.
    fn git_sequence(&self) -> Duration {
        let env = self.env;
        let t = Instant::now();
        for id in &self.ids {
            let wt = self.wt(id);
            let out = env.git(&wt, &["rebase", "-q", "main"]).output().unwrap();
            if !out.status.success() {
                run(env.git(&wt, &["rebase", "--abort"]));
            }
        }
        t.elapsed()
    }

    /// Every run but the conflicting one rebased onto `main` (its commits
    /// on it, its worktree clean); the conflicting one where it was, with
    /// no rebase in progress.
    fn check_synced(&self) {
        let env = self.env;
        for (j, id) in self.ids.iter().enumerate() {
            let tip = rev(env, &self.repo, &format!("loop/{id}"));
            if j == CONFLICTING {
                assert_eq!(tip, self.tips[j], "{id}: the conflicting run moved");
            } else {
                let count = rev_count(env, &self.repo, &format!("{}..loop/{id}", self.main));
                assert_eq!(count, COMMITS, "{id}: not rebased onto main");
            }
            let wt = self.wt(id);
            assert!(clean(env, &wt), "{id}: its worktree is not clean");
            assert!(
                !git_path(env, &wt, "rebase-merge").exists(),
                "{id}: a rebase is left in progress"
            );
        }
    }

    /// Every run where it was (a dry run).
    fn check_untouched(&self) {
        for (id, tip) in self.ids.iter().zip(&self.tips) {
            let now = rev(self.env, &self.repo, &format!("loop/{id}"));
            assert_eq!(&now, tip, "{id}: a dry run moved it");
        }
    }
}

/// The first commit: 10,000 files in 100 directories, and the ignore line.
fn initial_stream() -> String {
    let mut s = String::from(
        "commit refs/heads/main\ncommitter Bench <bench@example.com> 1767225600 +0000\ndata 8\nfixture\n",
    );
    s.push_str("M 100644 inline .gitignore\ndata 17\n.loop-worktrees/\n");
    for i in 0..FILES {
        let text = format!("file {i}\n");
        let _ = write!(
            s,
            "M 100644 inline d{}/f{i}.txt\ndata {}\n{text}",
            i / 100,
            text.len()
        );
    }
    s
}

/// Each run's commits, each editing a file of its own; the conflicting
/// run's first edits [`CONTESTED`].
fn runs_stream(ids: &[String]) -> String {
    let mut s = String::new();
    for (j, id) in ids.iter().enumerate() {
        for k in 0..COMMITS {
            let n = if j == CONFLICTING && k == 0 {
                CONTESTED
            } else {
                100 + j * COMMITS + k
            };
            let text = format!("file {n}\nedited by {id}, commit {k}\n");
            let from = if k == 0 {
                format!("from refs/heads/loop/{id}^0\n")
            } else {
                String::new()
            };
            let _ = write!(
                s,
                "commit refs/heads/loop/{id}\ncommitter Bench <bench@example.com> 1767225600 +0000\ndata 8\ncommit {k}\n{from}M 100644 inline d{}/f{n}.txt\ndata {}\n{text}",
                n / 100,
                text.len()
            );
        }
    }
    s
}

/// `main` moved on by [`MOVES`] commits of 10 files each (files no run
/// edits, and [`CONTESTED`] in the first).
fn moves_stream() -> String {
    let mut s = String::new();
    for m in 0..MOVES {
        // The first starts from `main` as the repository has it; the next
        // ones follow on in the stream.
        let from = if m == 0 {
            "from refs/heads/main^0\n"
        } else {
            ""
        };
        let _ = write!(
            s,
            "commit refs/heads/main\ncommitter Bench <bench@example.com> 1767225700 +0000\ndata 11\nmain move {m}\n{from}"
        );
        for f in 0..10 {
            let n = if m == 0 && f == 0 {
                CONTESTED
            } else {
                5_000 + m * 10 + f
            };
            let text = format!("file {n}\nmoved by main, {m}\n");
            let _ = write!(
                s,
                "M 100644 inline d{}/f{n}.txt\ndata {}\n{text}",
                n / 100,
                text.len()
            );
        }
    }
    s
}

fn import(env: &Env, repo: &Path, stream: &str) {
    let mut c = env.git(repo, &["fast-import", "--quiet"]);
    let mut child = c.stdin(Stdio::piped()).spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stream.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success(), "git fast-import");
}

fn rev(env: &Env, repo: &Path, spec: &str) -> String {
    let mut c = env.git(repo, &["rev-parse", spec]);
    c.stdout(Stdio::piped());
    let out = c.output().unwrap();
    assert!(out.status.success(), "rev-parse {spec}");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn rev_count(env: &Env, repo: &Path, range: &str) -> usize {
    let mut c = env.git(repo, &["rev-list", "--count", range]);
    c.stdout(Stdio::piped());
    let out = c.output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

fn clean(env: &Env, wt: &Path) -> bool {
    let mut c = env.git(wt, &["status", "--porcelain"]);
    c.stdout(Stdio::piped());
    let out = c.output().unwrap();
    out.status.success() && out.stdout.is_empty()
}

fn git_path(env: &Env, wt: &Path, name: &str) -> PathBuf {
    let mut c = env.git(
        wt,
        &["rev-parse", "--path-format=absolute", "--git-path", name],
    );
    c.stdout(Stdio::piped());
    let out = c.output().unwrap();
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}
