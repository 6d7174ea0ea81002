//! Integration tests: the built binary against temporary repositories, and
//! the library entry `git_loop::invoke` called in-process (library.rs).
//!
//! Where things are: helpers in `common/` (the hermetic `TestRepo` fixture,
//! git, process and file helpers; its module doc lists them). Tests are
//! grouped by behaviour: first one file per command (`create*.rs` for create
//! and its options), then the promises that hold across commands (work is
//! never destroyed, crashes and signals leave a state the next command
//! accepts, concurrent runs lose nothing), then agents, the shell, and the
//! file formats and code shape. A new test goes in the file of the command
//! whose behaviour it pins; a test of a promise across commands (work kept, a
//! crash, a signal, a race) in that promise's file. Name it after the
//! behaviour it pins, not the bug or the review that found it. Add a file
//! only for a new command or concept, in its group below. A helper a second
//! file needs moves to `common/`. Tests that cannot run everywhere are
//! `#[ignore = "why"]` and run by `scripts/test` (`-- --ignored`); none
//! passes by skipping.

mod common;

// Commands, one file each (a few options with their own).
mod activity; // activity and claude-hook activity: the log, list's column, notify.command
mod attempts; // best of N: create --attempts, list --task
mod bare; // the bare-repository layout: project/.bare, project/.git, linked worktrees
mod branches; // branches and --delete-merged
mod cleanup; // cleanup: selection, skips and their reasons, merged branches
mod config; // configuration layers and their precedence, invalid values
mod config_files; // hostile configuration files: symlinks, FIFOs, huge files
mod conflicts; // conflicts between runs and with the base
mod create; // create: worktree, branch, entry, ignore line, base, validation
mod create_copy; // create.copy: untracked and ignored files copied in
mod create_fetch; // create --fetch / create.fetch and a base behind its upstream
mod create_reflink; // copy-on-write copies, .worktreeinclude (XFS/ext4 images)
mod create_reuse; // create --reuse: an active run returned, a leftover branch adopted
mod create_sparse; // create --sparse and git's parallel checkout
mod disk; // list --disk: size on disk, what is unique (reflinks on XFS/ext4 images), totals
mod env; // env <id>: export lines and --json; run gets the same variables
mod escaping; // control and bidi characters, non-UTF-8 paths
mod fleet; // the fleet across machines: publish, list --fleet, claim, over a path and git daemon
mod fleet_handoff; // handoff and create --from: a run with its uncommitted work, across machines
mod fleet_land; // land --queue --fleet --push: every machine's runs landed from one, marked merged on their own
mod gate_progress;
mod hooks; // hooks (post-command, pre-command) and trust
mod judge; // judge <TASK>: the gate in every attempt, the order on evidence, worktrees untouched
mod land; // land: each strategy, refusals that change nothing, the queue
mod list; // list and list --long
mod log; // log and the event log
mod mark; // mark <id> <status>
mod merge_proofs; // what is not proof of a merge: the branch is kept
mod merged; // merge detection: ancestor, rebase, squash (list, mark, cleanup, branches)
mod output; // colour, summaries, --quiet, --json purity, closed stdout
mod path; // path <id>
mod pick; // pick <ID>: the winner escalated or landed, its siblings rejected, --salvage
mod pool; // the warm pool: pool, create from a member, cleanup --recycle
mod ports; // create.ports / --ports: leased on real sockets, released, reclaimed; env, run, post-command see them
mod readme; // the README's Quick start, run as written: the work lands on main; docs/sync.md's example
mod real_history; // a history of real shape (criss-cross topics): predictions equal git's
mod reconcile; // reconcile: dropped entries, orphans, summary
mod reconcile_adopt; // reconcile --adopt: an orphan becomes an active run
mod remove; // remove <id>...: named runs under cleanup's rules
mod restore; // restore <id>: a salvaged run back as it was
mod run; // run <id> -- <command>
mod salvage; // remove/cleanup --salvage: the salvage ref, then the removal
mod sync; // sync: each run's base brought in; skips that change nothing, the trash, --dry-run
mod walks; // history walks on a real-shape history: ahead/behind and merged equal git's
mod watch; // watch: the live view in tmux (keys, marks, the bell, idle CPU), watch --once // a gate's and judge's status line in tmux, Ctrl-C saying what landed

// Safety: work is never destroyed.
mod in_use; // a worktree a process works in is never removed under it
mod kernel; // every destroying path asks the safety kernel (a scan of the source)
mod read_only; // read commands take no mutex and write nothing
mod reap; // remove/cleanup --reap: processes left in a worktree terminated, never one on a terminal
mod refs; // the ref layer: symbolic refs, the reference-transaction hook, reflogs, names git refuses
mod refs_layer; // every ref read goes through src/git/refs (reftable through git, files through gix)
mod reftable; // reftable reads through git, compared with the files backend
mod repo_formats; // reftable, unknown extensions: refused by every command, never half-read
mod safety;
mod sha256; // a SHA-256 repository: the core flows, ids of 64 hex digits
mod untrusted; // an untrusted .git-loop.toml: only plain values apply; the trash never expires its own entries // what removal must see: hidden changes, unreachable commits, nested repos // every destroying call site goes through src/safety/; the trash

// Crashes and interrupts.
mod crash; // kill -9 at every crash point, failed manifest writes
mod ctrl_c; // Ctrl-C through `git loop` (git forwarding the signal)
mod interrupts; // SIGTERM during create; half-made and half-deleted worktrees
mod salvage_interrupts; // SIGINT at every point of a salvage removal

// Concurrency.
mod concurrency; // parallel creates, marks racing cleanups, stress runs
mod locks; // the ops lock and lock files a clone brought as symlinks
mod mutex; // the manifest mutex: stale, live, timeouts, signals
mod storm; // a long mixed run with every destroying step (and the trash)
mod storm_land; // landings onto a real main checkout with Ctrl-C, kill -9 and core.autocrlf
mod storm_sync; // sync racing land, cleanup, mark and committing agents; sync killed at random

// Agents.
mod claude_hook; // git loop claude-hook create|remove
mod mcp; // git loop mcp: JSON-RPC over stdio, the Python SDK client

// Shell.
mod shell; // completion through git's own (bash, zsh, fish), man pages, generated files
mod terminal; // a terminal reads in order (pty, 2>&1), colour as git decides it, --quiet

// Formats, properties and the code's shape.
mod docs_sync; // README, docs/, man pages and --help checked against the code
mod kinds; // the core flows on every kind of repository: SHA-1/SHA-256, files/reftable, the bare layout
mod layout; // module shape: no import cycles, file sizes
mod manifest; // malformed and symlinked manifests are refused, never rewritten
mod properties; // property tests: run ids, cutoffs, the manifest parser
mod schema; // the JSON Schemas, and every --json document checked against them

// The library entry, in-process.
mod library; // git_loop::invoke with writers: help, usage errors, list --json
