//! The file itself: reading it without following a symlink, the open
//! [`Snapshot`], and the atomic, mutex-checked write.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::Manifest;
use crate::error::{Error, Result};
use crate::lock::ManifestMutex;

pub const MANIFEST_FILE: &str = "manifest.json";
/// Far above 10,000 entries (about 2.5 MB); a larger file is refused unread.
const MANIFEST_CAP: u64 = 256 << 20;

/// A parsed `manifest.json`, kept open. The manifest is only ever replaced by
/// a rename, never written in place, and an open file's inode cannot be
/// reused: the same (device, inode) at the path means the same content.
#[derive(Debug)]
pub struct Snapshot {
    file: File,
}

impl Snapshot {
    /// Whether `path` still names the file this snapshot parsed.
    pub fn is_current(&self, path: &Path) -> bool {
        use std::os::unix::fs::MetadataExt;
        match (self.file.metadata(), fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
}

/// The manifest file of one repository.
#[derive(Debug, Clone)]
pub struct ManifestFile {
    path: PathBuf,
}

impl ManifestFile {
    pub fn new(loop_dir: &Path) -> Self {
        ManifestFile {
            path: loop_dir.join(MANIFEST_FILE),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Read and validate. `Ok(None)` when the file does not exist. Opened
    /// with `O_NOFOLLOW` and checked with `fstat` on the open file, so there
    /// is no window between a check and the read.
    pub fn load(&self) -> Result<Option<Manifest>> {
        Ok(self.load_snapshot()?.map(|(manifest, _)| manifest))
    }

    /// [`ManifestFile::load`], with the open file kept as a [`Snapshot`]: a
    /// command that validates before taking the mutex can tell, once it holds
    /// it, whether the file is still the one it parsed — and skip parsing it
    /// again (10,000 entries).
    pub fn load_snapshot(&self) -> Result<Option<(Manifest, Snapshot)>> {
        let file = match OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK)
            .open(&self.path)
        {
            Ok(file) => file,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) if crate::fsx::is_symlink_error(&e) => {
                return Err(Error::UnsafePath {
                    path: self.path.clone(),
                    reason:
                        "the manifest is a symlink; git-loop only reads and writes a regular file"
                            .into(),
                });
            }
            Err(e) => return Err(Error::io("could not read", &self.path, e)),
        };
        let meta = file
            .metadata()
            .map_err(|e| Error::io("could not read", &self.path, e))?;
        if !meta.is_file() {
            return Err(Error::InvalidManifest {
                path: self.path.clone(),
                reason: "not a regular file".into(),
            });
        }
        let io = |e| Error::io("could not read", &self.path, e);
        let invalid = |reason| Error::InvalidManifest {
            path: self.path.clone(),
            reason,
        };
        // The common shape read through a window as it comes (see
        // `manifest::fast`); anything else read again whole, from the start.
        let manifest = match super::fast::read(&mut &file, meta.len(), MANIFEST_CAP).map_err(io)? {
            Some(manifest) => manifest,
            None => {
                (&file).seek(SeekFrom::Start(0)).map_err(io)?;
                // Sized from the file's length: one allocation, nothing copied.
                let mut bytes = Vec::with_capacity(meta.len().min(MANIFEST_CAP) as usize + 1);
                (&file)
                    .take(MANIFEST_CAP + 1)
                    .read_to_end(&mut bytes)
                    .map_err(io)?;
                if bytes.len() as u64 > MANIFEST_CAP {
                    return Err(invalid(format!("larger than {MANIFEST_CAP} bytes")));
                }
                let text = std::str::from_utf8(&bytes).map_err(|_| invalid("not UTF-8".into()))?;
                Manifest::parse(text).map_err(invalid)?
            }
        };
        manifest.validate().map_err(invalid)?;
        Ok(Some((manifest, Snapshot { file })))
    }

    /// Read and validate; an absent file is the empty manifest.
    pub fn load_or_default(&self) -> Result<Manifest> {
        Ok(self.load()?.unwrap_or_default())
    }

    /// Replace the manifest atomically: temp file in the same directory, fsync,
    /// rename over `manifest.json`, fsync the directory. The caller holds
    /// `mutex`; right before the rename the write checks that it still does
    /// (its token is in the mutex file). A holder whose mutex was broken as
    /// stale meanwhile removes its temp file and fails with `mutex-lost`: it
    /// never replaces a manifest another process wrote after its read.
    pub fn write(&self, manifest: &Manifest, mutex: &ManifestMutex) -> Result<()> {
        crate::crash::point("before-manifest-write");
        // Written as it is made (see `manifest::fast::write_to`).
        replace_with(
            &self.path,
            &mut |file| super::fast::write_to(manifest, file),
            mutex,
            Some(&Points {
                fail: "manifest-write",
                before_rename: "before-manifest-rename",
                after_rename: "after-manifest-rename",
            }),
        )
    }
}

/// Where a test may stop an atomic replace, or make its write fail
/// ([`crate::crash`]).
pub struct Points {
    pub fail: &'static str,
    pub before_rename: &'static str,
    pub after_rename: &'static str,
}

/// Replace the file at `path` with `bytes` atomically, as the manifest is
/// replaced (and every other file git-loop writes under the manifest mutex:
/// the port leases): a temp file in the same directory, fsync, rename over
/// `path`, fsync the directory. The caller holds `mutex`; right before the
/// rename the write checks that it still does (its token is in the mutex
/// file). A holder whose mutex was broken as stale meanwhile removes its temp
/// file and fails with `mutex-lost`: it never replaces a file another process
/// wrote after its read.
pub fn replace_atomically(
    path: &Path,
    bytes: &[u8],
    mutex: &ManifestMutex,
    points: Option<&Points>,
) -> Result<()> {
    replace_with(path, &mut |file| file.write_all(bytes), mutex, points)
}

/// [`replace_atomically`], the new content written to the temp file by
/// `fill`.
fn replace_with(
    path: &Path,
    fill: &mut dyn FnMut(&mut File) -> std::io::Result<()>,
    mutex: &ManifestMutex,
    points: Option<&Points>,
) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(
        ".{name}.tmp-{}-{}",
        std::process::id(),
        crate::lock::unique_suffix()
    ));
    crate::signals::track_temp(&tmp);
    let result = write_via(path, &tmp, fill, mutex, points);
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    crate::signals::untrack_temp(&tmp);
    result
}

fn write_via(
    path: &Path,
    tmp: &Path,
    fill: &mut dyn FnMut(&mut File) -> std::io::Result<()>,
    mutex: &ManifestMutex,
    points: Option<&Points>,
) -> Result<()> {
    let point = |pick: fn(&Points) -> &'static str| {
        if let Some(p) = points {
            crate::crash::point(pick(p));
        }
    };
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(tmp)
        .map_err(|e| Error::io("could not create", tmp, e))?;
    if let Some(p) = points {
        crate::crash::fail_point(p.fail).map_err(|e| Error::io("could not write", tmp, e))?;
    }
    fill(&mut file)
        .and_then(|()| file.sync_all())
        .map_err(|e| Error::io("could not write", tmp, e))?;
    drop(file);
    point(|p| p.before_rename);
    if !mutex.is_held() {
        return Err(Error::MutexLost {
            path: mutex.path().to_path_buf(),
        });
    }
    fs::rename(tmp, path).map_err(|e| Error::io("could not replace", path, e))?;
    point(|p| p.after_rename);
    // Make the rename itself durable.
    if let Some(dir) = path.parent()
        && let Ok(dir) = File::open(dir)
    {
        let _ = dir.sync_all();
    }
    Ok(())
}
