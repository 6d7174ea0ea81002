//! The merger's object memory: a queue built on an in-memory tip, nothing
//! written before persist, everything needed after.

use super::*;

#[test]
fn a_queue_builds_the_second_run_on_the_first_in_memory_tip() {
    let f = Fixture::scene();
    f.branch("loop/r2", "loop/r1~3");
    f.commit_on("loop/r2", &[("r2.txt", "r2\n")], "r2: own file", CAROL);
    f.commit_on(
        "loop/r2",
        &[("a.txt", "one\ntwo\nthree\nFOUR\nfive\nsix\nseven\neight\n")],
        "r2: a's middle",
        ALICE,
    );
    // The commits on disk come from the commit graph, the first landing's
    // from memory: the walks and merge bases read both.
    f.git(&["commit-graph", "write", "--reachable"]);
    let merger = f.merger();
    let onto = f.id("main");
    let first = built(build(&merger, &req(onto, f.id("loop/r1"), Strategy::Rebase)).unwrap());
    let second = built(build(&merger, &req(first.tip, f.id("loop/r2"), Strategy::Rebase)).unwrap());
    assert_eq!(second.commits, 2);
    assert_eq!(chain(&merger, second.tip, first.tip).len(), 2);

    let copy = f.copy("queued");
    f.git_copy(&copy, &["checkout", "-q", "loop/r1"]);
    f.git_copy(&copy, &["rebase", "-q", "main"]);
    f.git_copy(&copy, &["checkout", "-q", "loop/r2"]);
    f.git_copy(&copy, &["rebase", "-q", "loop/r1"]);
    let git_tree = f.git_copy(&copy, &["rev-parse", "HEAD^{tree}"]);
    assert_eq!(tree(&merger, second.tip).to_string(), git_tree);

    // The squash and the merge of a second run build on it too.
    for strategy in [Strategy::Squash, Strategy::Merge] {
        let b = built(build(&merger, &req(first.tip, f.id("loop/r2"), strategy)).unwrap());
        assert_eq!(tree(&merger, b.tip).to_string(), git_tree, "{strategy:?}");
    }
}

#[test]
fn nothing_reaches_the_object_database_before_persist_and_all_of_it_after() {
    let f = Fixture::scene();
    f.branch("loop/r2", "loop/r1~3");
    f.commit_on("loop/r2", &[("r2.txt", "r2\n")], "r2", CAROL);
    let before = f.loose_objects();
    let merger = f.merger();
    let onto = f.id("main");
    let first = built(build(&merger, &req(onto, f.id("loop/r1"), Strategy::Rebase)).unwrap());
    let second = built(build(&merger, &req(first.tip, f.id("loop/r2"), Strategy::Squash)).unwrap());
    assert_eq!(
        f.loose_objects(),
        before,
        "the builds wrote to the object database"
    );
    assert!(!f.in_odb(first.tip) && !f.in_odb(second.tip));

    persist(&merger, &first).unwrap();
    assert!(f.in_odb(first.tip));
    assert!(!f.in_odb(second.tip), "persist wrote another landing");
    // The second landing still reads through the merger, then persists.
    assert_eq!(parts(&merger, second.tip).1, vec![first.tip]);
    persist(&merger, &second).unwrap();
    assert!(f.in_odb(second.tip));
    persist(&merger, &second).unwrap(); // again: nothing to do

    f.git(&["update-ref", "refs/heads/landed", &second.tip.to_string()]);
    let fsck = Command::new("git")
        .current_dir(f.path())
        .args(["fsck", "--strict", "--no-dangling"])
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", f.dir.path())
        .output()
        .unwrap();
    assert!(
        fsck.status.success() && fsck.stderr.is_empty() && fsck.stdout.is_empty(),
        "fsck: {}{}",
        String::from_utf8_lossy(&fsck.stdout),
        String::from_utf8_lossy(&fsck.stderr)
    );
    let log = f.git(&["log", "--format=%s", "main..landed"]);
    assert_eq!(log, "r2\nthird: c grows\nsecond: new file\nfirst: a's top");
}

#[test]
fn ff_and_a_rebase_that_kept_the_run_commits_persist_nothing() {
    let f = Fixture::scene();
    let merger = f.merger();
    let before = f.loose_objects();
    let b = built(
        build(
            &merger,
            &req(f.id("loop/r1~3"), f.id("loop/r1"), Strategy::Rebase),
        )
        .unwrap(),
    );
    persist(&merger, &b).unwrap();
    assert_eq!(f.loose_objects(), before);
}
