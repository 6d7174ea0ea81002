//! A queue's landed runs tidied behind it: a run's worktree removed (and
//! then its branch retired) on a thread of its own while the runs after it
//! land.
//!
//! Removing a 10,000-file worktree takes several times as long as landing
//! the run, and the next run's landing needs nothing of it. So, when more
//! than one run may land, with no gate, no `--push` and no `--keep` (the
//! runs read ahead, [`super::lookahead`]), each landed run is handed, once
//! its run lock is let go, to one tidying thread, which does what a landing did right after it before
//! ([`super::finish`]): the worktree removed with `remove`'s rules
//! ([`crate::ops::reclaim::remove`]: `git worktree remove` without
//! `--force`, each removal asking the safety kernel for its permit, under
//! the worktree-operation lock and the run's lock, re-checked against the
//! manifest, its `remove` event logged under the manifest mutex, the entry
//! dropped), then its branch retired by the kernel
//! ([`crate::safety::retire`]: judged, its tip in the trash, deleted by
//! compare-and-swap, `branch-delete` logged under the mutex). The runs that
//! landed while one removal ran are removed next, together, as `cleanup`
//! removes them: in parallel, one worker per core, under one
//! worktree-operation lock. With a gate nothing is handed over (the gate's
//! scratch checkout takes the worktree-operation lock, and would wait for
//! the removals, saying so), nor with `--push` (a run can land on the
//! remote while its local target stays where it was, and its branch must
//! then be judged against the local target): each run is tidied at once,
//! as before.
//!
//! What the command reports is unchanged: each run's worktree and branch
//! fates are put back on that run before `land` returns (a removal that was
//! refused, say a worktree made dirty after its landing, is the run's
//! `worktree` skip code and note, as before; the exit code does not depend
//! on it). Only the order of lines on stderr moves: the notes of a removal
//! come after those of the landings it overlapped, and the event log
//! interleaves a removal's events with the next runs' landings (each run's
//! own events stay in their order: `land`, `mark`, `remove`,
//! `branch-delete`).
//!
//! # The branch, judged at the tip its run landed at
//!
//! By the time a run's branch is retired, the runs after it may have
//! landed on the target. For `rebase` and `squash` the proof is "merging
//! the branch changes nothing", and a later run that changes this run's
//! lines again (a run stacked on it) makes that false against the target's
//! new tip where it held at this run's landing. So a handed-over branch is
//! judged against the commit its landing moved the target to (a full commit
//! id: a stable base, see [`crate::safety::branch`]) — what an immediate
//! retirement judged — and reported and logged under the target's name, as
//! before. That commit is in the target: every later landing of this
//! command moved the target forward from it by compare-and-swap.
//!
//! # Locks, and the manifest mutex both sides need
//!
//! The landing takes the next run's lock holding nothing, and a run is
//! handed over only after the landing let go of its lock, so the two sides
//! never want the same run lock. The tidying thread takes the
//! worktree-operation lock, then a run's lock, then the mutex (THE lock
//! order of [`crate::lock`]); the landing takes no worktree-operation lock
//! without a gate. Both need the manifest mutex: the landing to mark its
//! run `merged` and log its `land` and `mark` events (and a refusal's
//! event), the tidying to log a removal, drop the removed entries and log
//! a branch's deletion. Neither waits for anything while holding it, and
//! each holds it for one read-modify-write or one append (milliseconds);
//! whichever asks first has it, and the other waits for that one write —
//! never for a removal, which runs outside the mutex. No side is given
//! priority: the landing waits at most a few milliseconds per run, and a
//! priority would need an in-process lock around the mutex that the
//! removal workers (in `reclaim`) do not know. Every write re-reads the
//! manifest under the mutex and changes only the entry it observed (same id
//! and `createdAt`), so neither loses the other's change.
//!
//! # Ctrl-C
//!
//! The landing's busy window ([`super::advance`]) is unchanged: a signal
//! waits for the target's move and checkout to end, says how the landing
//! ended, and exits. A removal that is running then is cut as a Ctrl-C
//! cuts any removal (git's `worktree remove` gets the terminal's SIGINT
//! too; a worktree left with only git's files is finished by the next
//! `remove` or `cleanup`, see [`crate::worktree::leftover`]); a landed run
//! whose removal had not started keeps its worktree and its branch, marked
//! `merged`: `git loop remove <id>` (or `cleanup --status merged`) tidies
//! it. Every run that landed is recorded as it was before the signal, and
//! no run is half landed.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};

use gix::ObjectId;

use super::outcome::{BranchFate, WorktreeFate};
use super::{Fate, finish};
use crate::ctx::Ctx;
use crate::manifest::Entry;
use crate::output::Notes;

/// One landed run to tidy.
struct Job {
    entry: Entry,
    /// The run's tip that landed (its branch is deleted only there).
    run_tip: ObjectId,
    /// The target it landed in, and the commit its landing moved it to.
    into: String,
    landed_at: ObjectId,
}

/// What the tidying thread sends back.
enum Done {
    /// A run's fates.
    Run {
        id: String,
        worktree: WorktreeFate,
        branch: BranchFate,
    },
    /// The notes a batch's removals wrote (already made inert).
    Notes(Vec<u8>),
}

/// The landing's end of the tidying thread.
pub(super) struct Tidy {
    jobs: Option<Sender<Job>>,
    done: Receiver<Done>,
}

impl Tidy {
    /// Start the tidying thread in `scope`; it opens the repository at
    /// `root` for itself (a [`Ctx`] is not shared between threads).
    pub(super) fn start<'scope>(
        scope: &'scope std::thread::Scope<'scope, '_>,
        root: PathBuf,
        quiet: bool,
    ) -> Tidy {
        let (jobs, take) = channel();
        let (send, done) = channel();
        scope.spawn(move || work(&root, &take, &send, quiet));
        Tidy {
            jobs: Some(jobs),
            done,
        }
    }

    /// Hand over the landed run `entry` (its lock let go): its worktree
    /// and branch are tidied on the tidying thread.
    pub(super) fn hand_over(&self, entry: &Entry, run_tip: ObjectId, into: &str, at: ObjectId) {
        let job = Job {
            entry: entry.clone(),
            run_tip,
            into: into.to_owned(),
            landed_at: at,
        };
        if let Some(jobs) = &self.jobs {
            // The thread ends only once this end is dropped.
            let _ = jobs.send(job);
        }
    }

    /// Put what is tidied by now on its runs, and write its notes.
    pub(super) fn collect(&self, runs: &mut [(String, Fate)], out: &mut Notes<'_>) {
        loop {
            match self.done.try_recv() {
                Ok(done) => put(done, runs, out),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return,
            }
        }
    }

    /// Wait until every run handed over is tidied, and put each on its run.
    pub(super) fn finish(mut self, runs: &mut [(String, Fate)], out: &mut Notes<'_>) {
        self.jobs = None;
        for done in self.done.iter() {
            put(done, runs, out);
        }
    }
}

fn put(done: Done, runs: &mut [(String, Fate)], out: &mut Notes<'_>) {
    match done {
        Done::Notes(notes) => {
            let _ = out.stderr.write_all(&notes);
        }
        Done::Run {
            id,
            worktree,
            branch,
        } => {
            if let Some((_, Fate::Landed(landed))) = runs.iter_mut().find(|(run, _)| *run == id) {
                landed.worktree = worktree;
                landed.branch = branch;
            }
        }
    }
}

/// The tidying thread: every run landed while the last batch was tidied
/// is the next batch.
fn work(root: &std::path::Path, take: &Receiver<Job>, send: &Sender<Done>, quiet: bool) {
    let ctx = Ctx::open(Some(root));
    while let Ok(first) = take.recv() {
        let mut batch = vec![first];
        batch.extend(take.try_iter());
        let mut notes = Vec::new();
        let fates = match &ctx {
            Ok(ctx) => tidy(ctx, &batch, &mut notes, quiet),
            Err(e) => {
                let worktree = WorktreeFate::Skipped {
                    code: e.code().to_owned(),
                    reason: e.to_string(),
                };
                let branch = BranchFate::Kept {
                    reason: e.to_string(),
                };
                vec![(worktree, branch); batch.len()]
            }
        };
        for (job, (worktree, branch)) in batch.iter().zip(fates) {
            let id = job.entry.id.to_string();
            let _ = send.send(Done::Run {
                id,
                worktree,
                branch,
            });
        }
        if !notes.is_empty() {
            let _ = send.send(Done::Notes(notes));
        }
    }
}

/// One batch: the worktrees removed together, then each branch retired.
fn tidy(
    ctx: &Ctx,
    batch: &[Job],
    notes: &mut Vec<u8>,
    quiet: bool,
) -> Vec<(WorktreeFate, BranchFate)> {
    let mut out = Notes {
        stderr: notes,
        json: false,
        quiet,
        stderr_is_terminal: false,
    };
    let ids: Vec<&str> = batch.iter().map(|job| job.entry.id.as_str()).collect();
    let worktrees = finish::remove_worktrees(ctx, &ids, &mut out);
    batch
        .iter()
        .zip(worktrees)
        .map(|(job, worktree)| {
            let at = job.landed_at.to_string();
            let judged = finish::Against {
                base: &at,
                into: &job.into,
            };
            let branch = finish::delete_branch(ctx, &job.entry, job.run_tip, judged, &mut out);
            (worktree, branch)
        })
        .collect()
}
