//! Ctrl-C and SIGTERM while git-loop holds the manifest mutex.
//!
//! The contract says the mutex is removed when a mutation ends, "success or
//! failure" — an interrupt included. When the first mutex is taken, a thread is
//! started that waits for SIGINT/SIGTERM; on one it removes the temp files and
//! the mutex this process owns (only if the mutex still carries this process's
//! token) and exits with 128 + the signal number. The manifest itself needs no
//! care: it is only ever replaced by an atomic rename, so it is the old or the
//! new one whenever the signal lands.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

#[derive(Default)]
struct Held {
    mutex: Option<(PathBuf, String)>,
    temps: Vec<PathBuf>,
}

static HELD: Mutex<Held> = Mutex::new(Held {
    mutex: None,
    temps: Vec::new(),
});

fn held() -> std::sync::MutexGuard<'static, Held> {
    HELD.lock().unwrap_or_else(|p| p.into_inner())
}

fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(sig) = signals.forever().next() {
                let state = held();
                for tmp in &state.temps {
                    let _ = std::fs::remove_file(tmp);
                }
                if let Some((path, token)) = &state.mutex {
                    crate::lock::remove_if_owned(path, token);
                }
                std::process::exit(128 + sig);
            }
        });
    });
}

/// Record that this process is about to own the mutex at `path` with `token`.
pub fn track_mutex(path: &Path, token: &str) {
    install();
    held().mutex = Some((path.to_path_buf(), token.to_owned()));
}

pub fn untrack_mutex() {
    held().mutex = None;
}

pub fn track_temp(path: &Path) {
    install();
    held().temps.push(path.to_path_buf());
}

pub fn untrack_temp(path: &Path) {
    held().temps.retain(|p| p != path);
}
