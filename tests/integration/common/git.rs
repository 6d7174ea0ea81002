//! Git helpers beyond [`TestRepo::git`]: git in any directory (a worktree, a
//! clone), failing the test when git fails, and a one-file commit.

use std::fs;
use std::path::Path;

use super::TestRepo;

/// Run git in `dir`; panics naming the arguments when it fails; returns
/// stdout as git printed it (with its newline).
pub fn git_ok(repo: &TestRepo, dir: &Path, args: &[&str]) -> String {
    let out = repo.git_in(dir, args);
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// [`git_ok`], trimmed: for one-value output such as `rev-parse`.
pub fn git_line(repo: &TestRepo, dir: &Path, args: &[&str]) -> String {
    git_ok(repo, dir, args).trim().to_owned()
}

/// Write `file` with `content` in `dir`, then add and commit it (the message
/// is the file's name).
pub fn commit(repo: &TestRepo, dir: &Path, file: &str, content: &str) {
    fs::write(dir.join(file), content).unwrap();
    git_ok(repo, dir, &["add", file]);
    git_ok(repo, dir, &["commit", "-q", "-m", file]);
}

/// A repository whose `main` tracks `origin/main` of a local bare
/// "remote", and a second clone of that remote that pushes `ahead` new
/// commits to it (which the repository has not fetched). Returns the bare
/// remote's path and its new tip.
pub fn with_remote_ahead(repo: &TestRepo, ahead: usize) -> (std::path::PathBuf, String) {
    let remote = repo.base().join("remote.git");
    repo.git(["clone", "-q", "--bare", ".", remote.to_str().unwrap()]);
    repo.git(["remote", "add", "origin", remote.to_str().unwrap()]);
    repo.git(["fetch", "-q", "origin"]);
    repo.git(["branch", "-q", "--set-upstream-to=origin/main", "main"]);
    let pusher = repo.base().join("pusher");
    repo.git([
        "clone",
        "-q",
        remote.to_str().unwrap(),
        pusher.to_str().unwrap(),
    ]);
    for i in 0..ahead {
        std::fs::write(pusher.join(format!("f{i}")), "x\n").unwrap();
        for args in [
            vec!["add", "."],
            vec!["commit", "-q", "-m", "upstream work"],
        ] {
            let out = repo.git_in(&pusher, args);
            assert!(out.status.success(), "{out:?}");
        }
    }
    let out = repo.git_in(&pusher, ["push", "-q", "origin", "main"]);
    assert!(out.status.success(), "{out:?}");
    let tip = repo.git_in(&pusher, ["rev-parse", "HEAD"]);
    let tip = String::from_utf8(tip.stdout).unwrap().trim().to_owned();
    (remote, tip)
}
