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

    /// `refs/heads/<name>` made at `at` (by update-ref: the kernel test
    /// keeps the word "branch" out of every git argument list).
    fn branch(&self, name: &str, at: &str) {
        let at = self.id(at).to_string();
        self.git(&["update-ref", &format!("refs/heads/{name}"), &at]);
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

fn req<'a>(onto: ObjectId, run_tip: ObjectId, strategy: Strategy) -> BuildRequest<'a> {
    BuildRequest {
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

mod objects;
mod one_commit;
mod rebase;
mod refusals;
