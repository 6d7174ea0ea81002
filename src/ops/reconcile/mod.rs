//! `git loop reconcile [--remove-orphan <ID>]... [--dry-run]`
//!
//! Compares git's registered worktrees under `.loop-worktrees/` (read with
//! gix: the same set `git worktree list --porcelain` shows; direct children
//! only) with the manifest:
//! - **orphans** — registered with git, absent from the manifest — are
//!   reported, and removed only when named with `--remove-orphan`, without
//!   `--force`. A name that is not an orphan is refused before anything
//!   changes.
//! - **dropped** — manifest entries whose directory no longer exists. A missing
//!   path is absent, not an error (rm -rf, a crash mid-cleanup, a container
//!   wipe). If git still has a registration for it, that one registration is
//!   removed with `git worktree remove <path>` (never a bare `git worktree
//!   prune`). A *locked* registration is kept, with its entry, and reported as
//!   skipped: a locked worktree is typically on a volume that is not mounted
//!   right now.
//!
//! - **half-removed** runs — recorded, their directory there, but git no
//!   longer knows them (a `git worktree remove` that failed part way, see
//!   [`crate::worktree::leftover`]) — are reported (code `half-removed`); cleanup and
//!   remove finish them.
//!
//! A named orphan younger than `--min-age` (default 2h: the younger of its
//! directory's and its git admin directory's modification times) is skipped
//! with code `too-young`: a create that has run `git worktree add` but not yet
//! recorded the run looks exactly like an orphan. `--min-age 0` disables it.
//!
//! Nothing outside `.loop-worktrees/` is ever touched, the main worktree
//! included. The JSON `orphans` list holds every orphan found, including the
//! ones removed on request (which also appear in `removedOrphans`).

//!
//! # Phases
//!
//! [`reconcile`] takes the locks and reads the manifest (`open`), surveys what is
//! there ([`survey`]: orphans, strays, half-removed runs), checks every name
//! given before anything changes (`check_named`, `plan_adoptions`, with
//! the `--min-age` guard of `min_age`), removes registrations (`removal`),
//! and last applies the [`Plan`] to the manifest under the mutex (`apply`),
//! logging the events built from the [`ReconcileOutcome`]. The command builds its
//! report from the outcome.

mod adopt;
mod apply;
mod min_age;
mod removal;
pub mod survey;

pub use apply::Plan;
pub use removal::Removed;
pub use survey::{Orphan, Stray};

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::lock::OpsLock;
use crate::manifest::Manifest;
use crate::output::Notes;
use crate::runid;
use crate::worktree::{Remover, SkippedEntry};
use min_age::too_young;
use removal::{drop_gone, remove_orphans};
use survey::Survey;

/// What reconcile is asked to do.
#[derive(Debug, Clone)]
pub struct ReconcileRequest<'a> {
    /// `--remove-orphan`, in the order given (repeats allowed).
    pub remove_orphan: Vec<&'a str>,
    /// `--adopt`, in the order given.
    pub adopt: Vec<&'a str>,
    /// `--min-age`, and its text as given (for the reason).
    pub min_age: jiff::SignedDuration,
    pub min_age_text: &'a str,
    pub dry_run: bool,
}

impl ReconcileRequest<'_> {
    fn names_any(&self) -> bool {
        !self.remove_orphan.is_empty() || !self.adopt.is_empty()
    }
}
/// What reconcile found and did.
#[derive(Debug)]
pub struct ReconcileOutcome {
    pub dry_run: bool,
    /// `--remove-orphan` or `--adopt` named at least one orphan.
    pub named_orphans: bool,
    /// Every orphan found, the ones removed included, by id.
    pub orphans: Vec<Orphan>,
    pub strays: Vec<Stray>,
    /// Left alone, logged as `skip`: half-removed runs, then the entries
    /// whose registration was kept, then the named orphans kept.
    pub kept: Vec<SkippedEntry>,
    /// Entries whose directory is gone, dropped.
    pub dropped: Vec<Removed>,
    pub removed_orphans: Vec<Removed>,
    /// Orphans recorded as active runs (`--adopt`), as planned.
    pub adopted: Vec<String>,
    /// Set when applying the plan failed part way (say, the manifest
    /// write): what was done before is still listed.
    pub error: Option<Error>,
}

pub fn reconcile(
    ctx: &Ctx,
    req: &ReconcileRequest<'_>,
    out: &mut Notes<'_>,
) -> Result<ReconcileOutcome> {
    let mut opened = open(ctx, req, out)?;
    let git = ctx.repo.git();
    let remover = Remover::new(&ctx.repo, &git)?;
    let manifest = opened.manifest(ctx)?;
    let survey = Survey::of(ctx, &manifest, &remover)?;
    check_named(&survey, req)?;
    let adopt = plan_adoptions(ctx, req, &survey, &remover)?;
    let (dropped, mut kept, gone) = drop_gone(&manifest, &survey, &remover, req.dry_run)?;
    let (removed_orphans, orphans_kept) = remove_orphans(ctx, req, &remover)?;
    kept.extend(orphans_kept);
    let plan = Plan {
        drop: gone,
        adopt: adopt.ids,
        base: adopt.base,
    };
    let mut outcome = ReconcileOutcome {
        dry_run: req.dry_run,
        named_orphans: req.names_any(),
        orphans: survey.orphans,
        strays: survey.strays,
        kept: survey.half_removed.into_iter().chain(kept).collect(),
        dropped,
        removed_orphans,
        adopted: plan.adopt.clone(),
        error: None,
    };
    // The mutex is taken even when nothing changed: taking it is what
    // removes a stale one, as the contract says.
    if !req.dry_run
        && (opened.loop_dir_exists || !plan.adopt.is_empty())
        && let Err(e) = apply::apply(ctx, &plan, &outcome, out)
    {
        outcome.error = Some(e);
    }
    Ok(outcome)
}

/// The manifest as validated before any lock, and the worktree-operation
/// lock (not in a dry run, nor with nothing to reconcile or name).
struct Opened {
    loop_dir_exists: bool,
    snapshot: Option<(Manifest, crate::manifest::Snapshot)>,
    _ops: Option<OpsLock>,
}

fn open(ctx: &Ctx, req: &ReconcileRequest<'_>, out: &mut Notes<'_>) -> Result<Opened> {
    let loop_dir_exists = ctx.loop_dir_exists()?;
    // Validated before any lock is taken: a manifest git-loop does not
    // understand refuses the command with no trace left.
    let snapshot = if loop_dir_exists {
        ctx.manifest.load_snapshot()?
    } else {
        None
    };
    let ops = if !req.dry_run && (loop_dir_exists || req.names_any()) {
        ctx.ensure_loop_dir()?;
        Some(OpsLock::acquire(&ctx.loop_dir(), |waiting| {
            out.note(format_args!("{waiting}"))
        })?)
    } else {
        None
    };
    Ok(Opened {
        loop_dir_exists,
        snapshot,
        _ops: ops,
    })
}

impl Opened {
    /// The manifest, parsed again only if another command replaced it
    /// meanwhile.
    fn manifest(&mut self, ctx: &Ctx) -> Result<Manifest> {
        Ok(match self.snapshot.take() {
            Some((parsed, snap)) if snap.is_current(ctx.manifest.path()) => parsed,
            _ if self.loop_dir_exists => ctx.manifest.load_or_default()?,
            _ => Default::default(),
        })
    }
}
/// Every `--remove-orphan` must name an orphan: refused before anything
/// changes.
fn check_named(survey: &Survey, req: &ReconcileRequest<'_>) -> Result<()> {
    for &id in &req.remove_orphan {
        if survey.is_orphan(id) {
            continue;
        }
        let reason = if survey.known.contains(id) {
            "it is recorded in the manifest (mark it and use cleanup)".to_owned()
        } else {
            format!(
                "no worktree is registered with git at {}",
                runid::rel_path(id)
            )
        };
        return Err(Error::NotAnOrphan {
            id: id.to_owned(),
            reason,
        });
    }
    Ok(())
}

/// The orphans to adopt, each checked before anything changes, and the
/// base they get.
struct Adoptions {
    ids: Vec<String>,
    base: String,
}

fn plan_adoptions(
    ctx: &Ctx,
    req: &ReconcileRequest<'_>,
    survey: &Survey,
    remover: &Remover<'_>,
) -> Result<Adoptions> {
    let base = match req.adopt.first() {
        None => String::new(),
        Some(&id) => {
            let configured = crate::ops::base::configured(ctx)?;
            // The base an adopted run records is what proves it merged
            // later; the branch the main checkout is on is only a guess,
            // and a hand-made worktree did not start there.
            if configured.head_guess {
                return Err(Error::NotAdoptable {
                    id: id.to_owned(),
                    reason: format!(
                        "it would record the base {:?}, only the branch HEAD is on (\"main\" does not exist), and a guessed base proves nothing merged",
                        configured.name
                    ),
                    help: "name the branch runs are merged into: `git config loop.base <BRANCH>`, then adopt it again".to_owned(),
                });
            }
            configured.name
        }
    };
    let mut ids: Vec<String> = Vec::new();
    for &id in &req.adopt {
        let refuse = |reason: String| Error::NotAdoptable {
            id: id.to_owned(),
            reason,
            help: crate::error::adopt_help(),
        };
        if survey.known.contains(id) {
            return Err(refuse("it is recorded in the manifest already".into()));
        }
        adopt::check(
            &ctx.loop_dir(),
            id,
            remover.registration(id),
            req.remove_orphan.contains(&id),
        )?;
        // As for --remove-orphan: a worktree that changed moments ago may be
        // a create that has not recorded it yet (adopting it would make that
        // create fail and undo its worktree under the new entry).
        if let Some(reason) = too_young(ctx, id, remover, req) {
            // The one way on, typed out: a worktree made by hand a moment
            // ago is adopted with the cutoff lowered.
            return Err(Error::NotAdoptable {
                id: id.to_owned(),
                reason,
                help: format!(
                    "if no `git loop create` is still making it, adopt it now: git loop reconcile --adopt {id} --min-age 0"
                ),
            });
        }
        if !ids.iter().any(|a| a == id) {
            ids.push(id.to_owned());
        }
    }
    Ok(Adoptions { ids, base })
}
