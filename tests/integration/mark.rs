//! `git loop mark <id> <status>`: each status set, the entry kept; unknown
//! ids and statuses refused.

use std::fs;

use crate::common::TestRepo;

#[test]
fn mark_sets_each_status_and_keeps_the_entry() {
    let repo = TestRepo::new();
    repo.create("m");
    for status in ["rejected", "escalated", "merged", "stale", "active"] {
        let run = repo.run(["--json", "mark", "m", status]);
        run.ok();
        assert_eq!(run.json()["status"], status);
        assert_eq!(run.json()["id"], "m");
        assert_eq!(repo.status_of("m").unwrap(), status);
    }
    assert_eq!(repo.ids(), ["m"]);
    assert!(repo.wt("m").exists(), "marking never removes a worktree");
}

#[test]
fn mark_refuses_unknown_id_and_status() {
    let repo = TestRepo::new();
    // No manifest yet: unknown id, and nothing is created.
    let run = repo.run(["--json", "mark", "ghost", "merged"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "unknown-id");
    assert!(run.stderr.contains("\"ghost\""), "{}", run.stderr);
    assert!(!repo.loop_dir().exists());

    repo.create("m");
    let before = fs::read(repo.manifest_path()).unwrap();
    repo.run(["mark", "ghost", "merged"]).code(1);
    for bad in ["done", "Active", "", "rejected,merged"] {
        let run = repo.run(["--json", "mark", "m", bad]);
        run.code(2);
        assert_eq!(run.json()["error"]["code"], "usage");
    }
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
}

/// Several ids are marked together, all or nothing: an unknown one among
/// them changes nothing (no write, no event); otherwise one write, one
/// `mark` event per run whose status changed, the entries in the order
/// named (the same id twice once). One id still prints its entry alone.
#[test]
fn several_ids_are_marked_all_or_nothing() {
    let repo = TestRepo::new();
    for id in ["a", "b", "c"] {
        repo.create(id);
    }
    let events = || {
        fs::read_to_string(repo.loop_dir().join("events.jsonl"))
            .unwrap()
            .lines()
            .count()
    };
    let before = fs::read(repo.manifest_path()).unwrap();
    let logged = events();
    let refused = repo.run(["--json", "mark", "a", "nope", "b", "rejected"]);
    refused.code(1);
    assert_eq!(refused.json()["error"]["code"], "unknown-id");
    assert!(refused.stderr.contains("\"nope\""), "{}", refused.stderr);
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
    assert_eq!(events(), logged);
    assert!(!repo.mutex_path().exists());

    repo.run(["mark", "c", "rejected"]).ok();
    let logged = events();
    let run = repo.run(["--json", "mark", "c", "a", "c", "rejected"]);
    run.ok();
    let v = run.json();
    let ids: Vec<&str> = v["worktrees"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["c", "a"], "{v}");
    assert!(v["worktrees"].as_array().unwrap().iter().all(|e| e["status"] == "rejected"));
    assert_eq!(repo.status_of("a").unwrap(), "rejected");
    assert_eq!(repo.status_of("b").unwrap(), "active");
    // c was rejected already: only a's change is an event.
    assert_eq!(events(), logged + 1);

    let human = repo.run(["mark", "a", "b", "escalated"]);
    human.ok();
    assert!(
        human.stderr.contains("a: rejected -> escalated\nb: active -> escalated\n"),
        "{}",
        human.stderr
    );
    let one = repo.run(["--json", "mark", "b", "merged"]).json();
    assert_eq!(one["id"], "b", "{one}");
    // The status still comes last: a run id there is a usage error.
    repo.run(["mark", "a", "merged", "b"]).code(2);
}
