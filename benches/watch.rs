//! `git loop watch --once` against `git loop list --long` over the same
//! runs: `cargo bench --bench watch` (or `scripts/bench`).
//!
//! A frame of the view reads what `list --long` reads (the same operation:
//! each worktree's status, ahead/behind and the merged verdict, plus each
//! run's latest activity from the end of the event log), then lays it out;
//! the ratio says what the view's own work costs on top. Fixture: a
//! 1,000-file repository with 200 runs made by `git loop create`, one run in
//! four with an activity. Rows interleaved (ABBA), medians. `BENCH_QUICK=1`
//! runs one pair; `BENCH_ITERS=<n>` sets the count.

mod common;

use common::*;

const FILES: usize = 1_000;
const RUNS: usize = 200;

fn main() {
    let (_tmp, base, env) = setup();
    eprintln!("building the fixture ({RUNS} runs) in a temporary directory…");
    let repo = base.join("fleet");
    init_repo(&env, &repo, FILES);
    for i in 0..RUNS {
        let id = format!("r{i}");
        run(env.gl(&repo, &["create", &id, "--pattern", "bench"]));
        if i % 4 == 0 {
            run(env.gl(&repo, &["activity", &id, "working"]));
        }
    }
    let it = iters(11, 1);
    // Untimed, once each: the page cache and the index stat data warm.
    run(env.gl(&repo, &["watch", "--once"]));
    run(env.gl(&repo, &["list", "--long"]));
    let (ours, list) = compare(
        it,
        |_| timed(env.gl(&repo, &["watch", "--once"])),
        |_| timed(env.gl(&repo, &["list", "--long"])),
        |_| {},
    );
    print_rows(&[Row {
        scenario: format!("watch --once, {RUNS} runs, 1k-file repo"),
        ours,
        base: list,
        target: None,
        note: format!("`git loop list --long` over the same runs; median of {it}"),
    }]);
}
