//! git's progress on stderr (`Updating files:  55% (…)\r`, which git draws
//! after two seconds, `GIT_PROGRESS_DELAY`, on a pipe too): the one long
//! step a person waits for is the checkout of a one-step `git worktree add`
//! (`create`). [`super::cmd`] captures git's stderr, since its refusals are
//! parsed and recorded; so that the progress is not captured and lost, when
//! stderr is a terminal and `--quiet` is not given ([`pass_through`]) the
//! progress segments are copied to git-loop's stderr as they arrive
//! (escaped: they are git's text), and the whole stderr is still read for
//! the refusal. Letting git write to the terminal itself would lose that
//! text, hence the copy. What is recorded of git's stderr leaves the
//! progress out ([`without_progress`]).

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static ON: AtomicBool = AtomicBool::new(false);

/// Copy git's checkout progress to stderr: set by [`crate::invoke`] when
/// stderr is a terminal and `--quiet` is not given.
pub fn pass_through(on: bool) {
    ON.store(on, Ordering::Relaxed);
}

pub(super) fn passing_through() -> bool {
    ON.load(Ordering::Relaxed)
}

/// Read `pipe` (git's stderr) to its end, copying the progress segments to
/// stderr as they come; everything read.
pub(super) fn copy_progress(mut pipe: impl Read) -> std::io::Result<Vec<u8>> {
    let mut progress = Progress::new();
    let mut captured = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match pipe.read(&mut buf) {
            Ok(0) => return Ok(captured),
            Ok(n) => {
                captured.extend_from_slice(&buf[..n]);
                progress.feed(&buf[..n]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The progress segments of git's stderr, copied to ours: a segment ending
/// in `\r` (git redrawing its line), and the line that ends a run of them
/// (`…, done.`). Everything else git says is left to the caller.
struct Progress {
    segment: Vec<u8>,
    drawing: bool,
    /// A duplicate of stderr's descriptor: written without taking the lock
    /// on `std::io::stderr()`, which the caller's `Out` may hold.
    stderr: Option<std::fs::File>,
}

impl Progress {
    fn new() -> Progress {
        use std::os::fd::AsFd;
        Progress {
            segment: Vec::new(),
            drawing: false,
            stderr: std::io::stderr()
                .as_fd()
                .try_clone_to_owned()
                .ok()
                .map(std::fs::File::from),
        }
    }

    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b != b'\r' && b != b'\n' {
                self.segment.push(b);
                continue;
            }
            if b == b'\r' || self.drawing {
                let text = String::from_utf8_lossy(&self.segment);
                let line = format!("{}{}", crate::style::escape(&text), b as char);
                if let Some(stderr) = &mut self.stderr {
                    let _ = stderr.write_all(line.as_bytes());
                }
            }
            self.drawing = b == b'\r';
            self.segment.clear();
        }
    }
}

/// git's stderr without its progress segments (those [`Progress`] copies):
/// a refusal or a hook's failure is recorded without `Updating files: 1%…`.
pub(super) fn without_progress(stderr: &[u8]) -> Vec<u8> {
    let mut kept = Vec::with_capacity(stderr.len());
    let mut drawing = false;
    for segment in stderr.split_inclusive(|&b| b == b'\r' || b == b'\n') {
        let end = segment.last().copied();
        if end != Some(b'\r') && !drawing {
            kept.extend_from_slice(segment);
        }
        drawing = end == Some(b'\r');
    }
    kept
}

#[cfg(test)]
mod tests {
    #[test]
    fn progress_is_left_out_of_what_git_said() {
        let said = b"Preparing worktree (new branch 'loop/x')\nUpdating files:  50% (1/2)\rUpdating files: 100% (2/2)\rUpdating files: 100% (2/2), done.\nfatal: hook said no\n";
        assert_eq!(
            String::from_utf8(super::without_progress(said)).unwrap(),
            "Preparing worktree (new branch 'loop/x')\nfatal: hook said no\n"
        );
        assert_eq!(super::without_progress(b"fatal: x"), b"fatal: x");
    }
}
