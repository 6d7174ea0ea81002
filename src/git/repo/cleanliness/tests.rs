//! Each case in a fresh repository made by `git` (hermetic: no system
//! or global config, no hooks), judged by [`cleanliness`] and, as the
//! oracle, by `git status --porcelain`: modified when git prints a line
//! other than `??`, untracked when it prints a `??` line.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{Cleanliness, cleanliness, walk};

struct Repo {
    dir: tempfile::TempDir,
    root: PathBuf,
}

impl Repo {
    /// `main` with `a`, `b`, `d/c` and a `.gitignore` of `*.log`.
    fn new() -> Repo {
        Repo::made(false)
    }

    /// [`Repo::new`], its refs a reftable when `reftable`.
    fn made(reftable: bool) -> Repo {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir(&root).unwrap();
        let repo = Repo {
            root: root.canonicalize().unwrap(),
            dir,
        };
        let format = if reftable { "reftable" } else { "files" };
        repo.git(&[
            "init",
            "-q",
            "-b",
            "main",
            &format!("--ref-format={format}"),
        ]);
        for (file, content) in [
            ("a", "a\n"),
            ("b", "b\n"),
            ("d/c", "c\n"),
            (".gitignore", "*.log\n"),
        ] {
            repo.write(file, content);
        }
        repo.git(&["add", "."]);
        repo.git(&["commit", "-q", "-m", "base"]);
        repo
    }

    fn git(&self, args: &[&str]) -> String {
        let out = Command::new("git")
            .arg("-C")
            .arg(&self.root)
            .args(args)
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.dir.path().join("gitconfig"))
            .env("HOME", self.dir.path())
            .env("GIT_AUTHOR_NAME", "T")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "T")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    }

    fn write(&self, file: &str, content: &str) {
        let path = self.root.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    /// `file` moved out of the worktree (not deleted: this module is not
    /// the kernel).
    fn take_away(&self, file: &str) {
        std::fs::rename(self.root.join(file), self.dir.path().join(file)).unwrap();
    }

    fn judge(&self) -> Cleanliness {
        cleanliness(&self.root, &self.root.join(".git")).unwrap()
    }

    /// The walk's answer alone: `true` is "certainly clean".
    fn walk(&self) -> bool {
        let repo = super::open_worktree(&self.root).unwrap();
        let index = repo.index_or_empty().unwrap();
        walk::certainly_clean(&repo, &self.root, &index)
    }

    /// What `git status` says, as a [`Cleanliness`].
    fn oracle(&self) -> Cleanliness {
        let status = self.git(&["status", "--porcelain", "--untracked-files=normal"]);
        Cleanliness {
            modified: status.lines().any(|l| !l.starts_with("??")),
            untracked: status.lines().any(|l| l.starts_with("??")),
            submodules: false,
        }
    }
}

/// The case `name` in a repository whose refs are files, then in one
/// whose refs are a reftable.
fn case(name: &str, make: impl Fn(&Repo), modified: bool, untracked: bool) {
    for reftable in [false, true] {
        let repo = Repo::made(reftable);
        make(&repo);
        let expected = Cleanliness {
            modified,
            untracked,
            submodules: false,
        };
        let name = format!("{name} (reftable: {reftable})");
        assert_eq!(
            repo.oracle(),
            expected,
            "{name}: git status disagrees with the case"
        );
        assert_eq!(repo.judge(), expected, "{name}");
        // The walk never calls a worktree clean that git does not.
        assert!(
            !repo.walk() || expected == Cleanliness::default(),
            "{name}: the walk called it clean"
        );
    }
}

/// Worktrees the walk proves clean by itself (git agreeing), each as
/// it is right after it was made: its last files written in the
/// index's own tick (racy, read and hashed), or, after a pause and an
/// index rewrite, all of them cached before it (not read).
#[test]
fn the_walk_proves_clean_worktrees_clean() {
    let proved = |name: &str, make: &dyn Fn(&Repo)| {
        for settled in [false, true] {
            let repo = Repo::new();
            make(&repo);
            if settled {
                std::thread::sleep(std::time::Duration::from_millis(30));
                // The index read anew (no stats), then every stat
                // cached by a refresh that writes it now.
                repo.git(&["read-tree", "HEAD"]);
                repo.git(&["update-index", "-q", "--refresh"]);
            }
            assert_eq!(repo.oracle(), Cleanliness::default(), "{name}: git status");
            assert!(repo.walk(), "{name} (settled: {settled}): not proved clean");
            assert_eq!(repo.judge(), Cleanliness::default(), "{name}");
        }
    };
    proved("clean", &|_| {});
    proved("an ignored file", &|r| r.write("d/x.log", "log\n"));
    proved("an ignored directory", &|r| {
        r.write(".gitignore", "*.log\nbuild/\n");
        r.git(&["commit", "-q", "-am", "ignore build"]);
        r.write("build/out/x", "x\n");
    });
    proved("a tracked file in an ignored directory", &|r| {
        // Tracked first, ignored after.
        r.write("vendor/lib", "lib\n");
        r.git(&["add", "vendor/lib"]);
        r.write(".gitignore", "*.log\nvendor/\n");
        r.git(&["commit", "-q", "-am", "vendored"]);
        r.write("vendor/new", "new\n");
    });
    proved("an executable and a symlink", &|r| {
        let script = r.root.join("run.sh");
        r.write("run.sh", "#!/bin/sh\n");
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        std::os::unix::fs::symlink("d/c", r.root.join("link")).unwrap();
        r.git(&["add", "run.sh", "link"]);
        r.git(&["commit", "-q", "-m", "more kinds"]);
    });
}

/// What the walk leaves to the status pass (unsure), each dirty in a
/// way a stat alone cannot show, or that only the pass may judge.
#[test]
fn the_walk_is_unsure_of_what_it_cannot_prove() {
    let unsure = |name: &str, make: &dyn Fn(&Repo)| {
        let repo = Repo::new();
        make(&repo);
        assert!(!repo.walk(), "{name}: the walk called it clean");
    };
    unsure("an empty untracked directory", &|r| {
        std::fs::create_dir(r.root.join("empty")).unwrap();
    });
    unsure("a new file staged", &|r| {
        r.write("n", "n\n");
        r.git(&["add", "n"]);
    });
    unsure("a mode changed", &|r| {
        std::fs::set_permissions(
            r.root.join("a"),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
    });
    unsure("the same bytes and times after a rewrite", &|r| {
        // Content changed, then its mtime put back: the ctime moved.
        let path = r.root.join("a");
        let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
        std::fs::write(&path, "b\n").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
    });
    unsure("a repository inside", &|r| {
        r.write("d/inner/.git/HEAD", "ref: refs/heads/main\n");
    });
}

#[test]
fn counts_what_git_status_counts() {
    case("clean", |_| {}, false, false);
    case(
        "nested untracked directory",
        |r| r.write("new/deep/x", "x\n"),
        false,
        true,
    );
    case(
        "untracked file in a tracked directory",
        |r| r.write("d/new", "n\n"),
        false,
        true,
    );
    case(
        "ignored file",
        |r| r.write("d/x.log", "log\n"),
        false,
        false,
    );
    case(
        "directory of ignored files",
        |r| r.write("logs/x.log", "log\n"),
        false,
        false,
    );
    case(
        "empty directory",
        |r| std::fs::create_dir_all(r.root.join("empty/deeper")).unwrap(),
        false,
        false,
    );
    case("modified file", |r| r.write("a", "changed\n"), true, false);
    // The same size, in the index's own second (its time to the
    // nanosecond decides: see `super::open_worktree`).
    case(
        "same size, just after",
        |r| r.write("a", "z\n"),
        true,
        false,
    );
    case(
        "staged change",
        |r| {
            r.write("a", "changed\n");
            r.git(&["add", "a"]);
        },
        true,
        false,
    );
    case(
        "staged, then changed back",
        |r| {
            r.write("a", "changed\n");
            r.git(&["add", "a"]);
            r.write("a", "a\n");
        },
        true,
        false,
    );
    case("deleted file", |r| r.take_away("b"), true, false);
    case(
        "type change",
        |r| {
            r.take_away("b");
            std::os::unix::fs::symlink("a", r.root.join("b")).unwrap();
        },
        true,
        false,
    );
    case(
        "intent to add",
        |r| {
            r.write("n", "n\n");
            r.git(&["add", "-N", "n"]);
        },
        true,
        false,
    );
    case(
        "removed from the index only",
        |r| {
            r.git(&["rm", "-q", "--cached", "a"]);
        },
        true,
        true,
    );
    case(
        "touched, content unchanged",
        |r| {
            let file = std::fs::File::options()
                .append(true)
                .open(r.root.join("a"))
                .unwrap();
            file.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(5))
                .unwrap();
        },
        false,
        false,
    );
    case(
        "modified and untracked",
        |r| {
            r.write("a", "changed\n");
            r.write("new/x", "x\n");
        },
        true,
        true,
    );
    case(
        "untracked, with status.showUntrackedFiles=no",
        |r| {
            r.git(&["config", "status.showUntrackedFiles", "no"]);
            r.write("new/x", "x\n");
        },
        false,
        true,
    );
}

#[test]
fn a_populated_submodule_directory_counts() {
    let repo = Repo::new();
    let admin = repo.dir.path().join("admin");
    std::fs::create_dir_all(admin.join("modules")).unwrap();
    let found = cleanliness(&repo.root, &admin).unwrap();
    assert!(
        found.submodules && !found.modified && !found.untracked,
        "{found:?}"
    );
    assert!(
        !cleanliness(&repo.root, Path::new(&repo.root.join(".git")))
            .unwrap()
            .submodules
    );
}
