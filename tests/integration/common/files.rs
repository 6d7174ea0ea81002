//! Files in a worktree: a worktree made dirty in every way git knows, a
//! byte-for-byte snapshot of one, a file aged, a file made executable.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::TestRepo;

/// A worktree with every kind of change: modified (unstaged), staged,
/// staged then modified again, untracked, an executable, a symlink, an
/// empty file, a deletion, and an ignored file.
pub fn make_dirty(repo: &TestRepo, id: &str) {
    let wt = repo.wt(id);
    fs::write(wt.join(".gitignore"), "*.log\n").unwrap();
    fs::write(wt.join("tracked.txt"), "one\n").unwrap();
    fs::write(wt.join("gone.txt"), "bye\n").unwrap();
    repo.git_in(&wt, ["add", ".gitignore", "tracked.txt", "gone.txt"]);
    repo.git_in(&wt, ["commit", "-q", "-m", "run work"]);
    fs::write(wt.join("README"), "hello\nchanged, not staged\n").unwrap();
    fs::write(wt.join("tracked.txt"), "one\nstaged\n").unwrap();
    repo.git_in(&wt, ["add", "tracked.txt"]);
    fs::write(wt.join("tracked.txt"), "one\nstaged\nthen more\n").unwrap();
    fs::write(wt.join("new-staged.txt"), "staged new\n").unwrap();
    repo.git_in(&wt, ["add", "new-staged.txt"]);
    fs::remove_file(wt.join("gone.txt")).unwrap();
    fs::create_dir_all(wt.join("dir/sub")).unwrap();
    fs::write(wt.join("dir/sub/untracked.rs"), "fn main() {}\n").unwrap();
    fs::write(wt.join("run.sh"), "#!/bin/sh\necho hi\n").unwrap();
    fs::set_permissions(wt.join("run.sh"), fs::Permissions::from_mode(0o755)).unwrap();
    std::os::unix::fs::symlink("dir/sub/untracked.rs", wt.join("link")).unwrap();
    fs::write(wt.join("empty"), "").unwrap();
    fs::write(wt.join("build.log"), "ignored output\n").unwrap();
}

/// Every non-ignored file of a worktree: path -> (mode, bytes or link target).
pub fn snapshot(dir: &Path) -> BTreeMap<String, (String, Vec<u8>)> {
    fn walk(dir: &Path, rel: &str, out: &mut BTreeMap<String, (String, Vec<u8>)>) {
        for entry in fs::read_dir(dir.join(rel)).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            if rel.is_empty() && name == ".git" || name.ends_with(".log") {
                continue;
            }
            let path = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            let meta = entry.path().symlink_metadata().unwrap();
            if meta.is_dir() {
                walk(dir, &path, out);
            } else if meta.file_type().is_symlink() {
                let target = fs::read_link(entry.path()).unwrap();
                out.insert(
                    path,
                    (
                        "120000".into(),
                        target.into_os_string().into_encoded_bytes(),
                    ),
                );
            } else {
                let mode = if meta.permissions().mode() & 0o100 != 0 {
                    "100755"
                } else {
                    "100644"
                };
                out.insert(path, (mode.into(), fs::read(entry.path()).unwrap()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, "", &mut out);
    out
}

/// Set a file's mtime `secs` seconds into the past (a mutex made stale).
pub fn age_file(path: &Path, secs: u64) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(secs))
        .unwrap();
}

/// chmod 755.
pub fn make_executable(path: &Path) {
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}
