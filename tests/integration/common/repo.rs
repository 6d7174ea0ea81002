//! The one test fixture: a temporary repository with a pinned, hermetic git
//! environment (temp HOME and XDG_CONFIG_HOME, no system or global config,
//! fixed identity and dates, LC_ALL=C, nothing inherited but PATH), of any
//! [`Kind`] git makes: SHA-1 or SHA-256 objects, files or reftable refs, or
//! the bare-repository layout.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use tempfile::TempDir;

use super::{JsonExt, Kind, Run};

pub const BIN: &str = env!("CARGO_BIN_EXE_git-loop");

pub struct TestRepo {
    _tmp: TempDir,
    pub home: PathBuf,
    /// Where git-loop and [`TestRepo::git`] run: the main checkout (in the
    /// bare layout, the linked worktree of `main`).
    pub root: PathBuf,
    /// The directory that holds `.loop-worktrees/`: the root, or in the bare
    /// layout the directory holding `.bare` and the worktrees.
    pub project: PathBuf,
}

pub fn hermetic(cmd: &mut Command, home: &Path) {
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", home.join("gitconfig"))
        .env("GIT_AUTHOR_NAME", "Test Author")
        .env("GIT_AUTHOR_EMAIL", "author@example.com")
        .env("GIT_COMMITTER_NAME", "Test Committer")
        .env("GIT_COMMITTER_EMAIL", "committer@example.com")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .env("LC_ALL", "C")
        // No man page of an installed git-loop answers `--help`: a test that
        // wants man pages puts its own on MANPATH.
        .env("MANPATH", home.join("no-man-pages"))
        .stdin(Stdio::null());
}

impl TestRepo {
    /// A repository on `main` with one commit holding `README`.
    pub fn new() -> TestRepo {
        TestRepo::new_in(&std::env::temp_dir())
    }

    /// [`TestRepo::new`] in a temporary directory under `dir` (a mounted
    /// filesystem image, say).
    pub fn new_in(dir: &Path) -> TestRepo {
        TestRepo::made(dir, &[])
    }

    /// [`TestRepo::new`] made by `git init` with `args` too
    /// (`--object-format=sha256`, say).
    pub fn new_with(args: &[&str]) -> TestRepo {
        TestRepo::made(&std::env::temp_dir(), args)
    }

    /// [`TestRepo::new`] of `kind`: `git init` with its flags, or the bare
    /// layout (`git init --bare`, then `git worktree add` of `main`, whose
    /// first commit holds `README`).
    pub fn of(kind: Kind) -> TestRepo {
        if kind != Kind::Bare {
            return TestRepo::new_with(kind.init_args());
        }
        let (tmp, home, base) = TestRepo::home(&std::env::temp_dir());
        let project = base.join("project");
        std::fs::create_dir(&project).unwrap();
        let repo = TestRepo {
            _tmp: tmp,
            home,
            root: project.join("main"),
            project,
        };
        let git = |args: &[&str]| crate::common::git_ok(&repo, &repo.project, args);
        git(&["init", "-q", "--bare", "-b", "main", ".bare"]);
        std::fs::write(repo.project.join(".git"), "gitdir: ./.bare\n").unwrap();
        git(&["worktree", "add", "-q", "--orphan", "-b", "main", "main"]);
        TestRepo::first_commit(&repo);
        repo
    }

    /// A temporary directory holding `home` (its empty git config): the
    /// directory, `home`, and the directory's canonical path.
    fn home(dir: &Path) -> (TempDir, PathBuf, PathBuf) {
        let tmp = tempfile::Builder::new()
            .prefix("git-loop-test")
            .tempdir_in(dir)
            .unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let home = base.join("home");
        std::fs::create_dir_all(home.join(".config")).unwrap();
        std::fs::write(home.join("gitconfig"), "").unwrap();
        (tmp, home, base)
    }

    fn made(dir: &Path, init: &[&str]) -> TestRepo {
        let (tmp, home, base) = TestRepo::home(dir);
        let root = base.join("repo");
        std::fs::create_dir(&root).unwrap();
        let repo = TestRepo {
            _tmp: tmp,
            home,
            project: root.clone(),
            root,
        };
        let mut args = vec!["init", "-q", "-b", "main"];
        args.extend_from_slice(init);
        repo.git(args);
        TestRepo::first_commit(&repo);
        repo
    }

    fn first_commit(repo: &TestRepo) {
        std::fs::write(repo.root.join("README"), "hello\n").unwrap();
        repo.git(["add", "README"]);
        repo.git(["commit", "-q", "-m", "initial"]);
    }

    /// The temporary directory holding the repository (beside it: `home`,
    /// and whatever a test makes there: clones, other worktrees).
    pub fn base(&self) -> &Path {
        self.project.parent().unwrap()
    }

    pub fn git_in<I, S>(&self, dir: &Path, args: I) -> Output
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = Command::new("git");
        hermetic(&mut cmd, &self.home);
        cmd.current_dir(dir).args(args).output().unwrap()
    }

    /// Run git in the root; panics on failure; returns stdout.
    pub fn git<I, S>(&self, args: I) -> String
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let out = self.git_in(&self.root, args);
        assert!(
            out.status.success(),
            "git failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Clone this repository next to it and let the clone put its own
    /// worktree (on `branch`) at our `.loop-worktrees/<id>`. Returns the
    /// clone's path.
    pub fn foreign_worktree(&self, id: &str, branch: &str) -> PathBuf {
        let other = self.base().join("other");
        self.git(["clone", "-q", ".", other.to_str().unwrap()]);
        std::fs::create_dir_all(self.loop_dir()).unwrap();
        let wt = self.wt(id);
        let out = self.git_in(
            &other,
            [
                "worktree",
                "add",
                "-q",
                "-b",
                branch,
                "--",
                wt.to_str().unwrap(),
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        other
    }

    pub fn branch_exists(&self, branch: &str) -> bool {
        self.git_in(
            &self.root,
            [
                "rev-parse",
                "--verify",
                "-q",
                &format!("refs/heads/{branch}"),
            ],
        )
        .status
        .success()
    }

    /// `git worktree list --porcelain` paths.
    pub fn registered(&self) -> Vec<PathBuf> {
        self.git(["worktree", "list", "--porcelain"])
            .lines()
            .filter_map(|l| l.strip_prefix("worktree "))
            .map(PathBuf::from)
            .collect()
    }

    pub fn command(&self) -> Command {
        let mut cmd = Command::new(BIN);
        hermetic(&mut cmd, &self.home);
        cmd.current_dir(&self.root);
        cmd
    }

    pub fn output(cmd: &mut Command) -> Run {
        let out = cmd.output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        // Every `--json` run prints one document, and it meets its JSON
        // Schema (schema/).
        crate::schema::check_json_output(cmd.get_args(), out.status, &stdout);
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout,
            stderr: String::from_utf8(out.stderr).unwrap(),
        }
    }

    /// `cmd` with `input` on its stdin (a hook's JSON), its output as a [`Run`].
    pub fn output_with_stdin(cmd: &mut Command, input: &str) -> Run {
        use std::io::Write;
        let mut child = cmd
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
        }
    }

    /// Run git-loop in the root and check that no mutex was left behind.
    pub fn run<I, S>(&self, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let run = Self::output(self.command().args(args));
        assert!(
            !self.mutex_path().exists(),
            "a mutex was left behind\nstderr: {}",
            run.stderr
        );
        run
    }

    pub fn create(&self, id: &str) -> Run {
        let run = self.run(["create", id, "--pattern", "test"]);
        run.ok();
        run
    }

    pub fn loop_dir(&self) -> PathBuf {
        self.project.join(".loop-worktrees")
    }
    pub fn wt(&self, id: &str) -> PathBuf {
        self.loop_dir().join(id)
    }
    pub fn manifest_path(&self) -> PathBuf {
        self.loop_dir().join("manifest.json")
    }
    pub fn mutex_path(&self) -> PathBuf {
        self.loop_dir().join(".manifest.mutex")
    }
    pub fn manifest(&self) -> Value {
        serde_json::from_str(&std::fs::read_to_string(self.manifest_path()).unwrap()).unwrap()
    }
    pub fn ids(&self) -> Vec<String> {
        self.manifest()
            .ids("worktrees")
            .into_iter()
            .map(str::to_owned)
            .collect()
    }
    pub fn status_of(&self, id: &str) -> Option<String> {
        self.manifest()
            .arr("worktrees")
            .iter()
            .find(|e| e["id"] == id)
            .map(|e| e.text("status").to_owned())
    }

    /// Write a manifest by hand (raw text).
    pub fn write_manifest(&self, text: &str) {
        std::fs::create_dir_all(self.loop_dir()).unwrap();
        std::fs::write(self.manifest_path(), text).unwrap();
    }
}

/// A valid one-entry manifest whose directory need not exist.
pub fn manifest_with(entries: &[(&str, &str, &str)]) -> String {
    let items: Vec<String> = entries
        .iter()
        .map(|(id, status, created)| {
            format!(
                r#"{{"id":"{id}","path":".loop-worktrees/{id}","branch":"loop/{id}","baseBranch":"main","pattern":"p","createdAt":"{created}","status":"{status}"}}"#
            )
        })
        .collect();
    format!(r#"{{"version":1,"worktrees":[{}]}}"#, items.join(","))
}

/// A repository whose base commit has files in subdirectories (and a
/// symlink), so a checkout and a removal have something to do.
pub fn repo_with_tree() -> TestRepo {
    let repo = TestRepo::new();
    for (path, text) in [
        ("src/main.rs", "fn main() {}\n"),
        ("src/lib/a.rs", "pub fn a() {}\n"),
        ("src/lib/b.rs", "pub fn b() {}\n"),
        ("docs/guide.md", "# Guide\n"),
    ] {
        let file = repo.root.join(path);
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(file, text).unwrap();
    }
    std::os::unix::fs::symlink("guide.md", repo.root.join("docs/link.md")).unwrap();
    repo.git(["add", "."]);
    repo.git(["commit", "-q", "-m", "tree"]);
    repo
}

/// Nothing of the create of `id` is left: directory, registration, branch,
/// manifest entry.
pub fn assert_rolled_back(repo: &TestRepo, id: &str) {
    assert!(
        repo.wt(id).symlink_metadata().is_err(),
        "{id}'s directory is left"
    );
    assert!(
        !repo.registered().contains(&repo.wt(id)),
        "{id} is still registered"
    );
    assert!(
        !repo.branch_exists(&format!("loop/{id}")),
        "loop/{id} is left"
    );
    if repo.manifest_path().exists() {
        assert!(!repo.ids().contains(&id.to_owned()), "{id} was recorded");
    }
    assert!(!repo.mutex_path().exists(), "a mutex was left");
}

/// The manifest's temporary files and mutexes left in `.loop-worktrees/`.
pub fn leftovers(repo: &TestRepo) -> Vec<String> {
    fs::read_dir(repo.loop_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(".manifest.json.tmp") || n.starts_with(".manifest.mutex"))
        .collect()
}

/// Nothing was created: no `.loop-worktrees/`, no branch, no `.gitignore`.
pub fn assert_nothing_written(repo: &TestRepo) {
    assert!(!repo.loop_dir().exists(), ".loop-worktrees/ was created");
    assert!(!repo.branch_exists("loop/x"), "loop/x was created");
    assert!(!repo.root.join(".gitignore").exists(), ".gitignore written");
}
