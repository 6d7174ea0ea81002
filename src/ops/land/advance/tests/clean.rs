//! [`super::super::clean::certainly_clean`] against git's own dry run
//! (`read-tree -n -m -u old new`) as the oracle: whenever it says
//! "certainly clean", git agrees (for a file only touched: once the index
//! is refreshed, as the landing refreshes it before asking git again);
//! where it cannot be sure it says so, and git decides.

use std::time::{Duration, SystemTime};

use gix::ObjectId;

use super::fixture::Fixture;
use crate::safety::checkout::certainly_clean;

/// Every tracked file's mtime a minute back and the index refreshed (and
/// written now): no entry is racy, as in a checkout not edited this second.
pub(super) fn aged(f: &Fixture) {
    let past = SystemTime::now() - Duration::from_secs(60);
    for file in f.git(&f.root, &["ls-files"]).lines() {
        let handle = std::fs::File::options()
            .write(true)
            .open(f.root.join(file))
            .unwrap();
        handle.set_modified(past).unwrap();
    }
    // The stats changed: git writes the index now, after every mtime.
    f.git(&f.root, &["update-index", "-q", "--refresh"]);
}

/// What the in-process read says, after checking that git agrees when it
/// says yes.
fn judged(f: &Fixture, old: ObjectId, new: ObjectId) -> (bool, bool) {
    let index = crate::git::repo::open_worktree(&f.root)
        .unwrap()
        .index_or_empty()
        .unwrap();
    let ours = certainly_clean(f.repo().gix(), &f.root, &index, old, new).unwrap();
    let git = f
        .git_output(
            &f.root,
            &[
                "read-tree",
                "-n",
                "-m",
                "-u",
                &old.to_string(),
                &new.to_string(),
            ],
        )
        .status
        .success();
    assert!(
        !ours || git,
        "said certainly clean, but git's dry run refuses"
    );
    (ours, git)
}

#[test]
fn a_clean_checkout_not_edited_this_second_is_certainly_clean() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    aged(&f);
    assert_eq!(judged(&f, old, new), (true, true));
}

#[test]
fn a_local_change_elsewhere_leaves_it_certainly_clean() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    aged(&f);
    f.write(&f.root, "e", "e local\n");
    f.write(&f.root, "notes.txt", "untracked\n");
    assert_eq!(judged(&f, old, new), (true, true));
}

/// The index made to look written in the instant its entries' files were:
/// git cannot trust their stats and reads the files.
fn make_racy(f: &Fixture) {
    let a = std::fs::metadata(f.root.join("a"))
        .unwrap()
        .modified()
        .unwrap();
    let index = std::fs::File::options()
        .write(true)
        .open(f.root.join(".git/index"))
        .unwrap();
    index.set_modified(a).unwrap();
}

#[test]
fn racy_entries_are_read_and_hashed_as_git_reads_them() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    aged(&f);
    make_racy(&f);
    // Their files hold exactly the entries' blobs: clean, as git finds.
    assert_eq!(judged(&f, old, new), (true, true));

    // A racy entry whose file changed, its size and stat kept: the bytes
    // decide, as for git.
    let f = Fixture::new();
    let (old, new) = f.landing();
    aged(&f);
    let path = f.root.join("a");
    let meta = std::fs::metadata(&path).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[0] ^= 0x20;
    std::fs::write(&path, &bytes).unwrap();
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(meta.modified().unwrap()).unwrap();
    drop(file);
    make_racy(&f);
    assert_eq!(judged(&f, old, new), (false, false));
}

#[test]
fn a_change_in_a_landed_path_is_never_certainly_clean() {
    for staged in [false, true] {
        let f = Fixture::new();
        let (old, new) = f.landing();
        aged(&f);
        f.write(&f.root, "a", "a local\n");
        if staged {
            f.git(&f.root, &["add", "a"]);
        }
        assert_eq!(judged(&f, old, new), (false, false), "staged: {staged}");
    }
}

#[test]
fn a_deleted_landed_path_with_local_changes_is_not_certainly_clean() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    aged(&f);
    // `c` is deleted by the landing.
    f.write(&f.root, "c", "c local\n");
    assert_eq!(judged(&f, old, new), (false, false));
}

#[test]
fn something_in_the_way_of_an_added_path_is_not_certainly_clean() {
    // An untracked file where the landing adds one.
    let f = Fixture::new();
    let (old, new) = f.landing();
    aged(&f);
    f.write(&f.root, "d", "mine\n");
    assert_eq!(judged(&f, old, new), (false, false));
    // An untracked file where the landing needs a directory.
    let f = Fixture::new();
    let old = f.id("main");
    let new = f.commit_on(old, &[("sub/file", Some("s\n"))]);
    aged(&f);
    f.write(&f.root, "sub", "mine\n");
    assert_eq!(judged(&f, old, new), (false, false));
    // A symlink where the landing needs a directory.
    let f = Fixture::new();
    let old = f.id("main");
    let new = f.commit_on(old, &[("sub/file", Some("s\n"))]);
    aged(&f);
    let elsewhere = f.dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, f.root.join("sub")).unwrap();
    assert!(!judged(&f, old, new).0);
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}

#[test]
fn a_file_only_touched_is_read_and_one_made_executable_is_unsure() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    aged(&f);
    let later = SystemTime::now() + Duration::from_secs(30);
    let file = std::fs::File::options()
        .write(true)
        .open(f.root.join("a"))
        .unwrap();
    file.set_modified(later).unwrap();
    // Its bytes are the entry's blob: clean, as git's dry run finds once
    // the index is refreshed (what the landing does before asking again).
    let index = crate::git::repo::open_worktree(&f.root)
        .unwrap()
        .index_or_empty()
        .unwrap();
    assert!(certainly_clean(f.repo().gix(), &f.root, &index, old, new).unwrap());
    f.git(&f.root, &["update-index", "-q", "--refresh"]);
    assert_eq!(judged(&f, old, new), (true, true));

    let f = Fixture::new();
    let (old, new) = f.landing();
    aged(&f);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(f.root.join("a"), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(judged(&f, old, new), (false, false));
}

#[test]
fn flagged_entries_and_unresolved_conflicts_are_unsure() {
    // assume-unchanged on a landed path that was changed: git trusts the
    // flag; the in-process read does not.
    let f = Fixture::new();
    let (old, new) = f.landing();
    aged(&f);
    f.git(&f.root, &["update-index", "--assume-unchanged", "a"]);
    assert!(!judged(&f, old, new).0);
    // skip-worktree.
    let f = Fixture::new();
    let (old, new) = f.landing();
    aged(&f);
    f.git(&f.root, &["update-index", "--skip-worktree", "a"]);
    assert!(!judged(&f, old, new).0);
    // An unresolved conflict anywhere in the index.
    let f = Fixture::new();
    let (old, new) = f.landing();
    aged(&f);
    let blob = f.git_input(None, &["hash-object", "-w", "--stdin"], "x\n");
    let info = format!("100644 {blob} 1\te\n100644 {blob} 2\te\n");
    f.git_input(None, &["update-index", "--index-info"], &info);
    assert_eq!(judged(&f, old, new), (false, false));
}
