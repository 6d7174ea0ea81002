//! Ctrl-C (or SIGTERM) while a landing moves its target and updates the
//! checkout: never a half-landing the message does not name.
//!
//! From just before the ref moves until the checkout is updated (or the
//! move undone), a signal waits (the kernel of [`RollbackWindow`]: the
//! section is *busy*): the ref update, the in-process checkout and `git
//! read-tree -m -u` (in a process group of its own, so the terminal's
//! Ctrl-C does not stop it half-way, see
//! [`crate::git::plumbing::read_tree_two_way`]) run to their end. Then
//! git-loop says how the landing ended — read from the repository, not
//! assumed — and exits with 128 + the signal:
//! - the target at `old`: nothing landed, the checkout as it was;
//! - the target at `new` and the checkout updated: landed (the run is not
//!   marked `merged` yet; `git loop mark --detect-merged` marks it);
//! - otherwise, what stopped it and the command that finishes it (the next
//!   landing onto the target recognises the state and says the same).
//!
//! A second signal exits at once, as everywhere ([`RollbackWindow`]); git's
//! `read-tree` then still finishes on its own.

use std::sync::{Arc, Mutex};

use gix::ObjectId;

use super::Advance;
use crate::error::Result;
use crate::git::repo::Repo;
use crate::signals::RollbackWindow;

/// The busy section of one landing's move (see the module doc).
pub(super) struct Window {
    window: RollbackWindow,
    /// What to say when a signal ends the process at [`Window::close`].
    words: Arc<Mutex<String>>,
    /// `landing`, or `sync` (a run's branch moved by `git loop sync`).
    word: &'static str,
}

fn lock(words: &Mutex<String>) -> std::sync::MutexGuard<'_, String> {
    words.lock().unwrap_or_else(|p| p.into_inner())
}

impl Window {
    /// Open the section before `branch` moves.
    pub fn open(branch: &str, word: &'static str) -> Window {
        let words = Arc::new(Mutex::new(interrupted(&format!(
            "nothing {}: {branch} and its checkout are as they were",
            done(word)
        ))));
        let said = Arc::clone(&words);
        let window = RollbackWindow::open(move || crate::signals::say(&lock(&said)));
        window.enter();
        Window {
            window,
            words,
            word,
        }
    }

    /// The landing ended with `outcome`: a signal that came meanwhile
    /// says how (see the module doc) and exits.
    pub fn close(
        self,
        repo: &Repo,
        branch: &str,
        (old, new): (ObjectId, ObjectId),
        outcome: &Result<Advance>,
    ) {
        if self.window.interrupted() {
            let ended = ended(repo, branch, (old, new), self.word, outcome);
            *lock(&self.words) = interrupted(&ended);
        }
        self.window.leave();
    }
}

fn interrupted(what: &str) -> String {
    format!("git-loop: interrupted: {what}")
}

/// `landed`, `synced`: what a landing or a sync did.
fn done(word: &str) -> &'static str {
    if word == "sync" { "synced" } else { "landed" }
}

/// How the landing (or sync, `word`) of `branch` from `old` to `new`
/// ended, in words.
fn ended(
    repo: &Repo,
    branch: &str,
    (old, new): (ObjectId, ObjectId),
    word: &str,
    outcome: &Result<Advance>,
) -> String {
    let now = repo.branch_target(branch).ok().flatten();
    let verb = done(word);
    match (now, outcome) {
        (Some(now), Err(e)) if now == old => {
            format!("nothing {verb} ({e}): {branch} and its checkout are as they were")
        }
        (Some(now), _) if now == old => {
            format!("nothing {verb}: {branch} and its checkout are as they were")
        }
        (Some(now), Ok(Advance::Moved { checkout })) if now == new => format!(
            "{verb}: {branch} moved from {old} to {new}{}{}",
            if checkout.is_some() {
                " and its checkout is updated"
            } else {
                ""
            },
            if word == "sync" {
                ""
            } else {
                "; the run is not marked merged yet: `git loop mark --detect-merged` marks it"
            }
        ),
        (_, Err(e)) => e.to_string(),
        (Some(now), _) if now == new => format!(
            "{branch} moved from {old} to {new}, its checkout not updated: `git read-tree -m -u \
             {old} {new}` there finishes the {word}"
        ),
        (now, _) => format!(
            "nothing {verb}: {branch} is at {} now, moved by another",
            now.map_or_else(|| "nothing (deleted)".to_owned(), |n| n.to_string())
        ),
    }
}
