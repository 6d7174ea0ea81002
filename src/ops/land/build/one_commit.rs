//! The landings that are one new commit on the target's tip: squash and
//! merge, and their messages.

use gix::bstr::{BStr, BString, ByteSlice};

use super::commit::{committer, write_commit};
use super::{Build, BuildRequest, Built, RunCommit, conflict, repo_err, tree_of};
use crate::error::Result;
use crate::git::merge::Merger;

pub(super) fn squash(
    merger: &Merger,
    req: &BuildRequest<'_>,
    commits: &[RunCommit],
) -> Result<Build> {
    let merged = merger.merge_commits(req.onto, req.run_tip)?;
    if !merged.is_clean() {
        return Ok(conflict(merged.conflicts));
    }
    if merged.tree == tree_of(merger, req.onto)? {
        return Ok(Build::Empty);
    }
    let message = match req.message {
        Some(m) => given_message(m)?,
        None => squash_message(merger, req.run_id, commits)?,
    };
    let committer = committer(merger)?;
    let tip = write_commit(
        merger,
        merged.tree,
        &[req.onto],
        committer.as_bstr(),
        committer.as_bstr(),
        None,
        message.as_bstr(),
    )?;
    Ok(Build::Built(Built { tip, commits: 1 }))
}

pub(super) fn merge(
    merger: &Merger,
    req: &BuildRequest<'_>,
    commits: &[RunCommit],
) -> Result<Build> {
    let message = format!("Merge branch 'loop/{}' into {}\n", req.run_id, req.into);
    merge_commit(merger, req, commits, [req.onto, req.run_tip], message)
}

/// A sync's merge: the target's tip (`req.onto`, the run's base) merged
/// into the run's branch, whose tip is the first parent.
pub(super) fn merge_into(
    merger: &Merger,
    req: &BuildRequest<'_>,
    commits: &[RunCommit],
) -> Result<Build> {
    let message = format!("Merge {} into loop/{}\n", req.into, req.run_id);
    merge_commit(merger, req, commits, [req.run_tip, req.onto], message)
}

/// One merge commit of `parents` (the first merged into), with the
/// request's message or else `default`: a landing's merge and a sync's
/// differ only in which tip is the first parent and in that message.
fn merge_commit(
    merger: &Merger,
    req: &BuildRequest<'_>,
    commits: &[RunCommit],
    parents: [gix::ObjectId; 2],
    default: String,
) -> Result<Build> {
    let merged = merger.merge_commits(parents[0], parents[1])?;
    if !merged.is_clean() {
        return Ok(conflict(merged.conflicts));
    }
    let message = match req.message {
        Some(m) => given_message(m)?,
        None => default.into(),
    };
    let committer = committer(merger)?;
    let tip = write_commit(
        merger,
        merged.tree,
        &parents,
        committer.as_bstr(),
        committer.as_bstr(),
        None,
        message.as_bstr(),
    )?;
    Ok(Build::Built(Built {
        tip,
        commits: commits.len() + 1,
    }))
}

/// `-m`: trailing whitespace trimmed and one newline, as `git commit -m`
/// stores it; an empty message is refused, as git refuses it.
fn given_message(message: &str) -> Result<BString> {
    let trimmed = message.trim_end();
    if trimmed.trim_start().is_empty() {
        return Err(repo_err(format!(
            "empty landing message {message:?}: pass a message with -m, or none for the default"
        )));
    }
    Ok(format!("{trimmed}\n").into())
}

/// The subject of a commit message: its first paragraph on one line, as
/// git's `%s`.
pub(super) fn subject(message: &BStr) -> String {
    message
        .lines()
        .map(|l| l.trim())
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .map(|l| l.to_str_lossy())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A squash's default message: the run's commits' subjects, oldest first
/// (merge commits left out), each its own paragraph, as `git rebase -i`'s
/// squash leaves the messages (without their bodies): one commit's subject
/// alone, and the first subject is the landed commit's. `Land <id>` only
/// when no commit has a subject.
fn squash_message(merger: &Merger, run_id: &str, commits: &[RunCommit]) -> Result<BString> {
    let mut subjects = Vec::new();
    for c in commits.iter().filter(|c| c.parents.len() == 1) {
        let commit = merger
            .repo()
            .find_commit(c.id)
            .map_err(|e| repo_err(format!("could not read commit {}: {e}", c.id)))?;
        let message = commit
            .message_raw()
            .map_err(|e| repo_err(format!("could not read the message of {}: {e}", c.id)))?;
        subjects.push(subject(message));
    }
    subjects.retain(|s| !s.is_empty());
    if subjects.is_empty() {
        return Ok(format!("Land {run_id}\n").into());
    }
    Ok(format!("{}\n", subjects.join("\n\n")).into())
}
