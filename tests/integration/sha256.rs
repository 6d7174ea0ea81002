//! A repository made by `git init --object-format=sha256`: the core flows
//! (create, mark, list --long, conflicts, branches, cleanup
//! --delete-merged-branches, remove --salvage and restore, the trash,
//! reconcile, land one run and --queue, judge) work as on SHA-1, and every
//! id they print or record is the repository's: 64 hex digits.

use serde_json::Value;

use crate::common::{TestRepo, commit, git_line, git_ok};

fn sha256_repo() -> TestRepo {
    let repo = TestRepo::new_with(&["--object-format=sha256"]);
    assert_eq!(
        repo.git(["rev-parse", "--show-object-format"]).trim(),
        "sha256"
    );
    std::fs::write(repo.root.join(".gitignore"), ".loop-worktrees/\n").unwrap();
    repo.git(["add", ".gitignore"]);
    repo.git(["commit", "-q", "-m", "ignore"]);
    repo
}

/// An object id of this format: 64 lowercase hex digits.
fn is_id(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
}

fn json(repo: &TestRepo, args: &[&str], code: i32) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let run = repo.run(&all);
    run.code(code);
    run.json()
}

fn rev(repo: &TestRepo, spec: &str) -> String {
    git_line(repo, &repo.root, &["rev-parse", spec])
}

/// A run with a commit of its own in `file`.
fn run_with(repo: &TestRepo, id: &str, file: &str) {
    repo.create(id).ok();
    commit(repo, &repo.wt(id), file, &format!("{id}\n"));
}

#[test]
fn create_mark_list_long_and_conflicts_work_and_speak_in_64_hex_ids() {
    let repo = sha256_repo();
    run_with(&repo, "a", "a.txt");
    run_with(&repo, "b", "a.txt");
    json(&repo, &["mark", "a", "rejected"], 0);
    assert_eq!(repo.status_of("a").as_deref(), Some("rejected"));
    let list = json(&repo, &["list", "--long"], 0);
    let a = &list["worktrees"][0];
    assert_eq!(a["ahead"], 1, "{list}");
    assert_eq!(a["behind"], 0, "{list}");
    assert_eq!(a["dirty"], false, "{list}");
    let conflicts = json(&repo, &["conflicts", "--status", "active,rejected"], 0);
    let pairs = conflicts["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1, "{conflicts}");
}

#[test]
fn a_squash_merged_run_is_proved_merged_and_its_branch_deleted_into_the_trash_and_restored() {
    let repo = sha256_repo();
    run_with(&repo, "s", "s.txt");
    commit(&repo, &repo.wt("s"), "t.txt", "t\n");
    // The run's two commits squash-merged into main by hand as one: only
    // the patch id of the whole change proves it.
    repo.git(["merge", "-q", "--squash", "loop/s"]);
    repo.git(["commit", "-q", "-m", "squashed s"]);
    let tip = rev(&repo, "loop/s");
    assert_eq!(tip.len(), 64);
    json(&repo, &["mark", "s", "rejected"], 0);
    let doc = json(&repo, &["cleanup", "--delete-merged-branches"], 0);
    assert!(!repo.branch_exists("loop/s"), "{doc}");
    assert!(!repo.wt("s").exists());
    let trash = json(&repo, &["trash"], 0);
    let entry = &trash["trash"][0];
    assert_eq!(entry["tip"], tip.as_str(), "{trash}");
    assert_eq!(entry["reason"], "merged-squash", "{trash}");
    let name = entry["name"].as_str().unwrap();
    json(&repo, &["trash", "restore", name], 0);
    assert_eq!(rev(&repo, "loop/s"), tip);
    // The events record the tip as the repository spells it.
    let log = json(&repo, &["log"], 0);
    let text = log.to_string();
    assert!(text.contains(&tip), "{log}");
}

#[test]
fn remove_salvage_keeps_a_dirty_run_under_a_64_hex_id_and_restore_brings_it_back() {
    let repo = sha256_repo();
    run_with(&repo, "d", "d.txt");
    std::fs::write(repo.wt("d").join("wip.txt"), "work in progress\n").unwrap();
    std::fs::write(repo.wt("d").join("d.txt"), "changed\n").unwrap();
    json(&repo, &["mark", "d", "rejected"], 0);
    let doc = json(&repo, &["remove", "d", "--salvage"], 0);
    let salvage = &doc["removed"][0]["salvage"];
    assert!(is_id(&salvage["commit"]), "{doc}");
    assert_eq!(
        rev(&repo, "refs/loop/salvage/d"),
        salvage["commit"].as_str().unwrap()
    );
    assert!(!repo.wt("d").exists());
    let back = json(&repo, &["restore", "d"], 0);
    assert!(is_id(&back["commit"]), "{back}");
    let wt = repo.wt("d");
    assert_eq!(
        std::fs::read_to_string(wt.join("wip.txt")).unwrap(),
        "work in progress\n"
    );
    assert_eq!(
        std::fs::read_to_string(wt.join("d.txt")).unwrap(),
        "changed\n"
    );
}

#[test]
fn reconcile_and_branches_read_a_sha256_repository() {
    let repo = sha256_repo();
    run_with(&repo, "r", "r.txt");
    // A leftover branch merged into main: branches --delete-merged deletes it.
    repo.git(["branch", "loop/old"]);
    let doc = json(&repo, &["branches", "--delete-merged"], 0);
    assert!(!repo.branch_exists("loop/old"), "{doc}");
    // A vanished worktree: reconcile drops it.
    std::fs::remove_dir_all(repo.wt("r")).unwrap();
    repo.git(["worktree", "prune"]);
    let doc = json(&repo, &["reconcile"], 0);
    assert_eq!(doc["dropped"][0]["id"], "r", "{doc}");
    assert!(repo.ids().is_empty());
}

#[test]
fn a_base_named_by_its_full_64_hex_id_is_stable_and_proves_a_run_merged() {
    let repo = sha256_repo();
    let base = rev(&repo, "main");
    repo.run(["create", "h", "--pattern", "p", "--base", &base])
        .ok();
    assert_eq!(repo.manifest()["worktrees"][0]["baseBranch"], base.as_str());
    // The run adds nothing: its tip is its base, merged by ancestry.
    json(&repo, &["mark", "h", "rejected"], 0);
    let doc = json(&repo, &["cleanup", "--delete-merged-branches"], 0);
    assert!(!repo.branch_exists("loop/h"), "{doc}");
}

#[test]
fn land_one_run_moves_main_and_records_64_hex_ids() {
    let repo = sha256_repo();
    run_with(&repo, "l", "l.txt");
    // main moves on, so the run is rebased.
    commit(&repo, &repo.root, "main.txt", "main\n");
    let before = rev(&repo, "main");
    let doc = json(&repo, &["land", "l"], 0);
    let landed = &doc["landed"][0];
    assert_eq!(landed["from"], before.as_str(), "{doc}");
    assert!(is_id(&landed["to"]), "{doc}");
    assert_eq!(rev(&repo, "main"), landed["to"].as_str().unwrap());
    assert_eq!(git_line(&repo, &repo.root, &["show", "main:l.txt"]), "l");
    assert_eq!(rev(&repo, "main~1"), before);
    // The main checkout followed: its file written, its index git's.
    assert_eq!(
        std::fs::read_to_string(repo.root.join("l.txt")).unwrap(),
        "l\n"
    );
    assert_eq!(repo.git(["status", "--porcelain"]), "");
    repo.git(["fsck", "--no-progress"]);
}

#[test]
fn land_merge_and_squash_strategies_move_main() {
    let repo = sha256_repo();
    run_with(&repo, "m", "m.txt");
    run_with(&repo, "q", "q.txt");
    commit(&repo, &repo.root, "main.txt", "main\n");
    let doc = json(&repo, &["land", "m", "--strategy", "merge"], 0);
    assert_eq!(rev(&repo, "main"), doc["landed"][0]["to"].as_str().unwrap());
    assert_eq!(
        git_line(
            &repo,
            &repo.root,
            &["rev-list", "--count", "--merges", "main"]
        ),
        "1"
    );
    let doc = json(
        &repo,
        &["land", "q", "--strategy", "squash", "-m", "squashed q"],
        0,
    );
    assert!(is_id(&doc["landed"][0]["to"]), "{doc}");
    assert_eq!(git_line(&repo, &repo.root, &["show", "main:q.txt"]), "q");
}

#[test]
fn land_queue_lands_every_run_in_order_and_skips_the_conflict() {
    let repo = sha256_repo();
    run_with(&repo, "q1", "one.txt");
    run_with(&repo, "q2", "two.txt");
    run_with(&repo, "q3", "one.txt");
    for id in ["q1", "q2", "q3"] {
        json(&repo, &["mark", id, "escalated"], 0);
    }
    let doc = json(&repo, &["land", "--queue", "--keep-going"], 1);
    let landed: Vec<&str> = doc["landed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert_eq!(landed.len(), 2, "{doc}");
    assert_eq!(doc["skipped"].as_array().unwrap().len(), 1, "{doc}");
    assert_eq!(
        git_ok(&repo, &repo.root, &["ls-tree", "--name-only", "main"])
            .lines()
            .count(),
        4
    );
    for l in doc["landed"].as_array().unwrap() {
        assert!(is_id(&l["to"]), "{doc}");
    }
}

#[test]
fn judge_runs_the_gate_in_every_attempt_and_records_64_hex_heads() {
    let repo = sha256_repo();
    std::fs::write(repo.root.join("test.sh"), "[ -f ok ]\n").unwrap();
    repo.git(["add", "test.sh"]);
    repo.git(["commit", "-q", "-m", "gate"]);
    run_with(&repo, "fix.1", "nope");
    run_with(&repo, "fix.2", "ok");
    let doc = json(&repo, &["judge", "fix", "--gate", "sh ./test.sh"], 0);
    let text = doc.to_string();
    let head = rev(&repo, "loop/fix.2");
    assert!(text.contains(&head), "{doc}");
    let list = json(&repo, &["list", "--task", "fix"], 0);
    let ranked: Vec<(&str, bool)> = list["worktrees"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["id"].as_str().unwrap(),
                w["judge"]["passed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert!(ranked.contains(&("fix.2", true)), "{list}");
    assert!(ranked.contains(&("fix.1", false)), "{list}");
}

#[test]
fn pick_lands_the_winner_and_rejects_its_sibling() {
    let repo = sha256_repo();
    run_with(&repo, "t.1", "one.txt");
    run_with(&repo, "t.2", "two.txt");
    let doc = json(&repo, &["pick", "t.1", "--land"], 0);
    let landed = &doc["land"]["landed"][0];
    assert!(is_id(&landed["to"]), "{doc}");
    assert_eq!(rev(&repo, "main"), landed["to"].as_str().unwrap());
    assert_eq!(repo.status_of("t.2").as_deref(), Some("rejected"));
}

#[test]
fn a_pool_member_named_by_its_64_hex_base_serves_a_create() {
    let repo = sha256_repo();
    let doc = json(&repo, &["pool", "fill", "1"], 0);
    let member = &doc["members"][0];
    assert!(is_id(&member["commit"]), "{doc}");
    assert!(
        member["name"]
            .as_str()
            .unwrap()
            .starts_with(&rev(&repo, "main")),
        "{doc}"
    );
    let created = json(&repo, &["create", "p", "--pattern", "x"], 0);
    assert_eq!(created["method"], "pooled", "{created}");
    assert_eq!(rev(&repo, "loop/p"), rev(&repo, "main"));
}

#[test]
fn a_replaced_salvage_goes_to_the_trash_under_its_64_hex_tip() {
    let repo = sha256_repo();
    run_with(&repo, "v", "v.txt");
    std::fs::write(repo.wt("v").join("first.txt"), "first\n").unwrap();
    json(&repo, &["mark", "v", "rejected"], 0);
    json(&repo, &["remove", "v", "--salvage"], 0);
    let first = rev(&repo, "refs/loop/salvage/v");
    json(&repo, &["restore", "v"], 0);
    std::fs::write(repo.wt("v").join("second.txt"), "second\n").unwrap();
    json(&repo, &["mark", "v", "rejected"], 0);
    json(&repo, &["remove", "v", "--salvage"], 0);
    assert_ne!(rev(&repo, "refs/loop/salvage/v"), first);
    let trash = json(&repo, &["trash"], 0);
    let kept: Vec<&str> = trash["trash"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["tip"].as_str().unwrap())
        .collect();
    assert!(kept.contains(&first.as_str()), "{trash}");
}

/// `git loop trust` records the repository file's blob id and each file its
/// hooks name as git hashes them here: 64 hex digits; the trusted hook then
/// runs, and a changed named file needs trusting again.
#[test]
fn trust_records_blob_ids_as_git_hashes_them_here_and_the_trusted_hook_runs() {
    let repo = sha256_repo();
    std::fs::write(repo.root.join("setup.sh"), "echo ran > ran.txt\n").unwrap();
    std::fs::write(
        repo.root.join(".git-loop.toml"),
        "[create]\npost-command = \"sh ./setup.sh\"\n",
    )
    .unwrap();
    repo.git(["add", "setup.sh", ".git-loop.toml"]);
    repo.git(["commit", "-q", "-m", "hook"]);
    json(&repo, &["create", "u", "--pattern", "x"], 1);
    let t = json(&repo, &["trust"], 0);
    let blob = repo.git(["hash-object", ".git-loop.toml"]);
    assert_eq!(t["blob"], blob.trim(), "{t}");
    let named = repo.git(["hash-object", "setup.sh"]);
    assert_eq!(t["files"]["setup.sh"], named.trim(), "{t}");
    let created = json(&repo, &["create", "r", "--pattern", "x"], 0);
    assert_eq!(created["postCommand"]["ok"], true, "{created}");
    assert!(repo.wt("r").join("ran.txt").exists());
    // The named file changed in the next run's base: trust again.
    commit(&repo, &repo.root, "setup.sh", "echo other > ran.txt\n");
    json(&repo, &["create", "s", "--pattern", "x"], 1);
}

/// A SHA-256 upstream: create --fetch reads it, land --push moves it.
#[test]
fn create_fetch_and_land_push_work_with_a_sha256_upstream() {
    let repo = sha256_repo();
    let up = repo.base().join("up.git");
    let up_str = up.to_str().unwrap();
    repo.git(["clone", "-q", "--bare", ".", up_str]);
    repo.git(["remote", "add", "origin", up_str]);
    repo.git(["fetch", "-q", "origin"]);
    repo.git(["branch", "-q", "--set-upstream-to", "origin/main", "main"]);
    let created = json(&repo, &["create", "f", "--pattern", "x", "--fetch"], 0);
    assert_eq!(created["upstream"]["fetched"], true, "{created}");
    commit(&repo, &repo.wt("f"), "f.txt", "f\n");
    let doc = json(&repo, &["land", "f", "--push"], 0);
    let landed = &doc["landed"][0];
    assert_eq!(landed["pushed"], true, "{doc}");
    let remote = git_line(&repo, &up, &["rev-parse", "main"]);
    assert_eq!(landed["to"], remote.as_str(), "{doc}");
    assert_eq!(remote.len(), 64);
}

/// A salvaged run whose branch was deleted since: restore makes the branch
/// again at the salvage's head.
#[test]
fn restore_recreates_a_deleted_branch_at_the_salvaged_head() {
    let repo = sha256_repo();
    run_with(&repo, "g", "g.txt");
    let tip = rev(&repo, "loop/g");
    std::fs::write(repo.wt("g").join("wip.txt"), "wip\n").unwrap();
    json(&repo, &["mark", "g", "rejected"], 0);
    json(&repo, &["remove", "g", "--salvage"], 0);
    repo.git(["branch", "-q", "-D", "loop/g"]);
    let back = json(&repo, &["restore", "g"], 0);
    assert_eq!(back["branchRecreated"], true, "{back}");
    assert_eq!(rev(&repo, "loop/g"), tip);
    assert!(repo.wt("g").join("wip.txt").exists());
}

/// A history of real shape (criss-cross merge bases) imported into a
/// SHA-256 repository: list --long's ahead/behind and merged verdicts equal
/// git's, with and without a commit-graph.
#[test]
fn ahead_behind_and_merged_equal_git_over_a_real_shaped_sha256_history() {
    let repo = TestRepo::new_with(&["--object-format=sha256"]);
    let summary = crate::common::topics::import(
        &repo,
        &crate::common::history::Shape {
            commits: 5_000,
            hex_len: 64,
            ..crate::common::history::Shape::real()
        },
    );
    let topics: Vec<(String, String)> = crate::common::topics::from_main(&summary.open);
    assert_eq!(rev(&repo, "main").len(), 64);
    assert!(summary.criss_cross > 0, "{summary:?}");
    let ids = crate::common::topics::runs(&repo, &topics);
    assert!(!ids.is_empty());
    let expected = crate::walks::git_says(&repo, &ids);
    assert_eq!(
        crate::walks::ours(&repo).0,
        expected,
        "without a commit-graph"
    );
    repo.git(["commit-graph", "write", "--reachable"]);
    assert_eq!(crate::walks::ours(&repo).0, expected, "with a commit-graph");
}
