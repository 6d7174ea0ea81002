//! `git loop judge` against running the gate in each attempt's worktree one
//! after another: `cargo bench --bench judge`.
//!
//! Fixture: a 1,000-file repository and 8 attempts `t.1` … `t.8` (made
//! untimed by `git loop create`, each with one commit of its own). The
//! gate is a 1-second one: `sleep 1`, then a little work (`sh ./check.sh`,
//! which greps 100 files). Rows, interleaved in one process (ABBA), medians:
//! - `git loop judge t --gate …` with the default `--jobs` (the number of
//!   cores) against `sh -c <gate>` in each of the 8 worktrees in turn.
//!   Target: at most 0.6 of the sequential time on 2 cores;
//! - the same with `--jobs 8` (reported: the gate mostly waits, so more
//!   gates than cores fit).
//!
//! judge's side includes all it does besides the gates: reading the
//! manifest, the in-memory merge and diff of each attempt, the worktree
//! snapshots before and after each gate, the logs and the events.
//! `BENCH_QUICK=1` runs one pair a row; `BENCH_ITERS=<n>` sets the count.

mod common;

use common::*;
use std::time::Instant;

const FILES: usize = 1_000;
const ATTEMPTS: usize = 8;
const GATE: &str = "sleep 1; sh ./check.sh";

fn main() {
    let (_tmp, base, env) = setup();
    eprintln!("building the fixture in a temporary directory…");
    let repo = base.join("repo");
    init_repo(&env, &repo, FILES);
    std::fs::write(repo.join("check.sh"), "grep -c file d0/*.txt > /dev/null\n").unwrap();
    run(env.git(&repo, &["add", "check.sh"]));
    run(env.git(&repo, &["commit", "-q", "-m", "check"]));
    let mut dirs = Vec::new();
    for n in 1..=ATTEMPTS {
        let id = format!("t.{n}");
        run(env.gl(&repo, &["create", &id, "--pattern", "bench"]));
        let dir = repo.join(".loop-worktrees").join(&id);
        std::fs::write(dir.join("d1/f100.txt"), format!("file 100\nattempt {n}\n")).unwrap();
        run(env.git(&dir, &["commit", "-q", "-am", "attempt"]));
        dirs.push(dir);
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let sequential = |_| {
        let t = Instant::now();
        for dir in &dirs {
            let mut c = env.cmd("sh", dir);
            c.args(["-c", GATE]);
            run(c);
        }
        t.elapsed()
    };
    let mut rows = Vec::new();
    let it = iters(5, 1);
    let (o, b) = compare(
        it,
        |_| timed(env.gl(&repo, &["judge", "t", "--gate", GATE])),
        sequential,
        |_| {},
    );
    rows.push(Row {
        scenario: format!("judge, {ATTEMPTS} attempts, a 1 s gate, default --jobs ({cores} cores)"),
        ours: o,
        base: b,
        target: Some(0.6),
        note: format!("baseline: sh -c <gate> in each worktree, one after another; {it} pairs"),
    });
    let (o, b) = compare(
        it,
        |_| timed(env.gl(&repo, &["judge", "t", "--gate", GATE, "--jobs", "8"])),
        sequential,
        |_| {},
    );
    rows.push(Row {
        scenario: format!("judge --jobs 8, {ATTEMPTS} attempts, a 1 s gate"),
        ours: o,
        base: b,
        target: None,
        note: format!("the same baseline; {it} pairs"),
    });
    print_rows(&rows);
}
