//! Squash, merge and ff against `git merge --squash` and `git merge --no-ff`
//! on a copy of the same repository.

use super::*;

#[test]
fn squash_is_one_commit_with_the_tree_git_merge_squash_makes() {
    let f = Fixture::scene();
    let (onto, run_tip) = (f.id("main"), f.id("loop/r1"));
    let merger = f.merger();
    let b = built(build(&merger, &req(onto, run_tip, Strategy::Squash)).unwrap());
    assert_eq!(b.commits, 1);
    let (tree, parents, author, committer, message) = parts(&merger, b.tip);
    assert_eq!(parents, vec![onto]);
    assert!(author.starts_with(LANDER), "author {author:?}");
    assert!(committer.starts_with(LANDER), "committer {committer:?}");
    assert_eq!(
        message, "first: a's top\n\nsecond: new file\n\nthird: c grows\n",
        "the run's subjects, oldest first, the first the subject"
    );

    let copy = f.copy("squashed");
    f.git_copy(&copy, &["checkout", "-q", "main"]);
    f.git_copy(&copy, &["merge", "-q", "--squash", "loop/r1"]);
    assert_eq!(tree.to_string(), f.git_copy(&copy, &["write-tree"]));

    let mut r = req(onto, run_tip, Strategy::Squash);
    r.message = Some("One change  \n\n");
    let b = built(build(&merger, &r).unwrap());
    assert_eq!(parts(&merger, b.tip).4, "One change\n");
    r.message = Some(" \n");
    assert!(build(&merger, &r).is_err(), "an empty message is refused");
}

#[test]
fn squash_of_one_commit_takes_its_subject() {
    let f = Fixture::scene();
    let onto = f.id("main");
    let one = f.id("loop/r1~2");
    let merger = f.merger();
    let b = built(build(&merger, &req(onto, one, Strategy::Squash)).unwrap());
    assert_eq!(parts(&merger, b.tip).4, "first: a's top\n");
}

#[test]
fn merge_is_a_merge_commit_with_the_tree_git_merge_no_ff_makes() {
    let f = Fixture::scene();
    let (onto, run_tip) = (f.id("main"), f.id("loop/r1"));
    let merger = f.merger();
    let b = built(build(&merger, &req(onto, run_tip, Strategy::Merge)).unwrap());
    assert_eq!(b.commits, 4, "the run's three and the merge");
    let (tree, parents, author, committer, message) = parts(&merger, b.tip);
    assert_eq!(parents, vec![onto, run_tip]);
    assert!(author.starts_with(LANDER) && committer.starts_with(LANDER));
    assert_eq!(message, "Merge branch 'loop/r1' into main\n");

    let copy = f.copy("merged");
    f.git_copy(&copy, &["checkout", "-q", "main"]);
    f.git_copy(&copy, &["merge", "-q", "--no-ff", "-m", "m", "loop/r1"]);
    let git_tree = f.git_copy(&copy, &["rev-parse", "HEAD^{tree}"]);
    assert_eq!(tree.to_string(), git_tree);

    // --no-ff: a merge commit even when the target did not move.
    let base = f.id("loop/r1~3");
    let b = built(build(&merger, &req(base, run_tip, Strategy::Merge)).unwrap());
    assert_eq!(parts(&merger, b.tip).1, vec![base, run_tip]);
}

#[test]
fn ff_lands_the_run_tip_itself_and_refuses_when_the_target_moved() {
    let f = Fixture::scene();
    let merger = f.merger();
    let run_tip = f.id("loop/r1");
    let base = f.id("loop/r1~3");
    let b = built(build(&merger, &req(base, run_tip, Strategy::Ff)).unwrap());
    assert_eq!(
        b,
        Built {
            tip: run_tip,
            commits: 3
        }
    );
    let moved = build(&merger, &req(f.id("main"), run_tip, Strategy::Ff)).unwrap();
    assert_eq!(moved, Build::NotFastForward);
}
