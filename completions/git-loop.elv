
use builtin;
use str;

set edit:completion:arg-completer[git-loop] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'git-loop'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'git-loop'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Create a worktree and branch `loop/<RUN_ID>` for a new run'
            cand mark 'Record what a run became (never deletes it)'
            cand cleanup 'Remove the worktrees of finished runs (never forced; branches are kept)'
            cand remove 'Remove the worktrees of the named runs, whatever their status but active (cleanup''s rules)'
            cand restore 'Bring back a run saved by `remove --salvage` or `cleanup --salvage`, as it was'
            cand reconcile 'Compare git''s worktrees with the manifest: report orphans, drop vanished runs'
            cand list 'List recorded runs'
            cand path 'Print the absolute path of a run''s worktree'
            cand activity 'Record what a run is doing: working, waiting (for a person) or done (list shows it)'
            cand env 'Print a run''s GIT_LOOP_* variables as export lines, for eval or direnv'
            cand run 'Run a command inside a run''s worktree, passing its exit code through'
            cand branches 'List loop/* branches no run records (left by cleanup); delete the merged ones'
            cand conflicts 'Which active runs would conflict when landed (with each other, or with the base), and where'
            cand land 'Land runs onto their base: built in memory, gated, the branch moved by compare-and-swap'
            cand sync 'Bring each run''s base into its branch: rebased (or merged) in memory, moved by compare-and-swap'
            cand pick 'Pick a task''s winning attempt: escalate or land it, reject its siblings'
            cand judge 'Run a gate in every attempt of a task (<TASK>.1, ...) and rank them on evidence'
            cand watch 'A live full-screen view of every run: status, activity, dirty/ahead/behind, merged; keys to mark, open, diff'
            cand log 'Show the event log: what each command did to each run, oldest first'
            cand trash 'What destroying steps kept (refs/loop/trash/): list it, restore from it, empty it'
            cand trust 'Let the hooks in this repository''s .git-loop.toml run (for its current content)'
            cand mcp 'Serve git-loop''s commands to an AI agent: an MCP server on stdin/stdout'
            cand claude-hook 'Claude Code''s hooks: each run of Claude Code a git-loop run, and what it is doing'
            cand schema 'Print the JSON Schema of a command''s --json output (or of the MCP tools'' inputs)'
            cand pool 'Prepared worktrees that make `create` fast: status, fill or drain the warm pool'
            cand config 'Show the effective settings and where each one comes from'
            cand completion 'Print the completion script for bash, zsh or fish (what git-loop''s install script installs)'
            cand publish 'Publish this machine''s runs to the fleet''s remote: each run''s branch and its record, by compare-and-swap'
            cand claim 'Take a lease on a task on the fleet''s remote: exactly one machine gets it'
            cand handoff 'Publish a run with everything not committed, for another machine to take (create --from)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-loop;create'= {
            cand --pattern 'Label of the kind of work (bugfix, agent, experiment), recorded for audit and shown by list; default: config create.pattern, else manual'
            cand --base 'Branch or commit to start from (default: config `loop.base`, else `main`)'
            cand --sparse 'Check out only this directory (repeat the flag, or give a comma list, for several; sparse checkout, cone mode; files at the top are always there)'
            cand --ports 'Lease this many free TCP ports to the run, 0 to 32, as GIT_LOOP_PORT and GIT_LOOP_PORT_1… (default: config create.ports, else 0)'
            cand --attempts 'Make N runs of the task RUN_ID at once, <RUN_ID>.1 … <RUN_ID>.<N> (1 to 64), all or none (best of N)'
            cand --from 'Take the run a machine handed off (git loop handoff): <MACHINE>, or <REMOTE>/<MACHINE>/<RUN_ID>'
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --reuse 'If this run is already active and its worktree is intact, print its path and change nothing; if loop/<RUN_ID> exists with no worktree, check it out as it is'
            cand --fetch 'Fetch the base''s upstream first (git fetch), e.g. origin/main for main (config create.fetch)'
            cand --claim 'Claim the task on the fleet''s remote first, as git loop claim does (refused if held)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;mark'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --detect-merged 'Mark `merged` every run whose work is in its base (ancestor, squash or rebase); empty runs are left alone'
            cand --dry-run 'With --detect-merged: report what would be marked; change nothing'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;cleanup'= {
            cand --status 'Statuses to clean up, comma-separated (default: rejected,escalated; never active)'
            cand --older-than 'Only runs created longer ago than this: <n> with s, m, h or d (e.g. 24h)'
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --dry-run 'Report what would be removed; change nothing'
            cand --delete-merged-branches 'Also delete each removed run''s branch, only if its work is in its base (ancestor, squash or rebase)'
            cand --recycle 'Put worktrees that would be removed back into the warm pool instead (up to pool.size)'
            cand --salvage 'Save a dirty run''s changes to refs/loop/salvage/<id> first, then remove it'
            cand --reap 'Terminate the processes left working in a worktree it removes first (SIGTERM, 2 s, then SIGKILL; never one on a terminal)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;remove'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --dry-run 'Report what would be removed; change nothing'
            cand --salvage 'Save a dirty run''s changes to refs/loop/salvage/<id> first, then remove it'
            cand --reap 'Terminate the processes left working in a worktree it removes first (SIGTERM, 2 s, then SIGKILL; never one on a terminal)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;restore'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --drop 'Drop the salvage instead: refs/loop/salvage/<ID> moves to the trash (`git loop trash restore` brings it back)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;reconcile'= {
            cand --remove-orphan 'Remove this orphan worktree (repeatable; never forced)'
            cand --adopt 'Record this orphan as an active run instead (repeatable): it must be a worktree of this repository with loop/<ID> checked out, older than --min-age'
            cand --min-age 'Refuse to remove or adopt an orphan younger than this (<n><s|m|h|d>; 0 disables)'
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --dry-run 'Report what would change; change nothing'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;list'= {
            cand --status 'Only runs with these statuses, comma-separated'
            cand --task 'Only the attempts of this task (<TASK>.1, <TASK>.2, …, in that order), with their judge results'
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand -l 'Also show, per run, uncommitted work, commits ahead of and behind its base, and whether it is merged'
            cand --long 'Also show, per run, uncommitted work, commits ahead of and behind its base, and whether it is merged'
            cand --disk 'Also show each worktree''s size on disk and how much is its own (not shared by reflink)'
            cand --salvaged 'List the salvaged runs (refs/loop/salvage/<id>) instead, for `git loop restore`'
            cand --fleet 'Every machine''s published runs, read from the fleet''s remote (refs/loop/fleet/*)'
            cand --ids 'Print only the run ids, one a line (for shell completion); with --salvaged, the salvaged ones'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;path'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;activity'= {
            cand --note 'A word on it, shown by `git loop log` and given to notify.command (GIT_LOOP_NOTE)'
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;env'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;run'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;branches'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --delete-merged 'Delete the leftover branches merged into the base (only if still at the tip checked)'
            cand --dry-run 'Report what --delete-merged would delete; change nothing'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;conflicts'= {
            cand --base 'Land every run in this branch or commit (default: the base each run was created from)'
            cand --status 'The statuses of the runs to check, comma-separated (default: active; `land --queue` takes escalated)'
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;land'= {
            cand --status 'With --queue: the statuses to land, comma-separated (default: config land.queue-status, else escalated)'
            cand --into 'The local branch to land in (default: config land.into, else each run''s base when it is a local branch)'
            cand --strategy 'How the landed commits are built (default: config land.strategy, else rebase)'
            cand --gate 'A command that must pass in a scratch checkout of the landed commit first (sh -c)'
            cand -m 'The message of a squash or merge commit'
            cand --message 'The message of a squash or merge commit'
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --queue 'Land every run in the status set (--status), in `git loop conflicts`'' landing order'
            cand --keep-going 'Go on with the next run when one is skipped (default: stop; the rest are not attempted)'
            cand --fleet 'With --queue and --push: every machine''s published runs in the status set too, landed from their records'
            cand --keep 'Leave each landed run''s worktree and branch in place'
            cand --push 'Push each landing to the target''s upstream, never forced; rebuilt on the remote''s tip when it moved (config land.push-retries)'
            cand --dry-run 'Build every landing in memory and report what would land; change nothing (no gate runs)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;sync'= {
            cand --status 'Without run ids: the statuses of the runs to sync, comma-separated (default: active)'
            cand --strategy 'How the base comes in (default: config sync.strategy, else rebase)'
            cand --gate 'A command that must pass in a scratch checkout of the synced commit first (sh -c)'
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --fetch 'Fetch each base''s upstream first'
            cand --dry-run 'Build every sync in memory and report what would happen; change nothing (no gate runs)'
            cand --keep-going 'Go on with the other runs when one is skipped (default: stop; the rest are not attempted)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;pick'= {
            cand --into 'The local branch to land in (default: config land.into, else each run''s base when it is a local branch)'
            cand --strategy 'How the landed commits are built (default: config land.strategy, else rebase)'
            cand --gate 'A command that must pass in a scratch checkout of the landed commit first (sh -c)'
            cand -m 'The message of a squash or merge commit'
            cand --message 'The message of a squash or merge commit'
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --land 'Land the winner (git loop land''s rules and options) instead of marking it escalated'
            cand --keep 'Leave each landed run''s worktree and branch in place'
            cand --push 'Push each landing to the target''s upstream, never forced; rebuilt on the remote''s tip when it moved (config land.push-retries)'
            cand --salvage 'Remove the siblings'' worktrees, saving uncommitted work to refs/loop/salvage/<id> first (branches are kept)'
            cand --dry-run 'Report what would happen; change nothing (a landing is built in memory, no gate runs)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;judge'= {
            cand --gate 'The command that tests an attempt, run in its worktree (sh -c; default: config judge.gate)'
            cand --jobs 'How many gates run at a time (default: the number of cores)'
            cand --timeout 'Kill a gate (and all it started) after AGE: <n> with s, m, h or d (default: 10m)'
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;watch'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --once 'Print one frame as plain text and exit (for a pipe or a script; width: COLUMNS, else 80)'
            cand --fleet 'Every machine''s published runs instead (the list --fleet table), read from the fleet''s remote every 10 s; with --once, one listing (--json: list --fleet''s)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;log'= {
            cand -n 'Only the newest N events (still printed oldest first, like `tail -n`)'
            cand --max-count 'Only the newest N events (still printed oldest first, like `tail -n`)'
            cand --since 'Only the events of the last AGE: <n> with s, m, h or d (e.g. 2h, 7d)'
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;trash'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand list 'List the entries, oldest first (the default)'
            cand restore 'Bring a deleted branch (or a kept tip, as a branch) back'
            cand empty 'Drop entries: all of them, or those kept before now − AGE'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-loop;trash;list'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;trash;restore'= {
            cand --as 'The branch to restore it as (default: the branch it was, or trash/<run>/<ref> for a kept tip that was not a branch)'
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;trash;empty'= {
            cand --older-than 'Only entries older than this (30d, 12h, 90m, 45s)'
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --dry-run 'List what would be dropped; change nothing'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;trash;help'= {
            cand list 'List the entries, oldest first (the default)'
            cand restore 'Bring a deleted branch (or a kept tip, as a branch) back'
            cand empty 'Drop entries: all of them, or those kept before now − AGE'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-loop;trash;help;list'= {
        }
        &'git-loop;trash;help;restore'= {
        }
        &'git-loop;trash;help;empty'= {
        }
        &'git-loop;trash;help;help'= {
        }
        &'git-loop;trust'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;mcp'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;claude-hook'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand create 'Read WorktreeCreate''s JSON on stdin, create (or reuse) the run, print only its path'
            cand remove 'Read WorktreeRemove''s JSON on stdin and remove that run''s worktree (never forced; branch kept)'
            cand activity 'Read UserPromptSubmit''s, Notification''s or Stop''s JSON on stdin and record the run''s activity'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-loop;claude-hook;create'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;claude-hook;remove'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;claude-hook;activity'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;claude-hook;help'= {
            cand create 'Read WorktreeCreate''s JSON on stdin, create (or reuse) the run, print only its path'
            cand remove 'Read WorktreeRemove''s JSON on stdin and remove that run''s worktree (never forced; branch kept)'
            cand activity 'Read UserPromptSubmit''s, Notification''s or Stop''s JSON on stdin and record the run''s activity'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-loop;claude-hook;help;create'= {
        }
        &'git-loop;claude-hook;help;remove'= {
        }
        &'git-loop;claude-hook;help;activity'= {
        }
        &'git-loop;claude-hook;help;help'= {
        }
        &'git-loop;schema'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;pool'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand status 'Show the pool''s members and whether each is ready (the default)'
            cand fill 'Prepare worktrees at the base until the pool holds N'
            cand drain 'Remove every member (never forced; one in use or not clean is left)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-loop;pool;status'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;pool;fill'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;pool;drain'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;pool;help'= {
            cand status 'Show the pool''s members and whether each is ready (the default)'
            cand fill 'Prepare worktrees at the base until the pool holds N'
            cand drain 'Remove every member (never forced; one in use or not clean is left)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-loop;pool;help;status'= {
        }
        &'git-loop;pool;help;fill'= {
        }
        &'git-loop;pool;help;drain'= {
        }
        &'git-loop;pool;help;help'= {
        }
        &'git-loop;config'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;completion'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;publish'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;claim'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --release 'Release this machine''s lease on the task instead'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;handoff'= {
            cand -C 'Repository to operate on (default: the current directory)'
            cand --repo 'Repository to operate on (default: the current directory)'
            cand --color 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)'
            cand --json 'Machine-readable output: one JSON document on stdout'
            cand -q 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand --quiet 'No progress or summary lines on stderr, no per-run lines of what went as asked'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-loop;help'= {
            cand create 'Create a worktree and branch `loop/<RUN_ID>` for a new run'
            cand mark 'Record what a run became (never deletes it)'
            cand cleanup 'Remove the worktrees of finished runs (never forced; branches are kept)'
            cand remove 'Remove the worktrees of the named runs, whatever their status but active (cleanup''s rules)'
            cand restore 'Bring back a run saved by `remove --salvage` or `cleanup --salvage`, as it was'
            cand reconcile 'Compare git''s worktrees with the manifest: report orphans, drop vanished runs'
            cand list 'List recorded runs'
            cand path 'Print the absolute path of a run''s worktree'
            cand activity 'Record what a run is doing: working, waiting (for a person) or done (list shows it)'
            cand env 'Print a run''s GIT_LOOP_* variables as export lines, for eval or direnv'
            cand run 'Run a command inside a run''s worktree, passing its exit code through'
            cand branches 'List loop/* branches no run records (left by cleanup); delete the merged ones'
            cand conflicts 'Which active runs would conflict when landed (with each other, or with the base), and where'
            cand land 'Land runs onto their base: built in memory, gated, the branch moved by compare-and-swap'
            cand sync 'Bring each run''s base into its branch: rebased (or merged) in memory, moved by compare-and-swap'
            cand pick 'Pick a task''s winning attempt: escalate or land it, reject its siblings'
            cand judge 'Run a gate in every attempt of a task (<TASK>.1, ...) and rank them on evidence'
            cand watch 'A live full-screen view of every run: status, activity, dirty/ahead/behind, merged; keys to mark, open, diff'
            cand log 'Show the event log: what each command did to each run, oldest first'
            cand trash 'What destroying steps kept (refs/loop/trash/): list it, restore from it, empty it'
            cand trust 'Let the hooks in this repository''s .git-loop.toml run (for its current content)'
            cand mcp 'Serve git-loop''s commands to an AI agent: an MCP server on stdin/stdout'
            cand claude-hook 'Claude Code''s hooks: each run of Claude Code a git-loop run, and what it is doing'
            cand schema 'Print the JSON Schema of a command''s --json output (or of the MCP tools'' inputs)'
            cand pool 'Prepared worktrees that make `create` fast: status, fill or drain the warm pool'
            cand config 'Show the effective settings and where each one comes from'
            cand completion 'Print the completion script for bash, zsh or fish (what git-loop''s install script installs)'
            cand publish 'Publish this machine''s runs to the fleet''s remote: each run''s branch and its record, by compare-and-swap'
            cand claim 'Take a lease on a task on the fleet''s remote: exactly one machine gets it'
            cand handoff 'Publish a run with everything not committed, for another machine to take (create --from)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-loop;help;create'= {
        }
        &'git-loop;help;mark'= {
        }
        &'git-loop;help;cleanup'= {
        }
        &'git-loop;help;remove'= {
        }
        &'git-loop;help;restore'= {
        }
        &'git-loop;help;reconcile'= {
        }
        &'git-loop;help;list'= {
        }
        &'git-loop;help;path'= {
        }
        &'git-loop;help;activity'= {
        }
        &'git-loop;help;env'= {
        }
        &'git-loop;help;run'= {
        }
        &'git-loop;help;branches'= {
        }
        &'git-loop;help;conflicts'= {
        }
        &'git-loop;help;land'= {
        }
        &'git-loop;help;sync'= {
        }
        &'git-loop;help;pick'= {
        }
        &'git-loop;help;judge'= {
        }
        &'git-loop;help;watch'= {
        }
        &'git-loop;help;log'= {
        }
        &'git-loop;help;trash'= {
            cand list 'List the entries, oldest first (the default)'
            cand restore 'Bring a deleted branch (or a kept tip, as a branch) back'
            cand empty 'Drop entries: all of them, or those kept before now − AGE'
        }
        &'git-loop;help;trash;list'= {
        }
        &'git-loop;help;trash;restore'= {
        }
        &'git-loop;help;trash;empty'= {
        }
        &'git-loop;help;trust'= {
        }
        &'git-loop;help;mcp'= {
        }
        &'git-loop;help;claude-hook'= {
            cand create 'Read WorktreeCreate''s JSON on stdin, create (or reuse) the run, print only its path'
            cand remove 'Read WorktreeRemove''s JSON on stdin and remove that run''s worktree (never forced; branch kept)'
            cand activity 'Read UserPromptSubmit''s, Notification''s or Stop''s JSON on stdin and record the run''s activity'
        }
        &'git-loop;help;claude-hook;create'= {
        }
        &'git-loop;help;claude-hook;remove'= {
        }
        &'git-loop;help;claude-hook;activity'= {
        }
        &'git-loop;help;schema'= {
        }
        &'git-loop;help;pool'= {
            cand status 'Show the pool''s members and whether each is ready (the default)'
            cand fill 'Prepare worktrees at the base until the pool holds N'
            cand drain 'Remove every member (never forced; one in use or not clean is left)'
        }
        &'git-loop;help;pool;status'= {
        }
        &'git-loop;help;pool;fill'= {
        }
        &'git-loop;help;pool;drain'= {
        }
        &'git-loop;help;config'= {
        }
        &'git-loop;help;completion'= {
        }
        &'git-loop;help;publish'= {
        }
        &'git-loop;help;claim'= {
        }
        &'git-loop;help;handoff'= {
        }
        &'git-loop;help;help'= {
        }
    ]
    $completions[$command]
}
