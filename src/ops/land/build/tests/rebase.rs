//! The rebase strategy against `git rebase` on a copy of the same repository.

use super::super::one_commit::subject;
use super::*;

#[test]
fn rebase_replays_each_commit_as_git_rebase_does_authors_and_messages_kept() {
    let f = Fixture::scene();
    let (onto, run_tip) = (f.id("main"), f.id("loop/r1"));
    let merger = f.merger();
    let b = built(build(&merger, &req(onto, run_tip, Strategy::Rebase)).unwrap());
    assert_eq!(b.commits, 3);

    let copy = f.copy("rebased");
    f.git_copy(&copy, &["checkout", "-q", "loop/r1"]);
    f.git_copy(&copy, &["rebase", "-q", "main"]);
    let theirs: Vec<String> = f
        .git_copy(&copy, &["rev-list", "--reverse", "main..HEAD"])
        .lines()
        .map(str::to_owned)
        .collect();
    let ours = chain(&merger, b.tip, onto);
    let originals = chain(&merger, run_tip, f.id("loop/r1~3"));
    assert_eq!(ours.len(), 3);
    assert_eq!(theirs.len(), 3);
    for ((mine, git), original) in ours.iter().zip(&theirs).zip(&originals) {
        let (tree, _, author, committer, message) = parts(&merger, *mine);
        let (_, _, orig_author, _, orig_message) = parts(&merger, *original);
        let git_tree = f.git_copy(&copy, &["rev-parse", &format!("{git}^{{tree}}")]);
        assert_eq!(tree.to_string(), git_tree, "tree of the pick of {original}");
        assert_eq!(author, orig_author, "author kept byte for byte");
        assert_eq!(message, orig_message, "message kept byte for byte");
        let git_author = f.git_copy(
            &copy,
            &["log", "-1", "--format=%an <%ae> %ad", "--date=raw", git],
        );
        assert_eq!(author, git_author);
        assert!(committer.starts_with(LANDER), "committer {committer:?}");
    }
    assert_eq!(parts(&merger, ours[0]).1, vec![onto], "on the target's tip");
}

#[test]
fn rebase_onto_a_target_that_did_not_move_keeps_the_run_own_commits() {
    let f = Fixture::scene();
    let base = f.id("loop/r1~3");
    let run_tip = f.id("loop/r1");
    let b = built(build(&f.merger(), &req(base, run_tip, Strategy::Rebase)).unwrap());
    assert_eq!(
        b,
        Built {
            tip: run_tip,
            commits: 3
        }
    );
}

#[test]
fn a_commit_empty_to_begin_with_is_kept_as_git_rebase_keeps_it() {
    let f = Fixture::new();
    f.commit_on("main", &[("a.txt", "a\n")], "base", ALICE);
    f.branch("loop/r1", "main");
    f.commit_on("loop/r1", &[], "a note, on purpose", BOB);
    f.commit_on("main", &[("c.txt", "c\n")], "later", CAROL);
    let merger = f.merger();
    let (onto, run_tip) = (f.id("main"), f.id("loop/r1"));
    let b = built(build(&merger, &req(onto, run_tip, Strategy::Rebase)).unwrap());
    assert_eq!(b.commits, 1);
    let (tree, parents, _, _, message) = parts(&merger, b.tip);
    assert_eq!(
        (tree, parents),
        (tree_of(&merger, onto).unwrap(), vec![onto])
    );
    assert_eq!(message, "a note, on purpose\n");
}

#[test]
fn a_pick_already_upstream_is_dropped_and_the_others_land_as_git_rebase_lands_them() {
    let f = Fixture::scene();
    let second = f.id("loop/r1~1");
    f.git(&["checkout", "-q", "main"]);
    f.git(&["cherry-pick", &second.to_string()]);
    let merger = f.merger();
    let (onto, run_tip) = (f.id("main"), f.id("loop/r1"));
    let b = built(build(&merger, &req(onto, run_tip, Strategy::Rebase)).unwrap());
    assert_eq!(b.commits, 2);
    let (tree, git_subjects) = git_rebase(&f, "dropped", "loop/r1");
    assert_eq!(tree_of(&merger, b.tip).unwrap().to_string(), tree);
    assert_eq!(subjects(&merger, b.tip, onto), git_subjects);
    assert_eq!(git_subjects, ["first: a's top", "third: c grows"]);
}

#[test]
fn a_run_that_merged_another_line_is_replayed_without_the_merge_as_git_rebase_does() {
    let f = Fixture::scene();
    f.branch("side", "loop/r1~3");
    f.commit_on("side", &[("side.txt", "side\n")], "side work", CAROL);
    f.git(&["checkout", "-q", "loop/r1"]);
    git_in(
        &f.path(),
        f.dir.path(),
        &["merge", "-q", "--no-ff", "-m", "merge side", "side"],
        &[],
    );
    f.commit_on(
        "loop/r1",
        &[("after.txt", "after\n")],
        "after the merge",
        ALICE,
    );
    let merger = f.merger();
    let (onto, run_tip) = (f.id("main"), f.id("loop/r1"));
    assert_eq!(ahead(&merger, onto, run_tip).unwrap().len(), 6);
    let b = built(build(&merger, &req(onto, run_tip, Strategy::Rebase)).unwrap());
    assert_eq!(b.commits, 5, "the merge commit is left out");
    let (tree, git_subjects) = git_rebase(&f, "linear", "loop/r1");
    assert_eq!(tree_of(&merger, b.tip).unwrap().to_string(), tree);
    // First parent's line first, then the merged line: git's order too.
    assert_eq!(subjects(&merger, b.tip, onto), git_subjects);
    let linear = chain(&merger, b.tip, onto);
    assert!(linear.iter().all(|c| parts(&merger, *c).1.len() == 1));
}

/// `git rebase main` on `branch` in a copy: the tree and the subjects of
/// `main..HEAD`, oldest first.
fn git_rebase(f: &Fixture, name: &str, branch: &str) -> (String, Vec<String>) {
    let copy = f.copy(name);
    f.git_copy(&copy, &["checkout", "-q", branch]);
    f.git_copy(&copy, &["rebase", "-q", "main"]);
    let tree = f.git_copy(&copy, &["rev-parse", "HEAD^{tree}"]);
    let subjects = f.git_copy(&copy, &["log", "--reverse", "--format=%s", "main..HEAD"]);
    (tree, subjects.lines().map(str::to_owned).collect())
}

fn subjects(merger: &Merger, tip: ObjectId, stop: ObjectId) -> Vec<String> {
    chain(merger, tip, stop)
        .into_iter()
        .map(|c| subject(parts(merger, c).4.as_str().into()))
        .collect()
}
