//! Taking runs away and bringing them back: cleanup
//! --delete-merged-branches, remove --salvage and restore, the trash and
//! trash restore, reconcile.

use super::{fsck, id_of, json, repo, rev, run_with, status};
use crate::common::{JsonExt, Kind, git_line, git_ok, skipped};

/// cleanup --delete-merged-branches: three rejected runs removed; the
/// branch of the one main took is deleted, its tip kept in the trash; the
/// unmerged one's branch kept.
fn cleanup_delete_merged_branches(kind: Kind) {
    let repo = repo(kind);
    run_with(&repo, "m", "m.txt");
    run_with(&repo, "u", "u.txt");
    repo.git(["merge", "-q", "--ff-only", "loop/m"]);
    let (m_tip, u_tip) = (rev(&repo, "loop/m"), rev(&repo, "loop/u"));
    json(&repo, &["mark", "m", "u", "rejected"], 0);

    let doc = json(&repo, &["cleanup", "--delete-merged-branches"], 0);
    assert_eq!(doc.ids("removed"), ["m", "u"], "{doc}");
    let m = doc.find_id("removed", "m");
    assert_eq!(m["branchDeleted"], true, "{doc}");
    assert_eq!(m["branchMergedBy"], "ancestor", "{doc}");
    let trash_ref = m["branchTrash"].as_str().unwrap();
    assert_eq!(rev(&repo, trash_ref), m_tip);
    let u = doc.find_id("removed", "u");
    assert_eq!(u["branchKept"]["code"], "not-merged", "{doc}");
    assert!(!repo.branch_exists("loop/m"));
    assert_eq!(rev(&repo, "refs/heads/loop/u"), u_tip);
    for id in ["m", "u"] {
        assert!(!repo.wt(id).exists(), "{id}'s worktree is left");
        assert!(!repo.registered().contains(&repo.wt(id)));
    }
    assert!(repo.ids().is_empty());

    let trash = json(&repo, &["trash"], 0);
    let entry = &trash.arr("trash")[0];
    assert_eq!(id_of(kind, &entry["tip"]), m_tip, "{trash}");
    assert_eq!(entry["reason"], "merged-ancestor", "{trash}");
    assert_eq!(entry["ref"], trash_ref, "{trash}");
    fsck(&repo);
}

/// remove refuses a dirty run; --salvage saves it (staged, unstaged,
/// untracked) under a salvage ref, then removes it; restore brings it back
/// as it was, on its branch.
fn remove_salvage_restore(kind: Kind) {
    let repo = repo(kind);
    run_with(&repo, "d", "d.txt");
    let wt = repo.wt("d");
    std::fs::write(wt.join("staged.txt"), "staged\n").unwrap();
    git_ok(&repo, &wt, &["add", "staged.txt"]);
    std::fs::write(wt.join("d.txt"), "changed\n").unwrap();
    std::fs::write(wt.join("wip.txt"), "work in progress\n").unwrap();
    let before = status(&repo, &wt);
    let head = rev(&repo, "loop/d");
    json(&repo, &["mark", "d", "rejected"], 0);

    let kept = json(&repo, &["remove", "d"], 1);
    assert_eq!(kept["error"]["code"], "nothing-removed", "{kept}");
    assert_eq!(skipped(&kept, "d")["code"], "dirty", "{kept}");
    assert!(wt.join("wip.txt").exists());

    let doc = json(&repo, &["remove", "d", "--salvage"], 0);
    let salvage = &doc.find_id("removed", "d")["salvage"];
    let saved = id_of(kind, &salvage["commit"]);
    assert_eq!(salvage["ref"], "refs/loop/salvage/d", "{doc}");
    assert_eq!(rev(&repo, "refs/loop/salvage/d"), saved);
    assert!(!wt.exists());
    assert_eq!(rev(&repo, "loop/d"), head, "the branch is kept");
    let listed = json(&repo, &["list", "--salvaged"], 0);
    assert_eq!(listed.ids("salvaged"), ["d"], "{listed}");
    assert_eq!(listed.arr("salvaged")[0]["commit"], saved.as_str());

    let back = json(&repo, &["restore", "d"], 0);
    assert_eq!(id_of(kind, &back["commit"]), saved);
    assert_eq!(back["branchRecreated"], false, "{back}");
    assert_eq!(status(&repo, &wt), before);
    assert_eq!(
        std::fs::read_to_string(wt.join("wip.txt")).unwrap(),
        "work in progress\n"
    );
    assert_eq!(
        git_line(&repo, &wt, &["symbolic-ref", "HEAD"]),
        "refs/heads/loop/d"
    );
    assert_eq!(repo.status_of("d").as_deref(), Some("active"));
    fsck(&repo);
}

/// The trash: a run's merged branch (cleanup) and a leftover one
/// (branches --delete-merged) kept there; each restored — by branch name,
/// and by entry name `--as` another — at its tip; a name no longer there
/// refused.
fn trash_restore(kind: Kind) {
    let repo = repo(kind);
    run_with(&repo, "t", "t.txt");
    repo.git(["merge", "-q", "--ff-only", "loop/t"]);
    let t_tip = rev(&repo, "loop/t");
    json(&repo, &["mark", "t", "rejected"], 0);
    json(&repo, &["cleanup", "--delete-merged-branches"], 0);
    repo.git(["branch", "loop/old", "main~1"]);
    let old_tip = rev(&repo, "loop/old");
    json(&repo, &["branches", "--delete-merged"], 0);
    assert!(!repo.branch_exists("loop/t") && !repo.branch_exists("loop/old"));

    let trash = json(&repo, &["trash", "list"], 0);
    let entries = trash.arr("trash");
    assert_eq!(entries.len(), 2, "{trash}");
    let old = entries
        .iter()
        .find(|e| e["original"] == "refs/heads/loop/old")
        .unwrap_or_else(|| panic!("{trash}"));
    assert_eq!(id_of(kind, &old["tip"]), old_tip);
    let old_name = old.text("name").to_owned();

    let back = json(&repo, &["trash", "restore", "loop/t"], 0);
    assert_eq!(back["restored"], "loop/t", "{back}");
    assert_eq!(rev(&repo, "refs/heads/loop/t"), t_tip);
    let back = json(
        &repo,
        &["trash", "restore", &old_name, "--as", "kept/old"],
        0,
    );
    assert_eq!(back["restored"], "kept/old", "{back}");
    assert_eq!(rev(&repo, "refs/heads/kept/old"), old_tip);
    assert!(!repo.branch_exists("loop/old"));
    assert!(json(&repo, &["trash"], 0).arr("trash").is_empty());
    let gone = json(&repo, &["trash", "restore", &old_name], 1);
    assert_eq!(gone["error"]["code"], "not-in-trash", "{gone}");
    fsck(&repo);
}

/// reconcile: a run whose directory was deleted by hand is dropped; an
/// orphan on its own branch adopted; a detached orphan removed.
fn reconcile(kind: Kind) {
    let repo = repo(kind);
    repo.create("kept");
    repo.create("gone");
    std::fs::remove_dir_all(repo.wt("gone")).unwrap();
    repo.git(["worktree", "prune"]);
    let (stray, det) = (repo.wt("stray"), repo.wt("det"));
    repo.git([
        "worktree",
        "add",
        "-q",
        "-b",
        "loop/stray",
        stray.to_str().unwrap(),
        "main",
    ]);
    repo.git([
        "worktree",
        "add",
        "-q",
        "--detach",
        det.to_str().unwrap(),
        "main",
    ]);

    let doc = json(&repo, &["reconcile"], 0);
    assert_eq!(doc.ids("dropped"), ["gone"], "{doc}");
    let mut orphans = doc.ids("orphans");
    orphans.sort();
    assert_eq!(orphans, ["det", "stray"], "{doc}");
    assert_eq!(doc.find_id("orphans", "stray")["branch"], "loop/stray");
    assert_eq!(
        doc.find_id("orphans", "det")["branch"],
        serde_json::Value::Null
    );
    assert_eq!(repo.ids(), ["kept"]);

    let doc = json(
        &repo,
        &["reconcile", "--adopt", "stray", "--min-age", "0"],
        0,
    );
    assert_eq!(doc.ids("adopted"), ["stray"], "{doc}");
    assert_eq!(repo.ids(), ["kept", "stray"]);
    assert_eq!(repo.status_of("stray").as_deref(), Some("active"));
    let args = ["reconcile", "--remove-orphan", "det", "--min-age", "0"];
    let doc = json(&repo, &args, 0);
    assert_eq!(doc.ids("removedOrphans"), ["det"], "{doc}");
    assert!(!det.exists());
    assert!(!repo.registered().contains(&det));
    assert!(stray.exists() && repo.wt("kept").exists());
    fsck(&repo);
}

on_every_kind!(cleanup_delete_merged_branches: cleanup_delete_merged_branches_sha1_files,
    cleanup_delete_merged_branches_sha256_files, cleanup_delete_merged_branches_sha1_reftable,
    cleanup_delete_merged_branches_sha256_reftable, cleanup_delete_merged_branches_bare);
on_every_kind!(remove_salvage_restore: remove_salvage_restore_sha1_files,
    remove_salvage_restore_sha256_files, remove_salvage_restore_sha1_reftable,
    remove_salvage_restore_sha256_reftable, remove_salvage_restore_bare);
on_every_kind!(trash_restore: trash_restore_sha1_files, trash_restore_sha256_files,
    trash_restore_sha1_reftable, trash_restore_sha256_reftable, trash_restore_bare);
on_every_kind!(reconcile: reconcile_sha1_files, reconcile_sha256_files,
    reconcile_sha1_reftable, reconcile_sha256_reftable, reconcile_bare);
