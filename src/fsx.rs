//! Opening files git-loop owns without following symlinks.
//!
//! A clone can carry anything a commit can hold, symlinks included: a
//! committed `.loop-worktrees/events.jsonl -> /tmp/victim` or a
//! `.git-loop.toml -> ~/.secret` must never be written or read through. Every
//! file git-loop opens in the work tree goes through here:
//! - `O_NOFOLLOW`: the open fails (`ELOOP`) when the last component is a
//!   symlink, so there is no window between a check and the open;
//! - `O_NONBLOCK` on reads: opening a FIFO does not hang; the file is then
//!   refused because `fstat` says it is not a regular file;
//! - reads are capped, so `/dev/zero` or a huge file cannot make a command read
//!   without bound (and a non-regular file is refused before any read).
//!
//! The parent directories are git-loop's own (`.loop-worktrees/`, checked to be
//! a real directory) or the repository root.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// `opts` with `O_NOFOLLOW` (and `O_CLOEXEC`, which std sets anyway).
/// `custom_flags` replaces earlier custom flags: set them all here.
pub fn nofollow(opts: &mut OpenOptions) -> &mut OpenOptions {
    opts.custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
}

/// `opts` with `O_NOFOLLOW` and `O_NONBLOCK`, for reads: opening a FIFO
/// returns at once (and is then refused as not a regular file).
fn nofollow_nonblock(opts: &mut OpenOptions) -> &mut OpenOptions {
    opts.custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK)
}

/// Whether an open failed because the path is a symlink (`O_NOFOLLOW`).
pub fn is_symlink_error(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(libc::ELOOP)
}

fn symlink_refusal(path: &Path) -> Error {
    Error::UnsafePath {
        path: path.to_path_buf(),
        reason: "it is a symlink; git-loop reads and writes only regular files here, never through a link".into(),
    }
}

fn not_regular(path: &Path) -> Error {
    Error::UnsafePath {
        path: path.to_path_buf(),
        reason: "it is not a regular file".into(),
    }
}

/// Open `path` with `opts` and `O_NOFOLLOW`; a symlink is refused with a
/// message naming it, and so is anything that is not a regular file.
/// `Ok(None)` when it does not exist.
pub fn open_regular(path: &Path, opts: &mut OpenOptions) -> Result<Option<File>> {
    open_with(path, nofollow(opts))
}

fn open_with(path: &Path, opts: &OpenOptions) -> Result<Option<File>> {
    let file = match opts.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) if is_symlink_error(&e) => return Err(symlink_refusal(path)),
        Err(e) => return Err(Error::io("could not open", path, e)),
    };
    let meta = file
        .metadata()
        .map_err(|e| Error::io("could not read", path, e))?;
    if !meta.is_file() {
        return Err(not_regular(path));
    }
    Ok(Some(file))
}

/// Read a regular file of at most `cap` bytes, without following a symlink
/// and without blocking on a FIFO. `Ok(None)` when it does not exist; a
/// symlink, a non-regular file or a larger file is refused, naming it.
pub fn read_regular(path: &Path, cap: u64) -> Result<Option<Vec<u8>>> {
    let file = open_with(path, nofollow_nonblock(OpenOptions::new().read(true)))?;
    file.map(|f| read_capped(f, path, cap)).transpose()
}

/// [`read_regular`] that follows symlinks (for the user's own files, which
/// dotfile managers commonly link), still refusing non-regular files and
/// capping the size.
pub fn read_regular_following(path: &Path, cap: u64) -> Result<Option<Vec<u8>>> {
    let file = open_with(
        path,
        OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_CLOEXEC | libc::O_NONBLOCK),
    )?;
    file.map(|f| read_capped(f, path, cap)).transpose()
}

/// All of `file` (at `path`, for messages), refused when over `cap` bytes.
fn read_capped(file: File, path: &Path, cap: u64) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io("could not read", path, e))?;
    if bytes.len() as u64 > cap {
        return Err(Error::UnsafePath {
            path: path.to_path_buf(),
            reason: format!("it is larger than {cap} bytes"),
        });
    }
    Ok(bytes)
}

/// Canonicalize `path`, or its parent joined with its name when it does not
/// exist (a registered worktree whose directory was deleted).
pub fn canonical_best_effort(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => canonical_best_effort(parent).join(name),
        _ => path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_symlinks_fifos_and_big_files() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        std::fs::write(&target, "secret").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(matches!(
            read_regular(&link, 100),
            Err(Error::UnsafePath { .. })
        ));
        assert_eq!(
            read_regular_following(&link, 100).unwrap().unwrap(),
            b"secret"
        );
        assert!(
            read_regular(&dir.path().join("absent"), 100)
                .unwrap()
                .is_none()
        );
        assert!(matches!(
            read_regular(&target, 3),
            Err(Error::UnsafePath { .. })
        ));
        assert!(matches!(
            read_regular_following(Path::new("/dev/zero"), 100),
            Err(Error::UnsafePath { .. })
        ));
        let fifo = dir.path().join("fifo");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        assert!(matches!(
            read_regular(&fifo, 100),
            Err(Error::UnsafePath { .. })
        ));
    }
}
