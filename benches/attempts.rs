//! Best of N on a 100,000-file repository: `cargo bench --bench attempts`.
//! Rows, each interleaved ABBA, medians and their ratio:
//!
//! - `create <TASK> --attempts 8` with a filled pool (`git loop pool fill
//!   8`, untimed, before each timed create) against 8 sequential `git
//!   worktree add -b` (target ≤ 0.15).
//! - the same with the pool drained: 8 fresh checkouts, run in parallel
//!   outside the worktree-operation lock (target ≤ 0.8).
//!
//! Fixture building is untimed. `BENCH_QUICK=1`: a 5,000-file repository and
//! 2 iterations (a smoke run); `BENCH_FILES=<n>` sets the repository size,
//! `BENCH_ITERS=<n>` the iterations of every row, `BENCH_ATTEMPTS=<n>` the
//! attempts (8).

mod common;

use common::*;
use std::path::Path;
use std::time::{Duration, Instant};

/// `n` sequential `git worktree add -b`, as a script making n attempts would.
fn git_adds(env: &Env, repo: &Path, task: &str, n: usize) -> Duration {
    let t = Instant::now();
    for k in 1..=n {
        let name = format!("{task}.{k}");
        let rel = format!(".loop-worktrees/{name}");
        run(env.git(
            repo,
            &["worktree", "add", "-q", "-b", &name, "--", &rel, "main"],
        ));
    }
    t.elapsed()
}

fn attempts(env: &Env, repo: &Path, task: &str, n: usize) -> Duration {
    timed(env.gl(
        repo,
        &[
            "create",
            task,
            "--attempts",
            &n.to_string(),
            "--pattern",
            "bench",
        ],
    ))
}

/// Untimed: the worktrees of both sides gone, the manifest with them.
fn reset(env: &Env, repo: &Path, tasks: [&str; 2], n: usize) {
    for task in tasks {
        for k in 1..=n {
            drop_worktree(env, repo, &format!(".loop-worktrees/{task}.{k}"));
        }
    }
    let _ = std::fs::remove_file(repo.join(".loop-worktrees/manifest.json"));
}

fn main() {
    let files: usize = std::env::var("BENCH_FILES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if quick() { 5_000 } else { 100_000 });
    let n: usize = std::env::var("BENCH_ATTEMPTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let iterations = iters(3, 2);
    let (_tmp, base, env) = setup();
    eprintln!("building a {files}-file fixture in a temporary directory…");
    let t = Instant::now();
    let repo = base.join("big");
    init_repo(&env, &repo, files);
    run(env.git(&repo, &["config", "loop.poolSize", &n.to_string()]));
    eprintln!("fixture ready in {}", ms(t.elapsed()));
    let mut rows = Vec::new();

    // 1. From a filled pool.
    let mut fills: Vec<Duration> = Vec::new();
    let fill = |fills: &mut Vec<Duration>| {
        fills.push(timed(env.gl(&repo, &["pool", "fill", &n.to_string()])));
    };
    fill(&mut fills);
    let (pooled, git) = compare(
        iterations,
        |i| attempts(&env, &repo, &format!("o{i}"), n),
        |i| git_adds(&env, &repo, &format!("b{i}"), n),
        |i| {
            reset(&env, &repo, [&format!("o{i}"), &format!("b{i}")], n);
            fill(&mut fills);
        },
    );
    eprintln!("row 1 done");
    rows.push(Row {
        scenario: format!("create --attempts {n} from a filled pool, {files} files"),
        ours: pooled,
        base: git,
        target: Some(0.15),
        note: format!(
            "{n} sequential `git worktree add -b`; filling the pool (`pool fill {n}`, untimed) took {}",
            ms(median(&mut fills))
        ),
    });
    run(env.gl(&repo, &["pool", "drain"]));

    // 2. Pool empty: N fresh checkouts.
    let (plain, git_plain) = compare(
        iterations,
        |i| attempts(&env, &repo, &format!("p{i}"), n),
        |i| git_adds(&env, &repo, &format!("c{i}"), n),
        |i| reset(&env, &repo, [&format!("p{i}"), &format!("c{i}")], n),
    );
    eprintln!("row 2 done");
    rows.push(Row {
        scenario: format!("create --attempts {n}, pool empty, {files} files"),
        ours: plain,
        base: git_plain,
        target: Some(0.8),
        note: format!("{n} sequential `git worktree add -b`"),
    });

    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "\n## best of N: create --attempts ({cores} cores, {iterations} interleaved pairs per row)\n"
    );
    print_rows(&rows);
}
