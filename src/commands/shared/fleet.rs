//! `fleet.publish = true`: after `create`, `mark`, `activity`, `land`,
//! `cleanup` and `remove` succeed, this machine's runs are published
//! ([`crate::ops::fleet::publish`]), best effort: every call to the remote
//! is cut off after [`TIMEOUT`], and a failure (the remote unreachable, a
//! ref that moved) is one note on stderr, never the command's failure nor
//! a change of its output or exit code; the next publish catches up.

use std::path::Path;
use std::time::Duration;

use crate::cli::{Cli, Command};
use crate::ctx::Ctx;
use crate::ops::fleet::publish::{PublishRequest, publish};
use crate::output::{Fail, Out};

/// How long each call to the remote may take.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// `done`, the command's outcome, as it is; first, when it succeeded and
/// is one that changes runs, every run published if `fleet.publish` is on
/// (a note when that fails).
pub fn publish_after(cli: &Cli, done: Result<(), Fail>, out: &mut Out<'_>) -> Result<(), Fail> {
    let changes_runs = matches!(
        cli.command,
        Command::Create(_)
            | Command::Mark(_)
            | Command::Activity(_)
            | Command::Land(_)
            | Command::Cleanup(_)
            | Command::Remove(_)
    );
    if done.is_ok() && changes_runs {
        publish_all(cli.repo.as_deref(), out);
    }
    done
}

/// Publish every run when `fleet.publish` is on; a note when it fails.
fn publish_all(repo: Option<&Path>, out: &mut Out<'_>) {
    let Ok(ctx) = Ctx::open(repo) else {
        return;
    };
    if !ctx.settings().is_ok_and(|s| s.fleet_publish.value) {
        return;
    }
    let request = PublishRequest {
        ids: &[],
        timeout: Some(TIMEOUT),
    };
    if let Err(e) = publish(&ctx, &request, &mut out.notes()) {
        out.note(format_args!(
            "note: not published to the fleet (fleet.publish): {e}; `git loop publish` catches up"
        ));
    }
}
