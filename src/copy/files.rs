//! The copying half of `create.copy`: the selected entries are expanded into
//! a plan (directories created and symlinks recreated in order, on the
//! calling thread), then the regular files are copied in parallel on
//! [`crate::fanout`] — each one cloned where the filesystem can share extents
//! (`FICLONE` on Linux btrfs and XFS, `clonefile` on macOS APFS, through the
//! `reflink-copy` crate), else copied byte by byte.

use std::fs::{self, File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::{CopyReport, CopySkip, EXISTS};

/// One regular file to copy.
struct FileJob {
    rel: PathBuf,
    shown: String,
}

/// How one file was copied.
enum Done {
    Reflinked(u64),
    Copied(u64),
}

/// Copy each of `entries` (relative paths: files, symlinks or directories,
/// which are copied whole) from `src_root` to `dest_root`, never
/// overwriting, and account for it in `report`.
pub(super) fn copy_entries(
    src_root: &Path,
    dest_root: &Path,
    entries: &[PathBuf],
    report: &mut CopyReport,
) {
    let mut jobs = Vec::new();
    for rel in entries {
        plan(src_root, dest_root, rel, report, &mut jobs);
    }
    let mut done: Vec<Option<String>> = vec![None; jobs.len()];
    crate::fanout::for_each(
        &jobs,
        |job| copy_file_new(&src_root.join(&job.rel), &dest_root.join(&job.rel)),
        |i, result| match result {
            Ok(Done::Reflinked(bytes)) => {
                report.reflinked += 1;
                report.bytes += bytes;
                done[i] = Some(jobs[i].shown.clone());
            }
            Ok(Done::Copied(bytes)) => {
                report.plain += 1;
                report.bytes += bytes;
                done[i] = Some(jobs[i].shown.clone());
            }
            Err(e) => report.skipped.push(CopySkip {
                path: jobs[i].shown.clone(),
                reason: if e.kind() == std::io::ErrorKind::AlreadyExists {
                    EXISTS.into()
                } else {
                    format!("could not copy: {e}")
                },
            }),
        },
    );
    report.copied.extend(done.into_iter().flatten());
}

/// Plan the copy of `rel` (a file, symlink or directory): create its
/// directories, recreate a symlink, queue a regular file in `jobs`.
fn plan(
    src_root: &Path,
    dest_root: &Path,
    rel: &Path,
    report: &mut CopyReport,
    jobs: &mut Vec<FileJob>,
) {
    let src = src_root.join(rel);
    let dest = dest_root.join(rel);
    let shown = rel.to_string_lossy().into_owned();
    let skip = |report: &mut CopyReport, reason: String| {
        report.skipped.push(CopySkip {
            path: shown.clone(),
            reason,
        })
    };
    let meta = match fs::symlink_metadata(&src) {
        Ok(m) => m,
        Err(e) => return skip(report, format!("could not read: {e}")),
    };
    // Never write through a symlink the new worktree's checkout put on the
    // way (a tracked `config -> /etc` must not send `config/x` outside).
    if let Some(link) = symlink_on_the_way(dest_root, rel) {
        return skip(
            report,
            format!(
                "{} is a symlink in the new worktree; not written through",
                link.display()
            ),
        );
    }
    if meta.is_dir() {
        if let Err(e) = fs::create_dir_all(&dest) {
            return skip(report, format!("could not create: {e}"));
        }
        let Ok(children) = fs::read_dir(&src) else {
            return skip(report, "could not read the directory".into());
        };
        let mut names: Vec<_> = children
            .filter_map(|c| c.ok())
            .map(|c| c.file_name())
            .collect();
        names.sort();
        for name in names {
            if name == ".git" {
                continue;
            }
            plan(src_root, dest_root, &rel.join(name), report, jobs);
        }
        return;
    }
    if fs::symlink_metadata(&dest).is_ok() {
        return skip(report, EXISTS.into());
    }
    if let Some(parent) = dest.parent()
        && let Err(e) = fs::create_dir_all(parent)
    {
        return skip(report, format!("could not create its directory: {e}"));
    }
    if meta.file_type().is_symlink() {
        match fs::read_link(&src).and_then(|target| std::os::unix::fs::symlink(target, &dest)) {
            Ok(()) => {
                report.symlinks += 1;
                report.copied.push(shown);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => skip(report, EXISTS.into()),
            Err(e) => skip(report, format!("could not copy: {e}")),
        }
    } else if meta.is_file() {
        jobs.push(FileJob {
            rel: rel.to_path_buf(),
            shown,
        });
    } else {
        skip(report, "not a regular file, directory or symlink".into())
    }
}

/// Copy a regular file to a destination that must not exist yet
/// (`create_new`: a file appearing meanwhile is not overwritten either),
/// keeping its permission bits. A clone of its extents when the filesystem
/// supports it, else a copy of its bytes. Neither end follows a symlink.
fn copy_file_new(src: &Path, dest: &Path) -> std::io::Result<Done> {
    // O_NONBLOCK: a FIFO swapped in since the plan does not hang the open.
    let from = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK)
        .open(src)?;
    let meta = from.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let to = crate::fsx::nofollow(OpenOptions::new().write(true).create_new(true)).open(dest)?;
    let done = match reflink_copy::reflink_file(&from, &to) {
        Ok(()) => Ok(Done::Reflinked(meta.len())),
        // Not supported here (another filesystem, no reflink support, or
        // across devices): the destination is still empty; copy the bytes.
        Err(_) => plain_copy(&from, &to).map(Done::Copied),
    }
    .and_then(|done| to.set_permissions(meta.permissions()).map(|()| done));
    if done.is_err() {
        // This process made it (`create_new`): no half-copied file is left.
        let _ = fs::remove_file(dest);
    }
    done
}

fn plain_copy(mut from: &File, mut to: &File) -> std::io::Result<u64> {
    to.set_len(0)?;
    std::io::copy(&mut from, &mut to)
}

/// The first directory of `rel` (below `root`, `rel` itself excluded) that
/// is a symlink, if any.
fn symlink_on_the_way(root: &Path, rel: &Path) -> Option<PathBuf> {
    let mut at = root.to_path_buf();
    let mut shown = PathBuf::new();
    let parent = rel.parent()?;
    for part in parent.components() {
        at.push(part);
        shown.push(part);
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => return Some(shown),
            Ok(_) => {}
            Err(_) => return None, // not there yet: created as a real directory
        }
    }
    None
}
