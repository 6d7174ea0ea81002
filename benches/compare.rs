//! git-loop against plain git, side by side: `scripts/bench` (or
//! `cargo bench --bench compare`). Builds release, makes its own fixtures in
//! a temporary directory, runs each scenario interleaved with its baseline
//! (ABBA order, so drift hits both), and prints medians and ratios.
//!
//! `BENCH_QUICK=1` runs fewer iterations (a smoke run).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_git-loop");

struct Env {
    home: PathBuf,
}

impl Env {
    fn cmd(&self, program: &str, dir: &Path) -> Command {
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
    fn git(&self, dir: &Path, args: &[&str]) -> Command {
        let mut c = self.cmd("git", dir);
        c.args(args);
        c
    }
    fn gl(&self, dir: &Path, args: &[&str]) -> Command {
        let mut c = self.cmd(BIN, dir);
        c.args(args);
        c
    }
}

fn run(mut c: Command) {
    let out = c.output().expect("spawn");
    assert!(
        out.status.success(),
        "{c:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn timed(c: Command) -> Duration {
    let t = Instant::now();
    run(c);
    t.elapsed()
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

struct Row {
    scenario: String,
    ours: Duration,
    base: Duration,
    target: Option<f64>,
    note: String,
}

/// Interleave `ours(i)` and `base(i)` for `n` iterations (ABBA); `reset(i)`
/// runs untimed after each pair.
fn compare(
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

fn init_repo(env: &Env, dir: &Path, files: usize) {
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

fn write_manifest(dir: &Path, n: usize, status: &str) {
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
fn drop_worktree(env: &Env, repo: &Path, rel: &str) {
    let _ = std::fs::remove_dir_all(repo.join(rel));
    run(env.git(repo, &["worktree", "prune"]));
}

fn peak_rss_kib(env: &Env, repo: &Path, args: &[&str]) -> Option<u64> {
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

fn main() {
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let it = |full: usize| if quick { 3.min(full) } else { full };
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
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let git_version = String::from_utf8(
        Command::new("git")
            .arg("--version")
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    eprintln!("building fixtures in a temporary directory…");

    let tiny = base.join("tiny");
    init_repo(&env, &tiny, 1);
    let big = base.join("big");
    init_repo(&env, &big, 10_000);
    let mut rows: Vec<Row> = Vec::new();

    // create on the 10k-file repo, and on the tiny repo.
    for (name, repo, n, target) in [
        ("create, 10k-file repo", &big, it(9), 1.05),
        ("create, tiny repo", &tiny, it(21), 1.5),
    ] {
        let (o, b) = compare(
            n,
            |i| timed(env.gl(repo, &["create", &format!("o{i}"), "--pattern", "bench"])),
            |i| {
                timed(env.git(
                    repo,
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
                drop_worktree(&env, repo, &format!(".loop-worktrees/o{i}"));
                drop_worktree(&env, repo, &format!(".loop-worktrees/b{i}"));
            },
        );
        rows.push(Row {
            scenario: name.into(),
            ours: o,
            base: b,
            target: Some(target),
            note: "baseline: git worktree add -b".into(),
        });
        let _ = std::fs::remove_file(repo.join(".loop-worktrees/manifest.json"));
    }

    // 16 concurrent creates vs 16 sequential adds, 10k-file repo.
    {
        let mut failures = 0;
        let rounds = it(5);
        let (o, b) = compare(
            rounds,
            |r| {
                let t = Instant::now();
                let children: Vec<_> = (0..16)
                    .map(|k| {
                        env.gl(
                            &big,
                            &["create", &format!("c{r}-{k}"), "--pattern", "bench"],
                        )
                        .spawn()
                        .unwrap()
                    })
                    .collect();
                for c in children {
                    if !c.wait_with_output().unwrap().status.success() {
                        failures += 1;
                    }
                }
                t.elapsed()
            },
            |r| {
                let t = Instant::now();
                for k in 0..16 {
                    run(env.git(
                        &big,
                        &[
                            "worktree",
                            "add",
                            "-q",
                            "-b",
                            &format!("s{r}-{k}"),
                            "--",
                            &format!(".loop-worktrees/s{r}-{k}"),
                            "main",
                        ],
                    ));
                }
                t.elapsed()
            },
            |r| {
                for k in 0..16 {
                    let _ = std::fs::remove_dir_all(big.join(format!(".loop-worktrees/c{r}-{k}")));
                    let _ = std::fs::remove_dir_all(big.join(format!(".loop-worktrees/s{r}-{k}")));
                }
                run(env.git(&big, &["worktree", "prune"]));
            },
        );
        rows.push(Row {
            scenario: "16 concurrent creates, 10k-file repo".into(),
            ours: o,
            base: b,
            target: Some(0.8),
            note: format!(
                "baseline: 16 sequential git worktree add; {failures} failures in {} creates",
                rounds * 16
            ),
        });
        let _ = std::fs::remove_file(big.join(".loop-worktrees/manifest.json"));
    }

    // Reads and mark at 1k and 10k entries.
    let mut scaling = String::new();
    for (entries, target) in [(1_000usize, 2.0), (10_000, 6.0)] {
        let repo = base.join(format!("m{entries}"));
        init_repo(&env, &repo, 1);
        write_manifest(&repo, entries, "active");
        let n = it(31);
        let mut per_command = Vec::new();
        for (name, args) in [
            ("list", vec!["list"]),
            ("list --json", vec!["--json", "list"]),
            ("path", vec!["path", "run-500"]),
            ("mark", vec!["mark", "run-500", "merged"]),
        ] {
            if name == "mark" && entries == 1_000 {
                // Reported for scaling only below.
            }
            let (o, b) = compare(
                n,
                |i| {
                    let mut a = args.clone();
                    let status = if i % 2 == 0 { "merged" } else { "stale" };
                    if name == "mark" {
                        a[2] = status;
                    }
                    timed(env.gl(&repo, &a))
                },
                |_| timed(env.git(&repo, &["rev-parse", "--show-toplevel"])),
                |_| {},
            );
            per_command.push((name, o));
            if entries == 10_000 || name != "mark" {
                rows.push(Row {
                    scenario: format!("{name}, {entries} entries"),
                    ours: o,
                    base: b,
                    target: Some(target),
                    note: "baseline: git rev-parse --show-toplevel".into(),
                });
            }
        }
        for (name, d) in per_command {
            let _ = writeln!(scaling, "  {name:<12} {entries:>6} entries: {}", ms(d));
        }
        if entries == 10_000 {
            for (name, args) in [
                ("list", vec!["list"]),
                ("path", vec!["path", "run-500"]),
                ("mark", vec!["mark", "run-500", "stale"]),
            ] {
                match peak_rss_kib(&env, &repo, &args) {
                    Some(kib) => {
                        let _ = writeln!(
                            scaling,
                            "  {name:<12} peak memory at 10000 entries: {:.1} MiB",
                            kib as f64 / 1024.0
                        );
                    }
                    None => {
                        let _ = writeln!(
                            scaling,
                            "  {name:<12} peak memory: /usr/bin/time not installed"
                        );
                    }
                }
            }
        }
    }

    // reconcile with 500 registered loop worktrees.
    {
        let repo = base.join("r500");
        init_repo(&env, &repo, 1);
        for i in 0..500 {
            run(env.git(
                &repo,
                &[
                    "worktree",
                    "add",
                    "-q",
                    "-b",
                    &format!("loop/run-{i}"),
                    "--",
                    &format!(".loop-worktrees/run-{i}"),
                    "main",
                ],
            ));
        }
        write_manifest(&repo, 500, "active");
        let (o, b) = compare(
            it(15),
            |_| timed(env.gl(&repo, &["reconcile"])),
            |_| timed(env.git(&repo, &["worktree", "list", "--porcelain"])),
            |_| {},
        );
        rows.push(Row {
            scenario: "reconcile, 500 worktrees".into(),
            ours: o,
            base: b,
            target: Some(1.0),
            note: "baseline: git worktree list --porcelain".into(),
        });
    }

    // cleanup of 200 terminal worktrees vs 200 sequential removes.
    {
        let repo = base.join("c200");
        init_repo(&env, &repo, 1);
        // Worktrees at .loop-worktrees/<prefix><i>, on branches unique per round.
        let make = |prefix: &str, round: usize| {
            for i in 0..200 {
                let branch = format!("fixture/{prefix}{round}-{i}");
                let path = format!(".loop-worktrees/{prefix}{i}");
                run(env.git(
                    &repo,
                    &["worktree", "add", "-q", "-b", &branch, "--", &path, "main"],
                ));
            }
        };
        let (o, b) = compare(
            it(3),
            |r| {
                make("run-", r);
                write_manifest(&repo, 200, "rejected");
                timed(env.gl(&repo, &["cleanup"]))
            },
            |r| {
                make("s", r);
                let t = Instant::now();
                for i in 0..200 {
                    run(env.git(
                        &repo,
                        &["worktree", "remove", "--", &format!(".loop-worktrees/s{i}")],
                    ));
                }
                t.elapsed()
            },
            |_| {},
        );
        rows.push(Row {
            scenario: "cleanup, 200 terminal worktrees".into(),
            ours: o,
            base: b,
            target: Some(0.7),
            note: "baseline: 200 sequential git worktree remove (fixture setup untimed)".into(),
        });
    }

    // list --long over 20 worktrees of a 2,000-file repository (one dirty,
    // one with commits of its own) vs what an operator would otherwise run:
    // `git status --porcelain` in each and `git rev-list --left-right --count`
    // against the base for each.
    {
        let repo = base.join("long20");
        init_repo(&env, &repo, 2000);
        for i in 0..20 {
            run(env.gl(
                &repo,
                &["create", &format!("run-{i}"), "--pattern", "bench"],
            ));
        }
        std::fs::write(repo.join(".loop-worktrees/run-3/d0/f0.txt"), "changed\n").unwrap();
        let wt1 = repo.join(".loop-worktrees/run-1");
        std::fs::write(wt1.join("new.txt"), "new\n").unwrap();
        run(env.git(&wt1, &["add", "new.txt"]));
        run(env.git(&wt1, &["commit", "-q", "-m", "work"]));
        // Refresh every index once, so neither side pays for stat-dirty entries.
        for i in 0..20 {
            run(env.git(
                &repo.join(format!(".loop-worktrees/run-{i}")),
                &["status", "--porcelain"],
            ));
        }
        let (o, b) = compare(
            it(9),
            |_| timed(env.gl(&repo, &["list", "--long"])),
            |_| {
                let t = Instant::now();
                for i in 0..20 {
                    run(env.git(
                        &repo.join(format!(".loop-worktrees/run-{i}")),
                        &["status", "--porcelain"],
                    ));
                    run(env.git(
                        &repo,
                        &[
                            "rev-list",
                            "--left-right",
                            "--count",
                            &format!("loop/run-{i}...main"),
                        ],
                    ));
                }
                t.elapsed()
            },
            |_| {},
        );
        rows.push(Row {
            scenario: "list --long, 20 worktrees × 2k files".into(),
            ours: o,
            base: b,
            target: None,
            note:
                "baseline: per worktree, git status --porcelain + git rev-list --left-right --count"
                    .into(),
        });
    }

    // 100,000 entries whose directories are gone: reconcile drops them all,
    // cleanup drops them all (every entry rejected). Baseline: `git worktree
    // prune`, what a user would run for stale registrations. The mutex hold
    // is read from the binary's own trace (GIT_LOOP_TEST_MUTEX_TRACE): the
    // longest single hold, median over the iterations.
    {
        let repo = base.join("gone100k");
        init_repo(&env, &repo, 1);
        for (command, status) in [("reconcile", "active"), ("cleanup", "rejected")] {
            let mut holds = Vec::new();
            let (o, b) = compare(
                it(5),
                |_| {
                    write_manifest(&repo, 100_000, status);
                    let mut c = env.gl(&repo, &["-q", command]);
                    c.env("GIT_LOOP_TEST_MUTEX_TRACE", "1");
                    let t = Instant::now();
                    let out = c.output().expect("spawn");
                    let took = t.elapsed();
                    assert!(out.status.success(), "{command} failed");
                    let longest = String::from_utf8_lossy(&out.stderr)
                        .lines()
                        .filter_map(|l| l.strip_prefix("mutex held "))
                        .filter_map(|l| l.trim_end_matches(" us").parse::<u64>().ok())
                        .max()
                        .unwrap_or(0);
                    holds.push(Duration::from_micros(longest));
                    took
                },
                |_| timed(env.git(&repo, &["worktree", "prune"])),
                |_| {},
            );
            let hold = median(&mut holds);
            rows.push(Row {
                scenario: format!("{command}, 100,000 entries whose directories are gone"),
                ours: o,
                base: b,
                target: None,
                note: format!(
                    "baseline: git worktree prune; longest mutex hold {} (median)",
                    ms(hold)
                ),
            });
        }
    }

    // A peer: worktrunk, if installed.
    let peer = Command::new("wt")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success());
    let peer_line = match peer {
        None => "worktrunk (`wt`) is not installed: peer row skipped (cargo install --locked worktrunk@0.67.0)".to_owned(),
        Some(_) => {
            let (o, b) = compare(
                it(9),
                |i| timed(env.gl(&tiny, &["create", &format!("p{i}"), "--pattern", "bench"])),
                |i| timed({ let mut c = env.cmd("wt", &tiny); c.args(["switch", "--create", &format!("wt{i}")]); c }),
                |_| {},
            );
            rows.push(Row { scenario: "create vs worktrunk, tiny repo".into(), ours: o, base: b, target: None, note: "baseline: wt switch --create".into() });
            String::new()
        }
    };

    // Startup cost of the empty manifest case, for reference.
    println!("git-loop benchmark — {cores} cores, {}", git_version.trim());
    println!(
        "medians; ratio = git-loop / baseline; interleaved ABBA in one process tree{}\n",
        if quick {
            " (BENCH_QUICK: few iterations)"
        } else {
            ""
        }
    );
    println!("| scenario | git-loop | baseline | ratio | target | met | baseline and notes |");
    println!("|---|---|---|---|---|---|---|");
    for r in &rows {
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
    if !peer_line.is_empty() {
        println!("\n{peer_line}");
    }
    println!("\nGrowth from 1,000 to 10,000 entries (medians):\n{scaling}");
}
