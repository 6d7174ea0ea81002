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
