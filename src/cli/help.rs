//! The long help of each command (`--help`, and the DESCRIPTION of its man
//! page): what it does, the statuses and the settings that affect it. The
//! one-line `about` stays the doc comment in `cli.rs`; these follow it, set as
//! written (an indented block stays a block in the man page).

pub const GIT_LOOP: &str = r#"Each run gets `.loop-worktrees/<id>/` on branch `loop/<id>`, recorded in
`.loop-worktrees/manifest.json`. Mark what each run became; cleanup removes
finished worktrees without ever forcing, and keeps every branch.

Every run has one of five statuses:
  active     being worked on (what create records); never removed, by cleanup or remove
  rejected   the attempt failed or was dropped; removed by default
  escalated  for a person or land --queue; kept by default (queued); only with --status escalated
  merged     its work landed (--detect-merged proves it); only with --status merged
  stale      abandoned (claude-hook remove marks its runs so); only with --status stale

Nothing is destroyed that is not safe to destroy: a worktree with uncommitted, untracked
or unreachable work is skipped with a code, never forced; a branch is deleted only on
request and only when its work is provably in its base, and its tip is kept in the trash
(git loop trash) first; --salvage saves a dirty run to refs/loop/salvage/<id> first.

Settings are read from ~/.config/git-loop/config.toml, <repo>/.git-loop.toml, git config
(loop.*) and the environment (GIT_LOOP_*); git loop config shows them. Each command is
documented in git-loop-<command>(1); git loop schema gives every --json document's schema."#;
pub const GIT_LOOP_EXAMPLES: &str = r#"Examples:
  dir=$(git loop create fix-login) && cd "$dir"   # a worktree on loop/fix-login
  # ... work, commit ...
  cd - && git loop land fix-login                 # its commits onto main; cleaned up
  git loop mark try-idea rejected && git loop cleanup
  git loop --json list"#;

pub const CREATE: &str = r#"Adds the worktree .loop-worktrees/<RUN_ID> on a new branch loop/<RUN_ID> from the base
(--base, else the setting base, else main or, without main, the default branch),
records the run as active in .loop-worktrees/manifest.json, and prints the worktree's
absolute path alone on stdout.
Then copies the untracked files create.copy and .worktreeinclude select (as reflinks
where the filesystem can) and runs create.post-command in the new worktree.

An active run of that id, or an existing loop/<RUN_ID> branch, is refused: a branch is
never reset or deleted. With --reuse, an intact active run is handed back unchanged
("method": "reused"), and a loop/<RUN_ID> left with no worktree is checked out as it is
("adopted"). When the warm pool (git loop pool) has a ready member, it is taken instead
of a fresh checkout ("pooled"). A base behind its upstream is warned about; --fetch
fetches the upstream first.

With --attempts N (best of N, 1 to 64), the runs <RUN_ID>.1 ... <RUN_ID>.<N> are made at once,
from one base commit, and their N paths printed, one a line (--json: an array). All or none:
the post-command runs in each before they are recorded; a failure or an interrupt rolls back
all. A task with active attempts is refused; a later round is numbered after an earlier one's.


--ports N (or create.ports) leases N free TCP ports to the run, each bindable on 127.0.0.1
when leased and leased to no other live run, given to it as GIT_LOOP_PORT and
GIT_LOOP_PORT_1... (git loop env, run, create.post-command); bind them soon. They are
released when the run's worktree is removed.

The pattern (--pattern, else create.pattern, else manual) labels the work in list.
Settings: base, create.pattern, create.copy, create.post-command, create.ignore-file,
create.fetch, create.ports."#;
pub const CREATE_EXAMPLES: &str = r#"Examples:
  dir=$(git loop create fix-login) && cd "$dir"
  git loop create fix-login --pattern bugfix --base release"#;

pub const MARK: &str = r#"The five statuses, and what cleanup does with each (it removes the worktree, never a
branch):
  active     being worked on (what create records); never removed, by cleanup or remove
  rejected   the attempt failed or was dropped; removed by default
  escalated  for a person or land --queue; kept by default (queued); only with --status escalated
  merged     its work landed (--detect-merged proves it); only with --status merged
  stale      abandoned (claude-hook remove marks its runs so); only with --status stale

mark prints `<id>: <old> -> <new>` on stderr. It takes the run's lock, so a mark and a
removal of the same run never cross: a cleanup that selected the run skips it once it is
marked again. Several runs can be named (the status comes last): all are marked, or,
when one is unknown, none. With no run id, inside a run's worktree (at any depth), that
run is marked; anywhere else (the main checkout, a pool member) it is a usage error that
names the directory.

--detect-merged marks merged every run whose work is in its base: its tip is an ancestor
of the base, or merging it would change nothing (squash; rebase when the patch ids agree
too). Runs with no commits of their own are left alone; runs whose patch ids alone match
are listed as probable, never marked."#;
pub const MARK_EXAMPLES: &str = r#"Examples:
  git loop mark fix-login merged
  git loop mark try-a try-b rejected
  git loop mark rejected               # inside .loop-worktrees/<RUN_ID>/: that run
  git loop mark --detect-merged --dry-run"#;

pub const CLEANUP: &str = r#"Selects the runs whose status is in the set (--status, else the setting cleanup.status,
else rejected,escalated; active is never selected) and removes each worktree with a
plain `git worktree remove`, never --force. A worktree with anything to lose is skipped
with a code: dirty, untracked, locked, submodules, unreachable-commits,
operation-in-progress, nested-repo, in-use, undeletable, hook-refused, ... Its entry and
files stay. Exit 0 even when runs were skipped. A note on stderr names the statuses
selected; when nothing matched, another counts the runs in each other status and gives
the --status that would take them.

Branches are kept. --delete-merged-branches deletes a removed run's branch only when its
work is in its base, by a compare-and-swap at the tip proven merged, after keeping that
tip in the trash (git loop trash restore brings it back). --salvage saves a dirty run to
refs/loop/salvage/<id> first (git loop restore brings it back). --recycle puts a
removable worktree back into the warm pool instead. --reap terminates the processes left
working in a worktree that only they keep (SIGTERM, 2 s, then SIGKILL; never one attached
to a terminal, which keeps it in-use), each logged as a reap event.

Settings: cleanup.status, cleanup.older-than, cleanup.delete-merged-branches,
cleanup.salvage, cleanup.recycle, cleanup.pre-command (a hook that may veto each
removal), pool.size, pool.keep, trash.keep (older trash entries are dropped afterwards)."#;
pub const CLEANUP_EXAMPLES: &str = r#"Examples:
  git loop cleanup --dry-run
  git loop cleanup --status rejected,stale --older-than 24h"#;

pub const REMOVE: &str = r#"The runs' worktrees are removed as cleanup removes them: never forced, skipped with a code
when anything in them would be lost, cleanup.pre-command may veto, branches kept, entries
dropped. An active id (run-active) or an unknown one (unknown-id) refuses the whole
command before anything changes. --salvage saves a dirty run first; --reap terminates the
processes left in it first, as cleanup's. Exit 1 when none of
the named runs was removed (each skipped, its reason listed), as `git worktree remove`."#;
pub const REMOVE_EXAMPLES: &str = r#"Example:
  git loop remove try-a try-b --dry-run"#;

pub const RESTORE: &str = r#"The worktree comes back at .loop-worktrees/<RUN_ID> on loop/<RUN_ID> (recreated at the
salvage's first parent if the branch is gone), with its changes as they were: staged
stays staged, untracked stays untracked. The run is recorded as active again; the salvage
refs/loop/salvage/<RUN_ID> is kept until --drop moves it to the trash (or the next salvage
does). A run salvaged detached comes back detached. `git loop list --salvaged` lists them."#;
pub const RESTORE_EXAMPLES: &str = r#"Examples:
  git loop list --salvaged && git loop restore try-a && git loop restore --drop try-a"#;

pub const RECONCILE: &str = r#"An orphan is a worktree registered with git under .loop-worktrees/ that the manifest does
not know (a crashed create, a hand-made worktree). It is reported; removed only when named
with --remove-orphan (never forced), or recorded as an active run with --adopt, and only
when older than --min-age (a create may still be recording it). Entries whose directory is
gone are dropped, with their stale git registration. Nothing outside .loop-worktrees/ is
touched.

Settings: base (the base of a run --adopt records)."#;
pub const RECONCILE_EXAMPLES: &str = r#"Example:
  git loop reconcile --remove-orphan old-run"#;

pub const LIST: &str = r#"One line per run: id, status (active, rejected, escalated, merged, stale), pattern, age,
branch, and whether its worktree is present. --long adds what a removal would have to keep
(dirty, untracked, an operation in progress, unreachable commits, nested repositories,
in-use), commits ahead of and behind its base, and whether its work is merged (ancestor,
squash, rebase; rebase? when only the patch ids agree; empty). --salvaged lists the
salvaged runs instead. --disk adds each worktree's
size on disk (as du -s, symlinks never followed) and how much is its own (not shared by
reflink, read with FIEMAP), with the totals on a last line. --task <TASK> lists only the attempts <TASK>.1, <TASK>.2, ... in number
order, with their judge results (rank, passed, conflicts, agreement, lines, seconds; - when
not judged). Read-only: no lock is taken. Coloured as git colours: color.loop, else
color.ui (never, auto, always), then NO_COLOR / CLICOLOR_FORCE, then a terminal."#;
pub const LIST_EXAMPLES: &str = r#"Example:
  git loop list --status active --long"#;

pub const PUBLISH: &str = r#"Pushes, to the fleet's remote (fleet.remote: default the base branch's upstream remote, else
origin), each run's branch loop/<ID> and its record refs/loop/fleet/<NAME>/<ID> (NAME is
fleet.name, default the host name): a commit whose tree holds record.json (the run's entry,
its latest activity and judge result, its tip, the time) and whose parent is the run's tip.
One atomic push, every ref by the remote's compare-and-swap against what ls-remote just showed
(--force-with-lease=<ref>:<expected>), never forced: a branch on the remote that this machine
did not publish and the run's tip does not contain is kept (branch-diverged). Runs no longer
recorded, or whose worktree is gone, are unpublished (their record deleted by the same
compare-and-swap; their branch stays). This machine's task leases (claim) are renewed. Nothing
local changes; an unreachable remote fails (remote-failed) and a later publish catches up."#;
pub const PUBLISH_EXAMPLES: &str = r#"Examples:
  git loop publish
  git config loop.fleetName laptop && git loop publish fix-login"#;

pub const CLAIM: &str = r#"Creates refs/loop/claims/<TASK> on the fleet's remote by compare-and-swap
(--force-with-lease=<ref>: the ref must not exist): of every machine claiming the same task at
once, exactly one gets it; the others are refused (claimed, exit 1) naming the holder and the
lease's age, as is a claim of a lease this machine holds. A lease not renewed (publish renews
this machine's) for fleet.lease (default 2h) may be taken over, by compare-and-swap against it.
--release deletes this machine's lease the same way."#;
pub const CLAIM_EXAMPLES: &str = r#"Examples:
  git loop claim fix-login && git loop create fix-login
  git loop claim fix-login --release"#;

pub const HANDOFF: &str = r#"Snapshots the run's worktree as a salvage does, without touching it: a commit whose tree is
the worktree (staged, unstaged and untracked files, and ignored ones create.copy selects) on the run's
tip, with a commit of the index as its second parent, checked against the files before
anything is written. The snapshot is kept in this machine's trash (handed-off), the run marked
handed off (refs/loop/handoff/<RUN_ID>, a handoff event) and published: its record names the
snapshot, which travels with it. On another machine, git loop create <RUN_ID> --from <MACHINE>
recreates the run exactly. This machine's run becomes stale at its next publish."#;
pub const HANDOFF_EXAMPLES: &str = r#"Examples:
  git loop handoff fix-login            # on the laptop
  git loop create fix-login --from laptop   # on the other machine"#;

pub const PATH: &str = r#"The path alone on stdout, for `dir=$(git loop path <RUN_ID>) && cd "$dir"` (which stays
put when it fails); a run whose worktree is gone is an error (worktree-missing). With no
run id, inside a run's worktree (at any depth), that run's path (its top); anywhere else
(the main checkout, a pool member) it is a usage error that names the directory."#;
pub const PATH_EXAMPLES: &str = r#"Examples:
  dir=$(git loop path fix-login) && cd "$dir"
  dir=$(git loop path) && cd "$dir"    # inside a run's worktree: back to its top"#;

pub const ACTIVITY: &str = r#"Appends an activity event to the event log (the manifest is not changed); `list` shows
each run's latest activity and its age. Inside a run's worktree (at any depth) the id may be
left out. When the activity becomes waiting or done (the run's previous activity was
another, or none), the setting notify.command runs, with GIT_LOOP_ID, GIT_LOOP_ACTIVITY,
GIT_LOOP_NOTE, GIT_LOOP_PATH, GIT_LOOP_BRANCH and GIT_LOOP_ROOT; a failing or untrusted
one is a warning on stderr, never a failure. --json prints the event recorded."#;
pub const ACTIVITY_EXAMPLES: &str = r#"Examples:
  git loop activity fix-login waiting --note "which database?"
  git loop activity done                  # inside .loop-worktrees/fix-login/"#;

pub const ENV: &str = r#"One line per variable, GIT_LOOP_ID, GIT_LOOP_ROOT, GIT_LOOP_PATH and GIT_LOOP_BRANCH,
each `export NAME='value'` quoted for sh, bash and zsh whatever the path holds: the very set
`run`, create.post-command and cleanup.pre-command get. Inside a run's worktree the id may be
left out. --json prints them as one object."#;
pub const ENV_EXAMPLES: &str = r#"Examples:
  eval "$(git loop env fix-login)"
  echo 'eval "$(git loop env)"' > .loop-worktrees/fix-login/.envrc   # direnv"#;

pub const RUN: &str = r#"The command runs in the worktree, with GIT_LOOP_ID, GIT_LOOP_ROOT (the repository root),
GIT_LOOP_PATH and GIT_LOOP_BRANCH in its environment; its exit code is git-loop's (128 + N when
it dies of signal N). Every word from the command's first on is the command's (-j4 in
`run fix make -j4`); a command whose name starts with - goes after --, always accepted."#;
pub const RUN_EXAMPLES: &str = "Example:\n  git loop run fix-login cargo test";

pub const BRANCHES: &str = r#"A leftover branch has no manifest entry, so it is compared with the configured base
(the setting base, default main or, without main, the default branch; git loop config
shows which). --delete-merged deletes a branch only when its work is
in the base (its tip an ancestor, or merging it would change nothing), or it has no
commits of its own, and only at the tip it checked; each tip is kept in the trash first.
A branch checked out in any worktree is never deleted.

Settings: base, trash.keep."#;
pub const BRANCHES_EXAMPLES: &str = r#"Examples:
  git loop branches
  git loop branches --delete-merged --dry-run"#;

pub const CONFLICTS: &str = r#"Every merge is computed in memory: no worktree, index or ref changes. A pair conflicts
when, with the first run landed in the base, the second does not merge cleanly into the
result (in files neither conflicts in by itself). Runs with different recorded bases are
not paired. A landing order puts the runs that land cleanly first. Exit 0 whatever the
conflicts."#;
pub const CONFLICTS_EXAMPLES: &str = r#"Examples:
  git loop conflicts
  git loop conflicts --json --base main"#;

pub const WATCH: &str = r#"The view is drawn on stderr's terminal, so stdout stays free for `o`: the selected run's
path is printed there on exit, for dir=$(git loop watch) && cd "$dir". It is redrawn when the manifest or
the event log changes (inotify on .loop-worktrees/), every 10 s (each worktree's dirty, ahead
and behind read again then), and at no other time: idle, it uses no CPU. Keys: up/down or
j/k select; m marks the selected run (then a active, m merged, r rejected, e escalated, s stale;
logged as git loop mark logs it); s syncs it with its base as git loop sync <id> does, saying
sync's line for it; o exits printing its path (a hint says why when stdout is a
terminal); d its diffstat against its base; ? the keys; q, Esc or Ctrl-C quits. With no run, it
says how to start one. A run whose activity becomes waiting or done rings the bell (watch.bell
= false: none). Colour as list's. No terminal (on stdin and stderr): exit 2; --once prints a frame.
--fleet shows every machine's published runs instead (list --fleet's table), read from the
fleet's remote every 10 s and on r; read-only; with --once, list --fleet itself."#;
pub const WATCH_EXAMPLES: &str = r#"Examples:
  git loop watch
  dir=$(git loop watch) && cd "$dir"
  git loop watch --once | grep waiting
  git loop watch --fleet"#;

pub const LAND: &str = r#"What lands is each run's committed work (loop/<id>), never its worktree: a run with
uncommitted or untracked changes, an operation in progress or no commits of its own is
skipped (dirty, operation-in-progress, empty). The landed commits are built in memory onto
the target's tip (rebase: the run's commits replayed, authors and messages kept; squash: one
commit; merge: a merge commit; ff: only when the target is an ancestor); a conflict skips the
run with its paths (conflict). A rebase replays only non-merge commits: a run whose merge
commits bring content of their own is skipped (has-merges; --strategy merge or squash lands
it). A gate runs in a scratch checkout of the result (gate-failed).
The target moves by compare-and-swap from the tip it was built on (target-moved), and the
worktree that has it checked out is updated only where it is clean (target-dirty), and never
over a file it ignores (an untracked .env, a build/ directory: target-ignored): never a
stash, a reset or a forced checkout. Then the run is marked merged, its worktree removed
with remove's rules (--keep leaves it) and its branch deleted at the landed tip only when
proven merged, its tip kept in the trash. --queue lands the runs of --status in conflicts'
landing order, each on the target as the landings before it left it. A skip stops the rest
(not attempted) unless --keep-going; exit 1 when any run did not land.

Settings: land.strategy, land.into, land.queue-status."#;
pub const LAND_EXAMPLES: &str = r#"Examples:
  git loop land fix-login
  git loop land --queue --dry-run
  git loop land a b --strategy squash -m "Fix the login" --gate "cargo test""#;

pub const SYNC: &str = r#"Each run's branch (loop/<id>) gets its recorded base's current tip: its own commits replayed
onto it (rebase, the default: authors and messages kept; a run with merge commits is
skipped, has-merges: --strategy merge syncs it) or a merge commit of the base into it
(merge). Built in memory; a conflict skips the run with its paths (conflict) and leaves it
as it was: never a rebase in progress, never a conflict marker. The old tip goes into the
trash (git loop trash restore gives it back), then the branch moves by compare-and-swap
(branch-moved when it moved meanwhile: nothing lost) and the run's worktree is updated
around its uncommitted changes, as git merge --ff-only would; a change in a path the sync
changes skips the run (dirty), untracked files in the way too (untracked). Other skips:
up-to-date (nothing to bring in), no-base, no-branch, operation-in-progress,
worktree-missing, gate-failed, locked. The runs: those named, else inside a run's worktree
that run, else every run in --status (default active), synced in parallel. A skip other
than up-to-date stops the runs not yet started (not-attempted) unless --keep-going; exit 1
when a run was skipped (up-to-date aside).

Settings: sync.strategy, sync.gate."#;
pub const SYNC_EXAMPLES: &str = r#"Examples:
  git loop sync --dry-run
  git loop sync --keep-going
  git loop sync fix-login --strategy merge --gate "cargo test""#;

pub const PICK: &str = r#"ID is an active attempt <TASK>.<n> (create <TASK> --attempts <N> makes them); anything
else is refused before anything changes (not-pickable, unknown-id). The winner is marked
escalated, or with --land landed with land's rules and options (marked merged): a landing
that does not happen ends the pick, nothing else changes, and it exits with land's code.
Then its siblings, the other active attempts of the task, are marked rejected; with
--salvage their worktrees are removed with remove --salvage's rules (never forced, a dirty
one saved to refs/loop/salvage/<id> first; branches kept). The winner's latest judge result
is read from the event log: a winner that failed its gate is picked all the same, and the
report says so ("gatePassed": false), or that it was not judged."#;
pub const PICK_EXAMPLES: &str = r#"Examples:
  git loop pick fix.2
  git loop pick fix.2 --land --strategy squash --salvage
  git loop pick fix.2 --land --dry-run"#;
pub const JUDGE: &str = r#"The gate (--gate, else judge.gate, trusted as the hooks are) runs in each active attempt's
own worktree as the attempt left it (one with uncommitted changes is judged as it stands and
flagged dirty; its committed tip is what would land), --jobs at a time, each killed with all
it started after --timeout (timedOut). Its output goes to the git common dir
(git-loop/judge/<TASK>/<ID>.log), never into the worktree; a gate that changes the worktree
anyway is reported (wroteToWorktree). Then the attempts are ranked: passed first; no
conflict with the base (merged in memory) first; higher agreement (the share of its hunks
that another passing attempt also made); fewer lines changed; a faster gate; the attempt's
number. The leader is rank 1. A judge event is logged per attempt. Exit 0 when at least one
gate passed, 1 when none did.

Settings: judge.gate."#;
pub const JUDGE_EXAMPLES: &str = r#"Examples:
  git loop judge fix-login --gate "python3 -m unittest -q"
  git loop judge fix-login --jobs 4 --timeout 5m --json"#;

/// `log`'s long help: the kinds listed from the one list of them.
pub fn log() -> String {
    format!(
        ".loop-worktrees/events.jsonl, one JSON object a line, appended as each change happens and
never rewritten. Kinds: {}. A malformed line is reported and skipped.",
        crate::events::EventKind::names()
    )
}
pub const LOG_EXAMPLES: &str = r#"Example:
  git loop log fix-login"#;

pub const TRASH: &str = r#"Before git-loop deletes a branch (--delete-merged-branches, branches --delete-merged),
replaces a salvage, or removes a worktree holding its own refs (refs/worktree/*,
refs/bisect/*), it keeps each tip as one ref refs/loop/trash/<when>/<why>/<what>. restore
never writes over an existing branch (--as names another). Entries older than trash.keep
(default 30d) are dropped by later cleanups.

Settings: trash.keep."#;
pub const TRASH_EXAMPLES: &str = r#"Examples:
  git loop trash
  git loop trash restore loop/fix-login
  git loop trash empty --older-than 7d --dry-run"#;

pub const TRUST: &str = r#"A repository's own .git-loop.toml comes with the code you cloned, so the hooks it sets
(create.post-command, cleanup.pre-command, land.gate) run only once you have read it and trusted its
content. Trust is recorded for the file's exact content (its git blob id) in
.git/git-loop/trusted, with the content of every file of the work tree its hooks name
(`sh ./setup.sh` names setup.sh); after any change to the file or to one of those, trust it
again. Not covered: what those files run or read in turn, and what a hook reaches without
naming it (a variable, an absolute path, make's Makefile, programs on PATH). Until then a
value of the file that weakens a guard (cleanup.status, trash.keep, create.copy, and the
other settings that decide what may be removed) is ignored, with a note. Hooks and values from git
config, your own config file or the environment need no trust."#;
pub const TRUST_EXAMPLES: &str = r#"Example:
  cat .git-loop.toml && git loop trust"#;

pub const MCP: &str = r#"JSON-RPC 2.0, one message a line. Tools: create, mark, list, path, log, cleanup, remove,
reconcile, branches, conflicts, restore, land, pick, sync, judge, activity, env; each result is the document
the command prints with --json (create's attempts as {"runs": [...]}). A tool that removes anything, or
moves runs' branches (sync), is a dry run unless its input sets "dry_run": false. Ends at EOF."#;
pub const MCP_EXAMPLES: &str = r#"Example (an MCP client's configuration):
  {"mcpServers": {"git-loop": {"command": "git-loop", "args": ["mcp"]}}}"#;

pub const CLAUDE_HOOK: &str = r#"create makes (or reuses) a run of the pattern claude.pattern for the worktree Claude Code
asks for and prints only its path; remove marks that run stale and removes its worktree
with remove's rules. Neither ever takes a run, branch or directory the hook did not make
for that name. activity records what the run Claude Code works in is doing.

Settings: claude.pattern (default claude-code), and create's and cleanup.pre-command."#;
pub const CLAUDE_HOOK_EXAMPLES: &str = r#"Example (.claude/settings.json):
  {"hooks": {"WorktreeCreate": [{"hooks": [{"type": "command", "command": "git loop claude-hook create"}]}],
             "WorktreeRemove": [{"hooks": [{"type": "command", "command": "git loop claude-hook remove"}]}],
             "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "git loop claude-hook activity"}]}],
             "Notification": [{"hooks": [{"type": "command", "command": "git loop claude-hook activity"}]}],
             "Stop": [{"hooks": [{"type": "command", "command": "git loop claude-hook activity"}]}]}}"#;

pub const SCHEMA: &str = r#"NAME is a command (its --json document; remove's is cleanup's), error (the document of any
failure), mcp-tools (the input schema of each MCP tool), or all (the default: every one in
one document). Draft 2020-12; the project checks the same documents in with its source."#;
pub const SCHEMA_EXAMPLES: &str = r#"Example:
  git loop schema cleanup"#;

pub const POOL: &str = r#"fill prepares worktrees under .loop-worktrees/.pool/, detached at the base, until the pool
holds N (default: the setting pool.size); create then takes one (a move and a switch of the
files that differ) instead of checking out from scratch, keeping its ignored files (a warm
target/ or node_modules/). cleanup --recycle puts removable worktrees back, keeping only
the ignored files pool.keep names. drain removes the members with cleanup's rules (never
forced).

Settings: pool.size, pool.keep, base."#;
pub const POOL_EXAMPLES: &str = r#"Examples:
  git loop pool fill 4
  git loop pool status
  git loop pool drain"#;

pub const CONFIG: &str = r#"Settings come, lowest to highest, from: built-in defaults, ~/.config/git-loop/config.toml,
<repo>/.git-loop.toml, git config (loop.base, loop.cleanupStatus, ...), the environment
(GIT_LOOP_BASE, GIT_LOOP_CLEANUP_STATUS, ...), and flags. An invalid value in any layer is
an error naming the layer.

The settings: base, cleanup.status, cleanup.older-than, cleanup.delete-merged-branches,
cleanup.salvage, cleanup.pre-command, create.copy, create.post-command,
create.ignore-file, create.fetch, create.pattern, claude.pattern, cleanup.recycle,
pool.size, trash.keep, pool.keep, land.gate, land.strategy, land.into, land.queue-status,
land.push-retries, land.require-clean, sync.strategy, sync.gate, judge.gate, notify.command,
create.ports, watch.bell, fleet.name, fleet.remote, fleet.lease, fleet.publish."#;
pub const CONFIG_EXAMPLES: &str = r#"Example:
  git config loop.base develop && git loop config"#;

pub const CLAUDE_HOOK_CREATE: &str = r#"The run id is the proposed name (`name`, or `worktree_name`) with every character other
than letters, digits, `-`, `_` and `.` replaced by `-`, runs of `-` and of `.` collapsed,
`-` and `.` trimmed from both ends, and cut to 100 bytes; a name that is then empty or
still not a valid id is refused (invalid-run-id). The repository is `cwd` from the input
(-C overrides it). The pattern is the setting claude.pattern (default claude-code). The
hook's own intact active run for that name is reused; a run, branch or directory of that
id the hook did not make for this name is never used: the next free id (`fix-login-2`) is
taken. Input that is not the expected JSON is refused (invalid-hook-input)."#;

pub const CLAUDE_HOOK_REMOVE: &str = r#"Reads `worktree_path`. A path that is not a recorded run's .loop-worktrees/<id>, or a run
the hook did not make (another pattern than claude.pattern, or no record of the hook
making it), is left alone, with a line on stderr. Otherwise an active run is marked stale
and its worktree removed with remove's rules: a worktree with anything to lose is skipped,
its reason on stderr. Exit 0; nothing on stdout."#;

pub const CLAUDE_HOOK_ACTIVITY: &str = r#"Reads `hook_event_name` and `cwd`: UserPromptSubmit records working, Notification waiting
(its `message` the note), Stop done, for the run whose worktree holds `cwd`, as
`git loop activity` does (notify.command included). A `cwd` in no run, or another event,
changes nothing and exits 0. Nothing on stdout; an untrusted or failing notify.command is a
line on stderr, and still exit 0."#;

pub const POOL_STATUS: &str = r#"Each member is ready, busy (claimed right now by a create, fill or drain), or unfit, with
the reason (the next create or fill discards it)."#;

pub const POOL_FILL: &str = r#"Each member is a worktree under .loop-worktrees/.pool/<commit>-<suffix>, registered with
git, HEAD detached at the base (the setting base, resolved as create does). Members that
fail their checks are discarded with cleanup's rules."#;

pub const POOL_DRAIN: &str = r#"A member another git-loop process holds is skipped (in-use); one git refuses to remove
keeps its skip code."#;

pub const COMPLETION: &str = r#"Prints the script compiled into the binary, the same bytes as the project's checked-in
git-loop.bash, _git-loop or git-loop.fish. Each completes `git-loop …` and, through git's own
completion, `git loop …` (fish needs also a conf.d hook, which git-loop's install script
puts in ~/.config/fish/conf.d/git-loop.fish)."#;
pub const COMPLETION_EXAMPLES: &str = r#"Examples:
  source <(git loop completion bash)      # in ~/.bashrc, after git's completion
  git loop completion zsh > ~/.zfunc/_git-loop
  git loop completion fish > ~/.config/fish/completions/git-loop.fish"#;
