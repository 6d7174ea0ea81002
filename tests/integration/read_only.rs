//! Read-only commands: `list` and `path` wait for no mutex; `conflicts` and
//! `list --long` write nothing, whatever housekeeping git is configured with.

use std::fs;
use std::path::Path;

use crate::common::{TestRepo, commit, git_line, manifest_with};

/// Every file under `dir` (recursively, symlinks not followed) with its
/// bytes: a snapshot to compare before and after a read-only command.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<std::path::PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let meta = fs::symlink_metadata(&p).unwrap();
            if meta.is_dir() {
                stack.push(p);
            } else if meta.is_file() {
                out.insert(p.clone(), fs::read(&p).unwrap());
            } else {
                out.insert(p, Vec::new());
            }
        }
    }
    out
}

/// `conflicts` and `list --long` write nothing — no object, index, ref,
/// lock or log — in a repository whose configuration asks git to do
/// housekeeping on the way (`gc.auto=1`, `maintenance.auto`, a
/// `core.fsmonitor` hook that would leave a mark, an index that git would
/// refresh).
#[test]
fn conflicts_and_list_long_write_nothing_with_housekeeping_configured() {
    let repo = TestRepo::new();
    commit(&repo, &repo.root, "f", "one\ntwo\nthree\n");
    for id in ["a", "b"] {
        repo.create(id).ok();
        commit(&repo, &repo.wt(id), "f", &format!("one\n{id}\nthree\n"));
        // A stat-dirty index: the file rewritten with the same bytes.
        fs::write(repo.wt(id).join("f"), format!("one\n{id}\nthree\n")).unwrap();
    }
    let mark = repo.base().join("fsmonitor-ran");
    let hook = repo.base().join("fsmonitor.sh");
    fs::write(
        &hook,
        format!("#!/bin/sh\necho x >> '{}'\n", mark.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&hook, fs::Permissions::from_mode(0o755)).unwrap();
    for (key, value) in [
        ("gc.auto", "1"),
        ("gc.autoPackLimit", "1"),
        ("maintenance.auto", "true"),
        ("maintenance.strategy", "incremental"),
        ("core.fsmonitor", hook.to_str().unwrap()),
        ("core.untrackedCache", "true"),
        ("index.version", "4"),
    ] {
        git_line(&repo, &repo.root, &["config", key, value]);
    }
    let before = (
        snapshot(&repo.root.join(".git")),
        snapshot(&repo.loop_dir()),
    );
    repo.run(["--json", "conflicts"]).ok();
    repo.run(["--json", "list", "--long"]).ok();
    repo.run(["list", "--long"]).ok();
    let after = (
        snapshot(&repo.root.join(".git")),
        snapshot(&repo.loop_dir()),
    );
    let changed: Vec<_> = after
        .0
        .iter()
        .chain(after.1.iter())
        .filter(|(p, bytes)| before.0.get(*p).or(before.1.get(*p)) != Some(bytes))
        .map(|(p, _)| p.clone())
        .chain(
            before
                .0
                .keys()
                .chain(before.1.keys())
                .filter(|p| !after.0.contains_key(*p) && !after.1.contains_key(*p))
                .cloned(),
        )
        .collect();
    assert!(changed.is_empty(), "written: {changed:?}");
    assert!(!mark.exists(), "the fsmonitor hook ran");
}

#[test]
fn reads_take_no_mutex() {
    let repo = TestRepo::new();
    repo.write_manifest(&manifest_with(&[("a", "merged", "2026-01-01T00:00:00Z")]));
    fs::create_dir(repo.wt("a")).unwrap();
    // A live (fresh) mutex does not block list or path.
    fs::write(repo.mutex_path(), "someone else").unwrap();
    let start = std::time::Instant::now();
    let run = TestRepo::output(repo.command().args(["list"]));
    run.ok();
    TestRepo::output(repo.command().args(["path", "a"])).ok();
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(
        fs::read_to_string(repo.mutex_path()).unwrap(),
        "someone else"
    );
}
