//! A fresh base: whether the local base is behind its upstream, and
//! `--fetch` (config `create.fetch`), which fetches that upstream first.
//!
//! A base's upstream is what `git status` compares a branch with:
//! - a local branch `main` with `branch.main.remote` and `branch.main.merge`
//!   set: the remote-tracking branch the remote's fetch refspec maps the
//!   merge ref to (`origin/main`); with `branch.main.remote = .`, the local
//!   branch it tracks (nothing to fetch);
//! - a remote-tracking branch (`--base origin/main`): itself. It is never
//!   behind, and `--fetch` refreshes it, so the run starts from what the
//!   remote has now;
//! - anything else — a tag, a commit, a branch without an upstream, an
//!   upstream never fetched (its remote-tracking branch does not exist): no
//!   upstream. That is not an error and gives no warning.
//!
//! Without `--fetch`, nothing touches the network or writes anything: the
//! count is read from the refs as last fetched, so it can be stale itself,
//! and the warning says "as last fetched". With it, `git fetch --quiet
//! --no-write-fetch-head --refmap= -- <remote> +<merge ref>:<upstream>`
//! runs first — its only write is the remote-tracking branch (the remote's
//! configured refspecs are ignored: one that also maps the branch onto a
//! local branch or a `refs/loop/` ref must not move it). An upstream that is
//! not under `refs/remotes/`, or is a symbolic ref, is never fetched. A local base is never moved (that is
//! the user's branch, maybe checked out): the warning names the upstream to
//! pass as `--base` instead. A fetch that fails (offline, no such remote) is
//! a warning, and the run is created from the refs as they are.
//!
//! `git loop sync --fetch` fetches each base's upstream the same way
//! ([`fetch_for_sync`]), in its own words.

use gix::bstr::ByteSlice;
use gix::remote::Direction;
use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::output::Notes;

/// The base's upstream, as `create --json` reports it (`"upstream"`; absent
/// when the base has none).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Upstream {
    /// Its short name (`origin/main`).
    pub name: String,
    /// Commits in the upstream that the base does not have.
    pub behind: usize,
    /// Whether this create fetched it first (and the fetch succeeded).
    pub fetched: bool,
    /// Why the fetch that was asked for failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fetch_error: Option<String>,
    /// The warning said on stderr, when the base is behind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// What is known about the base's upstream before anything is fetched.
struct Found {
    /// The base's own full ref (`refs/heads/main`).
    base_ref: gix::refs::FullName,
    /// The upstream's full ref, as it is named here (`refs/remotes/origin/main`).
    upstream_ref: gix::refs::FullName,
    /// What `git fetch` takes to refresh it: the remote and the ref there.
    fetch: Option<(String, String)>,
}

/// Fetch the upstream of `base` when `fetch` is set, then compare the base
/// with it, warning on stderr when it is behind. `base_commit` is updated
/// when the base is itself the upstream that was fetched.
pub fn check(
    ctx: &Ctx,
    base: &str,
    base_commit: &mut gix::ObjectId,
    fetch: bool,
    out: &mut Notes<'_>,
) -> Result<Option<Upstream>> {
    let repo = ctx.repo.gix();
    let Some(found) = upstream_of(repo, base) else {
        return Ok(None);
    };
    let short = |name: &gix::refs::FullName| name.as_ref().shorten().to_str_lossy().into_owned();
    let name = short(&found.upstream_ref);
    let (fetched, fetch_error) = match (fetch, &found.fetch) {
        (true, Some((remote, refspec))) => {
            let then = format!("the run starts from {base} as it is");
            fetch_upstream(ctx, &found, (remote, refspec), &name, &then, out)?
        }
        _ => (false, None),
    };
    let resolve = |r: &gix::refs::FullName| ctx.repo.resolve_commit(&r.as_bstr().to_str_lossy());
    // Never fetched: no upstream to compare with (not an error).
    let Some(upstream_commit) = resolve(&found.upstream_ref) else {
        return Ok(None);
    };
    if found.upstream_ref == found.base_ref {
        *base_commit = upstream_commit;
        return Ok(Some(Upstream {
            name,
            behind: 0,
            fetched,
            fetch_error,
            warning: None,
        }));
    }
    let behind = ctx.repo.ahead_behind(*base_commit, upstream_commit)?.1;
    let warning = (behind > 0).then(|| {
        format!(
            "base {base} is {behind} commit{} behind its upstream {name}{}",
            if behind == 1 { "" } else { "s" },
            if fetched { "" } else { " (as last fetched)" },
        )
    });
    if let Some(w) = &warning {
        out.note(format_args!(
            "warning: {w}; to start from it, pass --base {name}{}",
            if fetched || found.fetch.is_none() {
                ""
            } else {
                " --fetch"
            }
        ));
    }
    Ok(Some(Upstream {
        name,
        behind,
        fetched,
        fetch_error,
        warning,
    }))
}

/// `sync --fetch`: the upstream of `base` fetched as [`check`] fetches it
/// (a remote-tracking base refreshed; a local branch never moved: when it
/// is behind its upstream, a warning says sync brings it in as it is). A
/// failed fetch is a warning.
pub fn fetch_for_sync(ctx: &Ctx, base: &str, out: &mut Notes<'_>) -> Result<()> {
    let Some(found) = upstream_of(ctx.repo.gix(), base) else {
        return Ok(());
    };
    let name = found
        .upstream_ref
        .as_ref()
        .shorten()
        .to_str_lossy()
        .into_owned();
    if let Some((remote, refspec)) = &found.fetch {
        let then = format!("the runs sync with {base} as it is");
        fetch_upstream(ctx, &found, (remote, refspec), &name, &then, out)?;
    }
    let resolve = |r: &gix::refs::FullName| ctx.repo.resolve_commit(&r.as_bstr().to_str_lossy());
    if found.upstream_ref == found.base_ref {
        return Ok(());
    }
    if let (Some(local), Some(upstream)) = (resolve(&found.base_ref), resolve(&found.upstream_ref))
    {
        let behind = ctx.repo.ahead_behind(local, upstream)?.1;
        if behind > 0 {
            out.note(format_args!(
                "warning: base {base} is {behind} commit{} behind its upstream {name}: the runs \
                 sync with {base} as it is (sync never moves it)",
                if behind == 1 { "" } else { "s" }
            ));
        }
    }
    Ok(())
}

/// `git fetch` of the upstream `name` (`refspec` from `remote`, into its
/// remote-tracking branch). Whether it was fetched, or why not: a failed
/// fetch is a warning, ending with `then` (what happens instead).
fn fetch_upstream(
    ctx: &Ctx,
    found: &Found,
    (remote, refspec): (&str, &str),
    name: &str,
    then: &str,
    out: &mut Notes<'_>,
) -> Result<(bool, Option<String>)> {
    out.note(format_args!("fetching {refspec} from {remote}"));
    let dst = found.upstream_ref.as_bstr().to_str_lossy();
    match ctx.repo.git().fetch(remote, refspec, &dst)? {
        Ok(()) => Ok((true, None)),
        Err(failure) => {
            let reason = failure.reason();
            out.note(format_args!(
                "warning: could not fetch {name} ({reason}); {then}"
            ));
            Ok((false, Some(reason)))
        }
    }
}

/// The base's own ref and its upstream (see the module docs), `None` when
/// it has none. Symbolic refs (`HEAD`) are followed.
fn upstream_of(repo: &gix::Repository, base: &str) -> Option<Found> {
    if base.starts_with('-') {
        return None;
    }
    let name = crate::git::refs::dwim_name(repo, base)?;
    let leaf = crate::git::refs::chain(repo, &name).pop()?;
    let base_ref = gix::refs::FullName::try_from(leaf.as_str()).ok()?;
    match base_ref.category()? {
        gix::refs::Category::LocalBranch => {
            let short = base_ref.as_ref().shorten();
            let remote = repo.branch_remote_name(short, Direction::Fetch)?;
            let merge = repo
                .branch_remote_ref_name(base_ref.as_ref(), Direction::Fetch)?
                .ok()?;
            if remote.as_bstr() == "." {
                return Some(Found {
                    base_ref,
                    upstream_ref: merge,
                    fetch: None,
                });
            }
            let upstream_ref = repo
                .branch_remote_tracking_ref_name(base_ref.as_ref(), Direction::Fetch)?
                .ok()?;
            let fetch = remote
                .as_bstr()
                .to_str()
                .ok()
                .zip(merge.as_bstr().to_str().ok())
                .map(|(r, m)| (r.to_owned(), m.to_owned()))
                .filter(|_| writable_remote_tracking(repo, &upstream_ref));
            Some(Found {
                base_ref,
                upstream_ref,
                fetch,
            })
        }
        gix::refs::Category::RemoteBranch => {
            let (branch, remote) = repo
                .upstream_branch_and_remote_for_tracking_branch(base_ref.as_ref())
                .ok()??;
            let fetch = remote
                .name()
                .and_then(|n| n.as_bstr().to_str().ok())
                .zip(branch.as_bstr().to_str().ok())
                .map(|(r, b)| (r.to_owned(), b.to_owned()));
            Some(Found {
                upstream_ref: base_ref.clone(),
                base_ref,
                fetch,
            })
        }
        _ => None,
    }
}

/// Whether a fetch may write `name`: a remote-tracking branch that is not a
/// symbolic ref (git would write through it, to a local branch maybe).
fn writable_remote_tracking(repo: &gix::Repository, name: &gix::refs::FullName) -> bool {
    name.category() == Some(gix::refs::Category::RemoteBranch)
        && match crate::git::refs::find(repo, &name.as_bstr().to_string()) {
            Ok(Some(value)) => value.id().is_some(),
            Ok(None) => true,
            Err(_) => false,
        }
}
