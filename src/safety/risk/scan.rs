//! One walk of a worktree's files for what `git worktree remove` would
//! delete that is not safe to delete: nested repositories, and entries git
//! could not delete (see [`scan_tree`]).

use std::path::{Path, PathBuf};

/// What one walk of a worktree's files finds ([`scan_tree`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TreeScan {
    /// Nested repositories, relative, `/`-separated, sorted.
    pub nested_repos: Vec<String>,
    /// The first entry `git worktree remove` could not delete, and why.
    pub undeletable: Option<String>,
}

/// One walk of the worktree at `dir` (symlinks not followed, a nested
/// repository not descended into), one `statx` per entry, for:
///
/// - **nested repositories**, up to `limit`: a directory below the top that
///   holds a `.git` (a directory, or a gitfile), or that *is* a git directory
///   itself, judged as git's `is_git_directory` does: a `HEAD` that reads as
///   a ref or an object id, beside `objects/` and `refs/` directories (a bare
///   `build/store.git`). The top level's own `.git` is not one.
/// - **what git could not delete**: `git worktree remove` deletes the files
///   first and the registration after, whatever happened to the files, so a
///   failure part way strands a half-removed run. Refused before git is
///   asked: an immutable or append-only entry (statx's attributes, as `chattr
///   +i`/`+a` set them), a directory holding entries that the effective user
///   may not delete from (write and search permission, `faccessat` with
///   `AT_EACCESS`: the kernel's own answer, root's capabilities and read-only
///   mounts included), a directory that cannot be read, and a
///   `.loop-worktrees/` the worktree itself cannot be removed from. Entries
///   inside a nested repository are not looked at (it keeps the worktree
///   anyway). Not checked: a sticky directory's owner rule.
pub fn scan_tree(dir: &Path, limit: usize) -> TreeScan {
    walk(dir, limit, true)
}

/// The nested repositories of [`scan_tree`] alone, for a report (`list
/// --long`): the same walk by each entry's type as the directory read gives
/// it, without a `statx` per entry or an access check per directory (what
/// git could not delete is only asked before a removal).
pub fn nested_repos(dir: &Path, limit: usize) -> Vec<String> {
    walk(dir, limit, false).nested_repos
}

fn walk(dir: &Path, limit: usize, deletable: bool) -> TreeScan {
    let mut scan = TreeScan::default();
    if deletable
        && let Some(parent) = dir.parent()
        && let Err(why) = may_delete_in(parent)
    {
        scan.undeletable = Some(format!(
            "the worktree cannot be removed from {}: {why}",
            parent.file_name().unwrap_or_default().to_string_lossy()
        ));
    }
    let mut stack: Vec<PathBuf> = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let here = dir.join(&rel);
        let entries = match std::fs::read_dir(&here) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                scan.undeletable
                    .get_or_insert_with(|| format!("{} cannot be read: {e}", shown(&rel)));
                continue;
            }
        };
        let mut subdirs = Vec::new();
        let (mut dot_git, mut head, mut objects, mut refs) = (false, false, false, false);
        let mut any = false;
        for entry in entries.flatten() {
            any = true;
            let name = entry.file_name();
            let info = if deletable {
                EntryInfo::of(&entry)
            } else {
                EntryInfo::by_type(&entry)
            };
            if scan.undeletable.is_none() && info.pinned {
                scan.undeletable = Some(format!(
                    "{} is immutable or append-only (chattr +i or +a): git could not delete it and would leave the run half-removed; `chattr -i -a` it (as its owner or root) first",
                    shown(&rel.join(&name))
                ));
            }
            match name.to_str() {
                Some(".git") => dot_git = true,
                Some("HEAD") if !info.is_dir => head = true,
                Some("objects") if info.is_dir => objects = true,
                Some("refs") if info.is_dir => refs = true,
                _ => {}
            }
            if info.is_dir && name != ".git" {
                subdirs.push(rel.join(name));
            }
        }
        if !rel.as_os_str().is_empty()
            && (dot_git || (head && objects && refs && head_reads_as_ref(&here.join("HEAD"))))
        {
            scan.nested_repos.push(shown(&rel));
            if scan.nested_repos.len() >= limit {
                break;
            }
            continue;
        }
        if any
            && deletable
            && scan.undeletable.is_none()
            && let Err(why) = may_delete_in(&here)
        {
            scan.undeletable = Some(format!(
                "git could not delete the entries of {}: {why}; it would leave the run half-removed",
                if rel.as_os_str().is_empty() {
                    "its top directory".to_owned()
                } else {
                    shown(&rel)
                }
            ));
        }
        stack.extend(subdirs);
    }
    scan.nested_repos.sort();
    scan
}

fn shown(rel: &Path) -> String {
    rel.to_string_lossy().into_owned()
}

/// What [`scan_tree`] needs of one directory entry.
struct EntryInfo {
    /// A directory (not a symlink to one).
    is_dir: bool,
    /// Immutable or append-only: nobody may unlink it (nor, for a
    /// directory, any entry in it).
    pinned: bool,
}

impl EntryInfo {
    #[cfg(target_os = "linux")]
    fn of(entry: &std::fs::DirEntry) -> EntryInfo {
        use rustix::fs::{AtFlags, FileType, StatxAttributes, StatxFlags};
        match rustix::fs::statx(
            rustix::fs::CWD,
            entry.path(),
            AtFlags::SYMLINK_NOFOLLOW,
            StatxFlags::TYPE,
        ) {
            Ok(st) => EntryInfo {
                is_dir: FileType::from_raw_mode(st.stx_mode.into()) == FileType::Directory,
                pinned: st
                    .stx_attributes
                    .intersects(StatxAttributes::IMMUTABLE | StatxAttributes::APPEND),
            },
            Err(_) => EntryInfo::by_type(entry),
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn of(entry: &std::fs::DirEntry) -> EntryInfo {
        EntryInfo::by_type(entry)
    }

    fn by_type(entry: &std::fs::DirEntry) -> EntryInfo {
        EntryInfo {
            is_dir: entry.file_type().is_ok_and(|t| t.is_dir()),
            pinned: false,
        }
    }
}

/// Whether the effective user may delete entries of the directory `dir`
/// (write and search permission); `Err` with the kernel's reason when not.
/// A check the kernel cannot answer (no `faccessat2`, setuid) passes: git
/// then finds out.
fn may_delete_in(dir: &Path) -> std::result::Result<(), String> {
    use rustix::fs::{Access, AtFlags};
    use rustix::io::Errno;
    match rustix::fs::accessat(
        rustix::fs::CWD,
        dir,
        Access::WRITE_OK | Access::EXEC_OK,
        AtFlags::EACCESS,
    ) {
        Err(e @ (Errno::ACCESS | Errno::PERM | Errno::ROFS)) => {
            Err(std::io::Error::from(e).to_string())
        }
        _ => Ok(()),
    }
}

/// Whether the file at `path` reads as a git `HEAD`: `ref: refs/…` or an
/// object id (a symlink, as old git wrote it, counts too).
fn head_reads_as_ref(path: &Path) -> bool {
    if path
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink())
    {
        return true;
    }
    let Ok(Some(bytes)) = crate::fsx::read_regular(path, 4096) else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim_end();
    text.starts_with("ref: refs/")
        || (matches!(text.len(), 40 | 64) && text.bytes().all(|b| b.is_ascii_hexdigit()))
}
