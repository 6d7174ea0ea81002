//! One change to the manifest and its audit log, in the manner of jj's
//! `start_transaction()` → `finish()`: a [`Transaction`] holds the manifest
//! mutex and the manifest read under it (on first use: a change that only
//! logs — a trash entry restored — never reads it), collects the change's
//! events, and
//! its [`Transaction::commit`] writes the manifest (when it changed) and
//! then appends the events, still under the mutex. So no event is logged
//! without the lock ([`crate::events::append`] asks for the held mutex), and
//! a mutation and its events are written together, in that order.

use crate::error::Result;
use crate::events::Event;
use crate::lock::ManifestMutex;
use crate::manifest::{Manifest, Snapshot};
use crate::output::Notes;

use super::Ctx;

/// A change in progress: the mutex held, the manifest as it is now.
pub struct Transaction<'c> {
    ctx: &'c Ctx,
    mutex: ManifestMutex,
    /// Read on first use; until then, what was parsed before the mutex.
    manifest: std::cell::OnceCell<Manifest>,
    parsed: std::cell::Cell<Option<(Manifest, Snapshot)>>,
    changed: bool,
    events: Vec<Event>,
}

impl Ctx {
    /// Start a change: the manifest mutex taken (`.loop-worktrees/` must
    /// exist); the manifest is read under it when first asked for (the
    /// empty one when there is none).
    pub fn start_transaction(&self) -> Result<Transaction<'_>> {
        self.start_transaction_from(None)
    }

    /// [`Ctx::start_transaction`], reusing `parsed` — the manifest read
    /// before the mutex was taken — when the file is still the one it was
    /// read from (a 10,000-entry manifest is not parsed twice).
    pub fn start_transaction_from(
        &self,
        parsed: Option<(Manifest, Snapshot)>,
    ) -> Result<Transaction<'_>> {
        let mutex = ManifestMutex::acquire(&self.loop_dir())?;
        Ok(Transaction {
            ctx: self,
            mutex,
            manifest: std::cell::OnceCell::new(),
            parsed: std::cell::Cell::new(parsed),
            changed: false,
            events: Vec::new(),
        })
    }
}

impl<'c> Transaction<'c> {
    /// The repository this change is to.
    pub fn ctx(&self) -> &'c Ctx {
        self.ctx
    }

    /// The manifest as this change has it so far (read now, under the
    /// mutex, unless it was).
    pub fn manifest(&self) -> Result<&Manifest> {
        if let Some(manifest) = self.manifest.get() {
            return Ok(manifest);
        }
        let path = self.ctx.manifest.path();
        let manifest = match self.parsed.take() {
            Some((manifest, snapshot)) if snapshot.is_current(path) => manifest,
            _ => self.ctx.manifest.load_or_default()?,
        };
        Ok(self.manifest.get_or_init(|| manifest))
    }

    /// The manifest, to change: [`Transaction::commit`] then writes it.
    pub fn manifest_mut(&mut self) -> Result<&mut Manifest> {
        self.manifest()?;
        self.changed = true;
        Ok(self.manifest.get_mut().expect("read above"))
    }

    /// Write the manifest now (when it was changed), the mutex still held:
    /// for a change that must know the write succeeded before it goes on
    /// (`create` closes its rollback window on it). The events are still
    /// appended at [`Transaction::commit`].
    pub fn write(&mut self) -> Result<()> {
        if let (true, Some(manifest)) = (self.changed, self.manifest.get()) {
            self.ctx.manifest.write(manifest, &self.mutex)?;
            self.changed = false;
        }
        Ok(())
    }

    /// Log `event` with this change.
    pub fn log(&mut self, event: Event) {
        self.events.push(event);
    }

    /// Log each of `events` with this change, in order.
    pub fn log_all(&mut self, events: impl IntoIterator<Item = Event>) {
        self.events.extend(events);
    }

    /// The held mutex, for a write the change makes beside the manifest
    /// under it (the port leases).
    pub fn mutex(&self) -> &ManifestMutex {
        &self.mutex
    }

    /// Write the manifest (only when it was changed), then append the
    /// events, and release the mutex. A failure to write the manifest is the
    /// change's error, and nothing is logged; a failure to append is a
    /// warning (the manifest, already written, is the record).
    pub fn commit(self, out: &mut Notes<'_>) -> Result<()> {
        if let (true, Some(manifest)) = (self.changed, self.manifest.get()) {
            self.ctx.manifest.write(manifest, &self.mutex)?;
        }
        if let Err(e) = crate::events::append(&self.ctx.loop_dir(), &self.events, &self.mutex) {
            out.note(format_args!("warning: event log: {e}"));
        }
        Ok(())
    }

    /// [`Transaction::commit`] for a change whose only record is the log
    /// (an activity: no manifest line holds it): a failure to append is
    /// the change's error, naming the log.
    pub fn commit_record(self) -> Result<()> {
        if let (true, Some(manifest)) = (self.changed, self.manifest.get()) {
            self.ctx.manifest.write(manifest, &self.mutex)?;
        }
        let loop_dir = self.ctx.loop_dir();
        crate::events::append(&loop_dir, &self.events, &self.mutex).map_err(|e| {
            crate::error::Error::io(
                "could not record the activity in",
                crate::events::path(&loop_dir),
                std::io::Error::other(e),
            )
        })
    }
}
