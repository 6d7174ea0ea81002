//! Making runs and reading them: create, mark (and `--detect-merged`),
//! list --long.

use serde_json::json;

use super::{fsck, id_of, json, repo, rev, run_with, status};
use crate::common::{JsonExt, Kind, commit, git_line};

/// create: the worktree on its own branch at the base, registered with git,
/// recorded; a base named by its full id recorded as named.
fn create(kind: Kind) {
    let repo = repo(kind);
    let main = rev(&repo, "main");
    let doc = json(&repo, &["create", "a", "--pattern", "p"], 0);
    assert_eq!(
        (&doc["id"], &doc["branch"], &doc["status"]),
        (&json!("a"), &json!("loop/a"), &json!("active")),
        "{doc}"
    );
    let wt = repo.wt("a");
    assert_eq!(git_line(&repo, &wt, &["rev-parse", "HEAD"]), main);
    assert_eq!(
        git_line(&repo, &wt, &["symbolic-ref", "HEAD"]),
        "refs/heads/loop/a"
    );
    assert_eq!(rev(&repo, "refs/heads/loop/a"), main);
    // The branch's reflog records its creation: what tells a run with no
    // commits of its own from one its base took (docs/landing.md).
    let created = git_line(&repo, &repo.root, &["reflog", "--format=%H", "loop/a"]);
    assert_eq!(created, main, "loop/a's reflog is its creation alone");
    assert_eq!(
        std::fs::read_to_string(wt.join("README")).unwrap(),
        "hello\n"
    );
    assert!(repo.registered().contains(&wt), "{:?}", repo.registered());
    let path = repo.run(["path", "a"]);
    path.ok();
    assert_eq!(path.stdout.trim(), wt.to_str().unwrap());

    let doc = json(
        &repo,
        &["create", "b", "--pattern", "p", "--base", &main],
        0,
    );
    assert_eq!(id_of(kind, &doc["baseBranch"]), main, "{doc}");
    assert_eq!(rev(&repo, "loop/b"), main);
    assert_eq!(repo.ids(), ["a", "b"]);
    assert_eq!(status(&repo, &repo.root), "", "the main checkout is clean");
    fsck(&repo);
}

/// mark: one run, several at once, and `--detect-merged` finding a run
/// whose commit main took by fast-forward; every change logged.
fn mark(kind: Kind) {
    let repo = repo(kind);
    for id in ["a", "b", "m"] {
        run_with(&repo, id, &format!("{id}.txt"));
    }
    let one = json(&repo, &["mark", "a", "rejected"], 0);
    assert_eq!(one["status"], "rejected", "{one}");
    let two = json(&repo, &["mark", "a", "b", "escalated"], 0);
    assert_eq!(two.ids("worktrees"), ["a", "b"], "{two}");
    assert_eq!(repo.status_of("b").as_deref(), Some("escalated"));

    repo.git(["merge", "-q", "--ff-only", "loop/m"]);
    let tip = rev(&repo, "loop/m");
    let doc = json(&repo, &["mark", "--detect-merged"], 0);
    let marked = doc.arr("marked");
    assert_eq!(marked.len(), 1, "{doc}");
    assert_eq!(marked[0]["id"], "m", "{doc}");
    assert_eq!(marked[0]["mergedBy"], "ancestor", "{doc}");
    assert_eq!(id_of(kind, &marked[0]["tip"]), tip);
    assert_eq!(repo.status_of("m").as_deref(), Some("merged"));
    let log = json(&repo, &["log"], 0);
    let marks: Vec<String> = log
        .arr("events")
        .iter()
        .filter(|e| e["event"] == "mark")
        .map(|e| format!("{} {}->{}", e.text("id"), e.text("from"), e.text("to")))
        .collect();
    assert_eq!(
        marks,
        [
            "a active->rejected",
            "a rejected->escalated",
            "b active->escalated",
            "m active->merged"
        ],
        "{log}"
    );
    fsck(&repo);
}

/// list --long: dirty, untracked, ahead and behind as git counts them, a
/// run squash-merged into main proved merged, an empty run.
fn list_long(kind: Kind) {
    let repo = repo(kind);
    for id in ["clean", "dirty", "untracked", "ahead", "sq"] {
        repo.create(id);
    }
    std::fs::write(repo.wt("dirty").join("README"), "changed\n").unwrap();
    std::fs::write(repo.wt("untracked").join("new.txt"), "new\n").unwrap();
    commit(&repo, &repo.wt("ahead"), "a1", "1\n");
    commit(&repo, &repo.wt("ahead"), "a2", "2\n");
    commit(&repo, &repo.wt("sq"), "s1", "1\n");
    commit(&repo, &repo.wt("sq"), "s2", "2\n");
    // sq's two commits squashed into main as one: main moves, every run is
    // one behind, and only the whole change's patch id proves sq merged.
    repo.git(["merge", "-q", "--squash", "loop/sq"]);
    repo.git(["commit", "-q", "-m", "squashed sq"]);

    let list = json(&repo, &["list", "--long"], 0);
    let row = |id: &str| {
        let r = list.find_id("worktrees", id);
        json!([
            r["dirty"],
            r["untracked"],
            r["ahead"],
            r["behind"],
            r["merged"],
            r["mergedBy"],
            r["empty"]
        ])
    };
    let f = false;
    let t = true;
    assert_eq!(row("clean"), json!([f, f, 0, 1, f, null, t]), "{list}");
    assert_eq!(row("dirty"), json!([t, f, 0, 1, f, null, t]), "{list}");
    assert_eq!(row("untracked"), json!([f, t, 0, 1, f, null, t]), "{list}");
    assert_eq!(row("ahead"), json!([f, f, 2, 1, f, null, f]), "{list}");
    assert_eq!(row("sq"), json!([f, f, 2, 1, t, "squash", f]), "{list}");
    let counted = repo.git(["rev-list", "--left-right", "--count", "loop/ahead...main"]);
    assert_eq!(counted.split_whitespace().collect::<Vec<_>>(), ["2", "1"]);
    fsck(&repo);
}

on_every_kind!(create: create_sha1_files, create_sha256_files, create_sha1_reftable,
    create_sha256_reftable, create_bare);
on_every_kind!(mark: mark_sha1_files, mark_sha256_files, mark_sha1_reftable,
    mark_sha256_reftable, mark_bare);
on_every_kind!(list_long: list_long_sha1_files, list_long_sha256_files,
    list_long_sha1_reftable, list_long_sha256_reftable, list_long_bare);
