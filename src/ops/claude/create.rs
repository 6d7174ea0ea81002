//! `WorktreeCreate`: the run for Claude Code's proposed name, made or the
//! hook's own reused (see the parent module's doc for the choice of id).

use std::path::Path;

use super::owner::{Choice, MAX_CANDIDATES, candidates, choose, record_owner};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::ops::create;
use crate::output::Notes;
use crate::runid::RunId;

/// A `WorktreeCreate` event: the name Claude Code proposed.
#[derive(Debug)]
pub struct WorktreeCreate<'a> {
    /// `-C`: the repository, over `cwd`.
    pub repo: Option<&'a Path>,
    /// The input's `cwd`.
    pub cwd: Option<&'a Path>,
    /// The input's `name` (or `worktree_name`).
    pub name: &'a str,
}

/// The run the hook made, or reused.
#[derive(Debug)]
pub struct Made {
    /// The id made of the name, the first one tried.
    pub base_id: RunId,
    /// The run made, or the hook's own reused.
    pub created: create::Created,
    /// Why each id tried before this one was passed over, in order.
    pub passed: Vec<String>,
    /// Why the ownership record of a run just made could not be written
    /// (`claude-hook remove` will leave that run alone).
    pub unrecorded: Option<Error>,
}

/// Create the run for the event's name (or reuse the hook's own run of
/// that name, see the parent module's doc). Refused when no valid id can
/// be made of the name, or when every candidate id is taken. The record
/// of ownership is written only when the run was made and its
/// `create.post-command` did not fail.
pub fn worktree_create(event: &WorktreeCreate<'_>, out: &mut Notes<'_>) -> Result<Made> {
    let proposed = event.name;
    let base_id = super::run_id_from_name(proposed).ok_or_else(|| Error::InvalidRunId {
        id: proposed.to_owned(),
        reason: "no valid run id can be made of this name".into(),
    })?;
    let ctx = super::open(event.repo, event.cwd)?;
    let pattern = super::pattern(&ctx)?;
    let mut passed = Vec::new();
    let made = make_run(&ctx, &base_id, proposed, &pattern, &mut passed, out)?;
    let Some((created, reused)) = made else {
        return Err(Error::NotReusable {
            id: base_id.to_string(),
            reason: format!(
                "no free run id for the name {:?} among {base_id} … {base_id}-{MAX_CANDIDATES}",
                proposed
            ),
        });
    };
    let unrecorded = match reused || created.error.is_some() {
        true => None,
        false => record_owner(&ctx, &created.entry, proposed).err(),
    };
    Ok(Made {
        base_id,
        created,
        passed,
        unrecorded,
    })
}

/// Create (or reuse) the first candidate id for `proposed` that is free or
/// the hook's own (see the parent module's doc): the run and whether it was
/// reused, or `None` when every candidate is taken; why each one passed over
/// was goes to `passed`.
fn make_run(
    ctx: &Ctx,
    base_id: &RunId,
    proposed: &str,
    pattern: &str,
    passed: &mut Vec<String>,
    out: &mut Notes<'_>,
) -> Result<Option<(create::Created, bool)>> {
    for run_id in candidates(base_id) {
        let manifest = ctx.read_manifest()?;
        let reuse = match choose(ctx, &manifest, &run_id, proposed, pattern)? {
            Choice::Reuse => true,
            Choice::Create => false,
            Choice::Taken(why) => {
                passed.push(why);
                continue;
            }
        };
        let request = create::CreateRequest {
            run_id,
            pattern: Some(pattern.to_owned()),
            base: None,
            reuse,
            fetch: false,
            sparse: Vec::new(),
            ports: None,
        };
        create::validate(&request)?;
        // Create's notes go to stderr; the hook's stdout is the path alone
        // (an operation never writes stdout).
        match create::create(ctx, &request, out) {
            // Another create took the id between the check and the create:
            // try the next one (nothing was changed by the refusal).
            Err(e @ (Error::ActiveExists { .. } | Error::BranchExists { .. })) if !reuse => {
                passed.push(e.to_string());
            }
            result => return Ok(Some((result?, reuse))),
        }
    }
    Ok(None)
}
