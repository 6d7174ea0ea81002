//! The in-process checkout ([`super::super::checkout::two_way`]) against
//! `git read-tree -m -u` as the oracle: on a copy of the same repository,
//! both make the same index (entries, `git write-tree`), the same files
//! (bytes and modes) and the same `git status`; where it is not the plain
//! case it writes nothing and leaves the checkout to git.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use gix::ObjectId;

use super::super::checkout::two_way;
use super::clean::aged;
use super::fixture::Fixture;
use crate::git::repo::Repo;

/// A base with directories (its cache-tree made whole by `git commit`), a
/// landing that modifies, adds (in a new directory), deletes (emptying a
/// directory) and makes a file executable, and the user's own work outside
/// it: a staged change, an unstaged one, an untracked file.
fn landing(f: &Fixture) -> (ObjectId, ObjectId) {
    for (file, content) in [("dir/x", "x1\n"), ("dir/y", "y1\n"), ("other/z", "z1\n")] {
        f.write(&f.root, file, content);
    }
    f.git(&f.root, &["add", "."]);
    f.git(&f.root, &["commit", "-q", "-m", "dirs"]);
    let old = f.id("main");
    let new = f.commit_on(
        old,
        &[
            ("a", Some("a2\n")),
            ("dir/x", Some("x2\n")),
            ("dir/sub/new", Some("new\n")),
            ("fresh/deep/file", Some("deep\n")),
            ("other/z", None),
            ("c", None),
        ],
    );
    // `e` made executable in the landing too (on a temporary index).
    let index = f.dir.path().join("exec-index");
    let run = |args: &[&str]| f.git_input(Some(&index), args, "");
    run(&["read-tree", &new.to_string()]);
    run(&["update-index", "--chmod=+x", "--", "e"]);
    let tree = run(&["write-tree"]);
    let new = run(&["commit-tree", &tree, "-p", &new.to_string(), "-m", "exec"]);
    let new = ObjectId::from_hex(new.as_bytes()).unwrap();
    f.write(&f.root, "b", "b staged\n");
    f.git(&f.root, &["add", "b"]);
    f.write(&f.root, "dir/y", "y unstaged\n");
    f.write(&f.root, "notes.txt", "mine\n");
    aged(f);
    (old, new)
}

/// Everything a checkout is made of, as git shows it.
#[derive(Debug, PartialEq, Eq)]
struct Made {
    entries: String,
    tree: String,
    status: String,
    files: BTreeMap<PathBuf, (Vec<u8>, u32)>,
}

fn made(f: &Fixture, dir: &Path) -> Made {
    let mut files = BTreeMap::new();
    walk(dir, dir, &mut files);
    Made {
        entries: f.git(dir, &["ls-files", "-s"]),
        tree: f.git(dir, &["write-tree"]),
        status: f.git(dir, &["status", "--porcelain", "-uall"]),
        files,
    }
}

fn walk(top: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, (Vec<u8>, u32)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n == ".git") {
            continue;
        }
        let meta = path.symlink_metadata().unwrap();
        let rel = path.strip_prefix(top).unwrap().to_path_buf();
        if meta.is_dir() {
            out.insert(rel, (Vec::new(), meta.permissions().mode()));
            walk(top, &path, out);
        } else {
            let bytes = std::fs::read(&path).unwrap();
            out.insert(rel, (bytes, meta.permissions().mode()));
        }
    }
}

/// A copy of the fixture's repository, made with `cp -a`.
fn twin(f: &Fixture) -> PathBuf {
    let twin = f.dir.path().join("twin");
    let status = std::process::Command::new("cp")
        .arg("-a")
        .arg(&f.root)
        .arg(&twin)
        .status()
        .unwrap();
    assert!(status.success());
    // The copy's stats (inodes, ctimes) are new: git takes them in.
    f.git(&twin, &["update-index", "-q", "--refresh"]);
    twin
}

fn move_ref(f: &Fixture, dir: &Path, old: ObjectId, new: ObjectId) {
    let (old, new) = (old.to_string(), new.to_string());
    f.git(dir, &["update-ref", "refs/heads/main", &new, &old]);
}

#[test]
fn the_in_process_checkout_is_what_git_read_tree_makes() {
    let f = Fixture::new();
    let (old, new) = landing(&f);
    let twin = twin(&f);
    for dir in [&f.root, &twin] {
        move_ref(&f, dir, old, new);
    }
    let repo = f.repo();
    assert!(
        two_way(&repo, "main", &f.root, (old, new), None).unwrap(),
        "in-process"
    );
    // The index as written: its trailer is the SHA-1 of what precedes it
    // (git checks this in `fsck`; the index is hashed in one pass).
    let bytes = std::fs::read(f.root.join(".git/index")).unwrap();
    let (body, trailer) = bytes.split_at(bytes.len() - 20);
    let mut hasher = gix::hash::hasher(gix::hash::Kind::Sha1);
    hasher.update(body);
    assert_eq!(hasher.try_finalize().unwrap().as_slice(), trailer);
    let (old_hex, new_hex) = (old.to_string(), new.to_string());
    f.git(&twin, &["read-tree", "-m", "-u", &old_hex, &new_hex]);
    let (ours, git) = (made(&f, &f.root), made(&f, &twin));
    assert_eq!(ours, git);
    // What the user had is as they left it; the landing is in.
    assert_eq!(
        ours.status, "M  b\n M dir/y\n?? notes.txt",
        "only the user's own work shows"
    );
    assert!(!f.root.join("other").exists(), "the emptied directory went");
    let new_tree = f.git(&f.root, &["rev-parse", &format!("{new_hex}^{{tree}}")]);
    f.git(&f.root, &["stash", "list"]);
    // The staged `b` aside, the index is `new`: its cache-tree was not
    // left stale (a stale `dir` would give the old tree here).
    f.git(&f.root, &["reset", "-q", "--", "b"]);
    assert_eq!(f.git(&f.root, &["write-tree"]), new_tree);
    assert!(std::fs::read_dir(f.root.join(".git")).unwrap().all(|e| {
        let name = e.unwrap().file_name();
        let name = name.to_string_lossy();
        !name.starts_with("loop-land-") && name != "index.lock"
    }));
}

/// `two_way` says unsure and changes nothing (the index's bytes, every
/// file); git's `read-tree` then does what it does.
fn left_to_git(f: &Fixture, old: ObjectId, new: ObjectId, why: &str) {
    move_ref(f, &f.root, old, new);
    let before = f.snapshot(&f.root);
    let repo = Repo::discover(&f.root).unwrap();
    assert!(
        !two_way(&repo, "main", &f.root, (old, new), None).unwrap(),
        "{why}"
    );
    assert_eq!(f.snapshot(&f.root), before, "{why}");
}

#[test]
fn what_it_cannot_write_as_git_would_is_left_to_git() {
    type Setup = fn(&Fixture);
    let cases: [(&str, Setup); 6] = [
        ("an attribute on a written path", |f| {
            f.write(&f.root, ".git/info/attributes", "a text\n");
        }),
        ("core.autocrlf", |f| {
            f.git(&f.root, &["config", "core.autocrlf", "true"]);
        }),
        ("core.fileMode false", |f| {
            f.git(&f.root, &["config", "core.fileMode", "false"]);
        }),
        ("the index locked", |f| {
            f.write(&f.root, ".git/index.lock", "someone else's\n");
        }),
        ("an untracked cache in the index", |f| {
            f.git(&f.root, &["config", "core.untrackedCache", "true"]);
            f.git(&f.root, &["update-index", "--untracked-cache"]);
            f.git(&f.root, &["status", "--porcelain"]);
        }),
        ("index version 4", |f| {
            f.git(&f.root, &["update-index", "--index-version", "4"]);
        }),
    ];
    for (why, setup) in cases {
        let f = Fixture::new();
        let (old, new) = landing(&f);
        setup(&f);
        left_to_git(&f, old, new, why);
        if why == "the index locked" {
            let lock = std::fs::read_to_string(f.root.join(".git/index.lock")).unwrap();
            assert_eq!(lock, "someone else's\n", "another's lock is not touched");
        }
    }
}

#[test]
fn a_landing_that_changes_gitattributes_is_left_to_git() {
    let f = Fixture::new();
    let (old, _) = landing(&f);
    let new = f.commit_on(old, &[(".gitattributes", Some("* text=auto\n"))]);
    left_to_git(&f, old, new, ".gitattributes");
}

/// git's racy-git rule kept: an entry whose mtime is not before the index
/// it was read from and whose file has changed since is smudged (size 0),
/// so the newer index does not hide the change; an unchanged racy entry
/// keeps its size.
#[test]
fn a_racy_entry_changed_since_is_smudged() {
    let f = Fixture::new();
    let (old, new) = landing(&f);
    // `b` and `dir/y` racy: their mtime an hour ahead, cached so.
    let ahead = std::time::SystemTime::now() + std::time::Duration::from_secs(3600);
    for file in ["b", "dir/y"] {
        let handle = std::fs::File::options()
            .write(true)
            .open(f.root.join(file))
            .unwrap();
        handle.set_modified(ahead).unwrap();
    }
    f.git(&f.root, &["add", "b", "dir/y"]);
    // `b` changed since, same size, its mtime put back.
    std::fs::write(f.root.join("b"), "B STAGED\n").unwrap();
    let handle = std::fs::File::options()
        .write(true)
        .open(f.root.join("b"))
        .unwrap();
    handle.set_modified(ahead).unwrap();
    move_ref(&f, &f.root, old, new);
    let repo = f.repo();
    assert!(two_way(&repo, "main", &f.root, (old, new), None).unwrap());
    let size = |file: &str| {
        let debug = f.git(&f.root, &["ls-files", "--debug", "--", file]);
        let line = debug
            .lines()
            .find(|l| l.contains("size:"))
            .unwrap()
            .to_owned();
        line.split_whitespace().nth(1).unwrap().to_owned()
    };
    assert_eq!(size("b"), "0", "changed since: smudged");
    assert_eq!(size("dir/y"), "11", "unchanged: kept");
    assert!(f.status(&f.root).contains("MM b"), "{}", f.status(&f.root));
}
