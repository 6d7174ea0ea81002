//! The fixture of the advance's tests: a repository made by `git` in a
//! temporary directory, hermetic (no system or global config, no hooks,
//! a fixed identity), and a snapshot of all a refusal must leave as it was.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gix::ObjectId;

use crate::git::repo::Repo;

pub(super) struct Fixture {
    pub dir: tempfile::TempDir,
    pub root: PathBuf,
}

/// Everything a refused landing must leave as it was.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Snapshot {
    pub refs: String,
    pub head: String,
    pub index: Vec<u8>,
    pub files: BTreeMap<PathBuf, Vec<u8>>,
    pub stash: bool,
}

const BASE: [(&str, &str); 4] = [("a", "a1\n"), ("b", "b1\n"), ("c", "c1\n"), ("e", "e1\n")];

impl Fixture {
    /// `main` with the files of [`BASE`], checked out in the main checkout.
    pub fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir(&root).unwrap();
        let f = Fixture {
            root: root.canonicalize().unwrap(),
            dir,
        };
        let hooks = f.dir.path().join("no-hooks");
        std::fs::create_dir(&hooks).unwrap();
        f.git(&f.root, &["init", "-q", "-b", "main"]);
        f.git(
            &f.root,
            &["config", "core.hooksPath", hooks.to_str().unwrap()],
        );
        for (file, content) in BASE {
            f.write(&f.root, file, content);
        }
        f.git(&f.root, &["add", "."]);
        f.git(&f.root, &["commit", "-q", "-m", "base"]);
        f
    }

    fn command(&self, dir: &Path) -> Command {
        let mut cmd = Command::new("git");
        cmd.arg("-C")
            .arg(dir)
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.dir.path().join("gitconfig"))
            .env("HOME", self.dir.path())
            .env("LC_ALL", "C")
            .env("GIT_AUTHOR_NAME", "T")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "T")
            .env("GIT_COMMITTER_EMAIL", "t@example.com");
        cmd
    }

    pub fn git_output(&self, dir: &Path, args: &[&str]) -> Output {
        self.command(dir).args(args).output().unwrap()
    }

    pub fn git(&self, dir: &Path, args: &[&str]) -> String {
        let out = self.git_output(dir, args);
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim_end().to_owned()
    }

    pub fn write(&self, dir: &Path, file: &str, content: &str) {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    pub fn id(&self, rev: &str) -> ObjectId {
        ObjectId::from_hex(self.git(&self.root, &["rev-parse", rev]).as_bytes()).unwrap()
    }

    /// A commit on `parent` with `changes` (a path and its new content, or
    /// `None` to delete it), made on a temporary index: no worktree, no
    /// index of a checkout and no ref is touched.
    pub fn commit_on(&self, parent: ObjectId, changes: &[(&str, Option<&str>)]) -> ObjectId {
        static BUILT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = BUILT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let index = self.dir.path().join(format!("build-index-{n}"));
        let run = |args: &[&str], stdin: &str| self.git_input(Some(&index), args, stdin);
        run(&["read-tree", &parent.to_string()], "");
        for (path, content) in changes {
            match content {
                Some(content) => {
                    let blob = run(&["hash-object", "-w", "--stdin"], content);
                    let info = format!("100644,{blob},{path}");
                    run(&["update-index", "--add", "--cacheinfo", &info], "");
                }
                None => {
                    run(&["update-index", "--force-remove", "--", path], "");
                }
            }
        }
        let tree = run(&["write-tree"], "");
        let parent = parent.to_string();
        let commit = run(&["commit-tree", &tree, "-p", &parent, "-m", "landed"], "");
        ObjectId::from_hex(commit.as_bytes()).unwrap()
    }

    /// `git <args>` in the main checkout with `stdin` as its input (and
    /// `GIT_INDEX_FILE=<index>` when given): its stdout, trimmed.
    pub fn git_input(&self, index: Option<&Path>, args: &[&str], stdin: &str) -> String {
        use std::io::Write;
        let mut cmd = self.command(&self.root);
        if let Some(index) = index {
            cmd.env("GIT_INDEX_FILE", index);
        }
        cmd.args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        let mut input = child.stdin.take().unwrap();
        input.write_all(stdin.as_bytes()).unwrap();
        drop(input);
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "git {args:?}");
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    }

    /// The usual landing: `a` changed, `d` added, `c` deleted.
    pub fn landing(&self) -> (ObjectId, ObjectId) {
        let old = self.id("main");
        let new = self.commit_on(
            old,
            &[("a", Some("a2\n")), ("d", Some("d2\n")), ("c", None)],
        );
        (old, new)
    }

    /// The user's own work outside what [`Fixture::landing`] changes: a
    /// staged change (`b`), an unstaged one (`e`), an untracked file.
    pub fn users_work(&self) {
        self.write(&self.root, "b", "b staged\n");
        self.git(&self.root, &["add", "b"]);
        self.write(&self.root, "e", "e unstaged\n");
        self.write(&self.root, "notes.txt", "mine\n");
    }

    /// [`Fixture::users_work`] as it was, staged `b` included, and no
    /// `refs/stash`.
    pub fn users_work_intact(&self, why: &str) {
        assert!(!self.snapshot(&self.root).stash, "{why}: refs/stash");
        for (file, content) in [
            ("b", "b staged\n"),
            ("e", "e unstaged\n"),
            ("notes.txt", "mine\n"),
        ] {
            assert_eq!(read(&self.root, file), content, "{why}: {file}");
        }
        assert_eq!(self.git(&self.root, &["show", ":b"]), "b staged", "{why}");
    }

    pub fn repo(&self) -> Repo {
        Repo::discover(&self.root).unwrap()
    }

    pub fn status(&self, dir: &Path) -> String {
        self.git(dir, &["status", "--porcelain"])
    }

    pub fn snapshot(&self, dir: &Path) -> Snapshot {
        let git_dir = PathBuf::from(self.git(dir, &["rev-parse", "--absolute-git-dir"]));
        let mut files = BTreeMap::new();
        walk(dir, dir, &mut files);
        Snapshot {
            refs: self.git(
                &self.root,
                &["for-each-ref", "--format=%(refname) %(objectname)"],
            ),
            head: std::fs::read_to_string(git_dir.join("HEAD")).unwrap(),
            index: std::fs::read(git_dir.join("index")).unwrap(),
            files,
            stash: self
                .git_output(&self.root, &["rev-parse", "--verify", "-q", "refs/stash"])
                .status
                .success(),
        }
    }
}

/// Every file under `dir` but `.git` (a directory or a linked worktree's
/// file), by path relative to `top`, with its bytes.
fn walk(top: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n == ".git") {
            continue;
        }
        if path.is_dir() {
            walk(top, &path, out);
        } else {
            let rel = path.strip_prefix(top).unwrap().to_path_buf();
            out.insert(rel, std::fs::read(&path).unwrap());
        }
    }
}

pub(super) fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap()
}
