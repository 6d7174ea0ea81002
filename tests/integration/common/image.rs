//! Filesystem images loop-mounted for a test (as root): XFS with reflink,
//! where copies share extents, and ext4, where they never do. The tests that
//! use them are `#[ignore]`d and run by `scripts/test`; they fail, naming
//! why, when no image can be mounted (xfsprogs and e2fsprogs:
//! scripts/install-test-deps).

use std::fs;
use std::path::PathBuf;
use std::process::Command;

/// A filesystem image loop-mounted in a temporary directory; unmounted when
/// dropped, also when the test fails.
pub struct Mounted {
    pub mnt: PathBuf,
    _tmp: tempfile::TempDir,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        let umount = |args: &[&str]| {
            Command::new("umount")
                .args(args)
                .arg(&self.mnt)
                .status()
                .is_ok_and(|s| s.success())
        };
        // A lazy unmount if something still holds it (the loop device is
        // freed once the last user goes).
        if !umount(&[]) {
            umount(&["-l"]);
        }
    }
}

/// Make a `size` (`truncate -s`: `512M`) `fs` image (`xfs` with reflink, or
/// `ext4`) and mount it; the test fails, saying why, when that cannot be done.
pub fn mount_image(fs: &str, size: &str) -> Mounted {
    try_mount(fs, size).unwrap_or_else(|why| {
        panic!(
            "no {fs} image could be mounted: {why} \
             (this test needs root, xfsprogs and e2fsprogs: scripts/install-test-deps)"
        )
    })
}

fn try_mount(fs: &str, size: &str) -> Result<Mounted, String> {
    let tmp = tempfile::Builder::new()
        .prefix("git-loop-image")
        .tempdir()
        .map_err(|e| e.to_string())?;
    let img = tmp.path().join("fs.img");
    let mnt = tmp.path().join("mnt");
    fs::create_dir(&mnt).map_err(|e| e.to_string())?;
    let run = |cmd: &mut Command| -> Result<(), String> {
        let out = cmd
            .output()
            .map_err(|e| format!("could not run {cmd:?}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{cmd:?} failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    };
    run(Command::new("truncate").args(["-s", size]).arg(&img))?;
    match fs {
        "xfs" => run(Command::new("mkfs.xfs")
            .args(["-q", "-m", "reflink=1"])
            .arg(&img))?,
        _ => run(Command::new("mkfs.ext4").args(["-q", "-F"]).arg(&img))?,
    }
    run(Command::new("mount")
        .args(["-o", "loop"])
        .arg(&img)
        .arg(&mnt))?;
    Ok(Mounted { mnt, _tmp: tmp })
}
