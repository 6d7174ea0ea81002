//! `git loop activity [<RUN_ID>] working|waiting|done [--note <TEXT>]`:
//! record what a run is doing ([`crate::ops::activity`]); with no id, the
//! run whose worktree holds the directory it runs from. Nothing on stdout;
//! `<id>: <before> -> <now>` on stderr, and a line when `notify.command`
//! was not run or failed (never a failure of the command). `--json` prints
//! the event recorded, as `git loop log --json` shows it.

use std::path::Path;

use serde::Serialize;

use crate::cli::{ActivityArgs, RunId};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::events::{Activity, Event};
use crate::output::{Out, Report};

/// The event recorded.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct ActivityReport {
    pub event: Event,
    #[serde(skip)]
    pub previous: Option<Activity>,
}

impl Report for ActivityReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let before = self.previous.map_or("none", Activity::as_str);
        let now = self.event.to.as_ref().map_or("", |s| s.as_str());
        out.note(format_args!(
            "{}: {before} -> {now}",
            crate::style::escape(&self.event.id)
        ));
        out.stdout.flush()
    }
}

/// Record the activity for the run named, or with none for the run the
/// directory it runs from (`-C <DIR>`, else the current one) is in.
pub fn exec(repo: Option<&Path>, args: &ActivityArgs, out: &mut Out<'_>) -> Result<ActivityReport> {
    let ctx = Ctx::open(repo)?;
    let activity = args.activity;
    let inferred: RunId;
    let id = match &args.run_id {
        Some(id) => id,
        None => {
            let usage = format!("git loop activity <RUN_ID> {activity}");
            let dir = crate::ops::infer::start_dir(repo)?;
            inferred = crate::ops::infer::run_at(&ctx, &dir, &usage)?;
            &inferred
        }
    };
    let recorded = crate::ops::activity::record(&ctx, id, activity, args.note.as_deref())?;
    if let Some(warning) = recorded.notified.warning() {
        out.note(format_args!("{}", crate::style::escape(&warning)));
    }
    super::shared::fleet::publish_after(&ctx, out);
    Ok(ActivityReport {
        event: recorded.event,
        previous: recorded.previous,
    })
}
