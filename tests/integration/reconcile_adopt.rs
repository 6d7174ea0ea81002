//! `reconcile --adopt <ID>`: an orphan git-loop could have made becomes an
//! active run; anything else is refused before anything changes.

use std::fs;

use crate::common::{JsonExt, TestRepo};

fn orphan(repo: &TestRepo, id: &str, branch: &str) {
    fs::create_dir_all(repo.loop_dir()).unwrap();
    repo.git([
        "worktree",
        "add",
        "-q",
        "-b",
        branch,
        &format!(".loop-worktrees/{id}"),
        "main",
    ]);
}

#[test]
fn an_orphan_of_ours_is_adopted_as_an_active_run() {
    let repo = TestRepo::new();
    repo.create("known");
    orphan(&repo, "stray", "loop/stray");

    // Just made: it may be a create that has not recorded it yet.
    let young = repo.run(["--json", "reconcile", "--adopt", "stray"]);
    young.code(1);
    assert_eq!(young.json()["error"]["code"], "not-adoptable");
    assert!(young.stderr.contains("too young"), "{}", young.stderr);
    // The help types out the one way on.
    assert!(
        young
            .stderr
            .contains("help: if no `git loop create` is still making it, adopt it now: git loop reconcile --adopt stray --min-age 0"),
        "{}",
        young.stderr
    );
    assert_eq!(repo.ids(), ["known"]);

    let dry = repo
        .run([
            "--json",
            "reconcile",
            "--adopt",
            "stray",
            "--min-age",
            "0",
            "--dry-run",
        ])
        .json();
    assert_eq!(dry.ids("adopted"), ["stray"], "{dry}");
    assert_eq!(repo.ids(), ["known"], "a dry run records nothing");

    let v = repo
        .run(["--json", "reconcile", "--adopt", "stray", "--min-age", "0"])
        .json();
    assert_eq!(v.ids("adopted"), ["stray"], "{v}");
    assert_eq!(repo.ids(), ["known", "stray"]);
    assert_eq!(repo.status_of("stray").as_deref(), Some("active"));
    let entry = repo.manifest().find_id("worktrees", "stray").clone();
    assert_eq!(entry["pattern"], "adopted");
    assert_eq!(entry["baseBranch"], "main");
    let path = repo.run(["path", "stray"]);
    path.ok();
    assert_eq!(path.stdout.trim(), repo.wt("stray").to_str().unwrap());
    let log = repo.run(["--json", "log", "stray"]).json();
    assert_eq!(log.arr("events")[0]["event"], "adopt", "{log}");
    // It is a run now: no longer an orphan; a create --reuse hands it back.
    let again = repo.run(["--json", "reconcile"]).json();
    assert!(again.arr("orphans").is_empty(), "{again}");
    repo.run(["create", "stray", "--pattern", "x", "--reuse"])
        .ok();
}

#[test]
fn what_git_loop_could_not_have_made_is_not_adopted() {
    let repo = TestRepo::new();
    repo.create("known");
    orphan(&repo, "other", "feature");
    orphan(&repo, "det", "loop/det");
    assert!(
        repo.git_in(&repo.wt("det"), ["checkout", "-q", "--detach"])
            .status
            .success()
    );
    orphan(&repo, "both", "loop/both");
    let before = fs::read(repo.manifest_path()).unwrap();
    for args in [
        vec!["reconcile", "--adopt", "other"],
        vec!["reconcile", "--adopt", "det"],
        vec!["reconcile", "--adopt", "known"],
        vec!["reconcile", "--adopt", "nothing-here"],
        vec![
            "reconcile",
            "--adopt",
            "both",
            "--remove-orphan",
            "both",
            "--min-age",
            "0",
        ],
    ] {
        let run = repo.run([&["--json"][..], &args].concat());
        run.code(1);
        assert_eq!(run.json()["error"]["code"], "not-adoptable", "{args:?}");
        assert!(run.stderr.contains(args[2]), "{}", run.stderr);
        assert_eq!(fs::read(repo.manifest_path()).unwrap(), before, "{args:?}");
    }
    assert!(repo.wt("both").join("README").exists());
}

/// Without `main` or a set base, the base an adopted run would record is
/// only the branch the main checkout is on: a guess, and the base is what
/// proves a run merged later. Adoption is refused, dry run too, naming the
/// `git config loop.base` that sets it; once set, the orphan is adopted
/// with that base (issue 41: a guessed base is no proof of anything).
#[test]
fn an_orphan_is_not_adopted_onto_a_guessed_base() {
    let repo = TestRepo::new();
    repo.git(["branch", "-m", "main", "trunk"]);
    fs::create_dir_all(repo.loop_dir()).unwrap();
    repo.git([
        "worktree",
        "add",
        "-q",
        "-b",
        "loop/stray",
        ".loop-worktrees/stray",
        "trunk",
    ]);
    for dry in [true, false] {
        let mut args = vec!["--json", "reconcile", "--adopt", "stray", "--min-age", "0"];
        if dry {
            args.push("--dry-run");
        }
        let run = repo.run(args);
        run.code(1);
        assert_eq!(run.json()["error"]["code"], "not-adoptable");
        assert!(run.stderr.contains("guessed base"), "{}", run.stderr);
        assert!(
            run.stderr.contains("git config loop.base <BRANCH>"),
            "{}",
            run.stderr
        );
        let manifest = fs::read_to_string(repo.manifest_path()).unwrap_or_default();
        assert!(!manifest.contains("stray"), "{manifest}");
    }
    repo.git(["config", "loop.base", "trunk"]);
    let v = repo
        .run(["--json", "reconcile", "--adopt", "stray", "--min-age", "0"])
        .json();
    assert_eq!(v.ids("adopted"), ["stray"], "{v}");
    let entry = repo.manifest().find_id("worktrees", "stray").clone();
    assert_eq!(entry["baseBranch"], "trunk");
}
