//! A second adversarial review: the warm pool racing other commands,
//! `create --fetch` with a hostile upstream configuration, salvage and
//! restore corner cases, MCP input, and read-only commands that must write
//! nothing. Each test is a hole found and closed, or an attack that must
//! keep holding.

use std::fs;
use std::path::Path;

use crate::common::TestRepo;

fn git_ok(repo: &TestRepo, dir: &Path, args: &[&str]) -> String {
    let out = repo.git_in(dir, args);
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn commit(repo: &TestRepo, dir: &Path, file: &str, content: &str) {
    fs::write(dir.join(file), content).unwrap();
    git_ok(repo, dir, &["add", file]);
    git_ok(repo, dir, &["commit", "-q", "-m", file]);
}

/// `create --fetch` fetches the base's upstream. A remote whose fetch
/// refspecs also map the upstream's branch onto a local branch and onto a
/// salvage ref (`+refs/heads/main:refs/heads/keep`,
/// `+refs/heads/main:refs/loop/salvage/x`) must not make that fetch move
/// them: only the remote-tracking branch may be written.
#[test]
fn create_fetch_never_moves_a_local_branch_or_a_salvage_ref() {
    let repo = TestRepo::new();
    let remote = repo.base().join("remote.git");
    let remote_s = remote.to_str().unwrap();
    git_ok(&repo, &repo.root, &["clone", "-q", "--bare", ".", remote_s]);
    git_ok(&repo, &repo.root, &["remote", "add", "origin", remote_s]);
    git_ok(&repo, &repo.root, &["fetch", "-q", "origin"]);
    git_ok(
        &repo,
        &repo.root,
        &["branch", "-q", "--set-upstream-to=origin/main", "main"],
    );
    // Work only on `keep`, and a salvage commit only on refs/loop/salvage/x.
    git_ok(&repo, &repo.root, &["checkout", "-q", "-b", "keep"]);
    commit(&repo, &repo.root, "k", "keep work\n");
    git_ok(&repo, &repo.root, &["checkout", "-q", "main"]);
    let keep = git_ok(&repo, &repo.root, &["rev-parse", "keep"]);
    let salvage = git_ok(
        &repo,
        &repo.root,
        &[
            "commit-tree",
            "keep^{tree}",
            "-p",
            "keep",
            "-m",
            "salvage x",
        ],
    );
    git_ok(
        &repo,
        &repo.root,
        &["update-ref", "refs/loop/salvage/x", &salvage],
    );
    for spec in [
        "+refs/heads/main:refs/heads/keep",
        "+refs/heads/main:refs/loop/salvage/x",
    ] {
        git_ok(
            &repo,
            &repo.root,
            &["config", "--add", "remote.origin.fetch", spec],
        );
    }
    let run = repo.run(["--json", "create", "a", "--pattern", "p", "--fetch"]);
    run.ok();
    assert_eq!(
        git_ok(&repo, &repo.root, &["rev-parse", "keep"]),
        keep,
        "{}",
        run.stderr
    );
    assert_eq!(
        git_ok(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]),
        salvage,
        "{}",
        run.stderr
    );
}

/// An upstream that is not a remote-tracking branch (the remote's only
/// refspec maps `main` onto the local branch `keep`) is never fetched: the
/// fetch would write `keep`.
#[test]
fn create_fetch_never_fetches_an_upstream_outside_refs_remotes() {
    let repo = TestRepo::new();
    let remote = repo.base().join("remote.git");
    let remote_s = remote.to_str().unwrap();
    git_ok(&repo, &repo.root, &["clone", "-q", "--bare", ".", remote_s]);
    let pusher = repo.base().join("pusher");
    git_ok(
        &repo,
        &repo.root,
        &["clone", "-q", remote_s, pusher.to_str().unwrap()],
    );
    commit(&repo, &pusher, "up", "upstream\n");
    git_ok(&repo, &pusher, &["push", "-q", "origin", "main"]);
    git_ok(&repo, &repo.root, &["checkout", "-q", "-b", "keep"]);
    commit(&repo, &repo.root, "k", "keep work\n");
    git_ok(&repo, &repo.root, &["checkout", "-q", "main"]);
    let keep = git_ok(&repo, &repo.root, &["rev-parse", "keep"]);
    for (key, value) in [
        ("remote.origin.url", remote_s),
        ("remote.origin.fetch", "+refs/heads/main:refs/heads/keep"),
        ("branch.main.remote", "origin"),
        ("branch.main.merge", "refs/heads/main"),
    ] {
        git_ok(&repo, &repo.root, &["config", key, value]);
    }
    let run = repo.run(["--json", "create", "a", "--pattern", "p", "--fetch"]);
    run.ok();
    assert_eq!(
        git_ok(&repo, &repo.root, &["rev-parse", "keep"]),
        keep,
        "{}",
        run.stderr
    );
}
