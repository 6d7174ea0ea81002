//! Being told when the manifest or the event log changes: inotify on
//! `.loop-worktrees/` (through rustix, no crate of its own: one directory,
//! two file names). The directory is watched, not the files: the manifest
//! is replaced by a rename (a watch on the old file would see nothing of
//! the new one), and the event log may not exist yet. A thread blocks in
//! `read(2)` on the inotify descriptor and calls `wake` once per batch of
//! events that names either file, so a burst of appends wakes the view
//! once or a few times, never once per line.

use std::mem::MaybeUninit;
use std::path::Path;

use rustix::fs::inotify::{self, CreateFlags, WatchFlags};

/// Start the thread that calls `wake` each time `manifest.json` or
/// `events.jsonl` in `loop_dir` is written, replaced or removed; it ends
/// when `wake` returns `false` (the view is gone). `Err`: the directory
/// cannot be watched (it does not exist yet, say): the caller relies on its
/// periodic refresh.
pub fn spawn(loop_dir: &Path, wake: impl Fn() -> bool + Send + 'static) -> std::io::Result<()> {
    let fd = inotify::init(CreateFlags::CLOEXEC)?;
    inotify::add_watch(
        &fd,
        loop_dir,
        WatchFlags::CLOSE_WRITE | WatchFlags::MOVED_TO | WatchFlags::DELETE | WatchFlags::MODIFY,
    )?;
    std::thread::Builder::new()
        .name("watch-files".into())
        .spawn(move || {
            let mut buf = [MaybeUninit::<u8>::uninit(); 4096];
            let mut reader = inotify::Reader::new(&fd, &mut buf);
            let mut named = false;
            loop {
                match reader.next() {
                    Ok(event) => {
                        named |= event.file_name().is_some_and(|name| {
                            let name = name.to_bytes();
                            name == crate::manifest::MANIFEST_FILE.as_bytes()
                                || name == crate::events::EVENTS_FILE.as_bytes()
                        });
                    }
                    Err(rustix::io::Errno::INTR) => continue,
                    Err(_) => return,
                }
                if named && reader.is_buffer_empty() {
                    named = false;
                    if !wake() {
                        return;
                    }
                }
            }
        })?;
    Ok(())
}
