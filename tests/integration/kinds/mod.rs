//! The core flows on every kind of repository git makes (issue 40): SHA-1
//! and SHA-256 objects, files and reftable refs, and the bare-repository
//! layout ([`Kind`], each made by `git init`'s own flags). Each flow is one
//! function taking the kind, a short end-to-end scenario asserting what it
//! changed (the JSON, the refs as `git rev-parse` reads them, the worktree
//! directories, `git fsck` clean), with ids in the repository's own length;
//! [`on_every_kind!`] makes it one `#[test]` a kind, `<flow>_<kind>`.
//!
//! - [`runs`]: create, mark, list --long;
//! - [`removal`]: cleanup --delete-merged-branches, remove --salvage and
//!   restore, trash restore, reconcile;
//! - [`refs`]: branches, conflicts;
//! - [`land`]: land one run, land --queue;
//! - [`sync`]: sync two runs, one conflicting;
//! - [`best_of_n`]: judge, pick;
//! - [`migrate`]: a files repository converted to reftable with runs, trash
//!   and salvages.

use std::path::PathBuf;

use serde_json::Value;

use crate::common::{Kind, TestRepo, commit, git_line, git_ok};

/// `$flow(kind)` as five tests named `<flow>_<kind>`, in [`Kind::ALL`]'s
/// order; the names are checked against the flow's when compiling.
macro_rules! on_every_kind {
    ($flow:ident: $sha1_files:ident, $sha256_files:ident, $sha1_reftable:ident,
     $sha256_reftable:ident, $bare:ident) => {
        const _: () = assert!(
            $crate::kinds::named(
                stringify!($flow),
                [
                    stringify!($sha1_files),
                    stringify!($sha256_files),
                    stringify!($sha1_reftable),
                    stringify!($sha256_reftable),
                    stringify!($bare),
                ]
            ),
            "a test's name is <flow>_<kind>, in Kind::ALL's order"
        );
        #[test]
        fn $sha1_files() {
            $flow($crate::common::Kind::Sha1Files)
        }
        #[test]
        fn $sha256_files() {
            $flow($crate::common::Kind::Sha256Files)
        }
        #[test]
        fn $sha1_reftable() {
            $flow($crate::common::Kind::Sha1Reftable)
        }
        #[test]
        fn $sha256_reftable() {
            $flow($crate::common::Kind::Sha256Reftable)
        }
        #[test]
        fn $bare() {
            $flow($crate::common::Kind::Bare)
        }
    };
}

mod best_of_n;
mod land;
mod migrate;
mod refs;
mod removal;
mod runs;
mod sync;

/// Each of `tests` is `flow` followed by its kind's suffix, in
/// [`Kind::ALL`]'s order.
pub const fn named(flow: &str, tests: [&str; 5]) -> bool {
    const SUFFIXES: [&str; 5] = [
        "_sha1_files",
        "_sha256_files",
        "_sha1_reftable",
        "_sha256_reftable",
        "_bare",
    ];
    let f = flow.as_bytes();
    let mut k = 0;
    while k < tests.len() {
        let (n, s) = (tests[k].as_bytes(), SUFFIXES[k].as_bytes());
        if n.len() != f.len() + s.len() {
            return false;
        }
        let mut i = 0;
        while i < n.len() {
            let want = if i < f.len() { f[i] } else { s[i - f.len()] };
            if n[i] != want {
                return false;
            }
            i += 1;
        }
        k += 1;
    }
    true
}

/// A repository of `kind`, checked to be one, whose main ignores
/// `.loop-worktrees/` in a commit (so its checkout stays clean whatever
/// create writes).
pub fn repo(kind: Kind) -> TestRepo {
    let repo = TestRepo::of(kind);
    let show = |what: &str| git_line(&repo, &repo.root, &["rev-parse", what]);
    assert_eq!(show("--show-object-format"), kind.object_format());
    assert_eq!(show("--show-ref-format"), kind.ref_format());
    if kind == Kind::Bare {
        assert_eq!(
            git_line(&repo, &repo.project, &["rev-parse", "--is-bare-repository"]),
            "true"
        );
        assert_eq!(common_dir(&repo), repo.project.join(".bare"));
        assert!(
            repo.root.join(".git").is_file(),
            "main is a linked worktree"
        );
    }
    commit(&repo, &repo.root, ".gitignore", ".loop-worktrees/\n");
    repo
}

/// git-loop `--json` with `args`, its exit code checked.
pub fn json(repo: &TestRepo, args: &[&str], code: i32) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let run = repo.run(&all);
    run.code(code);
    run.json()
}

pub fn rev(repo: &TestRepo, spec: &str) -> String {
    git_line(repo, &repo.root, &["rev-parse", "--verify", spec])
}

/// `v` is an object id of `kind`'s format (40 or 64 lowercase hex digits);
/// returns it.
pub fn id_of(kind: Kind, v: &Value) -> String {
    let s = v.as_str().unwrap_or_else(|| panic!("{v} is not an id"));
    assert!(
        s.len() == kind.hex_len() && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
        "{s:?} is not a {} id",
        kind.object_format()
    );
    s.to_owned()
}

/// A run `id` with one commit of its own: `file` holding `<id>\n`.
pub fn run_with(repo: &TestRepo, id: &str, file: &str) {
    repo.create(id);
    commit(repo, &repo.wt(id), file, &format!("{id}\n"));
}

/// The repository's common git directory, absolute.
pub fn common_dir(repo: &TestRepo) -> PathBuf {
    PathBuf::from(git_line(
        repo,
        &repo.root,
        &["rev-parse", "--path-format=absolute", "--git-common-dir"],
    ))
}

/// `git fsck` finds nothing wrong (dangling objects aside) and says nothing.
pub fn fsck(repo: &TestRepo) {
    let out = repo.git_in(&repo.root, ["fsck", "--no-dangling", "--no-progress"]);
    let said = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        out.status.success() && said.0.is_empty() && said.1.is_empty(),
        "git fsck: {said:?}"
    );
}

/// `git status --porcelain` in `dir`.
pub fn status(repo: &TestRepo, dir: &std::path::Path) -> String {
    git_ok(repo, dir, &["status", "--porcelain"])
}

/// Each kind is the repository git makes with its flags: the object and
/// ref formats git reports, reftable's tables on disk, the bare layout's
/// bare repository; and ids of its length.
#[test]
fn each_kind_is_the_repository_its_git_init_flags_make() {
    for kind in Kind::ALL {
        let repo = repo(kind);
        let tables = common_dir(&repo).join("reftable/tables.list");
        assert_eq!(
            tables.is_file(),
            kind.ref_format() == "reftable",
            "{kind:?}"
        );
        assert_eq!(rev(&repo, "main").len(), kind.hex_len(), "{kind:?}");
    }
}
