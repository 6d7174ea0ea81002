//! Conflicts, empty runs, and the committer identity (from the environment,
//! or missing).

use super::*;

/// main and the run both change the first line of a.txt.
fn conflicting() -> Fixture {
    let f = Fixture::new();
    f.commit_on(
        "main",
        &[("a.txt", "1\n2\n"), ("b.txt", "b\n")],
        "base",
        ALICE,
    );
    f.branch("loop/r1", "main");
    f.commit_on("loop/r1", &[("b.txt", "b run\n")], "fine", BOB);
    f.commit_on("loop/r1", &[("a.txt", "run\n2\n")], "clash", BOB);
    f.commit_on("main", &[("a.txt", "main\n2\n")], "main moves", CAROL);
    f
}

#[test]
fn a_conflict_gives_the_paths_for_each_strategy_that_merges() {
    let f = conflicting();
    let merger = f.merger();
    let (onto, run_tip) = (f.id("main"), f.id("loop/r1"));
    for strategy in [Strategy::Rebase, Strategy::Squash, Strategy::Merge] {
        let outcome = build(&merger, &req(onto, run_tip, strategy)).unwrap();
        assert_eq!(
            outcome,
            Build::Conflict {
                paths: vec!["a.txt".to_owned()]
            },
            "{strategy:?}"
        );
    }
}

#[test]
fn a_run_with_no_commits_of_its_own_is_empty() {
    let f = Fixture::scene();
    f.branch("loop/r2", "loop/r1~3");
    let merger = f.merger();
    let (onto, run_tip) = (f.id("main"), f.id("loop/r2"));
    for strategy in [
        Strategy::Rebase,
        Strategy::Squash,
        Strategy::Merge,
        Strategy::Ff,
    ] {
        assert_eq!(
            build(&merger, &req(onto, run_tip, strategy)).unwrap(),
            Build::Empty,
            "{strategy:?}"
        );
    }
    assert!(ahead(&merger, onto, run_tip).unwrap().is_empty());
}

#[test]
fn a_run_whose_only_commit_is_already_upstream_is_empty() {
    let f = Fixture::new();
    f.commit_on("main", &[("a.txt", "a\n")], "base", ALICE);
    f.branch("loop/r1", "main");
    let pick = f.commit_on("loop/r1", &[("b.txt", "b\n")], "add b", BOB);
    f.git(&["checkout", "-q", "main"]);
    f.git(&["cherry-pick", &pick.to_string()]);
    f.commit_on("main", &[("c.txt", "c\n")], "later", CAROL);
    let merger = f.merger();
    let (onto, run_tip) = (f.id("main"), pick);
    for strategy in [Strategy::Rebase, Strategy::Squash] {
        assert_eq!(
            build(&merger, &req(onto, run_tip, strategy)).unwrap(),
            Build::Empty,
            "{strategy:?}"
        );
    }
}

#[test]
fn without_a_committer_identity_only_a_landing_that_writes_commits_is_refused() {
    let f = Fixture::scene();
    f.git(&["config", "--unset", "user.name"]);
    f.git(&["config", "--unset", "user.email"]);
    let merger = f.merger();
    let (base, onto, run_tip) = (f.id("loop/r1~3"), f.id("main"), f.id("loop/r1"));
    let kept = build(&merger, &req(base, run_tip, Strategy::Rebase)).unwrap();
    assert_eq!(
        kept,
        Build::Built(Built {
            tip: run_tip,
            commits: 3
        })
    );
    for strategy in [Strategy::Rebase, Strategy::Squash, Strategy::Merge] {
        let err = build(&merger, &req(onto, run_tip, strategy)).unwrap_err();
        assert!(
            err.to_string().contains("no committer identity"),
            "{strategy:?}: {err}"
        );
        // A setting to make, not a repository that could not be read.
        assert_eq!(err.code(), "invalid-config", "{strategy:?}: {err}");
    }
}

/// The committer identity and date come from `GIT_COMMITTER_*` as git reads
/// them: checked in a child process (the environment is the process's).
#[test]
fn the_committer_comes_from_the_git_committer_environment() {
    let f = Fixture::scene();
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "ops::land::build::tests::refusals::committer_from_env_child",
            "--ignored",
            "--nocapture",
        ])
        .env("LAND_BUILD_TEST_REPO", f.path())
        .env("HOME", f.dir.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", f.dir.path().join("gitconfig"))
        .env("GIT_COMMITTER_NAME", "Env Committer")
        .env("GIT_COMMITTER_EMAIL", "env@example.com")
        .env("GIT_COMMITTER_DATE", "1234567890 +0200")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "child: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[ignore = "run by the_committer_comes_from_the_git_committer_environment"]
fn committer_from_env_child() {
    let path = std::env::var_os("LAND_BUILD_TEST_REPO").expect("run by its parent test");
    let repo = gix::open(path).unwrap();
    let merger = Merger::new(&repo).unwrap();
    let id = |rev: &str| repo.rev_parse_single(rev).unwrap().detach();
    let (onto, run_tip) = (id("main"), id("loop/r1"));
    for strategy in [Strategy::Rebase, Strategy::Squash, Strategy::Merge] {
        let b = built(build(&merger, &req(onto, run_tip, strategy)).unwrap());
        let (_, _, _, committer, _) = parts(&merger, b.tip);
        assert_eq!(
            committer,
            "Env Committer <env@example.com> 1234567890 +0200"
        );
    }
}

/// A run whose own commit is already in the target, and whose merge (of
/// the target, to catch up) adds content of its own: the replay is empty,
/// but the run is not in the target, so it is `HasMerges`, never `Empty`;
/// squash and merge carry the merge's content.
#[test]
fn a_merge_with_content_of_its_own_is_has_merges_even_when_the_replay_is_empty() {
    let f = Fixture::new();
    f.commit_on("main", &[("a.txt", "a\n")], "base", ALICE);
    f.branch("loop/r1", "main");
    f.commit_on("loop/r1", &[("a.txt", "a, changed\n")], "change", BOB);
    f.commit_on("main", &[("a.txt", "a, changed\n")], "the same", CAROL);
    f.git(&["checkout", "-q", "loop/r1"]);
    f.git(&["merge", "-q", "--no-ff", "--no-commit", "main"]);
    std::fs::write(f.path().join("evil.txt"), "only in the merge\n").unwrap();
    f.git(&["add", "evil.txt"]);
    f.git(&["commit", "-q", "-m", "merge main, and evil"]);
    let merger = f.merger();
    let (onto, run_tip) = (f.id("main"), f.id("loop/r1"));
    assert_eq!(
        build(&merger, &req(onto, run_tip, Strategy::Rebase)).unwrap(),
        Build::HasMerges {
            merges: vec![run_tip]
        }
    );
    for strategy in [Strategy::Squash, Strategy::Merge] {
        let b = built(build(&merger, &req(onto, run_tip, strategy)).unwrap());
        let tree = merger.repo().find_commit(b.tip).unwrap().tree().unwrap();
        assert!(tree.find_entry("evil.txt").is_some(), "{strategy:?}");
    }
}
