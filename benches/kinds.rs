//! The everyday commands on each of the four repository kinds git makes —
//! SHA-1 + files, SHA-256 + files, SHA-1 + reftable, SHA-256 + reftable,
//! each made by the real `git init --object-format=… --ref-format=…` —
//! against plain git doing the same work on the same kind: `cargo bench
//! --bench kinds` (or `scripts/bench`, which runs every target).
//!
//! Rows, per kind, interleaved in one process tree (each kind's sides in
//! ABBA order, the kinds in a rotating order within each iteration, `sync`
//! after each pair), medians:
//! - `list` over 100 runs of a 100-file repository, against `git worktree
//!   list` (and, as `compare.rs`'s list rows, `git rev-parse
//!   --show-toplevel`: start-up alone);
//! - `list --long` over the same 100 runs (10 with a commit of their own,
//!   one with a changed file), against per run `git status --porcelain` in
//!   its worktree and `git rev-list --left-right --count` against `main`,
//!   as `compare.rs`'s `list --long` row;
//! - `create` in a 10,000-file repository, against `git worktree add -b`,
//!   as `compare.rs`;
//! - `land <id> --keep` of one run of 5 commits and `land --queue --keep`
//!   of 20, in a 2,000-file repository whose `main` moved on (`land.rs`'s
//!   has 10,000: the queue's fixture, 40 checkouts a kind and pair, would
//!   not fit the time), against `git
//!   rebase main` in the run's worktree then `git merge --ff-only` in the
//!   main checkout, per run, as `land.rs` (its fixture: runs made by
//!   `create`, or by `git worktree add` for git's side, commits by one
//!   `git fast-import`, `sync`, all untimed).
//!
//! Each row prints each kind's medians, its ratio to git, and that ratio
//! over SHA-1 + files's (the target: at most 1.1, within the noise of the
//! same ratio). Fewer pairs than `compare.rs` and `land.rs` to stay under
//! about ten minutes on two cores (list 15, list --long 3, create 3, land
//! 5, the queue 2); `BENCH_QUICK=1` runs one pair a row, `BENCH_ITERS=<n>`
//! sets every row's count, `BENCH_KINDS=<rows>` (comma-separated: `list`,
//! `long`, `create`, `land`, `queue`) runs only those rows.

mod common;

use common::*;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FILES: usize = 10_000;
/// The landing rows' repository: smaller than `land.rs`'s 10,000 files, so
/// that the queue's fixture (40 worktrees a kind and pair) fits the time.
const LAND_FILES: usize = 2_000;
const RUNS: usize = 100;
const COMMITS: usize = 5;
const QUEUE: usize = 20;

#[derive(Clone, Copy)]
struct Kind {
    name: &'static str,
    objects: &'static str,
    refs: &'static str,
}

const KINDS: [Kind; 4] = [
    Kind {
        name: "SHA-1+files",
        objects: "sha1",
        refs: "files",
    },
    Kind {
        name: "SHA-256+files",
        objects: "sha256",
        refs: "files",
    },
    Kind {
        name: "SHA-1+reftable",
        objects: "sha1",
        refs: "reftable",
    },
    Kind {
        name: "SHA-256+reftable",
        objects: "sha256",
        refs: "reftable",
    },
];

/// One row's medians per kind: git-loop's, then each baseline's.
struct Figures {
    scenario: String,
    baselines: Vec<&'static str>,
    medians: Vec<Vec<Duration>>,
    pairs: usize,
}

fn main() {
    let (_tmp, base, env) = setup();
    let only = std::env::var("BENCH_KINDS").unwrap_or_default();
    let wanted = |row: &str| only.is_empty() || only.split(',').any(|r| r == row);
    eprintln!("building the fixtures in a temporary directory…");
    let mut figures = Vec::new();

    if wanted("list") || wanted("long") {
        let small: Vec<PathBuf> = KINDS
            .iter()
            .map(|k| {
                let repo = base.join(format!("small-{}", k.name));
                small_fixture(&env, &repo, *k);
                repo
            })
            .collect();
        if wanted("list") {
            figures.push(list_row(&env, &small, &["list"], "list", iters(15, 1)));
        }
        if wanted("long") {
            figures.push(long_row(&env, &small, iters(3, 1)));
        }
        for repo in &small {
            let _ = std::fs::remove_dir_all(repo);
        }
    }
    if wanted("create") {
        let big: Vec<PathBuf> = KINDS
            .iter()
            .map(|k| {
                let repo = base.join(format!("big-{}", k.name));
                init_kind(&env, &repo, FILES, *k);
                repo
            })
            .collect();
        figures.push(create_row(&env, &big, iters(3, 1)));
        for repo in &big {
            let _ = std::fs::remove_dir_all(repo);
        }
    }
    if wanted("land") || wanted("queue") {
        let repos: Vec<PathBuf> = KINDS
            .iter()
            .map(|k| {
                let repo = base.join(format!("land-{}", k.name));
                init_kind(&env, &repo, LAND_FILES, *k);
                repo
            })
            .collect();
        let fixtures: Vec<Landing> = repos.iter().map(|r| Landing::new(&env, r)).collect();
        if wanted("land") {
            figures.push(land_row(&fixtures, 1, iters(5, 1)));
        }
        if wanted("queue") {
            figures.push(land_row(&fixtures, QUEUE, iters(2, 1)));
        }
    }
    print_figures(&figures);
}

/// A repository of `files` files made by `git init` with the kind's
/// formats, `.loop-worktrees/` ignored, one commit on `main`.
fn init_kind(env: &Env, dir: &Path, files: usize, kind: Kind) {
    std::fs::create_dir_all(dir).unwrap();
    let objects = format!("--object-format={}", kind.objects);
    let refs = format!("--ref-format={}", kind.refs);
    run(env.git(dir, &["init", "-q", "-b", "main", &objects, &refs]));
    for i in 0..files.max(1) {
        let sub = dir.join(format!("d{}", i / 100));
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join(format!("f{i}.txt")), format!("file {i}\n")).unwrap();
    }
    std::fs::write(dir.join(".gitignore"), ".loop-worktrees/\n").unwrap();
    run(env.git(dir, &["add", "-A"]));
    run(env.git(dir, &["commit", "-q", "-m", "fixture"]));
    std::fs::create_dir_all(dir.join(".loop-worktrees")).unwrap();
}

/// `RUNS` runs of a 100-file repository made by `create`: every tenth
/// with a commit of its own, `run-3` with a changed file, every index
/// refreshed (so neither side pays for stat-dirty entries).
fn small_fixture(env: &Env, repo: &Path, kind: Kind) {
    init_kind(env, repo, 100, kind);
    for i in 0..RUNS {
        run(env.gl(repo, &["create", &format!("run-{i}"), "--pattern", "bench"]));
    }
    for i in (1..RUNS).step_by(10) {
        let wt = repo.join(format!(".loop-worktrees/run-{i}"));
        std::fs::write(wt.join("new.txt"), "new\n").unwrap();
        run(env.git(&wt, &["add", "new.txt"]));
        run(env.git(&wt, &["commit", "-q", "-m", "work"]));
    }
    std::fs::write(repo.join(".loop-worktrees/run-3/d0/f0.txt"), "changed\n").unwrap();
    for i in 0..RUNS {
        let wt = repo.join(format!(".loop-worktrees/run-{i}"));
        run(env.git(&wt, &["status", "--porcelain"]));
    }
}

/// `n` iterations; in each, every kind in turn (the order rotating), and
/// for a kind its sides in ABBA order, `sync` after each kind's group.
/// `side(s, k, i)` times side `s` (0 is git-loop) of kind `k`;
/// `reset(k, i)` runs untimed after the kind's group. Medians by kind,
/// then side.
fn interleave(
    n: usize,
    sides: usize,
    mut side: impl FnMut(usize, usize, usize) -> Duration,
    mut reset: impl FnMut(usize, usize),
) -> Vec<Vec<Duration>> {
    let mut times = vec![vec![Vec::new(); sides]; KINDS.len()];
    for i in 0..n {
        for kk in 0..KINDS.len() {
            let k = (kk + i) % KINDS.len();
            let mut order: Vec<usize> = (0..sides).collect();
            if i % 2 == 1 {
                order.reverse();
            }
            for s in order {
                times[k][s].push(side(s, k, i));
            }
            reset(k, i);
            let _ = Command::new("sync").status();
        }
    }
    times
        .iter_mut()
        .map(|by_side| by_side.iter_mut().map(|t| median(t)).collect())
        .collect()
}

fn list_row(env: &Env, repos: &[PathBuf], args: &[&str], name: &str, n: usize) -> Figures {
    let medians = interleave(
        n,
        3,
        |s, k, _| match s {
            0 => timed(env.gl(&repos[k], args)),
            1 => timed(env.git(&repos[k], &["worktree", "list"])),
            _ => timed(env.git(&repos[k], &["rev-parse", "--show-toplevel"])),
        },
        |_, _| {},
    );
    Figures {
        scenario: format!("{name}, {RUNS} runs"),
        baselines: vec!["git worktree list", "git rev-parse --show-toplevel"],
        medians,
        pairs: n,
    }
}

fn long_row(env: &Env, repos: &[PathBuf], n: usize) -> Figures {
    let medians = interleave(
        n,
        2,
        |s, k, _| {
            let repo = &repos[k];
            if s == 0 {
                return timed(env.gl(repo, &["list", "--long"]));
            }
            let t = Instant::now();
            for i in 0..RUNS {
                let wt = repo.join(format!(".loop-worktrees/run-{i}"));
                run(env.git(&wt, &["status", "--porcelain"]));
                let range = format!("loop/run-{i}...main");
                run(env.git(repo, &["rev-list", "--left-right", "--count", &range]));
            }
            t.elapsed()
        },
        |_, _| {},
    );
    Figures {
        scenario: format!("list --long, {RUNS} runs × 100 files"),
        baselines: vec!["per run: git status --porcelain + git rev-list --left-right --count"],
        medians,
        pairs: n,
    }
}

fn create_row(env: &Env, repos: &[PathBuf], n: usize) -> Figures {
    let medians = interleave(
        n,
        2,
        |s, k, i| {
            let repo = &repos[k];
            if s == 0 {
                return timed(env.gl(repo, &["create", &format!("o{i}"), "--pattern", "bench"]));
            }
            let (branch, path) = (format!("b{i}"), format!(".loop-worktrees/b{i}"));
            timed(env.git(
                repo,
                &["worktree", "add", "-q", "-b", &branch, "--", &path, "main"],
            ))
        },
        |k, i| {
            drop_worktree(env, &repos[k], &format!(".loop-worktrees/o{i}"));
            drop_worktree(env, &repos[k], &format!(".loop-worktrees/b{i}"));
        },
    );
    for repo in repos {
        let _ = std::fs::remove_file(repo.join(".loop-worktrees/manifest.json"));
    }
    Figures {
        scenario: "create, 10k-file repo".into(),
        baselines: vec!["git worktree add -b"],
        medians,
        pairs: n,
    }
}

fn land_row(fixtures: &[Landing<'_>], runs: usize, n: usize) -> Figures {
    let queue = runs > 1;
    let medians = interleave(
        n,
        2,
        |s, k, i| {
            let f = &fixtures[k];
            let prefix = format!("{}{}{i}", if queue { "q" } else { "" }, ["o", "g"][s]);
            let ids = f.runs(&prefix, runs, s == 0);
            let t = if s == 1 {
                f.git_sequence(&ids)
            } else if queue {
                timed(
                    f.env
                        .gl(f.repo, &["land", "--queue", "--status", "active", "--keep"]),
                )
            } else {
                timed(f.env.gl(f.repo, &["land", &ids[0], "--keep"]))
            };
            f.check_landed(&ids);
            t
        },
        |_, _| {},
    );
    let scenario = if queue {
        format!("land --queue --keep, {runs} runs of {COMMITS} commits, 2k-file repo")
    } else {
        format!("land --keep, one run of {COMMITS} commits, 2k-file repo")
    };
    Figures {
        scenario,
        baselines: vec!["per run: git rebase main, then git merge --ff-only"],
        medians,
        pairs: n,
    }
}

/// A repository whose `main` moved on by one commit no run
/// touches since `m0`, where runs are made and landed (as `land.rs`).
struct Landing<'a> {
    env: &'a Env,
    repo: &'a Path,
    m0: String,
    m1: String,
}

impl<'a> Landing<'a> {
    fn new(env: &'a Env, repo: &'a Path) -> Self {
        let m0 = rev(env, repo, "main");
        std::fs::write(repo.join("d19/f1999.txt"), "file 1999\nmain moved on\n").unwrap();
        run(env.git(repo, &["commit", "-q", "-am", "main moves on"]));
        let m1 = rev(env, repo, "main");
        Landing { env, repo, m0, m1 }
    }

    fn wt(&self, id: &str) -> PathBuf {
        self.repo.join(".loop-worktrees").join(id)
    }

    /// `n` runs `<prefix>-<j>` from `m0` (by `create` for git-loop, by
    /// `git worktree add -b` for git), `COMMITS` commits each by one
    /// `fast-import`, checked out, `main` at `m1`, `sync`: untimed.
    fn runs(&self, prefix: &str, n: usize, ours: bool) -> Vec<String> {
        let (env, repo) = (self.env, self.repo);
        run(env.git(repo, &["reset", "-q", "--hard", &self.m0]));
        let ids: Vec<String> = (0..n).map(|j| format!("{prefix}-{j}")).collect();
        for id in &ids {
            if ours {
                run(env.gl(repo, &["create", id, "--pattern", "bench"]));
            } else {
                let (branch, path) = (format!("loop/{id}"), format!(".loop-worktrees/{id}"));
                run(env.git(
                    repo,
                    &["worktree", "add", "-q", "-b", &branch, &path, "main"],
                ));
            }
        }
        let mut stream = String::new();
        for (j, id) in ids.iter().enumerate() {
            for k in 0..COMMITS {
                let n = 100 + (j * COMMITS + k) % (LAND_FILES - 200);
                let text = format!("file {n}\nedited by {id}, commit {k}\n");
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
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(stream.as_bytes()).unwrap();
        drop(stdin);
        assert!(child.wait().unwrap().success());
        for id in &ids {
            run(env.git(&self.wt(id), &["reset", "-q", "--hard"]));
        }
        run(env.git(repo, &["reset", "-q", "--hard", &self.m1]));
        let _ = Command::new("sync").status();
        ids
    }

    /// Per run in order: `git rebase main` in its worktree, then `git
    /// merge --ff-only` in the main checkout.
    fn git_sequence(&self, ids: &[String]) -> Duration {
        let (env, repo) = (self.env, self.repo);
        let t = Instant::now();
        for id in ids {
            run(env.git(&self.wt(id), &["rebase", "-q", "main"]));
            run(env.git(repo, &["merge", "-q", "--ff-only", &format!("loop/{id}")]));
        }
        t.elapsed()
    }

    /// `main` holds every run's commits on `m1`, its checkout clean; then
    /// the runs' worktrees, branches and entries go (untimed).
    fn check_landed(&self, ids: &[String]) {
        let (env, repo) = (self.env, self.repo);
        let landed: usize = rev(env, repo, &format!("--count {}..main", self.m1))
            .parse()
            .unwrap();
        assert_eq!(landed, ids.len() * COMMITS, "not everything landed");
        let mut c = env.git(repo, &["status", "--porcelain", "--untracked-files=no"]);
        c.stdout(Stdio::piped());
        assert!(
            c.output().unwrap().stdout.is_empty(),
            "the checkout is not clean"
        );
        for id in ids {
            drop_worktree(env, repo, &format!(".loop-worktrees/{id}"));
            run(env.git(repo, &["branch", "-q", "-D", &format!("loop/{id}")]));
        }
        // The landed runs' entries, their directories gone: dropped.
        run(env.gl(repo, &["reconcile"]));
    }
}

/// `git rev-parse <spec>` (or `git rev-list <args>` when `spec` starts
/// with `--count`), trimmed.
fn rev(env: &Env, repo: &Path, spec: &str) -> String {
    let args: Vec<&str> = match spec.strip_prefix("--count ") {
        Some(range) => vec!["rev-list", "--count", range],
        None => vec!["rev-parse", spec],
    };
    let mut c = env.git(repo, &args);
    c.stdout(Stdio::piped());
    let out = c.output().unwrap();
    assert!(out.status.success(), "{args:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Per row, per kind: medians, the ratio to each baseline, and that ratio
/// over SHA-1 + files's (target ≤ 1.1).
fn print_figures(figures: &[Figures]) {
    let version = Command::new("git")
        .arg("--version")
        .output()
        .unwrap()
        .stdout;
    println!(
        "git-loop on the four repository kinds — {}",
        String::from_utf8_lossy(&version).trim()
    );
    println!(
        "medians; ratio = git-loop / git on the same kind; vs SHA-1+files = that ratio / SHA-1+files's\n"
    );
    println!(
        "| scenario | kind | git-loop | git | ratio | vs SHA-1+files | ≤ 1.1 | baseline | pairs |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for f in figures {
        for (b, baseline) in f.baselines.iter().enumerate() {
            let ratio =
                |k: usize| f.medians[k][0].as_secs_f64() / f.medians[k][b + 1].as_secs_f64();
            for (k, kind) in KINDS.iter().enumerate() {
                let relative = ratio(k) / ratio(0);
                let met = if relative <= 1.1 { "yes" } else { "NO" };
                println!(
                    "| {} | {} | {} | {} | {:.2} | {relative:.2} | {met} | {baseline} | {} |",
                    f.scenario,
                    kind.name,
                    ms(f.medians[k][0]),
                    ms(f.medians[k][b + 1]),
                    ratio(k),
                    f.pairs
                );
            }
        }
    }
}
