//! Sync: two runs after main moved, one synced around its uncommitted
//! work, one conflicting and left as it was.

use std::fs;

use super::{fsck, id_of, json, repo, rev, run_with, status};
use crate::common::{JsonExt, Kind, commit};

/// sync --keep-going: the clean run's commit replayed onto main's new tip,
/// its old tip in the trash, its worktree updated around an uncommitted
/// file; the conflicting run skipped with its path, its branch unmoved.
fn sync_two(kind: Kind) {
    let repo = repo(kind);
    run_with(&repo, "s1", "s1.txt");
    run_with(&repo, "s2", "main.txt");
    fs::write(repo.wt("s1").join("s1.txt"), "s1, editing\n").unwrap();
    commit(&repo, &repo.root, "main.txt", "main\n");
    let (main, s1, s2) = (
        rev(&repo, "main"),
        rev(&repo, "loop/s1"),
        rev(&repo, "loop/s2"),
    );

    let doc = json(&repo, &["sync", "--keep-going"], 1);
    let synced = doc.find_id("synced", "s1");
    assert_eq!(id_of(kind, &synced["from"]), s1);
    assert_eq!(id_of(kind, &synced["baseTip"]), main);
    let to = id_of(kind, &synced["to"]);
    assert_eq!(rev(&repo, "refs/heads/loop/s1"), to);
    assert_eq!(rev(&repo, "loop/s1~1"), main);
    assert_eq!(rev(&repo, synced.text("trashRef")), s1);
    assert_eq!(
        fs::read_to_string(repo.wt("s1").join("main.txt")).unwrap(),
        "main\n"
    );
    assert_eq!(
        fs::read_to_string(repo.wt("s1").join("s1.txt")).unwrap(),
        "s1, editing\n"
    );
    assert_eq!(status(&repo, &repo.wt("s1")).trim(), "M s1.txt");
    let skipped = doc.find_id("skipped", "s2");
    assert_eq!(skipped["code"], "conflict", "{doc}");
    assert_eq!(rev(&repo, "refs/heads/loop/s2"), s2);
    assert_eq!(status(&repo, &repo.wt("s2")), "");
    fsck(&repo);
}

on_every_kind!(sync_two: sync_two_sha1_files, sync_two_sha256_files, sync_two_sha1_reftable,
    sync_two_sha256_reftable, sync_two_bare);
