//! The base: `--base`, else the configured base, else the repository's
//! default branch when the built-in default does not exist. One resolution
//! ([`configured`]) for every command that needs the configured base:
//! `create` and `pool fill` (so a create finds members at its base),
//! `branches`, `reconcile --adopt`, `config`. Runs keep the base they
//! recorded, so cleanup's merged judgement, `mark --detect-merged`,
//! `conflicts` and `list --long` read each run's own.

use crate::config::{Origin, Sourced, keys};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::output::Notes;

/// The base a new run starts from, and its commit.
///
/// `--base` wins, then the configured base. A base that was asked for (the
/// flag or a config layer) is never replaced: it resolves or the create is
/// refused, naming it (and, for a config layer, where to change it). The
/// built-in default `main` is only a guess, so in a repository without it
/// the branch the user evidently uses is taken instead ([`default_branch`]:
/// the remote's HEAD, `init.defaultBranch` when that branch exists, the
/// branch the main checkout is on, then `master`), and a note on stderr
/// says which and the `git config loop.base` that makes it the base — once
/// per repository and branch ([`first_said`]), not on every create.
pub fn resolve(
    ctx: &Ctx,
    flag: Option<&str>,
    configured: &Sourced<String>,
    out: &mut Notes<'_>,
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
        && let Ok(Some(head)) = crate::git::refs::head_name(repo)
        && let Some(branch) = head.strip_prefix("refs/heads/")
        && crate::git::refs::resolve_commit(repo, branch) == Some(commit)
        && crate::safety::branch::stable_base(repo, branch)
    {
        return branch.to_owned();
    }
    commit.to_string()
}

/// The base the settings give, as every command uses it: `create` and
/// `pool fill` (without `--base`), `branches` (a leftover branch is judged
/// against it), `reconcile --adopt` (an adopted run records it) and
/// `config` (which shows it, and why).
pub struct Configured {
    /// The base used: the setting, or the default branch found instead.
    pub name: String,
    /// Its commit; `None` when nothing resolves.
    pub commit: Option<gix::ObjectId>,
    /// Why `name` is not the setting's value (the built-in default does not
    /// exist here): `"main does not exist; origin/HEAD points to it"`.
    pub fallback: Option<String>,
    /// The fallback is only the branch the main checkout is on: a guess
    /// good enough to start a run from, never to prove a branch merged and
    /// delete it (`branches --delete-merged` refuses it).
    pub head_guess: bool,
}

/// The configured base, or — only for the built-in default, which is a
/// guess — the repository's default branch when it does not exist. A base a
/// config layer names is never replaced: when it does not resolve, `commit`
/// is `None` and the caller refuses or reports "unknown".
pub fn configured(ctx: &Ctx) -> Result<Configured> {
    let setting = &ctx.settings()?.base;
    let base = &setting.value;
    let mut found = Configured {
        name: base.clone(),
        commit: ctx.repo.resolve_commit(base),
        fallback: None,
        head_guess: false,
    };
    if found.commit.is_some() || setting.origin != Origin::Default {
        return Ok(found);
    }
    if let Some((name, commit, why)) = default_branch(ctx)? {
        found = Configured {
            name,
            commit: Some(commit),
            fallback: Some(format!("{base:?} does not exist; {why}")),
            head_guess: why == HEAD_IS_ON_IT,
        };
    }
    Ok(found)
}

fn resolve_spec(
    ctx: &Ctx,
    flag: Option<&str>,
    configured_base: &Sourced<String>,
    out: &mut Notes<'_>,
) -> Result<(String, gix::ObjectId)> {
    if let Some(base) = flag {
        return match ctx.repo.resolve_commit(base) {
            Some(commit) => Ok((base.to_owned(), commit)),
            None => Err(no_commits(ctx).unwrap_or_else(|| Error::BaseNotFound {
                what: format!("--base {base:?}"),
                help: format!(
                    "`git branch --all` lists the branches; --base takes a branch, tag or commit (without it, the base is set by {})",
                    keys::BASE.git
                ),
            })),
        };
    }
    let found = configured(ctx)?;
    if let Some(commit) = found.commit {
        // With -q nothing is said, so nothing is remembered as said.
        if let Some(why) = &found.fallback
            && !out.quiet
            && first_said(ctx, &found.name)
        {
            out.note(format_args!(
                "note: using the base {:?} ({why}), said once; to make it the base: git config {} {}",
                found.name,
                keys::BASE.git,
                sh_word(&found.name)
            ));
        }
        return Ok((found.name, commit));
    }
    if let Some(e) = no_commits(ctx) {
        return Err(e);
    }
    let base = &configured_base.value;
    if configured_base.origin != Origin::Default {
        return Err(Error::BaseNotFound {
            what: format!(
                "base {base:?} (from {}; the default is set by {})",
                configured_base.origin,
                keys::BASE.git
            ),
            help: format!(
                "pass --base <BRANCH>, or fix the default ({})",
                configured_base.origin.fix(Some(keys::BASE.toml), None)
            ),
        });
    }
    Err(Error::BaseNotFound {
        what: format!("the built-in default base {base:?}"),
        help: format!(
            "no default branch was found either (origin/HEAD, init.defaultBranch, the branch HEAD is on, master): pass --base <BRANCH>, or set the default with `git config {} <BRANCH>`",
            keys::BASE.git
        ),
    })
}

/// Where the base last noted is remembered, in the git common dir.
const NOTED_FILE: [&str; 2] = ["git-loop", "base-noted"];

/// Whether the note on the default branch `name` is said now: the first
/// time it is used in this repository, or when it is another branch than
/// the one last noted. Remembered in `<git common dir>/git-loop/base-noted`
/// (read and written only as a regular file, never through a symlink; a
/// failure to remember only says it again next time).
fn first_said(ctx: &Ctx, name: &str) -> bool {
    use std::io::Write;
    let file = NOTED_FILE
        .iter()
        .fold(ctx.repo.common_dir().to_path_buf(), |p, c| p.join(c));
    let said = crate::fsx::read_regular(&file, 4096).ok().flatten();
    if said.is_some_and(|said| said == format!("{name}\n").as_bytes()) {
        return false;
    }
    if let Some(dir) = file.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    if let Ok(Some(mut out)) = crate::fsx::open_regular(&file, &mut options) {
        let _ = out.write_all(format!("{name}\n").as_bytes());
    }
    true
}

/// `name` as one word for sh: as it is when it holds only characters sh
/// reads as themselves, else single-quoted.
fn sh_word(name: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./+@%,:".contains(c);
    if !name.is_empty() && name.chars().all(plain) {
        return name.to_owned();
    }
    format!("'{}'", name.replace('\'', r"'\''"))
}

/// The refusal of a repository with no commit at all (HEAD unborn, no
/// branch): no base can exist until the first commit.
fn no_commits(ctx: &Ctx) -> Option<Error> {
    let repo = ctx.repo.gix();
    let unborn = crate::git::refs::head(repo).is_ok_and(|head| match head {
        crate::git::refs::Value::Symbolic(name) => {
            !crate::git::refs::exists(repo, &name).unwrap_or(true)
        }
        crate::git::refs::Value::Object(_) => false,
    });
    let any_branch =
        crate::git::refs::prefixed(repo, "refs/heads/").map_or(true, |b| !b.is_empty());
    (unborn && !any_branch).then_some(Error::NoCommits)
}

/// Why the branch the main checkout is on was taken: a guess.
const HEAD_IS_ON_IT: &str = "HEAD is on it";
/// The same fallback in the bare-repository layout, where it is no guess.
const BARE_HEAD_NAMES_IT: &str = "the bare repository's HEAD names it";
/// Why `master` was taken.
const OLDER_DEFAULT: &str = "the older default name";

/// The branch the user evidently uses, its commit, and how it was found,
/// in this order (docs/cli.md, create): the branch origin's HEAD points to
/// (a clone's: what the remote calls its default), `init.defaultBranch`
/// when that branch exists (what the user calls theirs), the branch the
/// main checkout is on (what they work on; in the bare layout the branch
/// the bare `HEAD` names), then `master`. The main checkout's branch comes
/// before `master`: a repository on `trunk` with a stray `master` starts
/// runs from `trunk`. Only the first two are what the user or the remote
/// named; the checkout's branch is a guess ([`Configured::head_guess`]),
/// never proof that a branch merged into it may go.
fn default_branch(ctx: &Ctx) -> Result<Option<(String, gix::ObjectId, &'static str)>> {
    let local = |name: &str| ctx.repo.resolve_commit(&format!("refs/heads/{name}"));
    let remote_head = match crate::git::refs::find(ctx.repo.gix(), "refs/remotes/origin/HEAD") {
        Ok(Some(crate::git::refs::Value::Symbolic(target))) => target
            .strip_prefix("refs/remotes/origin/")
            .map(str::to_owned),
        _ => None,
    };
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
    // The branch the main worktree has checked out (a repository whose only
    // branch is `trunk`), or the bare repository's HEAD names, unless it is
    // a run's own branch.
    let head = (crate::git::refs::head_name(ctx.repo.gix()).ok().flatten())
        .and_then(|name| name.strip_prefix("refs/heads/").map(str::to_owned));
    if let Some(name) = head
        && !name.starts_with(&format!("{}/", crate::runid::BRANCH_PREFIX))
        && let Some(commit) = local(&name)
    {
        // A bare repository's HEAD checks nothing out: it names the
        // default branch (a bare clone's is the remote's), as origin/HEAD
        // would, and no user switches it by working: not a guess. Nor is
        // `master` checked out: the checkout and the old default agree.
        let why = match (ctx.repo.is_bare_layout(), name == "master") {
            (true, _) => BARE_HEAD_NAMES_IT,
            (false, true) => OLDER_DEFAULT,
            (false, false) => HEAD_IS_ON_IT,
        };
        return Ok(Some((name, commit, why)));
    }
    if let Some(commit) = local("master") {
        return Ok(Some(("master".to_owned(), commit, OLDER_DEFAULT)));
    }
    Ok(None)
}
