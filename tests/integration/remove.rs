//! `git loop remove <ID>...`: named runs, cleanup's rules, any status but
//! active; an active or unknown id changes nothing.

use std::fs;

use crate::common::{JsonExt, TestRepo};

fn removed_ids(v: &serde_json::Value) -> Vec<&str> {
    v.ids("removed")
}

#[test]
fn named_runs_go_whatever_their_status_branches_stay() {
    let repo = TestRepo::new();
    for (id, status) in [
        ("a", "merged"),
        ("b", "stale"),
        ("c", "rejected"),
        ("keep", "active"),
    ] {
        repo.create(id);
        if status != "active" {
            repo.run(["mark", id, status]).ok();
        }
    }
    let run = repo.run(["--json", "remove", "a", "b", "a"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["dryRun"], false);
    assert_eq!(removed_ids(&v), ["a", "b"], "{v}");
    assert!(!repo.wt("a").exists() && !repo.wt("b").exists());
    assert!(repo.wt("c").exists() && repo.wt("keep").exists());
    assert!(repo.branch_exists("loop/a") && repo.branch_exists("loop/b"));
    assert_eq!(repo.ids(), ["c", "keep"]);
    let log = repo.run(["--json", "log", "a"]).json();
    assert!(
        log.arr("events").iter().any(|e| e["event"] == "remove"),
        "{log}"
    );
}

#[test]
fn an_active_or_unknown_id_changes_nothing() {
    let repo = TestRepo::new();
    repo.create("done");
    repo.run(["mark", "done", "rejected"]).ok();
    repo.create("live");
    let before = fs::read(repo.manifest_path()).unwrap();
    for (args, code) in [
        (vec!["remove", "done", "live"], "run-active"),
        (vec!["remove", "done", "nope"], "unknown-id"),
    ] {
        let run = repo.run([&["--json"][..], &args].concat());
        run.code(1);
        assert_eq!(run.json()["error"]["code"], code, "{args:?}");
        assert!(run.stderr.contains(args[2]), "{}", run.stderr);
        assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
        assert!(repo.wt("done").exists() && repo.wt("live").exists());
    }
    // No manifest at all: unknown, and nothing is created.
    let fresh = TestRepo::new();
    fresh.run(["remove", "x"]).code(1);
    assert!(!fresh.loop_dir().exists());
    // A run id that is not one is a usage error.
    repo.run(["remove", "a/b"]).code(2);
}

#[test]
fn dry_run_and_skips_follow_cleanups_rules() {
    let repo = TestRepo::new();
    for id in ["clean", "dirty"] {
        repo.create(id);
        repo.run(["mark", id, "escalated"]).ok();
    }
    fs::write(repo.wt("dirty").join("README"), "changed\n").unwrap();
    let dry = repo
        .run(["--json", "remove", "clean", "dirty", "--dry-run"])
        .json();
    assert_eq!(dry["dryRun"], true);
    assert_eq!(removed_ids(&dry), ["clean"]);
    assert_eq!(dry.find_id("skipped", "dirty")["code"], "dirty", "{dry}");
    assert!(repo.wt("clean").exists());
    assert_eq!(repo.ids(), ["clean", "dirty"]);

    let human = repo.run(["remove", "clean", "dirty"]);
    human.ok();
    assert!(human.stdout.contains("removed clean"), "{}", human.stdout);
    assert!(human.stdout.contains("skipped dirty"), "{}", human.stdout);
    assert_eq!(
        fs::read_to_string(repo.wt("dirty").join("README")).unwrap(),
        "changed\n"
    );
    assert_eq!(repo.ids(), ["dirty"]);
}

/// A named removal that removed nothing fails, as `git worktree remove`
/// does, with each skip and its reason; its hint speaks of `remove`, not
/// cleanup. An active run is refused with the one line that marks and
/// removes it.
#[test]
fn removing_nothing_fails_with_the_reason_and_hints_speak_of_remove() {
    let repo = TestRepo::new();
    repo.create("dirty");
    repo.run(["mark", "dirty", "rejected"]).ok();
    fs::write(repo.wt("dirty").join("new-file"), "work\n").unwrap();
    for dry in [&["--dry-run"][..], &[]] {
        let run = repo.run([&["--json", "remove", "dirty"][..], dry].concat());
        run.code(1);
        let v = run.json();
        assert_eq!(v["error"]["code"], "nothing-removed", "{v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains("dirty skipped (untracked)"), "{message}");
        assert_eq!(v.find_id("skipped", "dirty")["code"], "untracked", "{v}");
    }
    let human = repo.run(["remove", "dirty"]);
    human.code(1);
    assert!(human.stdout.contains("skipped dirty"), "{}", human.stdout);
    assert!(
        human
            .stderr
            .contains("error: nothing removed: dirty skipped (untracked)"),
        "{}",
        human.stderr
    );
    assert!(
        human.stderr.contains("`git loop remove dirty` again")
            && human.stderr.contains("git loop remove --salvage dirty")
            && !human.stderr.contains("cleanup"),
        "{}",
        human.stderr
    );
    assert!(repo.wt("dirty").exists());
    assert_eq!(repo.ids(), ["dirty"]);

    repo.create("live");
    let active = repo.run(["remove", "live"]);
    active.code(1);
    assert!(
        active
            .stderr
            .contains("git loop mark live rejected && git loop remove live"),
        "{}",
        active.stderr
    );
}
