//! Repository formats: reftable refs (with SHA-1 or SHA-256 objects) are
//! read whole, through git (the hostile reproduction of a reftable
//! repository passes as supported, nothing lost); a format git-loop cannot
//! read (an extension it does not know, an object format git may add) is
//! refused by every command before anything is read or written
//! (`unsupported-repository`, naming the extension), never half-read.

use std::fs;

use crate::common::{TestRepo, git_line, git_ok, manifest_with, snapshot};

/// Every command that opens the repository, as typed.
const COMMANDS: &[&[&str]] = &[
    &["list"],
    &["list", "--long"],
    &["create", "n", "--pattern", "p"],
    &["mark", "x", "rejected"],
    &["cleanup"],
    &["cleanup", "--dry-run"],
    &["remove", "x"],
    &["reconcile"],
    &["branches", "--delete-merged"],
    &["trash"],
    &["land", "x"],
    &["conflicts"],
    &["config"],
    &["log"],
    &["path", "x"],
    &["restore", "x"],
];

/// `TestRepo::new()`'s repository made again by `git init` with `args`.
fn repo_made_with(args: &[&str]) -> TestRepo {
    let repo = TestRepo::new();
    fs::remove_dir_all(repo.root.join(".git")).unwrap();
    let mut init = vec!["init", "-q", "-b", "main"];
    init.extend_from_slice(args);
    git_ok(&repo, &repo.root, &init);
    git_ok(&repo, &repo.root, &["add", "README"]);
    git_ok(&repo, &repo.root, &["commit", "-q", "-m", "initial"]);
    repo
}

/// Every command refuses `repo` naming `extension`, and nothing under the
/// work tree or `.git` changes.
fn every_command_refuses(repo: &TestRepo, extension: &str) {
    let state = || (snapshot(&repo.root), snapshot(&repo.root.join(".git")));
    let before = state();
    for args in COMMANDS {
        let mut json = vec!["--json"];
        json.extend_from_slice(args);
        let run = repo.run(&json);
        run.code(1);
        assert_eq!(
            run.json()["error"]["code"],
            "unsupported-repository",
            "{args:?}: {}",
            run.json()
        );
        let message = run.json()["error"]["message"].as_str().unwrap().to_owned();
        assert!(message.contains(extension), "{args:?}: {message}");
        let human = repo.run(*args);
        human.code(1);
        assert!(
            human.stderr.contains("help: nothing was changed"),
            "{args:?}: {}",
            human.stderr
        );
    }
    assert!(state() == before, "a refused command changed something");
}

/// Every command of [`COMMANDS`] runs in `repo` without being refused for
/// its format (each may still refuse for its own reasons: `x` unknown).
fn no_command_refuses_the_format(repo: &TestRepo) {
    for args in COMMANDS {
        let mut json = vec!["--json"];
        json.extend_from_slice(args);
        let run = repo.run(&json);
        let code = run.json()["error"]["code"].clone();
        assert_ne!(code, "unsupported-repository", "{args:?}: {}", run.json());
        assert_ne!(code, "repository", "{args:?}: {}", run.json());
    }
}

/// The hostile reproduction of a reftable repository, now supported: a
/// run whose detached HEAD holds the only copy of a commit, recorded
/// `rejected`. Every command runs; cleanup and remove keep the worktree
/// (`unreachable-commits`: its commit is read through git, not taken for
/// unreferenced or its HEAD for unborn); nothing is lost.
#[test]
fn a_reftable_repository_is_supported_and_a_runs_lone_commit_kept() {
    let repo = repo_made_with(&["--ref-format=reftable"]);
    let wt = repo.wt("x");
    git_ok(
        &repo,
        &repo.root,
        &[
            "worktree",
            "add",
            "-q",
            "--detach",
            wt.to_str().unwrap(),
            "HEAD",
        ],
    );
    fs::write(wt.join("work"), "only here\n").unwrap();
    git_ok(&repo, &wt, &["add", "work"]);
    git_ok(&repo, &wt, &["commit", "-q", "-m", "lone"]);
    let lone = git_line(&repo, &wt, &["rev-parse", "HEAD"]);
    repo.write_manifest(&manifest_with(&[("x", "rejected", "2026-01-01T00:00:00Z")]));
    let cleanup = repo.run(["--json", "cleanup"]);
    cleanup.ok();
    let skipped = &cleanup.json()["skipped"][0];
    assert_eq!(skipped["id"], "x", "{}", cleanup.json());
    assert_eq!(skipped["code"], "unreachable-commits", "{}", cleanup.json());
    no_command_refuses_the_format(&repo);
    assert!(wt.join("work").exists());
    assert_eq!(git_line(&repo, &wt, &["rev-parse", "HEAD"]), lone);
    git_ok(&repo, &repo.root, &["fsck", "--no-dangling"]);
}

/// A repository converted to reftable by `git refs migrate` after a run
/// was made and removed with the files backend: its branch is still a run's
/// branch to `branches`, and `create` makes the next run there.
#[test]
fn a_repository_migrated_to_reftable_keeps_its_runs_branch() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    repo.run(["mark", "x", "rejected"]).ok();
    repo.run(["remove", "x"]).ok();
    // git 2.47 migrates no reflogs: it refuses while there are any.
    fs::remove_dir_all(repo.root.join(".git/logs")).unwrap();
    git_ok(
        &repo,
        &repo.root,
        &["refs", "migrate", "--ref-format=reftable"],
    );
    let branches = repo.run(["--json", "branches"]);
    branches.ok();
    let text = branches.json().to_string();
    assert!(text.contains("loop/x"), "{text}");
    repo.create("y").ok();
    assert!(repo.branch_exists("loop/x"));
    assert!(repo.branch_exists("loop/y"));
    no_command_refuses_the_format(&repo);
}

/// SHA-256 objects and reftable refs at once: a run is made, listed with
/// ids of 64 hex digits, and cleaned up.
#[test]
fn a_sha256_reftable_repository_is_supported() {
    let repo = repo_made_with(&["--object-format=sha256", "--ref-format=reftable"]);
    repo.create("x").ok();
    let list = repo.run(["--json", "list", "--long"]);
    list.ok();
    let head = git_line(&repo, &repo.root, &["rev-parse", "HEAD"]);
    assert_eq!(head.len(), 64);
    assert_eq!(list.json()["worktrees"][0]["id"], "x", "{}", list.json());
    no_command_refuses_the_format(&repo);
}

/// The git processes a command spawned, one line each (`for-each-ref
/// --include-root-refs …`), from `GIT_TRACE`.
fn spawned(repo: &TestRepo, args: &[&str]) -> Vec<String> {
    let trace = repo.base().join("trace");
    let _ = fs::remove_file(&trace);
    let mut cmd = repo.command();
    cmd.env("GIT_TRACE", &trace).args(args);
    TestRepo::output(&mut cmd).ok();
    fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .filter_map(|l| {
            l.split_once("trace: built-in: git ")
                .map(|(_, c)| c.to_owned())
        })
        .collect()
}

fn count(spawned: &[String], prefix: &str) -> usize {
    spawned.iter().filter(|c| c.starts_with(prefix)).count()
}

/// `list --long` over several runs of a reftable repository reads the refs
/// once, not once a run: each run's worktree, opened on its own, reaches
/// the same common dir (as `worktrees/<id>/../..`) and shares its snapshot;
/// the base's name is read once for every run; every run's reflog (where
/// its branch was created) in one `git log -g` for all. What it
/// reports is read as before: the run with a commit of its own is ahead.
#[test]
fn list_long_in_a_reftable_repository_reads_the_refs_once_not_once_a_run() {
    let repo = repo_made_with(&["--ref-format=reftable"]);
    for id in ["a", "b", "c", "d", "e", "f"] {
        repo.create(id).ok();
    }
    fs::write(repo.wt("b").join("work"), "work\n").unwrap();
    git_ok(&repo, &repo.wt("b"), &["add", "work"]);
    git_ok(&repo, &repo.wt("b"), &["commit", "-q", "-m", "work"]);
    let git = spawned(&repo, &["list", "--long"]);
    assert_eq!(
        count(&git, "for-each-ref --include-root-refs"),
        1,
        "{git:#?}"
    );
    assert_eq!(count(&git, "worktree list"), 1, "{git:#?}");
    assert!(
        count(&git, "rev-parse --symbolic-full-name") <= 1,
        "{git:#?}"
    );
    assert_eq!(count(&git, "log -g"), 1, "{git:#?}");
    let list = repo.run(["--json", "list", "--long"]);
    list.ok();
    let runs = list.json()["worktrees"].as_array().unwrap().clone();
    assert_eq!(runs.len(), 6, "{}", list.json());
    let b = runs.iter().find(|r| r["id"] == "b").unwrap();
    assert_eq!(b["ahead"], 1, "{b}");
}

/// A queue of landings in a reftable repository reads the refs once per
/// state of the stack (each landing writes once), not once more for each
/// run's worktree.
#[test]
fn a_queue_in_a_reftable_repository_reads_the_refs_once_per_landing() {
    let repo = repo_made_with(&["--ref-format=reftable"]);
    for id in ["a", "b", "c"] {
        repo.create(id).ok();
        fs::write(repo.wt(id).join(id), "work\n").unwrap();
        git_ok(&repo, &repo.wt(id), &["add", id]);
        git_ok(&repo, &repo.wt(id), &["commit", "-q", "-m", id]);
    }
    let git = spawned(&repo, &["land", "--queue", "--status", "active", "--keep"]);
    assert_eq!(count(&git, "update-ref"), 3, "{git:#?}");
    assert!(
        count(&git, "for-each-ref --include-root-refs") <= 4,
        "{git:#?}"
    );
    for id in ["a", "b", "c"] {
        assert!(repo.wt("a").parent().unwrap().join(id).exists());
        let landed = git_line(&repo, &repo.root, &["log", "--format=%s", "-1", "--", id]);
        assert_eq!(landed, id);
    }
}

/// An object format other than SHA-1 and SHA-256 (one git may add) is
/// refused, named, like an unknown extension.
#[test]
fn an_unknown_object_format_is_refused_naming_it() {
    let repo = TestRepo::new();
    git_ok(
        &repo,
        &repo.root,
        &["config", "core.repositoryFormatVersion", "1"],
    );
    git_ok(
        &repo,
        &repo.root,
        &["config", "extensions.objectFormat", "sha512"],
    );
    every_command_refuses(&repo, "extensions.objectformat = sha512");
}

/// An extension git-loop does not know may change what a ref or an object
/// is: refused, named; a known harmless one (`worktreeConfig`) is not.
#[test]
fn an_unknown_extension_is_refused_and_a_known_harmless_one_is_not() {
    let repo = TestRepo::new();
    git_ok(
        &repo,
        &repo.root,
        &["config", "core.repositoryFormatVersion", "1"],
    );
    git_ok(
        &repo,
        &repo.root,
        &["config", "extensions.worktreeConfig", "true"],
    );
    repo.run(["list"]).ok();
    git_ok(
        &repo,
        &repo.root,
        &["config", "extensions.someFutureThing", "yes"],
    );
    every_command_refuses(&repo, "extensions.somefuturething = yes");
}
