//! Putting back a worktree a SIGINT left half removed.

use crate::test_git::git;
use crate::worktree::salvage::put_back::{Head, PutBack};

/// What a SIGINT can leave in the middle of `git worktree remove`: the
/// files gone and the administrative directory half deleted (its
/// `gitdir`, `commondir`, `HEAD` and index gone). The put-back makes
/// the worktree whole and registered again, on its branch.
#[test]
fn a_half_deleted_registration_is_made_whole() {
    half_deleted_registration_made_whole("files", &[]);
}

/// The same in a reftable repository, whose worktree keeps `HEAD` in its
/// own stack (`reftable/`, deleted too), the `HEAD` file a stub.
#[test]
fn a_half_deleted_reftable_registration_is_made_whole() {
    half_deleted_registration_made_whole("reftable", &["reftable"]);
}

fn half_deleted_registration_made_whole(format: &str, also_gone: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let main = tmp.path().join("repo");
    std::fs::create_dir(&main).unwrap();
    let format = format!("--ref-format={format}");
    git(&main, &["init", "-q", "-b", "main", &format]);
    std::fs::write(main.join("a"), "a\n").unwrap();
    git(&main, &["add", "a"]);
    git(&main, &["commit", "-qm", "a"]);
    let abs = tmp.path().join("wt");
    git(
        &main,
        &["worktree", "add", "-q", "-b", "x", abs.to_str().unwrap()],
    );
    let admin_dir = main.join(".git/worktrees/wt");
    let w = git(&main, &["rev-parse", "x"]);
    let put_back = PutBack {
        abs: abs.clone(),
        admin_dir: admin_dir.clone(),
        index_tree: git(&main, &["rev-parse", "x^{tree}"]),
        w,
        head: Head::Branch("refs/heads/x".into()),
    };
    for file in ["a", ".git"] {
        std::fs::remove_file(abs.join(file)).unwrap();
    }
    std::fs::remove_dir(&abs).unwrap();
    for name in ["gitdir", "commondir", "HEAD", "index"] {
        std::fs::remove_file(admin_dir.join(name)).unwrap();
    }
    // As `git worktree remove` deletes it: file by file, then the directory.
    for dir in also_gone {
        let dir = admin_dir.join(dir);
        for entry in std::fs::read_dir(&dir).unwrap() {
            std::fs::remove_file(entry.unwrap().path()).unwrap();
        }
        std::fs::remove_dir(&dir).unwrap();
    }
    assert!(!git(&main, &["worktree", "list"]).contains("wt"));

    put_back.apply(true).unwrap();
    assert!(git(&main, &["worktree", "list"]).contains("[x]"));
    assert_eq!(std::fs::read_to_string(abs.join("a")).unwrap(), "a\n");
    assert_eq!(git(&abs, &["status", "--porcelain"]), "");
    assert_eq!(git(&abs, &["symbolic-ref", "HEAD"]), "refs/heads/x");
}
