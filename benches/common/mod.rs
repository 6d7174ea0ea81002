//! What every benchmark target shares: a hermetic environment, timing,
//! interleaved comparison (ABBA), fixtures and the table printer. Each bench
//! target includes it with `mod common;`.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_git-loop");

pub struct Env {
    pub home: PathBuf,
}

impl Env {
    pub fn cmd(&self, program: &str, dir: &Path) -> Command {
        let mut c = Command::new(program);
        c.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.home.join("gitconfig"))
            .env("GIT_AUTHOR_NAME", "Bench")
            .env("GIT_AUTHOR_EMAIL", "bench@example.com")
            .env("GIT_COMMITTER_NAME", "Bench")
            .env("GIT_COMMITTER_EMAIL", "bench@example.com")
            .env("LC_ALL", "C")
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        c
    }
    pub fn git(&self, dir: &Path, args: &[&str]) -> Command {
        let mut c = self.cmd("git", dir);
        c.args(args);
        c
    }
    pub fn gl(&self, dir: &Path, args: &[&str]) -> Command {
        let mut c = self.cmd(BIN, dir);
        c.args(args);
        c
    }
}

pub fn run(mut c: Command) {
    let out = c.output().expect("spawn");
    assert!(
        out.status.success(),
        "{c:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

pub fn timed(c: Command) -> Duration {
    let t = Instant::now();
    run(c);
    t.elapsed()
}

pub fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2
    }
}

pub fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

pub struct Row {
    pub scenario: String,
    pub ours: Duration,
    pub base: Duration,
    pub target: Option<f64>,
    pub note: String,
}

/// Interleave `ours(i)` and `base(i)` for `n` iterations (ABBA); `reset(i)`
/// runs untimed after each pair.
pub fn compare(
    n: usize,
    mut ours: impl FnMut(usize) -> Duration,
    mut base: impl FnMut(usize) -> Duration,
    mut reset: impl FnMut(usize),
) -> (Duration, Duration) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for i in 0..n {
        if i % 2 == 0 {
            a.push(ours(i));
            b.push(base(i));
        } else {
            b.push(base(i));
            a.push(ours(i));
        }
        reset(i);
        // Let the page cache write back what this pair wrote and deleted,
        // so it is not charged to the next pair.
        let _ = Command::new("sync").status();
    }
    (median(&mut a), median(&mut b))
}

pub fn init_repo(env: &Env, dir: &Path, files: usize) {
    std::fs::create_dir_all(dir).unwrap();
    run(env.git(dir, &["init", "-q", "-b", "main"]));
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

pub fn write_manifest(dir: &Path, n: usize, status: &str) {
    let mut text = String::from("{\n  \"version\": 1,\n  \"worktrees\": [\n");
    for i in 0..n {
        let sep = if i + 1 == n { "" } else { "," };
        let _ = writeln!(
            text,
            "    {{\"id\": \"run-{i}\", \"path\": \".loop-worktrees/run-{i}\", \"branch\": \"loop/run-{i}\", \"baseBranch\": \"main\", \"pattern\": \"bench\", \"createdAt\": \"2026-01-01T00:00:00Z\", \"status\": \"{status}\"}}{sep}"
        );
    }
    text.push_str("  ]\n}\n");
    std::fs::write(dir.join(".loop-worktrees/manifest.json"), text).unwrap();
}

/// Remove a worktree made by the benchmark itself (fixture reset, untimed).
pub fn drop_worktree(env: &Env, repo: &Path, rel: &str) {
    let _ = std::fs::remove_dir_all(repo.join(rel));
    run(env.git(repo, &["worktree", "prune"]));
}

pub fn peak_rss_kib(env: &Env, repo: &Path, args: &[&str]) -> Option<u64> {
    if !Path::new("/usr/bin/time").exists() {
        return None;
    }
    let mut c = env.cmd("/usr/bin/time", repo);
    c.args(["-f", "%M", BIN]).args(args);
    let out = c.output().ok()?;
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .last()?
        .trim()
        .parse()
        .ok()
}

/// A temporary directory with a hermetic HOME for one bench target.
pub fn setup() -> (tempfile::TempDir, PathBuf, Env) {
    let tmp = tempfile::Builder::new()
        .prefix("git-loop-bench")
        .tempdir()
        .unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let env = Env {
        home: base.join("home"),
    };
    std::fs::create_dir_all(env.home.join(".config")).unwrap();
    std::fs::write(env.home.join("gitconfig"), "").unwrap();
    (tmp, base, env)
}

/// Whether `BENCH_QUICK` asks for a smoke run.
pub fn quick() -> bool {
    std::env::var_os("BENCH_QUICK").is_some()
}

/// Print a table of rows: medians, ratio, target and whether it was met.
pub fn print_rows(rows: &[Row]) {
    println!("| scenario | git-loop | baseline | ratio | target | met | baseline and notes |");
    println!("|---|---|---|---|---|---|---|");
    for r in rows {
        let ratio = r.ours.as_secs_f64() / r.base.as_secs_f64();
        let (target, met) = match r.target {
            Some(t) => (format!("≤ {t}"), if ratio <= t { "yes" } else { "NO" }),
            None => ("report".into(), "-"),
        };
        println!(
            "| {} | {} | {} | {ratio:.2} | {target} | {met} | {} |",
            r.scenario,
            ms(r.ours),
            ms(r.base),
            r.note
        );
    }
}

/// Iterations for a row: `BENCH_ITERS` when set (a whole number ≥ 1), else
/// `quick` under `BENCH_QUICK`, else `full`.
pub fn iters(full: usize, quick_n: usize) -> usize {
    match std::env::var("BENCH_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        Some(n) if n >= 1 => n,
        _ if quick() => quick_n,
        _ => full,
    }
}

/// Whether worktrunk's `wt` answers `wt --version` on PATH.
pub fn wt_on_path() -> bool {
    Command::new("wt")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The worktree that has `branch` checked out, from `git worktree list
/// --porcelain` (fixture reset: where a peer tool put its worktree).
pub fn worktree_of_branch(env: &Env, repo: &Path, branch: &str) -> Option<PathBuf> {
    let mut c = env.git(repo, &["worktree", "list", "--porcelain"]);
    c.stdout(Stdio::piped());
    let out = c.output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let want = format!("branch refs/heads/{branch}");
    text.split("\n\n").find_map(|block| {
        let mut lines = block.lines();
        let path = lines.next()?.strip_prefix("worktree ")?;
        lines.any(|l| l == want).then(|| PathBuf::from(path))
    })
}

/// A row that could not run, printed with its reason instead of figures.
pub fn print_skipped(scenario: &str, why: &str) {
    println!("| {scenario} | skipped | - | - | - | - | {why} |");
}
