//! A files repository converted to reftable by `git refs migrate
//! --ref-format=reftable` while runs exist keeps every run, its trash and
//! its salvages.
//!
//! git 2.47 refuses to migrate a repository with linked worktrees or with
//! reflogs (`migrating … is not supported yet`) and changes nothing, so a
//! user with runs sets them aside first, as git-loop already lets them:
//! `mark` and `remove --salvage` each run (uncommitted work saved to its
//! salvage ref, every branch kept), drop the reflogs, migrate, then bring
//! the runs back (`restore` a salvaged one, `create --reuse` one whose
//! branch holds all its work). A git that migrates them in place is
//! checked the same way, without the detour.

use std::fs;

use serde_json::json;

use super::{common_dir, fsck, id_of, json, repo, rev, run_with, status};
use crate::common::{JsonExt, Kind, TestRepo, git_line};

fn ref_format(repo: &TestRepo) -> String {
    git_line(repo, &repo.root, &["rev-parse", "--show-ref-format"])
}

fn refs(repo: &TestRepo) -> String {
    repo.git(["for-each-ref", "--format=%(refname) %(objectname)"])
}

fn migrated_keeps_runs_trash_and_salvages(kind: Kind) {
    let repo = repo(kind);
    // A trash entry: a run main took, cleaned up with its branch.
    run_with(&repo, "done", "done.txt");
    repo.git(["merge", "-q", "--ff-only", "loop/done"]);
    let done = rev(&repo, "loop/done");
    json(&repo, &["mark", "done", "rejected"], 0);
    json(&repo, &["cleanup", "--delete-merged-branches"], 0);
    // A salvage: a rejected run's uncommitted work.
    run_with(&repo, "old", "old.txt");
    fs::write(repo.wt("old").join("old-wip.txt"), "old wip\n").unwrap();
    json(&repo, &["mark", "old", "rejected"], 0);
    json(&repo, &["remove", "old", "--salvage"], 0);
    let old = rev(&repo, "refs/loop/salvage/old");
    // Two active runs: committed work, and uncommitted work besides.
    run_with(&repo, "work", "work.txt");
    run_with(&repo, "wip", "wip.txt");
    fs::write(repo.wt("wip").join("wip.txt"), "changed\n").unwrap();
    fs::write(repo.wt("wip").join("untracked.txt"), "untracked\n").unwrap();
    let wip_status = status(&repo, &repo.wt("wip"));
    let tips = (rev(&repo, "loop/work"), rev(&repo, "loop/wip"));
    let before = refs(&repo);

    let migrate = ["refs", "migrate", "--ref-format=reftable"];
    let first = repo.git_in(&repo.root, migrate);
    if !first.status.success() {
        let stderr = String::from_utf8_lossy(&first.stderr);
        assert!(stderr.contains("not supported yet"), "{stderr}");
        assert_eq!(
            ref_format(&repo),
            "files",
            "a refused migration changed nothing"
        );
        assert_eq!(refs(&repo), before);
        // Set the runs aside, drop the reflogs, migrate, bring them back.
        json(&repo, &["mark", "work", "wip", "rejected"], 0);
        let doc = json(&repo, &["remove", "work", "wip", "--salvage"], 0);
        assert_eq!(doc.find_id("removed", "work").get("salvage"), None, "{doc}");
        id_of(kind, &doc.find_id("removed", "wip")["salvage"]["commit"]);
        fs::remove_dir_all(common_dir(&repo).join("logs")).unwrap();
        repo.git(migrate);
        assert_eq!(ref_format(&repo), "reftable");
        json(&repo, &["restore", "wip"], 0);
        let back = json(&repo, &["create", "work", "--pattern", "p", "--reuse"], 0);
        assert_eq!(back["method"], "adopted", "{back}");
    }
    assert_eq!(ref_format(&repo), "reftable");

    // Every run, as it was.
    let list = json(&repo, &["list", "--long"], 0);
    let mut ids = list.ids("worktrees");
    ids.sort();
    assert_eq!(ids, ["wip", "work"], "{list}");
    for (id, tip, dirty) in [("work", &tips.0, false), ("wip", &tips.1, true)] {
        let r = list.find_id("worktrees", id);
        assert_eq!(
            json!([r["status"], r["ahead"], r["dirty"]]),
            json!(["active", 1, dirty]),
            "{list}"
        );
        assert_eq!(&rev(&repo, &format!("refs/heads/loop/{id}")), tip);
        assert_eq!(&git_line(&repo, &repo.wt(id), &["rev-parse", "HEAD"]), tip);
    }
    assert_eq!(status(&repo, &repo.wt("wip")), wip_status);
    // The salvage, and restore of it.
    let salvaged = json(&repo, &["list", "--salvaged"], 0);
    let entry = salvaged.find_id("salvaged", "old");
    assert_eq!(id_of(kind, &entry["commit"]), old, "{salvaged}");
    assert_eq!(entry["recorded"], false, "{salvaged}");
    json(&repo, &["restore", "old"], 0);
    assert_eq!(
        fs::read_to_string(repo.wt("old").join("old-wip.txt")).unwrap(),
        "old wip\n"
    );
    // The trash, and trash restore of it.
    let trash = json(&repo, &["trash", "list"], 0);
    let tips: Vec<&str> = trash.arr("trash").iter().map(|e| e.text("tip")).collect();
    assert_eq!(tips, [done.as_str()], "{trash}");
    json(&repo, &["trash", "restore", "loop/done"], 0);
    assert_eq!(rev(&repo, "refs/heads/loop/done"), done);
    fsck(&repo);
}

#[test]
fn a_sha1_files_repository_migrated_to_reftable_keeps_runs_trash_and_salvages() {
    migrated_keeps_runs_trash_and_salvages(Kind::Sha1Files);
}

#[test]
fn a_sha256_files_repository_migrated_to_reftable_keeps_runs_trash_and_salvages() {
    migrated_keeps_runs_trash_and_salvages(Kind::Sha256Files);
}
