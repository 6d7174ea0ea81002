//! git-loop against plain git on a history of real shape: `cargo bench
//! --bench history` (or `scripts/bench`, which runs every target).
//!
//! Fixture: `tests/integration/common/history.rs`'s `Shape::real()`
//! (~100,000 commits, 5,000 files, ~24,600 topic merges, topics built on
//! topics in criss-cross), imported by `git fast-import` (~25 s, more on a
//! busy machine). Runs are made from its open topics: `loop/<id>` created
//! (reflog `branch: Created from main`) at the topic's merge base with
//! `main`, then moved to the topic, each with its worktree, and a manifest
//! written by hand. Every row is timed twice: without a commit-graph (as a
//! fresh clone is; `.git/objects/info/commit-graph*` removed) and with one
//! (`git commit-graph write --reachable`). Interleaved (ABBA), medians.
//!
//! Rows:
//! - `list --long`, 20 runs; git: per run `git status --porcelain` in its
//!   worktree, `git rev-list --left-right --count loop/<id>...main`, `git
//!   merge-base --is-ancestor loop/<id> main`. Target: ≤ 1.0.
//! - `conflicts`, 20 runs (190 pairs); git: per run `git merge-tree
//!   --write-tree main loop/<id>` and `git commit-tree` of its result (the
//!   run landed), per pair `git merge-tree --write-tree <a landed>
//!   loop/<b>` (the pair as git-loop predicts it). Target: ≤ 0.3.
//! - `land --queue --keep` of 10 runs whose topics touch files no other
//!   of the ten, nor `main` since, touches (so both sides land all ten);
//!   git: per run `git rebase main` in its worktree then `git merge
//!   --ff-only` in the main checkout, as benches/land.rs. Target: ≤ 0.5
//!   without a commit-graph, ≤ 0.3 with.
//! - `mark --detect-merged --dry-run` over the 20 runs and 10 topics merged
//!   into `main` 10 to 10,000 merges back; git: per run `git merge-base
//!   --is-ancestor loop/<id> main`, and `git cherry main loop/<id>` when it
//!   is not. Reported (the issue sets no target).
//!
//! `BENCH_QUICK=1` runs one pair a row; `BENCH_ITERS=<n>` sets the count.

mod common;
#[path = "../tests/integration/common/history.rs"]
#[allow(dead_code)]
mod history;

use common::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

const LIST: usize = 20;
const LAND: usize = 10;
const MERGED_BACK: [usize; 10] = [10, 30, 100, 300, 1_000, 2_000, 3_000, 5_000, 7_500, 10_000];

struct Fixture<'a> {
    env: &'a Env,
    repo: PathBuf,
    /// `main` as imported.
    main: String,
    /// The 20 runs: (id, tip).
    runs: Vec<(String, String)>,
    /// The runs for the queue (ids among `runs`).
    queue: Vec<String>,
    /// Runs at topics merged long ago: (id, tip).
    merged: Vec<(String, String)>,
}

fn main() {
    let (_tmp, base, env) = setup();
    let repo = base.join("real");
    std::fs::create_dir_all(&repo).unwrap();
    run(env.git(&repo, &["init", "-q", "-b", "main"]));
    eprintln!("importing a history of real shape (~100,000 commits)…");
    let t = Instant::now();
    let summary = history::import(env.git(&repo, &[]), &history::Shape::real());
    eprintln!("imported {} commits in {:?}", summary.commits, t.elapsed());
    run(env.git(&repo, &["reset", "-q", "--hard", "main"]));
    std::fs::write(repo.join(".git/info/exclude"), ".loop-worktrees/\n").unwrap();
    let main_tip = out(&env, &repo, &["rev-parse", "main"]);
    let mut f = Fixture {
        env: &env,
        repo,
        main: main_tip,
        runs: Vec::new(),
        queue: Vec::new(),
        merged: Vec::new(),
    };
    f.make_runs(&summary.open);

    let mut rows = Vec::new();
    for graph in [false, true] {
        f.commit_graph(graph);
        let label = if graph {
            "with a commit-graph"
        } else {
            "no commit-graph"
        };
        rows.push(f.list(label));
        rows.push(f.conflicts(label));
        rows.push(f.land(label, if graph { 0.3 } else { 0.5 }));
        rows.push(f.mark(label));
    }
    print_rows(&rows);
}

fn out(env: &Env, dir: &Path, args: &[&str]) -> String {
    let mut c = env.git(dir, args);
    c.stdout(Stdio::piped());
    let o = c.output().unwrap();
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().to_owned()
}

/// Files changed from `a` to `b`.
fn files(env: &Env, dir: &Path, a: &str, b: &str) -> Vec<String> {
    out(env, dir, &["diff", "--name-only", a, b])
        .lines()
        .map(str::to_owned)
        .collect()
}

impl Fixture<'_> {
    fn git(&self, args: &[&str]) -> String {
        out(self.env, &self.repo, args)
    }

    /// `loop/<id>` created at `start`, then moved to `tip`.
    fn branch(&self, id: &str, start: &str, tip: &str) {
        let name = format!("refs/heads/loop/{id}");
        let _ = self
            .env
            .git(&self.repo, &["update-ref", "-d", &name])
            .status();
        self.git(&[
            "update-ref",
            "-m",
            "branch: Created from main",
            &name,
            start,
        ]);
        self.git(&["update-ref", "-m", "work", &name, tip]);
    }

    fn make_runs(&mut self, open: &[String]) {
        let (env, repo) = (self.env, self.repo.clone());
        // The queue: topics without merges whose files no other chosen
        // topic, nor `main` since the topic started, touches.
        let mut taken: std::collections::HashSet<String> = Default::default();
        let mut queue = Vec::new();
        let mut rest = Vec::new();
        for topic in open {
            let tip = self.git(&["rev-parse", topic]);
            let start = self.git(&["merge-base", &tip, "main"]);
            let merges = self.git(&["rev-list", "--merges", &format!("{start}..{tip}")]);
            let ours = files(env, &repo, &start, &tip);
            let main_moved = files(env, &repo, &start, "main");
            let free = merges.is_empty()
                && !ours.is_empty()
                && ours
                    .iter()
                    .all(|p| !taken.contains(p) && !main_moved.contains(p));
            if free && queue.len() < LAND {
                taken.extend(ours);
                queue.push((tip, start));
            } else {
                rest.push((tip, start));
            }
        }
        assert_eq!(queue.len(), LAND, "not enough independent topics");
        for (i, (tip, start)) in queue.iter().chain(rest.iter()).take(LIST).enumerate() {
            let id = format!("r{i:02}");
            self.branch(&id, start, tip);
            let path = format!(".loop-worktrees/{id}");
            run(env.git(
                &repo,
                &["worktree", "add", "-q", &path, &format!("loop/{id}")],
            ));
            if i < LAND {
                self.queue.push(id.clone());
            }
            self.runs.push((id, tip.clone()));
        }
        let merges = self.git(&["rev-list", "--first-parent", "--merges", "main"]);
        let merges: Vec<&str> = merges.lines().collect();
        for (k, back) in MERGED_BACK.iter().enumerate() {
            let merge = merges[(*back).min(merges.len() - 1)];
            let tip = self.git(&["rev-parse", &format!("{merge}^2")]);
            let start = self.git(&["merge-base", &format!("{merge}^1"), &tip]);
            let id = format!("m{k:02}");
            self.branch(&id, &start, &tip);
            self.merged.push((id, tip));
        }
        self.manifest(false);
        let _ = std::process::Command::new("sync").status();
    }

    /// The manifest: the 20 runs `active`, and (`with_merged`) the runs
    /// at merged topics too (worktree-less, `stale`).
    fn manifest(&self, with_merged: bool) {
        let mut text = String::from("{\"version\":1,\"worktrees\":[");
        let merged = if with_merged { &self.merged[..] } else { &[] };
        for (i, (id, _)) in self.runs.iter().chain(merged).enumerate() {
            let status = if id.starts_with('m') {
                "stale"
            } else {
                "active"
            };
            let sep = if i == 0 { "" } else { "," };
            let _ = write!(
                text,
                "{sep}{{\"id\":\"{id}\",\"path\":\".loop-worktrees/{id}\",\"branch\":\"loop/{id}\",\"baseBranch\":\"main\",\"pattern\":\"bench\",\"createdAt\":\"2026-01-01T00:00:00Z\",\"status\":\"{status}\"}}"
            );
        }
        text.push_str("]}\n");
        std::fs::write(self.repo.join(".loop-worktrees/manifest.json"), text).unwrap();
    }

    fn commit_graph(&self, on: bool) {
        let info = self.repo.join(".git/objects/info");
        for e in std::fs::read_dir(&info).unwrap().flatten() {
            if e.file_name().to_string_lossy().starts_with("commit-graph") {
                let p = e.path();
                let _ = std::fs::remove_dir_all(&p).or_else(|_| std::fs::remove_file(&p));
            }
        }
        if on {
            run(self
                .env
                .git(&self.repo, &["commit-graph", "write", "--reachable"]));
        }
    }

    fn gl(&self, args: &[&str]) -> Duration {
        timed(self.env.gl(&self.repo, args))
    }

    fn list(&self, label: &str) -> Row {
        let (env, repo) = (self.env, &self.repo);
        let it = iters(5, 1);
        let (o, b) = compare(
            it,
            |_| self.gl(&["-q", "list", "--long"]),
            |_| {
                let t = Instant::now();
                for (id, _) in &self.runs {
                    let wt = repo.join(".loop-worktrees").join(id);
                    run(env.git(&wt, &["status", "--porcelain"]));
                    let range = format!("loop/{id}...main");
                    run(env.git(repo, &["rev-list", "--left-right", "--count", &range]));
                    // Exit 1 (not an ancestor) is an answer.
                    let _ = env
                        .git(
                            repo,
                            &["merge-base", "--is-ancestor", &format!("loop/{id}"), "main"],
                        )
                        .status();
                }
                t.elapsed()
            },
            |_| {},
        );
        Row {
            scenario: format!("list --long, {LIST} runs, {label}"),
            ours: o,
            base: b,
            target: Some(1.0),
            note: format!(
                "baseline: per run git status --porcelain, rev-list --left-right --count, merge-base --is-ancestor; {it} pairs"
            ),
        }
    }

    fn conflicts(&self, label: &str) -> Row {
        let (env, repo) = (self.env, &self.repo);
        let it = iters(3, 1);
        let (o, b) = compare(
            it,
            |_| self.gl(&["-q", "conflicts"]),
            |_| {
                let t = Instant::now();
                let mut landed = Vec::new();
                for (id, _) in &self.runs {
                    let branch = format!("loop/{id}");
                    let tree = merge_tree(env, repo, "main", &branch);
                    let commit = out(
                        env,
                        repo,
                        &[
                            "commit-tree",
                            &tree,
                            "-p",
                            "main",
                            "-p",
                            &branch,
                            "-m",
                            "land",
                        ],
                    );
                    landed.push(commit);
                }
                for (i, a) in landed.iter().enumerate() {
                    for (id, _) in &self.runs[i + 1..] {
                        merge_tree(env, repo, a, &format!("loop/{id}"));
                    }
                }
                t.elapsed()
            },
            |_| {},
        );
        Row {
            scenario: format!(
                "conflicts, {LIST} runs ({} pairs), {label}",
                LIST * (LIST - 1) / 2
            ),
            ours: o,
            base: b,
            target: Some(0.3),
            note: format!(
                "baseline: per run git merge-tree --write-tree main <run> and commit-tree (landed), per pair merge-tree <a landed> <b>; {it} pairs"
            ),
        }
    }

    /// Put `main`, its checkout, and the queue's runs back as made.
    fn reset_queue(&self) {
        let (env, repo) = (self.env, &self.repo);
        run(env.git(repo, &["reset", "-q", "--hard", &self.main]));
        for id in &self.queue {
            let tip = &self.runs.iter().find(|(r, _)| r == id).unwrap().1;
            let wt = repo.join(".loop-worktrees").join(id);
            run(env.git(&wt, &["reset", "-q", "--hard", tip]));
        }
        self.manifest(false);
        let _ = std::process::Command::new("sync").status();
    }

    fn land(&self, label: &str, target: f64) -> Row {
        let (env, repo) = (self.env, &self.repo);
        let it = iters(3, 1);
        // Only the queue's runs are escalated: the queue takes those.
        let queue_manifest = || {
            let text = std::fs::read_to_string(repo.join(".loop-worktrees/manifest.json")).unwrap();
            let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
            for w in v["worktrees"].as_array_mut().unwrap() {
                if self.queue.iter().any(|q| w["id"] == q.as_str()) {
                    w["status"] = "escalated".into();
                }
            }
            std::fs::write(
                repo.join(".loop-worktrees/manifest.json"),
                serde_json::to_string(&v).unwrap(),
            )
            .unwrap();
        };
        let landed = |what: &str| {
            let n: usize = out(
                env,
                repo,
                &["rev-list", "--count", &format!("{}..main", self.main)],
            )
            .parse()
            .unwrap();
            assert!(n > 0, "{what}: nothing landed");
        };
        let (o, b) = compare(
            it,
            |_| {
                self.reset_queue();
                queue_manifest();
                let t = self.gl(&["-q", "land", "--queue", "--status", "escalated", "--keep"]);
                landed("git-loop");
                t
            },
            |_| {
                self.reset_queue();
                let t = Instant::now();
                for id in &self.queue {
                    let wt = repo.join(".loop-worktrees").join(id);
                    run(env.git(&wt, &["rebase", "-q", "main"]));
                    run(env.git(repo, &["merge", "-q", "--ff-only", &format!("loop/{id}")]));
                }
                let t = t.elapsed();
                landed("git");
                t
            },
            |_| self.reset_queue(),
        );
        Row {
            scenario: format!("land --queue --keep, {LAND} runs, {label}"),
            ours: o,
            base: b,
            target: Some(target),
            note: format!(
                "baseline: per run git rebase main in its worktree, then merge --ff-only in the main checkout; {it} pairs"
            ),
        }
    }

    fn mark(&self, label: &str) -> Row {
        let (env, repo) = (self.env, &self.repo);
        self.manifest(true);
        let it = iters(5, 1);
        let all: Vec<&String> = self
            .runs
            .iter()
            .chain(&self.merged)
            .map(|(id, _)| id)
            .collect();
        let (o, b) = compare(
            it,
            |_| self.gl(&["-q", "mark", "--detect-merged", "--dry-run"]),
            |_| {
                let t = Instant::now();
                for id in &all {
                    let branch = format!("loop/{id}");
                    let ancestor = env
                        .git(repo, &["merge-base", "--is-ancestor", &branch, "main"])
                        .status()
                        .unwrap()
                        .success();
                    if !ancestor {
                        run(env.git(repo, &["cherry", "main", &branch]));
                    }
                }
                t.elapsed()
            },
            |_| {},
        );
        self.manifest(false);
        Row {
            scenario: format!(
                "mark --detect-merged --dry-run, {} runs ({} merged long ago), {label}",
                all.len(),
                self.merged.len()
            ),
            ours: o,
            base: b,
            target: None,
            note: format!(
                "baseline: per run git merge-base --is-ancestor, then git cherry main <run> when not; {it} pairs"
            ),
        }
    }
}

/// `git merge-tree --write-tree <ours> <theirs>`: the merged tree (exit 1,
/// conflicts, is an answer too).
fn merge_tree(env: &Env, repo: &Path, ours: &str, theirs: &str) -> String {
    let mut c = env.git(repo, &["merge-tree", "--write-tree", ours, theirs]);
    c.stdout(Stdio::piped());
    let o = c.output().unwrap();
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "merge-tree {ours} {theirs}"
    );
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}
