//! The main checkout's ignored files are precious: a landing that would
//! overwrite or delete a file the checkout does not track (an ignored
//! `.env`, an ignored `build/` directory's files) is refused
//! (`target-ignored`, naming the paths), nothing moved — whether git-loop
//! writes the checkout itself or leaves it to `git read-tree`
//! (`core.autocrlf` set), alone or in a queue, and when the file appears
//! between the check and the checkout.

use super::{commit_as, events_of, land, rev, setup, state};
use crate::common::{JsonExt, TestRepo, git_ok, spawn_until};

const BY: &str = "Ada <ada@example.com>";
const DATE: &str = "2026-02-01T10:00:00Z";

/// A repository that ignores `.env`, `build/` and `cache`, with the
/// checkout left to git when `autocrlf`.
fn ignoring(autocrlf: bool) -> TestRepo {
    let repo = setup();
    std::fs::write(
        repo.root.join(".gitignore"),
        ".loop-worktrees/\n.env\nbuild/\ncache\n",
    )
    .unwrap();
    repo.git(["commit", "-qam", "ignore .env, build/ and cache"]);
    if autocrlf {
        repo.git(["config", "core.autocrlf", "true"]);
    }
    repo
}

/// Run `id` with one commit force-adding `file` (ignored on main).
fn run_adding(repo: &TestRepo, id: &str, file: &str) {
    repo.create(id);
    let wt = repo.wt(id);
    if let Some(parent) = std::path::Path::new(file).parent() {
        std::fs::create_dir_all(wt.join(parent)).unwrap();
    }
    std::fs::write(wt.join(file), format!("{id}'s {file}\n")).unwrap();
    git_ok(repo, &wt, &["add", "-f", file]);
    git_ok(repo, &wt, &["commit", "-qm", &format!("add {file}")]);
}

/// Refused `target-ignored` naming `paths`, nothing changed.
fn refused(repo: &TestRepo, args: &[&str], id: &str, paths: &[&str]) {
    let before = state(repo);
    let main = rev(repo, "main");
    let doc = land(repo, args, 1);
    let skipped = doc.find_id("skipped", id);
    assert_eq!(skipped["code"], "target-ignored", "{doc}");
    assert_eq!(skipped["paths"], serde_json::json!(paths), "{doc}");
    assert!(
        skipped.text("message").contains("move them aside"),
        "{skipped}"
    );
    assert_eq!(rev(repo, "main"), main, "the target moved");
    assert_eq!(
        state(repo),
        before,
        "a target-ignored refusal changed something"
    );
    assert!(
        events_of(repo, id)
            .iter()
            .any(|e| e == "land:target-ignored")
    );
}

#[test]
fn a_landed_env_never_overwrites_the_checkouts_ignored_env() {
    for autocrlf in [false, true] {
        let repo = ignoring(autocrlf);
        run_adding(&repo, "e", ".env");
        std::fs::write(repo.root.join(".env"), "SECRET=mine\n").unwrap();
        refused(&repo, &["e"], "e", &[".env"]);
        assert_eq!(
            std::fs::read_to_string(repo.root.join(".env")).unwrap(),
            "SECRET=mine\n"
        );
        // Moved aside, it lands.
        std::fs::remove_file(repo.root.join(".env")).unwrap();
        land(&repo, &["e"], 0);
        assert_eq!(
            repo.git(["status", "--porcelain"]),
            "",
            "autocrlf {autocrlf}"
        );
    }
}

#[test]
fn an_ignored_directory_or_file_in_the_way_is_refused_and_one_beside_is_kept() {
    for autocrlf in [false, true] {
        let repo = ignoring(autocrlf);
        std::fs::create_dir(repo.root.join("build")).unwrap();
        std::fs::write(repo.root.join("build/out.o"), "precious\n").unwrap();
        std::fs::write(repo.root.join("cache"), "cached\n").unwrap();
        // A file `build` where the ignored directory is: git would delete it.
        run_adding(&repo, "d", "build");
        refused(&repo, &["d"], "d", &["build/"]);
        // A file `cache/x` where the ignored file `cache` is.
        run_adding(&repo, "f", "cache/x");
        refused(&repo, &["f"], "f", &["cache"]);
        // A file beside the ignored one, in the ignored directory: lands,
        // the ignored file kept.
        run_adding(&repo, "b", "build/new.txt");
        land(&repo, &["b"], 0);
        assert_eq!(
            std::fs::read_to_string(repo.root.join("build/out.o")).unwrap(),
            "precious\n"
        );
        assert_eq!(
            repo.git(["status", "--porcelain"]),
            "",
            "autocrlf {autocrlf}"
        );
    }
}

#[test]
fn a_queue_skips_the_run_that_would_overwrite_an_ignored_file() {
    let repo = ignoring(true);
    run_adding(&repo, "q1", ".env");
    run_adding(&repo, "q2", "two.txt");
    for id in ["q1", "q2"] {
        repo.run(["mark", id, "escalated"]).ok();
    }
    std::fs::write(repo.root.join(".env"), "SECRET=mine\n").unwrap();
    let doc = land(&repo, &["--queue", "--keep-going"], 1);
    assert_eq!(
        doc.find_id("skipped", "q1")["code"],
        "target-ignored",
        "{doc}"
    );
    assert_eq!(doc.ids("landed"), ["q2"]);
    assert_eq!(
        std::fs::read_to_string(repo.root.join(".env")).unwrap(),
        "SECRET=mine\n"
    );
    assert_eq!(repo.git(["status", "--porcelain"]), "");
}

/// An ignored file made after the check, before the checkout: looked for
/// again before git writes, the target moved back, nothing lost.
#[test]
fn an_ignored_file_made_during_the_landing_is_kept_and_the_target_moved_back() {
    for autocrlf in [false, true] {
        let repo = ignoring(autocrlf);
        run_adding(&repo, "r", ".env");
        commit_as(&repo, &repo.wt("r"), "more", "more\n", BY, DATE, "more");
        let main = rev(&repo, "main");
        let go = repo.base().join("go");
        let spec = format!("land-before-ref:until:{}", go.display());
        let mut child = spawn_until(
            &repo,
            &[("GIT_LOOP_TEST_CRASH", spec.as_str())],
            &["land", "r"],
            "paused at land-before-ref",
        );
        std::fs::write(repo.root.join(".env"), "SECRET=mine\n").unwrap();
        std::fs::write(&go, "").unwrap();
        assert_eq!(child.wait().unwrap().code(), Some(1));
        assert_eq!(rev(&repo, "main"), main, "autocrlf {autocrlf}");
        assert_eq!(
            std::fs::read_to_string(repo.root.join(".env")).unwrap(),
            "SECRET=mine\n"
        );
        assert_eq!(repo.git(["status", "--porcelain"]), "");
        assert!(
            events_of(&repo, "r")
                .iter()
                .any(|e| e == "land:target-ignored")
        );
    }
}
