//! `fleet.publish = true`: after `create`, `mark`, `activity`, `land`,
//! `cleanup` and `remove` succeed, this machine's runs are published
//! ([`crate::ops::fleet::publish`]), best effort: every call to the remote
//! is cut off after [`TIMEOUT`], and a failure (the remote unreachable, a
//! ref that moved) is one note on stderr, never the command's failure nor
//! a change of its output or exit code; the next publish catches up.

use std::time::Duration;

use crate::ctx::Ctx;
use crate::ops::fleet::publish::{PublishRequest, publish};
use crate::output::Out;

/// How long each call to the remote may take.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// After a command that changed runs, with the repository it changed
/// (its settings read already, or read now): every run published when
/// `fleet.publish` is on, a note when that fails.
pub fn publish_after(ctx: &Ctx, out: &mut Out<'_>) {
    if !ctx.settings().is_ok_and(|s| s.fleet_publish.value) {
        return;
    }
    let request = PublishRequest {
        ids: &[],
        timeout: Some(TIMEOUT),
        handing_off: None,
    };
    if let Err(e) = publish(ctx, &request, &mut out.notes()) {
        out.note(format_args!(
            "note: not published to the fleet (fleet.publish): {e}; `git loop publish` catches up"
        ));
    }
}
