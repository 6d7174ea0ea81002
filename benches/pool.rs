//! `create` from a warm pool against `git worktree add -b` on a
//! 10,000-file repository: `scripts/bench` (or `cargo bench --bench pool`).
//! Before each timed create, one member is prepared (`git loop pool fill 1`,
//! untimed), so every create finds a ready member; the baseline checks the
//! whole tree out. Interleaved ABBA; medians and their ratio printed.
//!
//! `BENCH_QUICK=1` runs fewer iterations (a smoke run).

mod common;

use common::*;
use std::time::Duration;

fn main() {
    let n = if quick() { 3 } else { 11 };
    let (_tmp, base, env) = setup();
    eprintln!("building a 10,000-file fixture in a temporary directory…");
    let repo = base.join("big");
    init_repo(&env, &repo, 10_000);
    run(env.gl(&repo, &["pool", "fill", "1"]));

    let mut fills: Vec<Duration> = Vec::new();
    let (pooled, git) = compare(
        n,
        |i| timed(env.gl(&repo, &["create", &format!("o{i}"), "--pattern", "bench"])),
        |i| {
            timed(env.git(
                &repo,
                &[
                    "worktree",
                    "add",
                    "-q",
                    "-b",
                    &format!("b{i}"),
                    "--",
                    &format!(".loop-worktrees/b{i}"),
                    "main",
                ],
            ))
        },
        |i| {
            drop_worktree(&env, &repo, &format!(".loop-worktrees/o{i}"));
            drop_worktree(&env, &repo, &format!(".loop-worktrees/b{i}"));
            fills.push(timed(env.gl(&repo, &["pool", "fill", "1"])));
        },
    );
    run(env.gl(&repo, &["pool", "drain"]));
    let (plain, git_plain) = compare(
        n.min(5),
        |i| timed(env.gl(&repo, &["create", &format!("p{i}"), "--pattern", "bench"])),
        |i| {
            timed(env.git(
                &repo,
                &[
                    "worktree",
                    "add",
                    "-q",
                    "-b",
                    &format!("c{i}"),
                    "--",
                    &format!(".loop-worktrees/c{i}"),
                    "main",
                ],
            ))
        },
        |i| {
            drop_worktree(&env, &repo, &format!(".loop-worktrees/p{i}"));
            drop_worktree(&env, &repo, &format!(".loop-worktrees/c{i}"));
        },
    );
    print_rows(&[
        Row {
            scenario: "create from a warm pool, 10k-file repo".into(),
            ours: pooled,
            base: git,
            target: Some(0.5),
            note: format!(
                "`git worktree add -b`; preparing the member (`pool fill 1`, untimed) took {}",
                ms(median(&mut fills))
            ),
        },
        Row {
            scenario: "create, pool drained (plain checkout), 10k-file repo".into(),
            ours: plain,
            base: git_plain,
            target: None,
            note: "`git worktree add -b` (context: the fallback)".into(),
        },
    ]);
}
