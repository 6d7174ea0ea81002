//! Unit tests of the advance: real repositories made by `git` in a
//! temporary directory, the main checkout on the target (`main`), the
//! landed commit built with plumbing on a temporary index (no worktree is
//! touched to make it).

use gix::ObjectId;

use super::*;

mod busy;
mod clean;
mod crash;
mod fixture;
mod forward;
mod inproc;
mod inproc_crash;
mod refmove;
use fixture::{Fixture, read};

fn hex(id: ObjectId) -> String {
    id.to_string()
}

/// `advance` refuses with `expected`, and so does `check`; nothing changed
/// (refs, HEAD, the index file's bytes, every file, no `refs/stash`).
fn refused_and_unchanged(f: &Fixture, old: ObjectId, new: ObjectId, expected: Advance) {
    let before = f.snapshot(&f.root);
    let repo = f.repo();
    assert_eq!(check(&repo, "main", old, new).unwrap(), expected);
    assert_eq!(
        advance(&repo, "main", old, new, "land x").unwrap(),
        expected
    );
    assert_eq!(f.snapshot(&f.root), before);
    assert!(!before.stash);
}

#[test]
fn moves_by_cas_and_updates_the_checkout() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    let repo = f.repo();
    let expected = Advance::Moved {
        checkout: Some(f.root.clone()),
    };
    assert_eq!(check(&repo, "main", old, new).unwrap(), expected);
    assert_eq!(f.id("main"), old, "check moves nothing");
    assert_eq!(
        advance(&repo, "main", old, new, "land x").unwrap(),
        expected
    );
    assert_eq!(f.id("main"), new);
    assert_eq!(read(&f.root, "a"), "a2\n");
    assert_eq!(read(&f.root, "d"), "d2\n");
    assert!(!f.root.join("c").exists());
    assert_eq!(f.status(&f.root), "");
    // The index is the new tree.
    assert_eq!(
        f.git(&f.root, &["write-tree"]),
        f.git(&f.root, &["rev-parse", "main^{tree}"])
    );
    // One reflog line, a landing's, from old to new.
    let log = f.git(
        &f.root,
        &["reflog", "show", "--format=%H %gs", "-1", "refs/heads/main"],
    );
    assert_eq!(log, format!("{new} git-loop land: land x"));
}

#[test]
fn a_local_change_elsewhere_is_kept_byte_for_byte_and_the_landing_proceeds() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    f.write(&f.root, "b", "b staged\n");
    f.git(&f.root, &["add", "b"]);
    f.write(&f.root, "b", "b staged, then changed again\n");
    f.write(&f.root, "e", "e unstaged\n");
    f.write(&f.root, "notes/todo.txt", "mine\n");
    let repo = f.repo();
    let moved = advance(&repo, "main", old, new, "land x").unwrap();
    assert_eq!(
        moved,
        Advance::Moved {
            checkout: Some(f.root.clone())
        }
    );
    assert_eq!(f.id("main"), new);
    assert_eq!(read(&f.root, "b"), "b staged, then changed again\n");
    assert_eq!(f.git(&f.root, &["show", ":b"]), "b staged");
    assert_eq!(read(&f.root, "e"), "e unstaged\n");
    assert_eq!(f.git(&f.root, &["show", ":e"]), "e1");
    assert_eq!(read(&f.root, "notes/todo.txt"), "mine\n");
    assert_eq!(read(&f.root, "a"), "a2\n");
    assert_eq!(f.status(&f.root), "MM b\n M e\n?? notes/");
}

#[test]
fn an_unstaged_change_in_a_landed_path_refuses_and_changes_nothing() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    f.write(&f.root, "a", "a mine\n");
    let expected = Advance::TargetDirty {
        checkout: f.root.clone(),
        paths: vec!["a".to_owned()],
    };
    refused_and_unchanged(&f, old, new, expected);
    assert_eq!(read(&f.root, "a"), "a mine\n");
}

#[test]
fn a_staged_change_in_a_landed_path_refuses_and_changes_nothing() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    // `c` is deleted by the landing: a staged change to it is in the way too.
    f.write(&f.root, "c", "c mine\n");
    f.git(&f.root, &["add", "c"]);
    let expected = Advance::TargetDirty {
        checkout: f.root.clone(),
        paths: vec!["c".to_owned()],
    };
    refused_and_unchanged(&f, old, new, expected);
    assert_eq!(f.git(&f.root, &["show", ":c"]), "c mine");
}

#[test]
fn an_untracked_file_in_the_way_refuses() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    f.write(&f.root, "d", "my own d\n");
    let expected = Advance::TargetDirty {
        checkout: f.root.clone(),
        paths: vec!["d".to_owned()],
    };
    refused_and_unchanged(&f, old, new, expected);
}

#[test]
fn a_file_only_touched_is_not_in_the_way() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    // Same content, a new mtime: the index's cached stat is stale.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(30);
    let file = std::fs::File::options()
        .write(true)
        .open(f.root.join("a"))
        .unwrap();
    file.set_modified(later).unwrap();
    drop(file);
    let repo = f.repo();
    let moved = advance(&repo, "main", old, new, "land x").unwrap();
    assert!(matches!(moved, Advance::Moved { .. }), "{moved:?}");
    assert_eq!(read(&f.root, "a"), "a2\n");
    assert_eq!(f.status(&f.root), "");
}

#[test]
fn the_ref_moved_by_someone_else_refuses_with_its_value() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    f.git(
        &f.root,
        &["commit", "-q", "--allow-empty", "-m", "someone else"],
    );
    let now = f.id("main");
    let expected = Advance::TargetMoved { now: Some(now) };
    refused_and_unchanged(&f, old, new, expected);
}

#[test]
fn a_target_checked_out_nowhere_only_moves_the_ref() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    f.git(&f.root, &["switch", "-q", "-c", "elsewhere"]);
    f.write(&f.root, "a", "a mine\n");
    let before = f.snapshot(&f.root);
    let repo = f.repo();
    let moved = advance(&repo, "main", old, new, "land x").unwrap();
    assert_eq!(moved, Advance::Moved { checkout: None });
    assert_eq!(f.id("main"), new);
    let after = f.snapshot(&f.root);
    assert_eq!((after.index, after.files), (before.index, before.files));
    assert_eq!(f.status(&f.root), " M a");
}

#[test]
fn the_target_checked_out_in_a_linked_worktree_is_the_one_updated() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    f.git(&f.root, &["switch", "-q", "-c", "elsewhere"]);
    let wt = f.dir.path().join("linked");
    f.git(
        &f.root,
        &["worktree", "add", "-q", wt.to_str().unwrap(), "main"],
    );
    let wt = wt.canonicalize().unwrap();
    f.write(&wt, "b", "b mine\n");
    let main_checkout = f.snapshot(&f.root);
    let repo = f.repo();
    let moved = advance(&repo, "main", old, new, "land x").unwrap();
    assert_eq!(
        moved,
        Advance::Moved {
            checkout: Some(wt.clone())
        }
    );
    assert_eq!(f.id("main"), new);
    assert_eq!(read(&wt, "a"), "a2\n");
    assert_eq!(read(&wt, "b"), "b mine\n");
    assert_eq!(f.status(&wt), " M b");
    let after = f.snapshot(&f.root);
    assert_eq!(
        (after.index, after.files),
        (main_checkout.index, main_checkout.files)
    );

    // Dirty there in a landed path: refused, that worktree named.
    let newer = f.commit_on(new, &[("b", Some("b2\n"))]);
    let expected = Advance::TargetDirty {
        checkout: wt.clone(),
        paths: vec!["b".to_owned()],
    };
    let before = f.snapshot(&wt);
    assert_eq!(
        advance(&repo, "main", new, newer, "land y").unwrap(),
        expected
    );
    assert_eq!(f.snapshot(&wt), before);
}

#[test]
fn a_landing_only_moves_forward() {
    let f = Fixture::new();
    let old = f.id("main");
    let side = f.commit_on(old, &[("a", Some("side\n"))]);
    f.git(&f.root, &["commit", "-q", "--allow-empty", "-m", "on main"]);
    let main = f.id("main");
    let err = check(&f.repo(), "main", main, side).unwrap_err();
    assert!(err.to_string().contains(&side.to_string()), "{err}");
    assert_eq!(f.id("main"), main);
}

#[test]
fn a_checkout_left_behind_by_a_crash_is_recognised_with_how_to_finish_it() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    // What `kill -9` at `land-after-ref` leaves: the ref moved, the
    // checkout not.
    f.git(
        &f.root,
        &[
            "update-ref",
            "-m",
            "git-loop land: x",
            "refs/heads/main",
            &new.to_string(),
            &old.to_string(),
        ],
    );
    let newer = f.commit_on(new, &[("b", Some("b2\n"))]);
    let repo = f.repo();
    let before = f.snapshot(&f.root);
    let refused = advance(&repo, "main", new, newer, "land y").unwrap();
    let Advance::TargetBusy {
        checkout,
        operation,
    } = &refused
    else {
        panic!("{refused:?}");
    };
    assert_eq!(checkout, &f.root);
    let finish = format!("git read-tree -m -u {old} {new}");
    assert!(operation.contains(&finish), "{operation}");
    assert_eq!(f.snapshot(&f.root), before);
    // Finished as it says, the next landing goes through.
    f.git(
        &f.root,
        &["read-tree", "-m", "-u", &old.to_string(), &new.to_string()],
    );
    assert_eq!(f.status(&f.root), "");
    let moved = advance(&repo, "main", new, newer, "land y").unwrap();
    assert!(matches!(moved, Advance::Moved { .. }), "{moved:?}");
    assert_eq!(read(&f.root, "b"), "b2\n");

    // A move of the user's own (not a landing's) is not mistaken for one.
    let mine = f.commit_on(newer, &[("e", Some("e2\n"))]);
    f.git(
        &f.root,
        &[
            "update-ref",
            "refs/heads/main",
            &mine.to_string(),
            &newer.to_string(),
        ],
    );
    let last = f.commit_on(mine, &[("a", Some("a3\n"))]);
    let checked = check(&repo, "main", mine, last).unwrap();
    assert!(matches!(checked, Advance::Moved { .. }), "{checked:?}");
}

#[test]
fn undoing_a_landing_moves_the_ref_back_only_while_it_is_the_landings() {
    let f = Fixture::new();
    let (old, new) = f.landing();
    let repo = f.repo();
    let message = unfinished::stamped("land x");
    crate::git::plumbing::update_ref(&f.root, "refs/heads/main", &hex(new), &hex(old), &message)
        .unwrap();
    let dirty = Advance::TargetDirty {
        checkout: f.root.clone(),
        paths: vec!["a".to_owned()],
    };
    let back = undo(
        &repo,
        "main",
        (old, new, Move::Forward),
        &message,
        Ok(dirty.clone()),
    )
    .unwrap();
    assert_eq!(back, dirty);
    assert_eq!(f.id("main"), old);

    // Moved again by someone since: left where it is, the error says how
    // to finish.
    crate::git::plumbing::update_ref(&f.root, "refs/heads/main", &hex(new), &hex(old), &message)
        .unwrap();
    let other = f.commit_on(new, &[("e", Some("e2\n"))]);
    f.git(
        &f.root,
        &["update-ref", "refs/heads/main", &hex(other), &hex(new)],
    );
    let err = undo(
        &repo,
        "main",
        (old, new, Move::Forward),
        &message,
        Ok(dirty),
    )
    .unwrap_err();
    assert!(err.to_string().contains("git read-tree -m -u"), "{err}");
    assert_eq!(f.id("main"), other);
    // And the kernel's leave is for that very move only.
    assert!(safety::undo_advance(repo.gix(), "main", (old, other), None, &message).is_none());
    assert!(safety::undo_advance(repo.gix(), "main", (new, other), None, "land x").is_none());
}
