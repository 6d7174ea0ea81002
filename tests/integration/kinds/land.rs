//! Landing: one run rebased onto a main that moved on, and a queue of
//! three, one of which conflicts.

use std::fs;

use super::{fsck, id_of, json, repo, rev, run_with, status};
use crate::common::{JsonExt, Kind, commit, git_line, git_ok};

/// land one run: main moves to the run's commit rebased onto it, the main
/// checkout follows, the run is marked merged, its worktree removed and its
/// branch deleted with its tip in the trash.
fn land_one(kind: Kind) {
    let repo = repo(kind);
    run_with(&repo, "l", "l.txt");
    commit(&repo, &repo.root, "main.txt", "main\n");
    let (before, tip) = (rev(&repo, "main"), rev(&repo, "loop/l"));

    let doc = json(&repo, &["land", "l"], 0);
    let landed = &doc.arr("landed")[0];
    assert_eq!(landed["id"], "l", "{doc}");
    assert_eq!(id_of(kind, &landed["from"]), before);
    let to = id_of(kind, &landed["to"]);
    assert_eq!(rev(&repo, "refs/heads/main"), to);
    assert_eq!(rev(&repo, "main~1"), before);
    assert_eq!(git_line(&repo, &repo.root, &["show", "main:l.txt"]), "l");
    assert_eq!(fs::read_to_string(repo.root.join("l.txt")).unwrap(), "l\n");
    assert_eq!(
        status(&repo, &repo.root),
        "",
        "the main checkout follows, clean"
    );
    assert_eq!(
        (&landed["worktree"], &landed["branch"]),
        (&"removed".into(), &"deleted".into())
    );
    assert!(!repo.wt("l").exists());
    assert!(!repo.branch_exists("loop/l"));
    assert_eq!(rev(&repo, landed.text("trashRef")), tip);
    // The move is in main's reflog; and in that of HEAD where the checkout
    // on main is the main worktree, as `git merge --ff-only` there would
    // have written it (the bare layout's `project/main` is a linked
    // worktree, whose HEAD's reflog git writes only from inside it).
    let newest = |r: &str| git_line(&repo, &repo.root, &["reflog", "-1", "--format=%H", r]);
    assert_eq!(newest("main"), to);
    if kind != Kind::Bare {
        assert_eq!(newest("HEAD"), to);
    }
    let log = json(&repo, &["log", "l"], 0);
    let land = log.arr("events").iter().find(|e| e["event"] == "land");
    let land = land.unwrap_or_else(|| panic!("{log}"));
    assert_eq!(
        (land.text("from"), land.text("to")),
        (before.as_str(), to.as_str())
    );
    fsck(&repo);
}

/// land --queue --keep-going: the escalated runs land one onto the other;
/// the one conflicting with a landed run is skipped and kept whole.
fn land_queue(kind: Kind) {
    let repo = repo(kind);
    run_with(&repo, "q1", "one.txt");
    run_with(&repo, "q2", "two.txt");
    run_with(&repo, "q3", "one.txt");
    json(&repo, &["mark", "q1", "q2", "q3", "escalated"], 0);
    let (before, q3) = (rev(&repo, "main"), rev(&repo, "loop/q3"));

    let doc = json(&repo, &["land", "--queue", "--keep-going"], 1);
    let landed = doc.arr("landed");
    let mut ids = doc.ids("landed");
    ids.sort();
    assert_eq!(ids, ["q1", "q2"], "{doc}");
    assert_eq!(id_of(kind, &landed[0]["from"]), before);
    assert_eq!(landed[1]["from"], landed[0]["to"], "{doc}");
    assert_eq!(rev(&repo, "refs/heads/main"), id_of(kind, &landed[1]["to"]));
    assert_eq!(rev(&repo, "main~2"), before);
    let skipped = doc.arr("skipped");
    assert_eq!(skipped.len(), 1, "{doc}");
    assert_eq!(
        (skipped[0].text("id"), skipped[0].text("code")),
        ("q3", "conflict")
    );
    let tree = git_ok(&repo, &repo.root, &["ls-tree", "--name-only", "main"]);
    assert_eq!(tree, ".gitignore\nREADME\none.txt\ntwo.txt\n");
    assert_eq!(status(&repo, &repo.root), "");
    for id in ["q1", "q2"] {
        assert!(!repo.wt(id).exists() && !repo.branch_exists(&format!("loop/{id}")));
    }
    assert_eq!(rev(&repo, "refs/heads/loop/q3"), q3);
    assert!(repo.wt("q3").join("one.txt").exists());
    assert_eq!(repo.status_of("q3").as_deref(), Some("escalated"));
    fsck(&repo);
}

on_every_kind!(land_one: land_one_sha1_files, land_one_sha256_files, land_one_sha1_reftable,
    land_one_sha256_reftable, land_one_bare);
on_every_kind!(land_queue: land_queue_sha1_files, land_queue_sha256_files,
    land_queue_sha1_reftable, land_queue_sha256_reftable, land_queue_bare);
