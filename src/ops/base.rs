//! The base of a new run: `--base`, else the configured base, else the
//! repository's default branch when the built-in default does not exist.
//! Resolved the same way for `create` and for the members `pool fill`
//! prepares (so a create finds members at its base).

use crate::config::{Origin, Sourced, keys};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::output::Out;

/// The base a new run starts from, and its commit.
///
/// `--base` wins, then the configured base. A base that was asked for (the
/// flag or a config layer) is never replaced: it resolves or the create is
/// refused, naming it (and, for a config layer, where to change it). The
/// built-in default `main` is only a guess, so in a repository without it
/// the repository's own default branch is used instead — the remote's HEAD
/// (`refs/remotes/origin/HEAD`), then `init.defaultBranch` when that branch
/// exists, then `master` — and a note on stderr says which.
pub fn resolve(
    ctx: &Ctx,
    flag: Option<&str>,
    configured: &Sourced<String>,
    out: &mut Out<'_>,
) -> Result<(String, gix::ObjectId)> {
    let (name, commit) = resolve_spec(ctx, flag, configured, out)?;
    Ok((recorded(ctx.repo.gix(), &name, commit), commit))
}

/// The base as the manifest records it: resolved once, now, to a name or
/// commit that cannot later name something else. A plain ref name (`main`,
/// `origin/main`, a tag, a full commit id) is kept as given; `HEAD` (or `@`)
/// on a branch becomes that branch's name; any other expression (`HEAD`
/// detached, `main~2`, `:/message`, `@{-1}`) becomes the commit it names
/// now. An expression re-resolved at cleanup could name the run's own tip
/// (the main checkout detached at `loop/<id>`, a message its own commit
/// matches) and "prove" it merged; see [`crate::safety::branch`].
fn recorded(repo: &gix::Repository, spec: &str, commit: gix::ObjectId) -> String {
    if crate::safety::branch::stable_base(repo, spec) {
        return spec.to_owned();
    }
    if matches!(spec.trim(), "HEAD" | "@")
        && let Ok(Some(head)) = repo.head_name()
        && let Some(branch) = head.as_bstr().strip_prefix(b"refs/heads/")
        && let Ok(branch) = std::str::from_utf8(branch)
        && repo
            .rev_parse_single(branch)
            .is_ok_and(|id| id.detach() == commit)
        && crate::safety::branch::stable_base(repo, branch)
    {
        return branch.to_owned();
    }
    commit.to_string()
}

fn resolve_spec(
    ctx: &Ctx,
    flag: Option<&str>,
    configured: &Sourced<String>,
    out: &mut Out<'_>,
) -> Result<(String, gix::ObjectId)> {
    if let Some(base) = flag {
        return match ctx.repo.resolve_commit(base) {
            Some(commit) => Ok((base.to_owned(), commit)),
            None => Err(Error::BaseNotFound {
                what: format!("--base {base:?}"),
                help: format!(
                    "`git branch --all` lists the branches; --base takes a branch, tag or commit (without it, the base is set by {})",
                    keys::BASE.git
                ),
            }),
        };
    }
    let base = &configured.value;
    if let Some(commit) = ctx.repo.resolve_commit(base) {
        return Ok((base.clone(), commit));
    }
    if configured.origin != Origin::Default {
        return Err(Error::BaseNotFound {
            what: format!(
                "base {base:?} (from {}; the default is set by {})",
                configured.origin,
                keys::BASE.git
            ),
            help: format!(
                "pass --base <BRANCH>, or fix the default ({})",
                configured.origin.fix(Some(keys::BASE.toml), None)
            ),
        });
    }
    match default_branch(ctx)? {
        Some((name, commit, why)) => {
            out.note(format_args!(
                "note: the default base {base:?} does not exist here; using {name:?} ({why}); set {} to choose another",
                keys::BASE.git
            ));
            Ok((name, commit))
        }
        None => Err(Error::BaseNotFound {
            what: format!("the built-in default base {base:?}"),
            help: format!(
                "no default branch was found either (origin/HEAD, init.defaultBranch, master): pass --base <BRANCH>, or set the default with `git config {} <BRANCH>`",
                keys::BASE.git
            ),
        }),
    }
}

/// The repository's default branch, its commit, and how it was found.
fn default_branch(ctx: &Ctx) -> Result<Option<(String, gix::ObjectId, &'static str)>> {
    let local = |name: &str| ctx.repo.resolve_commit(&format!("refs/heads/{name}"));
    let remote_head = ctx
        .repo
        .gix()
        .try_find_reference("refs/remotes/origin/HEAD")
        .ok()
        .flatten()
        .and_then(|r| {
            let target = r.target().try_name()?.as_bstr().to_string();
            target
                .strip_prefix("refs/remotes/origin/")
                .map(str::to_owned)
        });
    if let Some(name) = remote_head {
        if let Some(commit) = local(&name) {
            return Ok(Some((name, commit, "origin/HEAD points to it")));
        }
        let remote = format!("origin/{name}");
        if let Some(commit) = ctx.repo.resolve_commit(&format!("refs/remotes/{remote}")) {
            return Ok(Some((remote, commit, "origin/HEAD points to it")));
        }
    }
    let configured = ctx
        .repo
        .config()
        .string("init.defaultBranch")
        .map(|s| s.to_string())
        .filter(|s| !s.is_empty());
    if let Some(name) = configured
        && let Some(commit) = local(&name)
    {
        return Ok(Some((name, commit, "it is init.defaultBranch")));
    }
    Ok(local("master").map(|commit| ("master".to_owned(), commit, "the older default name")))
}
