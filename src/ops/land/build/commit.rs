//! A new commit written into the merger's memory, and the committer
//! identity it is written with.

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};

use super::repo_err;
use crate::error::{Error, Result};
use crate::git::merge::Merger;

/// The repository's committer identity, now, as a header value
/// (`Name <email> 1700000000 +0100`).
pub(super) fn committer(merger: &Merger) -> Result<BString> {
    let sig = merger
        .repo()
        .committer()
        .ok_or_else(|| Error::Config {
            origin: "git config (user.name, user.email)".into(),
            message: "no committer identity to land with".into(),
            help: "set them, as git asks before a commit: git config --global user.name \"Your Name\" \
                   and git config --global user.email you@example.com (or GIT_COMMITTER_NAME and \
                   GIT_COMMITTER_EMAIL)"
                .into(),
        })?
        .map_err(|e| repo_err(format!("invalid committer identity: {e}")))?
        .trim();
    let mut line = Vec::with_capacity(sig.size());
    sig.write_to(&mut line).map_err(|e| {
        repo_err(format!(
            "invalid committer identity {:?} <{:?}>: {e}",
            sig.name, sig.email
        ))
    })?;
    Ok(line.into())
}

/// Write a commit into the merger's memory.
pub(super) fn write_commit(
    merger: &Merger,
    tree: ObjectId,
    parents: &[ObjectId],
    author: &BStr,
    committer: &BStr,
    encoding: Option<&BStr>,
    message: &BStr,
) -> Result<ObjectId> {
    let tree_hex = BString::from(tree.to_hex().to_string());
    let parents_hex: Vec<BString> = parents
        .iter()
        .map(|p| BString::from(p.to_hex().to_string()))
        .collect();
    let commit = gix::objs::CommitRef {
        tree: tree_hex.as_bstr(),
        parents: parents_hex.iter().map(|p| p.as_bstr()).collect(),
        author,
        committer,
        encoding,
        message,
        extra_headers: Vec::new(),
    };
    Ok(merger
        .repo()
        .write_object(commit)
        .map_err(|e| repo_err(format!("could not write the commit on {tree}: {e}")))?
        .detach())
}
