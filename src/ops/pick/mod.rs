//! Pick: the winner of a best-of-N task (`git loop pick <ID>`, issue 24).
//! The attempts of a task are ordinary runs `<TASK>.<n>`
//! ([`crate::runid::attempt_of`]); picking one
//!
//! 1. refuses, before anything changes, an id that is not an attempt, is
//!    not recorded, or is not active (`not-pickable`, `unknown-id`), and
//!    with `--salvage` an untrusted `cleanup.pre-command` (the removal
//!    would refuse it, after the marks);
//! 2. reads the winner's latest [`Judgement`] from the event log (the
//!    `judge` events: nothing is re-run), so the report says whether it
//!    passed its gate — a winner that failed it, or was never judged, is
//!    picked all the same (a person may know better), and said so;
//! 3. marks the winner `escalated` ([`crate::ops::mark`]), or with
//!    `--land` lands it ([`crate::ops::land`], which marks it `merged`):
//!    a landing that does not happen ends the pick there, so nothing else
//!    changes (the siblings stay active);
//! 4. marks its siblings — the other active attempts of the task —
//!    `rejected` (one mark, all or none, each logged);
//! 5. with `--salvage`, removes the siblings' worktrees through the reclaim
//!    ([`crate::ops::reclaim::reclaim`], `remove --salvage`'s path): every
//!    removal guarded and never forced, a dirty worktree saved to
//!    `refs/loop/salvage/<id>` first, branches kept, the removed entries
//!    dropped (`git loop restore <id>` brings one back).
//!
//! No lock is held across the steps: each operation takes its own, in the
//! one lock order ([`crate::lock`]). A sibling marked again between steps 4
//! and 5 is not removed (the reclaim's re-check: only `rejected` runs go).
//!
//! `--dry-run` changes nothing: the marks are reported as they would be,
//! the landing is built in memory (land's dry run), the removals predicted
//! (the reclaim's dry run, for siblings that are still active).

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::events::{Judgement, latest_judgements};
use crate::manifest::{Entry, Manifest, Status};
use crate::ops::land;
use crate::ops::reclaim::{self, Reclaimed};
use crate::output::Notes;
use crate::runid::RunId;

/// What `pick` was asked for.
#[derive(Debug, Clone, Copy)]
pub struct PickRequest<'a> {
    pub id: &'a RunId,
    /// `--land`, with land's options: the winner landed as `land` lands it.
    pub land: Option<land::Landing<'a>>,
    pub salvage: bool,
    pub dry_run: bool,
}

/// The winner: its status before and after, and what `judge` found.
#[derive(Debug)]
pub struct Winner {
    pub id: String,
    pub previous: Status,
    /// `escalated`, `merged` (landed), or unchanged when the landing did
    /// not happen.
    pub status: Status,
    /// Its latest judgement, if it was judged.
    pub judgement: Option<Judgement>,
    /// Its branch's tip now, when it differs from the commit judged.
    pub moved_since_judged: Option<String>,
}

/// A sibling: its status before and after (what became of its worktree
/// with `--salvage` is in [`PickOutcome::reclaimed`]).
#[derive(Debug)]
pub struct Sibling {
    pub id: String,
    pub previous: Status,
    pub status: Status,
}

/// What a pick did (in a dry run: would do).
pub struct PickOutcome {
    pub dry_run: bool,
    pub task: String,
    pub winner: Winner,
    /// With `--land`: the landing of the winner.
    pub landing: Option<land::LandOutcome>,
    /// In attempt order.
    pub siblings: Vec<Sibling>,
    /// With `--salvage`: the removal of the siblings' worktrees.
    pub reclaimed: Option<Reclaimed>,
    /// What stopped the pick part way (what was done before it is listed).
    pub error: Option<Error>,
}

/// Pick `request.id`; see the module doc.
pub fn pick(ctx: &Ctx, request: &PickRequest<'_>, out: &mut Notes<'_>) -> Result<PickOutcome> {
    let id = request.id;
    let manifest = ctx.read_manifest()?;
    let (task, entry) = pickable(&manifest, id)?;
    let siblings = siblings(&manifest, task, id);
    if request.salvage {
        // The removal would refuse an untrusted hook after the marks.
        ctx.configured(crate::configured_command::Kind::CleanupPre)?;
    }
    let winner = winner(ctx, entry, task)?;
    warn_if_it_changes_nothing(&winner, request, out);
    let mut outcome = PickOutcome {
        dry_run: request.dry_run,
        task: task.to_owned(),
        winner,
        landing: None,
        siblings: siblings
            .iter()
            .map(|e| Sibling {
                id: e.id.to_string(),
                previous: e.status,
                status: e.status,
            })
            .collect(),
        reclaimed: None,
        error: None,
    };
    crate::crash::point("pick-before-marks");
    match request.land {
        Some(how) => {
            let landing = land_winner(ctx, id, &how, request.dry_run, out)?;
            let landed = landing.error.is_none()
                && matches!(landing.runs.first(), Some((_, land::Fate::Landed(_))));
            outcome.landing = Some(landing);
            if !landed {
                return Ok(outcome);
            }
            outcome.winner.status = Status::Merged;
        }
        None => outcome.winner.status = Status::Escalated,
    }
    // Without --land, the winner is escalated in the same write as its
    // siblings are rejected (a crash leaves both or neither).
    let winner = request.land.is_none().then_some(entry);
    let left = match mark(ctx, winner, &siblings, request.dry_run, out) {
        Ok(left) => left,
        Err(e) if winner.is_some() => {
            // Nothing was marked: the winner is as it was.
            outcome.winner.status = outcome.winner.previous;
            outcome.error = Some(e);
            return Ok(outcome);
        }
        Err(e) => {
            outcome.error = Some(e);
            return Ok(outcome);
        }
    };
    rejected(&mut outcome.siblings, &left, out);
    if request.salvage && !siblings.is_empty() {
        match remove_siblings(ctx, &siblings, request.dry_run, out) {
            Ok(reclaimed) => outcome.reclaimed = Some(reclaimed),
            Err(e) => outcome.error = Some(e),
        }
    }
    Ok(outcome)
}

/// A warning before an attempt that changes no file against its base (as
/// judge found) is escalated or landed: it hands on nothing.
fn warn_if_it_changes_nothing(winner: &Winner, request: &PickRequest<'_>, out: &mut Notes<'_>) {
    if !winner
        .judgement
        .as_ref()
        .is_some_and(|j| j.changes_nothing())
    {
        return;
    }
    let what = if request.land.is_some() {
        "landing it lands nothing"
    } else {
        "escalating it hands on nothing"
    };
    out.note(format_args!(
        "warning: {} changes no file against its base (no commits of its own, as judge found): {what}",
        request.id
    ));
}

/// Each sibling's status once the marks are written: rejected, or, when it
/// changed since pick read it (in `left`), as it is now, said in a note.
fn rejected(siblings: &mut [Sibling], left: &[crate::ops::mark::LeftAsIs], out: &mut Notes<'_>) {
    for s in siblings {
        match left.iter().find(|(id, _)| id.as_str() == s.id) {
            Some((_, now)) => {
                let now_words = now.map_or("gone from the manifest".to_owned(), |n| {
                    format!("now {}", n.as_str())
                });
                out.note(format_args!(
                    "{}: not rejected: it changed since pick read it ({now_words})",
                    s.id
                ));
                s.status = now.unwrap_or(s.previous);
            }
            None => s.status = Status::Rejected,
        }
    }
}

/// The winner's task and entry, or why `id` cannot be picked: it is no
/// attempt, not recorded, or not active.
fn pickable<'m>(manifest: &'m Manifest, id: &'m RunId) -> Result<(&'m str, &'m Entry)> {
    let (task, _) = crate::runid::attempt_of(id).ok_or_else(|| Error::NotPickable {
        id: id.to_string(),
        reason: "it is not an attempt: an attempt's id is <TASK>.<n>".into(),
        help: "`git loop create <TASK> --attempts <N>` makes the attempts <TASK>.1 … <TASK>.<N>"
            .into(),
    })?;
    let entry = manifest.get(id)?;
    if entry.status != Status::Active {
        return Err(Error::NotPickable {
            id: id.to_string(),
            reason: format!("it is {}, not active", entry.status),
            help: format!(
                "pick chooses among the active attempts of {task} (`git loop list` shows them); to pick it anyway, mark it active first: git loop mark {id} active"
            ),
        });
    }
    Ok((task, entry))
}

/// The winner as it is: its status, its latest judgement (from the log,
/// not re-run), and its branch's tip when it moved since it was judged.
fn winner(ctx: &Ctx, entry: &Entry, task: &str) -> Result<Winner> {
    let (events, _) = crate::events::read(&ctx.loop_dir())?;
    let judgement = latest_judgements(&events, task).remove(entry.id.as_str());
    let tip = ctx
        .repo
        .branch_target(&entry.branch())?
        .map(|t| t.to_string());
    let moved_since_judged = match (&judgement, tip) {
        (Some(j), Some(tip)) if j.head != tip => Some(tip),
        _ => None,
    };
    Ok(Winner {
        id: entry.id.to_string(),
        previous: entry.status,
        status: entry.status,
        judgement,
        moved_since_judged,
    })
}

/// The other active attempts of `task`, in attempt order.
fn siblings(manifest: &Manifest, task: &str, winner: &str) -> Vec<Entry> {
    let mut found: Vec<(u32, Entry)> = manifest
        .worktrees
        .iter()
        .filter(|e| e.status == Status::Active && e.id != winner)
        .filter_map(|e| match crate::runid::attempt_of(&e.id) {
            Some((t, n)) if t == task => Some((n, e.clone())),
            _ => None,
        })
        .collect();
    found.sort_by_key(|(n, _)| *n);
    found.into_iter().map(|(_, e)| e).collect()
}

/// Land the winner alone, with land's rules (its dry run in a dry run).
fn land_winner(
    ctx: &Ctx,
    id: &RunId,
    how: &land::Landing<'_>,
    dry_run: bool,
    out: &mut Notes<'_>,
) -> Result<land::LandOutcome> {
    let request = land::LandRequest {
        which: land::Which::Runs(std::slice::from_ref(id)),
        how: *how,
        keep_going: false,
        dry_run,
        fleet: false,
    };
    land::land(ctx, &request, out)
}

/// Mark the siblings `rejected`, and the `winner` (when given) `escalated`:
/// one write, each only while it is as read (nothing in a dry run). A
/// winner marked meanwhile fails the pick with nothing marked; the
/// siblings left as they are now come back, with their status now.
fn mark(
    ctx: &Ctx,
    winner: Option<&Entry>,
    siblings: &[Entry],
    dry_run: bool,
    out: &mut Notes<'_>,
) -> Result<Vec<crate::ops::mark::LeftAsIs>> {
    if dry_run || winner.is_none() && siblings.is_empty() {
        return Ok(Vec::new());
    }
    let mut changes: Vec<(&Entry, Status)> = Vec::with_capacity(siblings.len() + 1);
    changes.extend(winner.map(|w| (w, Status::Escalated)));
    changes.extend(siblings.iter().map(|s| (s, Status::Rejected)));
    // The winner first: when someone marked it meanwhile, nothing is picked.
    let needs = match winner {
        Some(_) => crate::ops::mark::Needs::First,
        None => crate::ops::mark::Needs::Nothing,
    };
    let (_, left) = crate::ops::mark::set_statuses_from(ctx, &changes, needs, out)?;
    if let Some(w) = winner
        && let Some((id, now)) = left.iter().find(|(id, _)| *id == w.id)
    {
        return Err(Error::Changed(format!(
            "{id} changed since pick read it as {} ({}): nothing was picked",
            w.status.as_str(),
            now.map_or("it is gone from the manifest".to_owned(), |n| format!(
                "it is {} now",
                n.as_str()
            ))
        )));
    }
    Ok(left)
}

/// Remove the siblings' worktrees, salvaging each dirty one first: the
/// reclaim `remove --salvage` is, taking only runs still `rejected` when
/// their removal comes (in a dry run, the siblings as they are: active
/// until the pick is made).
fn remove_siblings(
    ctx: &Ctx,
    siblings: &[Entry],
    dry_run: bool,
    out: &mut Notes<'_>,
) -> Result<Reclaimed> {
    let options = reclaim::Options {
        dry_run,
        salvage: true,
        ..reclaim::Options::default()
    };
    let choose = |manifest: &Manifest| -> Result<Vec<Entry>> {
        Ok(siblings
            .iter()
            .filter_map(|s| manifest.find(&s.id).filter(|e| e.same_run(s)).cloned())
            .collect())
    };
    reclaim::reclaim(ctx, &[Status::Rejected], options, choose, out)
}
