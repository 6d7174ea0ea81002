//! Guarded parallel removal: one worker per core, each removal guarded by
//! its run lock and the re-check that the run is still selected (see
//! [`crate::worktree`]'s module doc for why), its events logged while that
//! lock is held.

use crate::ctx::Ctx;
use crate::error::Result;
use crate::lock::ManifestMutex;
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Notes;
use crate::worktree::salvage::Salvaged;
use crate::worktree::{Removal, Remover, Skip, SkipCode, remove_worktree};

/// The manifest as it is now, for the re-check before each removal: re-read
/// only when `manifest.json` was replaced. The cache keeps the parsed file
/// open, so its inode cannot be reused by another file while it is cached:
/// the same (device, inode) at the path means the same content (the
/// manifest is only ever replaced by a rename, never written in place).
struct Current<'a> {
    path: &'a std::path::Path,
    cached: std::sync::Mutex<Option<(std::fs::File, std::sync::Arc<Manifest>)>>,
}

impl Current<'_> {
    fn get(&self) -> Result<std::sync::Arc<Manifest>> {
        use std::os::unix::fs::MetadataExt;
        let identity = |m: &std::fs::Metadata| (m.dev(), m.ino());
        let now = std::fs::symlink_metadata(self.path)
            .ok()
            .map(|m| identity(&m));
        let mut cached = self.cached.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((file, manifest)) = cached.as_ref()
            && file.metadata().ok().map(|m| identity(&m)) == now
        {
            return Ok(manifest.clone());
        }
        let Some(mut file) =
            crate::fsx::open_regular(self.path, std::fs::OpenOptions::new().read(true))?
        else {
            *cached = None;
            return Ok(std::sync::Arc::new(Manifest::default()));
        };
        let mut text = String::new();
        std::io::Read::read_to_string(&mut file, &mut text)
            .map_err(|e| crate::error::Error::io("could not read", self.path, e))?;
        let manifest = std::sync::Arc::new(Manifest::parse(&text).map_err(|reason| {
            crate::error::Error::InvalidManifest {
                path: self.path.to_path_buf(),
                reason,
            }
        })?);
        *cached = Some((file, manifest.clone()));
        Ok(manifest)
    }
}

/// Why `entry` is no longer to be removed, if it is not: the manifest now
/// holds it with a status outside the set (`active` above all), or no longer
/// holds this run.
fn no_longer_selected(now: &Manifest, entry: &Entry, statuses: &[Status]) -> Option<Skip> {
    match now.find(&entry.id) {
        Some(e) if e.same_run(entry) => {
            if e.status == Status::Active {
                Some(Skip::new(
                    "it was marked active after this cleanup selected it; kept",
                    SkipCode::Remarked(Status::Active),
                ))
            } else if !statuses.contains(&e.status) {
                Some(Skip::new(
                    format!(
                        "it was marked {} after this cleanup selected it; kept",
                        e.status
                    ),
                    SkipCode::Remarked(e.status),
                ))
            } else {
                None
            }
        }
        _ => Some(Skip::new(
            "its manifest entry changed after this cleanup selected it; kept",
            SkipCode::Changed,
        )),
    }
}

/// One removal, guarded: the run lock (so a concurrent
/// `mark` cannot cross it), the re-check that the run is still selected,
/// the removal, and its `remove` event appended while the lock is held — so
/// the event log orders it before any mark that waited for it.
fn remove_one(
    remover: &Remover<'_>,
    current: &Current<'_>,
    entry: &Entry,
    statuses: &[Status],
    how: &How<'_>,
) -> Result<(Done, Option<String>)> {
    let How {
        dry_run,
        salvage,
        reap,
        recycler,
    } = *how;
    let registered = remover.registration(&entry.id).is_some();
    let _lock = if !dry_run && registered {
        Some(remover.run_lock(&entry.id)?)
    } else {
        None
    };
    if !dry_run
        && registered
        && let Some(skip) = no_longer_selected(current.get()?.as_ref(), entry, statuses)
    {
        let removal = Removal::Skipped(skip);
        return Ok((Done::new(removal, None, false), None));
    }
    // `--reap`: the processes left in it terminated first, when only they
    // keep it (see `crate::worktree::reap`).
    let reaping = match reap && !dry_run && registered {
        true => crate::worktree::reap::reap_worktree(remover, &entry.id, salvage)?,
        false => Default::default(),
    };
    // `--recycle`: a worktree that would be removed goes back into the warm
    // pool instead, while it has room; one that is not removable is
    // skipped as ever, and may then be salvaged.
    let first = match recycler {
        Some(recycler) if !dry_run => recycler.recycle(remover, &entry.id)?,
        _ => remove_worktree(remover, &entry.id, dry_run)?,
    };
    let (outcome, salvaged) = match first {
        Removal::Skipped(skip) if salvage => {
            crate::worktree::salvage::salvage_then_remove(remover, entry, skip, dry_run)?
        }
        outcome => (outcome, None),
    };
    let outcome = match outcome {
        Removal::Removed(note) => {
            Removal::Removed(crate::worktree::reap::note(&reaping.reaped, note))
        }
        Removal::Skipped(skip) if skip.code == SkipCode::InUse && !reaping.left.is_empty() => {
            Removal::Skipped(Skip::new(
                format!("{}: {}", skip.reason, reaping.left.join("; ")),
                SkipCode::InUse,
            ))
        }
        skipped => skipped,
    };
    let mut done = Done::new(outcome, salvaged, false);
    done.reaped = reaping.reaped;
    Ok(match dry_run {
        true => (done, None),
        false => log(remover, entry, done, registered),
    })
}

/// Append the events of one removal (its salvage, and its `remove` when it
/// was registered: one not registered is logged with the drop of its
/// entry) while its run lock is held. A failure is a warning, returned.
fn log(
    remover: &Remover<'_>,
    entry: &Entry,
    mut done: Done,
    registered: bool,
) -> (Done, Option<String>) {
    let mut events: Vec<_> = done.reaped.iter().map(|p| p.event(&entry.id)).collect();
    if let Some(s) = &done.salvaged {
        events.push(s.event(&entry.id));
    }
    if registered && let Removal::Removed(note) = &done.removal {
        let mut event = crate::events::Event::new(crate::events::EventKind::Remove, &entry.id);
        event.detail = note.clone();
        events.push(event);
        done.logged = true;
    }
    if events.is_empty() {
        return (done, None);
    }
    let appended = ManifestMutex::acquire(&remover.loop_dir)
        .map_err(|e| e.to_string())
        .and_then(|mutex| crate::events::append(&remover.loop_dir, &events, &mutex));
    let warning = appended.err().map(|e| format!("warning: event log: {e}"));
    (done, warning)
}

/// How each selected worktree is removed: a dry run, salvaged first when
/// only its changes stand in the way (`--salvage`), or put back into the
/// warm pool instead (`--recycle`).
#[derive(Clone, Copy)]
pub(super) struct How<'a> {
    pub dry_run: bool,
    pub salvage: bool,
    /// Terminate the processes left in a worktree first (`--reap`).
    pub reap: bool,
    pub recycler: Option<&'a crate::ops::pool::Recycler>,
}

/// What one guarded removal did.
pub(super) struct Done {
    pub removal: Removal,
    /// What was salvaged first (`--salvage`).
    pub salvaged: Option<Salvaged>,
    /// Whether its `remove` event was appended (or its failure warned)
    /// here, under its run lock.
    pub logged: bool,
    /// The processes `--reap` terminated first (logged with it).
    pub reaped: Vec<crate::worktree::reap::Reaped>,
}

impl Done {
    fn new(removal: Removal, salvaged: Option<Salvaged>, logged: bool) -> Done {
        Done {
            removal,
            salvaged,
            logged,
            reaped: Vec::new(),
        }
    }
}

/// Remove the selected worktrees, as many at a time as there are cores.
/// Outcomes come back in selection order. Progress is drawn on a terminal
/// once the cleanup has run for half a second.
pub(super) fn remove_all(
    ctx: &Ctx,
    remover: &Remover<'_>,
    selected: &[Entry],
    statuses: &[Status],
    how: &How<'_>,
    out: &mut Notes<'_>,
) -> Vec<Result<Done>> {
    let manifest_path = ctx.manifest.path().to_path_buf();
    let current = Current {
        path: &manifest_path,
        cached: std::sync::Mutex::new(None),
    };
    let mut outcomes: Vec<Option<Result<Done>>> = (0..selected.len()).map(|_| None).collect();
    let started = std::time::Instant::now();
    let mut drawn = false;
    let mut done = 0;
    crate::fanout::for_each(
        selected,
        |entry| remove_one(remover, &current, entry, statuses, how),
        |i, outcome| {
            let outcome = outcome.map(|(done, warning)| {
                if let Some(w) = warning {
                    out.note(format_args!("{w}"));
                }
                done
            });
            outcomes[i] = Some(outcome);
            done += 1;
            if started.elapsed() > std::time::Duration::from_millis(500) {
                out.progress(Some(format_args!(
                    "removing: {done}/{} done",
                    selected.len()
                )));
                drawn = true;
            }
        },
    );
    if drawn {
        out.progress(None);
    }
    outcomes
        .into_iter()
        .map(|o| o.expect("every selected entry has an outcome"))
        .collect()
}
