//! Best of N: judge runs a gate in every attempt and ranks them; pick
//! lands the winner and rejects and salvages its siblings.

use super::{common_dir, fsck, id_of, json, repo, rev, status};
use crate::common::{JsonExt, Kind, commit};

/// judge: `create --attempts 2`, one attempt passing the gate; ranked
/// first with the head it judged, its log in the common dir, the
/// worktrees untouched, the judgement in `list --task`.
fn judge(kind: Kind) {
    let repo = repo(kind);
    commit(&repo, &repo.root, "test.sh", "[ -f ok ]\n");
    let made = json(
        &repo,
        &["create", "fix", "--attempts", "2", "--pattern", "p"],
        0,
    );
    assert_eq!(made.as_array().map(Vec::len), Some(2), "{made}");
    commit(&repo, &repo.wt("fix.1"), "nope", "1\n");
    commit(&repo, &repo.wt("fix.2"), "ok", "2\n");

    let doc = json(
        &repo,
        &["judge", "fix", "--gate", "sh ./test.sh", "--jobs", "2"],
        0,
    );
    let attempts = doc.arr("attempts");
    assert_eq!(doc.ids("attempts"), ["fix.2", "fix.1"], "{doc}");
    assert_eq!(
        (&attempts[0]["passed"], &attempts[0]["rank"]),
        (&true.into(), &1.into())
    );
    assert_eq!(id_of(kind, &attempts[0]["head"]), rev(&repo, "loop/fix.2"));
    assert_eq!(id_of(kind, &attempts[1]["head"]), rev(&repo, "loop/fix.1"));
    assert_eq!(
        (&attempts[1]["passed"], &attempts[1]["exitCode"]),
        (&false.into(), &1.into())
    );
    let log = common_dir(&repo).join("git-loop/judge/fix/fix.2.log");
    assert!(log.is_file(), "{} is missing", log.display());
    for id in ["fix.1", "fix.2"] {
        assert_eq!(status(&repo, &repo.wt(id)), "", "{id} was touched");
    }
    let list = json(&repo, &["list", "--task", "fix"], 0);
    assert_eq!(
        list.find_id("worktrees", "fix.2")["judge"]["passed"],
        true,
        "{list}"
    );
    assert_eq!(
        list.find_id("worktrees", "fix.1")["judge"]["passed"],
        false,
        "{list}"
    );
    fsck(&repo);
}

/// pick --land --salvage: the winner lands on main; its siblings are
/// rejected and their worktrees removed, the one with uncommitted work
/// saved to its salvage ref first; their branches kept.
fn pick(kind: Kind) {
    let repo = repo(kind);
    json(
        &repo,
        &["create", "t", "--attempts", "3", "--pattern", "p"],
        0,
    );
    for n in 1..=3 {
        commit(
            &repo,
            &repo.wt(&format!("t.{n}")),
            &format!("attempt{n}"),
            "x\n",
        );
    }
    std::fs::write(repo.wt("t.3").join("wip.txt"), "wip\n").unwrap();
    let before = rev(&repo, "main");
    let tips = [rev(&repo, "loop/t.2"), rev(&repo, "loop/t.3")];

    let doc = json(&repo, &["pick", "t.1", "--land", "--salvage"], 0);
    let landed = &doc["land"].arr("landed")[0];
    assert_eq!(id_of(kind, &landed["to"]), rev(&repo, "refs/heads/main"));
    assert_eq!(rev(&repo, "main~1"), before);
    assert!(
        repo.root.join("attempt1").exists(),
        "the main checkout follows"
    );
    assert_eq!(doc["winner"]["id"], "t.1", "{doc}");
    assert_eq!(
        doc["winner"]["gatePassed"],
        serde_json::Value::Null,
        "{doc}"
    );
    let siblings = doc.arr("siblings");
    assert_eq!(doc.ids("siblings"), ["t.2", "t.3"], "{doc}");
    for (s, tip) in siblings.iter().zip(&tips) {
        assert_eq!(
            (s.text("to"), s.text("worktree")),
            ("rejected", "removed"),
            "{doc}"
        );
        let id = s.text("id");
        assert!(!repo.wt(id).exists(), "{id}'s worktree is left");
        assert_eq!(&rev(&repo, &format!("refs/heads/loop/{id}")), tip);
    }
    let saved = id_of(kind, &siblings[1]["salvage"]["commit"]);
    assert_eq!(rev(&repo, "refs/loop/salvage/t.3"), saved);
    assert_eq!(siblings[0].get("salvage"), None, "{doc}");
    fsck(&repo);
}

on_every_kind!(judge: judge_sha1_files, judge_sha256_files, judge_sha1_reftable,
    judge_sha256_reftable, judge_bare);
on_every_kind!(pick: pick_sha1_files, pick_sha256_files, pick_sha1_reftable,
    pick_sha256_reftable, pick_bare);
