//! Unit tests of the landing build, with repositories made by `git` in a
//! temporary directory, and what `git rebase`, `git merge --squash` and
//! `git merge --no-ff` make of the same repository (in a copy) as the
//! reference.

use std::path::{Path, PathBuf};
use std::process::Command;

use gix::ObjectId;

use super::*;

/// A repository made by `git`, hermetic: no system or global config, a
/// temporary `HOME`, pinned identities and dates per commit.
struct Fixture {
    dir: tempfile::TempDir,
}

const LANDER: &str = "Lander <lander@example.com>";

fn git_in(dir: &Path, home: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let mut cmd = Command::new("git");
    crate::git::cmd::without_repo_env(&mut cmd)
        .current_dir(dir)
        .args(args)
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", home.join("gitconfig"))
        .env("LC_ALL", "C")
        .env("GIT_AUTHOR_NAME", "Default Author")
        .env("GIT_AUTHOR_EMAIL", "default@example.com")
        .env("GIT_AUTHOR_DATE", "1500000000 +0000")
        .env("GIT_COMMITTER_NAME", "Default Committer")
        .env("GIT_COMMITTER_EMAIL", "committer@example.com")
        .env("GIT_COMMITTER_DATE", "1500000000 +0000");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim_end().to_owned()
}

/// An author: name, email, date (git's raw format).
type Who<'a> = (&'a str, &'a str, &'a str);

const ALICE: Who = ("Alice A", "alice@example.com", "981169506 +0100");
const BOB: Who = ("Bob B", "bob@example.com", "1013000000 -0500");
const CAROL: Who = ("Carol C", "carol@example.com", "1046000000 +0530");

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("repo")).unwrap();
        let f = Fixture { dir };
        f.git(&["init", "-q", "-b", "main"]);
        f.git(&["config", "user.name", "Lander"]);
        f.git(&["config", "user.email", "lander@example.com"]);
        f.git(&["config", "gc.auto", "0"]); // no background gc under the counts
        f
    }

    fn path(&self) -> PathBuf {
        self.dir.path().join("repo")
    }

    fn git(&self, args: &[&str]) -> String {
        git_in(&self.path(), self.dir.path(), args, &[])
    }

    fn id(&self, rev: &str) -> ObjectId {
        ObjectId::from_hex(self.git(&["rev-parse", rev]).as_bytes()).unwrap()
    }

    /// Check out `branch` (made at `from` when given), write `files`, commit
    /// everything as `who` with `message`.
    fn commit_on(&self, branch: &str, files: &[(&str, &str)], message: &str, who: Who) -> ObjectId {
        if self.git(&["symbolic-ref", "--short", "HEAD"]) != branch {
            self.git(&["checkout", "-q", branch]);
        }
        for (path, content) in files {
            let p = self.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, content).unwrap();
        }
        let env = [
            ("GIT_AUTHOR_NAME", who.0),
            ("GIT_AUTHOR_EMAIL", who.1),
            ("GIT_AUTHOR_DATE", who.2),
        ];
        git_in(&self.path(), self.dir.path(), &["add", "-A"], &[]);
        git_in(
            &self.path(),
            self.dir.path(),
            &["commit", "-q", "--allow-empty", "-m", message],
            &env,
        );
        self.id("HEAD")
    }

    fn branch(&self, name: &str, at: &str) {
        self.git(&["branch", name, at]);
    }

    /// gix's view, without the environment (the committer comes from the
    /// repository's config).
    fn merger(&self) -> Merger {
        let repo = gix::open_opts(self.path(), gix::open::Options::isolated()).unwrap();
        Merger::new(&repo).unwrap()
    }

    /// A copy of the repository to run git's own commands in.
    fn copy(&self, name: &str) -> PathBuf {
        let to = self.dir.path().join(name);
        let status = Command::new("cp")
            .arg("-R")
            .arg(self.path())
            .arg(&to)
            .status()
            .unwrap();
        assert!(status.success());
        to
    }

    fn git_copy(&self, copy: &Path, args: &[&str]) -> String {
        git_in(copy, self.dir.path(), args, &[])
    }

    fn loose_objects(&self) -> usize {
        let objects = self.path().join(".git/objects");
        std::fs::read_dir(objects)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_name().len() == 2)
            .map(|e| std::fs::read_dir(e.path()).unwrap().count())
            .sum()
    }

    fn in_odb(&self, id: ObjectId) -> bool {
        let mut cmd = Command::new("git");
        crate::git::cmd::without_repo_env(&mut cmd)
            .current_dir(self.path())
            .args(["cat-file", "-e", &id.to_string()])
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", self.dir.path());
        cmd.output().unwrap().status.success()
    }

    /// The standard scene: a base, a run `loop/r1` of three commits by
    /// three authors, and `main` moved on by a change elsewhere.
    fn scene() -> Fixture {
        let f = Fixture::new();
        let lines = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n";
        f.commit_on(
            "main",
            &[("a.txt", lines), ("b.txt", "b\n"), ("dir/c.txt", "c\n")],
            "base",
            ALICE,
        );
        f.branch("loop/r1", "main");
        f.commit_on(
            "loop/r1",
            &[("a.txt", &lines.replace("one", "ONE"))],
            "first: a's top\n\nWith a body\nof two lines.",
            ALICE,
        );
        f.commit_on("loop/r1", &[("new.txt", "new\n")], "second: new file", BOB);
        f.commit_on(
            "loop/r1",
            &[("dir/c.txt", "c\nc2\n")],
            "third: c grows\n\nTrailer: x",
            CAROL,
        );
        f.commit_on(
            "main",
            &[
                ("a.txt", &lines.replace("eight", "EIGHT")),
                ("b.txt", "b moved\n"),
            ],
            "main moves",
            BOB,
        );
        f
    }
}

fn req<'a>(onto: ObjectId, run_tip: ObjectId, strategy: Strategy) -> Request<'a> {
    Request {
        onto,
        run_tip,
        strategy,
        message: None,
        run_id: "r1",
        into: "main",
    }
}

fn built(outcome: Build) -> Built {
    match outcome {
        Build::Built(b) => b,
        other => panic!("expected Built, got {other:?}"),
    }
}

fn tree(merger: &Merger, commit: ObjectId) -> ObjectId {
    tree_of(merger, commit).unwrap()
}

/// (tree, parents, author line, committer line, message) of a commit read
/// through the merger.
fn parts(merger: &Merger, id: ObjectId) -> (ObjectId, Vec<ObjectId>, String, String, String) {
    let c = merger.repo().find_commit(id).unwrap();
    let d = c.decode().unwrap();
    (
        d.tree(),
        d.parents().collect(),
        d.author.to_string(),
        d.committer.to_string(),
        d.message.to_string(),
    )
}

/// The first-parent chain from `tip` down to (not including) `stop`,
/// oldest first.
fn chain(merger: &Merger, tip: ObjectId, stop: ObjectId) -> Vec<ObjectId> {
    let mut out = Vec::new();
    let mut at = tip;
    while at != stop {
        out.push(at);
        at = parts(merger, at).1[0];
    }
    out.reverse();
    out
}

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
        message,
        "Land r1\n\n* first: a's top\n* second: new file\n* third: c grows\n"
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

/// The committer identity and date come from `GIT_COMMITTER_*` as git reads
/// them: checked in a child process (the environment is the process's).
#[test]
fn the_committer_comes_from_the_git_committer_environment() {
    let f = Fixture::scene();
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "ops::land::build::tests::committer_from_env_child",
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
    }
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
