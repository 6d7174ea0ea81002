//! Sparse checkouts (cone mode) and git's parallel checkout for new runs:
//! a sparse main worktree's patterns carry over (git does it), `create
//! --sparse <DIR>…` checks out only those directories, and the checkout runs
//! with `checkout.workers`.

use std::fs;
use std::path::Path;

use crate::common::{TestRepo, git_ok};

/// A repository with `a/`, `a/deep/`, `b/`, `c/` and files at the top.
fn tree() -> TestRepo {
    let repo = TestRepo::new();
    for dir in ["a", "a/deep", "b", "c"] {
        fs::create_dir_all(repo.root.join(dir)).unwrap();
        fs::write(repo.root.join(dir).join("f"), format!("{dir}\n")).unwrap();
    }
    fs::write(repo.root.join("top.txt"), "top\n").unwrap();
    repo.git(["add", "."]);
    repo.git(["commit", "-q", "-m", "tree"]);
    repo
}

/// The entries at the top of `dir`, `.git` left out, sorted.
fn top_level(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".git")
        .collect();
    names.sort();
    names
}

#[test]
fn a_sparse_main_worktree_gives_new_runs_its_patterns() {
    let repo = tree();
    repo.git(["sparse-checkout", "set", "--cone", "a", "b"]);
    assert_eq!(top_level(&repo.root), ["README", "a", "b", "top.txt"]);
    repo.create("r1");
    let wt = repo.wt("r1");
    // `.loop-worktrees/` appears in the main worktree only.
    assert_eq!(top_level(&wt), ["README", "a", "b", "top.txt"]);
    assert!(wt.join("a/deep/f").exists());
    assert_eq!(
        git_ok(&repo, &wt, &["sparse-checkout", "list"]),
        git_ok(&repo, &repo.root, &["sparse-checkout", "list"])
    );
    assert_eq!(
        git_ok(&repo, &wt, &["config", "--get", "core.sparseCheckoutCone"]),
        "true\n"
    );
    // The whole tree is still in the branch: only the checkout is sparse.
    assert!(git_ok(&repo, &wt, &["ls-files"]).contains("c/f"));
    assert_eq!(git_ok(&repo, &wt, &["status", "--porcelain"]), "");
}

#[test]
fn create_sparse_checks_out_only_the_given_directories() {
    let repo = tree();
    let run = repo.run([
        "create",
        "r1",
        "--pattern",
        "p",
        "--sparse",
        "a/deep",
        "--sparse",
        "b/",
    ]);
    run.ok();
    let wt = repo.wt("r1");
    // Cone mode: the given directories, plus the files (not the
    // directories) along the way and at the top.
    assert_eq!(top_level(&wt), ["README", "a", "b", "top.txt"]);
    assert!(wt.join("a/f").exists(), "files of a parent directory");
    assert!(wt.join("a/deep/f").exists());
    assert!(wt.join("b/f").exists());
    assert!(!wt.join("c").exists());
    assert_eq!(
        git_ok(&repo, &wt, &["sparse-checkout", "list"]),
        "a/deep\nb\n"
    );
    assert_eq!(git_ok(&repo, &wt, &["status", "--porcelain"]), "");
    assert_eq!(
        git_ok(&repo, &wt, &["rev-parse", "--abbrev-ref", "HEAD"]),
        "loop/r1\n"
    );
    // The main worktree and other runs are not sparse.
    assert_eq!(
        top_level(&repo.root),
        [
            ".gitignore",
            ".loop-worktrees",
            "README",
            "a",
            "b",
            "c",
            "top.txt"
        ]
    );
    repo.create("r2");
    assert_eq!(
        top_level(&repo.wt("r2")),
        ["README", "a", "b", "c", "top.txt"]
    );
    // Repeating the flag works the same.
    let run = repo.run([
        "--json",
        "create",
        "r3",
        "--pattern",
        "p",
        "--sparse",
        "c",
        "--sparse",
        "b",
    ]);
    run.ok();
    assert_eq!(top_level(&repo.wt("r3")), ["README", "b", "c", "top.txt"]);
}

#[test]
fn a_sparse_directory_that_is_not_one_is_refused_before_anything_changes() {
    let repo = tree();
    for bad in ["/a", "a/*", "../a", "a//b", ".git", "", "a\nb"] {
        let run = repo.run(["create", "r1", "--pattern", "p", "--sparse", bad]);
        run.code(2);
        assert!(run.stderr.contains("--sparse"), "{bad:?}: {}", run.stderr);
        assert!(!repo.loop_dir().exists(), "{bad:?}: something was written");
        assert!(!repo.branch_exists("loop/r1"));
    }
}

/// A repository of 300 files (over git's `checkout.thresholdForParallelism`
/// of 100), for the parallel checkout.
fn many_files() -> TestRepo {
    let repo = TestRepo::new();
    for d in 0..3 {
        fs::create_dir_all(repo.root.join(format!("d{d}"))).unwrap();
        for i in 0..100 {
            fs::write(repo.root.join(format!("d{d}/f{i}")), format!("{d} {i}\n")).unwrap();
        }
    }
    repo.git(["add", "."]);
    repo.git(["commit", "-q", "-m", "many"]);
    repo
}

/// Create `id` with `GIT_TRACE` on; whether git spawned parallel-checkout
/// workers (`git checkout--worker`) for it.
fn spawned_workers(repo: &TestRepo, id: &str, extra: &[&str]) -> bool {
    let trace = repo.base().join(format!("trace-{id}"));
    let mut cmd = repo.command();
    cmd.env("GIT_TRACE", &trace)
        .args(["create", id, "--pattern", "p"])
        .args(extra);
    TestRepo::output(&mut cmd).ok();
    fs::read_to_string(&trace)
        .unwrap()
        .contains("checkout--worker")
}

#[test]
fn the_checkout_runs_with_checkout_workers_unless_git_config_sets_them() {
    // On one core `checkout.workers=0` means one worker, so no parallel
    // checkout to see: that machine cannot run this test, and it says so.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(
        cores >= 2,
        "this test needs two cores or more (found {cores}): on one, \
         checkout.workers=0 means one worker and no parallel checkout"
    );
    let repo = many_files();
    assert!(spawned_workers(&repo, "plain", &[]), "worktree add");
    // The split add (`--sparse` takes it): `reset --hard` gets them too.
    assert!(
        spawned_workers(&repo, "split", &["--sparse", "d0,d1"]),
        "reset --hard"
    );
    assert!(repo.wt("split").join("d1/f99").exists());
    // The user's own setting wins.
    repo.git(["config", "checkout.workers", "1"]);
    assert!(!spawned_workers(&repo, "sequential", &[]));
}

/// `--sparse` takes one directory per flag (or a comma list), so a run id
/// after it stays the run id; a directory the base does not have is
/// refused, naming it, before anything changes (not an empty worktree).
#[test]
fn sparse_takes_one_value_and_refuses_a_directory_the_base_lacks() {
    let repo = tree();
    repo.run(["create", "--sparse", "a", "sp4", "--pattern", "p"])
        .ok();
    assert_eq!(top_level(&repo.wt("sp4")), ["README", "a", "top.txt"]);
    repo.run(["create", "--sparse", "b,c", "sp5", "--pattern", "p"])
        .ok();
    assert_eq!(top_level(&repo.wt("sp5")), ["README", "b", "c", "top.txt"]);
    let manifest = fs::read(repo.manifest_path()).unwrap();
    for missing in ["a/nonexistent", "top.txt"] {
        let run = repo.run([
            "--json",
            "create",
            "sp6",
            "--pattern",
            "p",
            "--sparse",
            "b",
            "--sparse",
            missing,
        ]);
        run.code(1);
        assert_eq!(run.json()["error"]["code"], "sparse-dir-missing");
        assert!(
            run.stderr.contains(&format!("--sparse {missing}")),
            "{}",
            run.stderr
        );
        assert!(!repo.wt("sp6").exists());
        assert!(!repo.branch_exists("loop/sp6"));
        assert_eq!(fs::read(repo.manifest_path()).unwrap(), manifest);
    }
}
