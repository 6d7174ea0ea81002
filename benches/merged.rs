//! Merged detection: `git loop list --long` with 50 runs in a 10,000-file
//! repository, against the same answers from plain git.
//!
//! The runs (branches `loop/run-<i>`, recorded in the manifest, worktrees
//! not present so only the branch questions are timed): 10 merged with a
//! merge commit (`ancestor`), 10 squash-merged, 10 rebase-merged (their
//! commits replayed onto main, the branch left where it was), 10 unmerged,
//! 10 empty. Each has two commits touching its own file; main gains ~50
//! commits over them.
//!
//! The baseline answers the same questions per run the way a script would
//! with git: `git merge-base --is-ancestor`, `git merge-tree --write-tree`
//! (compared with main's tree), and `git log -p` of both sides since the
//! merge base piped into `git patch-id --stable` — all in one bash process.

mod common;
use common::*;

use std::path::Path;
use std::process::Stdio;

const RUNS: usize = 50;

fn out(env: &Env, dir: &Path, args: &[&str]) -> String {
    let mut c = env.git(dir, args);
    c.stdout(Stdio::piped());
    let o = c.output().unwrap();
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap().trim().to_owned()
}

/// A commit on `parent` whose tree is `parent`'s with `file` set to `text`.
fn commit_file(env: &Env, repo: &Path, parent: &str, file: &str, text: &str, msg: &str) -> String {
    let blob = {
        let path = repo.join(".bench-blob");
        std::fs::write(&path, text).unwrap();
        let id = out(env, repo, &["hash-object", "-w", ".bench-blob"]);
        std::fs::remove_file(path).unwrap();
        id
    };
    let index = repo.join(".git/bench-index");
    let mut read = env.git(repo, &["read-tree", parent]);
    read.env("GIT_INDEX_FILE", &index);
    run(read);
    let mut add = env.git(
        repo,
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("100644,{blob},{file}"),
        ],
    );
    add.env("GIT_INDEX_FILE", &index);
    run(add);
    let mut write = env.git(repo, &["write-tree"]);
    write.env("GIT_INDEX_FILE", &index).stdout(Stdio::piped());
    let tree = String::from_utf8(write.output().unwrap().stdout)
        .unwrap()
        .trim()
        .to_owned();
    out(env, repo, &["commit-tree", &tree, "-p", parent, "-m", msg])
}

fn build(env: &Env, repo: &Path) {
    init_repo(env, repo, 10_000);
    let start = out(env, repo, &["rev-parse", "main"]);
    let mut tips = Vec::new();
    for i in 0..RUNS {
        let branch = format!("loop/run-{i}");
        run(env.git(repo, &["branch", &branch, &start]));
        if i >= 40 {
            tips.push(start.clone());
            continue; // empty
        }
        let file = format!("d{}/f{}.txt", i, i * 100 + 7);
        let c1 = commit_file(
            env,
            repo,
            &start,
            &file,
            &format!("run {i}\nline 2\n"),
            "one",
        );
        let c2 = commit_file(
            env,
            repo,
            &c1,
            &file,
            &format!("run {i}\nline 2\nline 3\n"),
            "two",
        );
        run(env.git(repo, &["update-ref", &format!("refs/heads/{branch}"), &c2]));
        tips.push(c2);
    }
    for (i, tip) in tips.iter().enumerate().take(30) {
        let main = out(env, repo, &["rev-parse", "main"]);
        let merged_tree = out(env, repo, &["merge-tree", "--write-tree", &main, tip]);
        let new_main = match i / 10 {
            0 => out(
                env,
                repo,
                &[
                    "commit-tree",
                    &merged_tree,
                    "-p",
                    &main,
                    "-p",
                    tip,
                    "-m",
                    "merge",
                ],
            ),
            1 => out(
                env,
                repo,
                &["commit-tree", &merged_tree, "-p", &main, "-m", "squash"],
            ),
            _ => {
                // Replay each of the run's two commits onto main.
                let file = format!("d{}/f{}.txt", i, i * 100 + 7);
                let r1 = commit_file(
                    env,
                    repo,
                    &main,
                    &file,
                    &format!("run {i}\nline 2\n"),
                    "one",
                );
                commit_file(
                    env,
                    repo,
                    &r1,
                    &file,
                    &format!("run {i}\nline 2\nline 3\n"),
                    "two",
                )
            }
        };
        run(env.git(repo, &["update-ref", "refs/heads/main", &new_main]));
        // Unrelated work on main in between.
        let main = out(env, repo, &["rev-parse", "main"]);
        let other = commit_file(
            env,
            repo,
            &main,
            "d99/f9999.txt",
            &format!("main {i}\n"),
            "main",
        );
        run(env.git(repo, &["update-ref", "refs/heads/main", &other]));
    }
    run(env.git(repo, &["reset", "-q", "--hard", "main"]));
    write_manifest(repo, RUNS, "active");
}

const GIT_SCRIPT: &str = r#"
main_tree=$(git rev-parse 'main^{tree}')
for i in $(seq 0 49); do
  b=loop/run-$i
  git merge-base --is-ancestor "$b" main && continue
  mb=$(git merge-base main "$b")
  [ "$(git merge-tree --write-tree main "$b" 2>/dev/null)" = "$main_tree" ]
  git log -p --no-merges --format='commit %H' "^$mb" "$b" main | git patch-id --stable >/dev/null
done
"#;

fn main() {
    let n = if quick() { 3 } else { 15 };
    let (_tmp, base, env) = setup();
    eprintln!("building the fixture (10,000 files, {RUNS} runs)…");
    let repo = base.join("merged");
    build(&env, &repo);
    // Both sides agree on the answer before anything is timed.
    let mut check = env.gl(&repo, &["--json", "list", "--long"]);
    check.stdout(Stdio::piped());
    let doc = String::from_utf8(check.output().unwrap().stdout).unwrap();
    for by in ["\"ancestor\"", "\"squash\"", "\"rebase\""] {
        assert_eq!(doc.matches(by).count(), 10, "{by} in {doc}");
    }
    assert_eq!(doc.matches("\"empty\":true").count(), 10, "{doc}");
    let (o, b) = compare(
        n,
        |_| timed(env.gl(&repo, &["--json", "list", "--long"])),
        |_| {
            let mut c = env.cmd("bash", &repo);
            c.args(["-c", GIT_SCRIPT]);
            timed(c)
        },
        |_| {},
    );
    print_rows(&[Row {
        scenario: format!("list --long, {RUNS} runs, 10k-file repo"),
        ours: o,
        base: b,
        target: Some(0.5),
        note: "baseline: per run merge-base --is-ancestor, merge-tree --write-tree, log -p | patch-id --stable".into(),
    }]);
}
