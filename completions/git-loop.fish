# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_git_loop_global_optspecs
    string join \n C/repo= json q/quiet color= h/help V/version
end

function __fish_git_loop_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_git_loop_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_git_loop_using_subcommand
    set -l cmd (__fish_git_loop_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c git-loop -n "__fish_git_loop_needs_command" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_needs_command" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_needs_command" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_needs_command" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_needs_command" -s V -l version -d 'Print version'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "create" -d 'Create a worktree and branch `loop/<RUN_ID>` for a new run'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "mark" -d 'Record what a run became (never deletes it)'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "cleanup" -d 'Remove the worktrees of finished runs (never forced; branches are kept)'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "remove" -d 'Remove the worktrees of the named runs, whatever their status but active (cleanup\'s rules)'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "restore" -d 'Bring back a run saved by `remove --salvage` or `cleanup --salvage`, as it was'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "reconcile" -d 'Compare git\'s worktrees with the manifest: report orphans, drop vanished runs'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "list" -d 'List recorded runs'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "path" -d 'Print the absolute path of a run\'s worktree'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "activity" -d 'Record what a run is doing: working, waiting (for a person) or done (list shows it)'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "env" -d 'Print a run\'s GIT_LOOP_* variables as export lines, for eval or direnv'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "run" -d 'Run a command inside a run\'s worktree, passing its exit code through'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "branches" -d 'List loop/* branches no run records (left by cleanup); delete the merged ones'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "conflicts" -d 'Which active runs would conflict when landed (with each other, or with the base), and where'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "land" -d 'Land runs onto their base: built in memory, gated, the branch moved by compare-and-swap'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "sync" -d 'Bring each run\'s base into its branch: rebased (or merged) in memory, moved by compare-and-swap'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "pick" -d 'Pick a task\'s winning attempt: escalate or land it, reject its siblings'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "judge" -d 'Run a gate in every attempt of a task (<TASK>.1, ...) and rank them on evidence'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "watch" -d 'A live full-screen view of every run: status, activity, dirty/ahead/behind, merged; keys to mark, open, diff'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "log" -d 'Show the event log: what each command did to each run, oldest first'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "trash" -d 'What destroying steps kept (refs/loop/trash/): list it, restore from it, empty it'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "trust" -d 'Let the hooks in this repository\'s .git-loop.toml run (for its current content)'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "mcp" -d 'Serve git-loop\'s commands to an AI agent: an MCP server on stdin/stdout'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "claude-hook" -d 'Claude Code\'s hooks: each run of Claude Code a git-loop run, and what it is doing'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "schema" -d 'Print the JSON Schema of a command\'s --json output (or of the MCP tools\' inputs)'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "pool" -d 'Prepared worktrees that make `create` fast: status, fill or drain the warm pool'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "config" -d 'Show the effective settings and where each one comes from'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "completion" -d 'Print the completion script for bash, zsh or fish (what git-loop\'s install script installs)'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "publish" -d 'Publish this machine\'s runs to the fleet\'s remote: each run\'s branch and its record, by compare-and-swap'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "claim" -d 'Take a lease on a task on the fleet\'s remote: exactly one machine gets it'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "handoff" -d 'Publish a run with everything not committed, for another machine to take (create --from)'
complete -c git-loop -n "__fish_git_loop_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -l pattern -d 'Label of the kind of work (bugfix, agent, experiment), recorded for audit and shown by list; default: config create.pattern, else manual' -r -f
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -l base -d 'Branch or commit to start from (default: config `loop.base`, else `main`)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -l sparse -d 'Check out only this directory (repeat the flag, or give a comma list, for several; sparse checkout, cone mode; files at the top are always there)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -l ports -d 'Lease this many free TCP ports to the run, 0 to 32, as GIT_LOOP_PORT and GIT_LOOP_PORT_1… (default: config create.ports, else 0)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -l attempts -d 'Make N runs of the task RUN_ID at once, <RUN_ID>.1 … <RUN_ID>.<N> (1 to 64), all or none (best of N)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -l from -d 'Take the run a machine handed off (git loop handoff): <MACHINE>, or <REMOTE>/<MACHINE>/<RUN_ID>' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -l reuse -d 'If this run is already active and its worktree is intact, print its path and change nothing; if loop/<RUN_ID> exists with no worktree, check it out as it is'
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -l fetch -d 'Fetch the base\'s upstream first (git fetch), e.g. origin/main for main (config create.fetch)'
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -l claim -d 'Claim the task on the fleet\'s remote first, as git loop claim does (refused if held)'
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand mark" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand mark" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand mark" -l detect-merged -d 'Mark `merged` every run whose work is in its base (ancestor, squash or rebase); empty runs are left alone'
complete -c git-loop -n "__fish_git_loop_using_subcommand mark" -l dry-run -d 'With --detect-merged: report what would be marked; change nothing'
complete -c git-loop -n "__fish_git_loop_using_subcommand mark" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand mark" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand mark" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand cleanup" -l status -d 'Statuses to clean up, comma-separated (default: rejected,escalated; never active)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand cleanup" -l older-than -d 'Only runs created longer ago than this: <n> with s, m, h or d (e.g. 24h)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand cleanup" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand cleanup" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand cleanup" -l dry-run -d 'Report what would be removed; change nothing'
complete -c git-loop -n "__fish_git_loop_using_subcommand cleanup" -l delete-merged-branches -d 'Also delete each removed run\'s branch, only if its work is in its base (ancestor, squash or rebase)'
complete -c git-loop -n "__fish_git_loop_using_subcommand cleanup" -l recycle -d 'Put worktrees that would be removed back into the warm pool instead (up to pool.size)'
complete -c git-loop -n "__fish_git_loop_using_subcommand cleanup" -l salvage -d 'Save a dirty run\'s changes to refs/loop/salvage/<id> first, then remove it'
complete -c git-loop -n "__fish_git_loop_using_subcommand cleanup" -l reap -d 'Terminate the processes left working in a worktree it removes first (SIGTERM, 2 s, then SIGKILL; never one on a terminal)'
complete -c git-loop -n "__fish_git_loop_using_subcommand cleanup" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand cleanup" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand cleanup" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand remove" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand remove" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand remove" -l dry-run -d 'Report what would be removed; change nothing'
complete -c git-loop -n "__fish_git_loop_using_subcommand remove" -l salvage -d 'Save a dirty run\'s changes to refs/loop/salvage/<id> first, then remove it'
complete -c git-loop -n "__fish_git_loop_using_subcommand remove" -l reap -d 'Terminate the processes left working in a worktree it removes first (SIGTERM, 2 s, then SIGKILL; never one on a terminal)'
complete -c git-loop -n "__fish_git_loop_using_subcommand remove" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand remove" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand restore" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand restore" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand restore" -l drop -d 'Drop the salvage instead: refs/loop/salvage/<ID> moves to the trash (`git loop trash restore` brings it back)'
complete -c git-loop -n "__fish_git_loop_using_subcommand restore" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand restore" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand restore" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand reconcile" -l remove-orphan -d 'Remove this orphan worktree (repeatable; never forced)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand reconcile" -l adopt -d 'Record this orphan as an active run instead (repeatable): it must be a worktree of this repository with loop/<ID> checked out, older than --min-age' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand reconcile" -l min-age -d 'Refuse to remove or adopt an orphan younger than this (<n><s|m|h|d>; 0 disables)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand reconcile" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand reconcile" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand reconcile" -l dry-run -d 'Report what would change; change nothing'
complete -c git-loop -n "__fish_git_loop_using_subcommand reconcile" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand reconcile" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand reconcile" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand list" -l status -d 'Only runs with these statuses, comma-separated' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand list" -l task -d 'Only the attempts of this task (<TASK>.1, <TASK>.2, …, in that order), with their judge results' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand list" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand list" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand list" -s l -l long -d 'Also show, per run, uncommitted work, commits ahead of and behind its base, and whether it is merged'
complete -c git-loop -n "__fish_git_loop_using_subcommand list" -l disk -d 'Also show each worktree\'s size on disk and how much is its own (not shared by reflink)'
complete -c git-loop -n "__fish_git_loop_using_subcommand list" -l salvaged -d 'List the salvaged runs (refs/loop/salvage/<id>) instead, for `git loop restore`'
complete -c git-loop -n "__fish_git_loop_using_subcommand list" -l fleet -d 'Every machine\'s published runs, read from the fleet\'s remote (refs/loop/fleet/*)'
complete -c git-loop -n "__fish_git_loop_using_subcommand list" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand list" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand path" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand path" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand path" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand path" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand path" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand activity" -l note -d 'A word on it, shown by `git loop log` and given to notify.command (GIT_LOOP_NOTE)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand activity" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand activity" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand activity" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand activity" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand activity" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand env" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand env" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand env" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand env" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand env" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand run" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand run" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand run" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand run" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand branches" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand branches" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand branches" -l delete-merged -d 'Delete the leftover branches merged into the base (only if still at the tip checked)'
complete -c git-loop -n "__fish_git_loop_using_subcommand branches" -l dry-run -d 'Report what --delete-merged would delete; change nothing'
complete -c git-loop -n "__fish_git_loop_using_subcommand branches" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand branches" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand branches" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand conflicts" -l base -d 'Land every run in this branch or commit (default: the base each run was created from)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand conflicts" -l status -d 'The statuses of the runs to check, comma-separated (default: active; `land --queue` takes escalated)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand conflicts" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand conflicts" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand conflicts" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand conflicts" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand conflicts" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l status -d 'With --queue: the statuses to land, comma-separated (default: config land.queue-status, else escalated)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l into -d 'The local branch to land in (default: config land.into, else each run\'s base when it is a local branch)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l strategy -d 'How the landed commits are built (default: config land.strategy, else rebase)' -r -f -a "rebase\t'The run\'s commits replayed onto the target\'s tip, authors and messages kept'
squash\t'One commit with the run\'s whole change'
merge\t'A merge commit of the target\'s tip and the run\'s tip'
ff\t'Only when the target\'s tip is an ancestor of the run\'s tip'"
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l gate -d 'A command that must pass in a scratch checkout of the landed commit first (sh -c)' -r -f -a "(__fish_complete_command)"
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -s m -l message -d 'The message of a squash or merge commit' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l queue -d 'Land every run in the status set (--status), in `git loop conflicts`\' landing order'
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l keep-going -d 'Go on with the next run when one is skipped (default: stop; the rest are not attempted)'
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l fleet -d 'With --queue and --push: every machine\'s published runs in the status set too, landed from their records'
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l keep -d 'Leave each landed run\'s worktree and branch in place'
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l push -d 'Push each landing to the target\'s upstream, never forced; rebuilt on the remote\'s tip when it moved (config land.push-retries)'
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l dry-run -d 'Build every landing in memory and report what would land; change nothing (no gate runs)'
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand sync" -l status -d 'Without run ids: the statuses of the runs to sync, comma-separated (default: active)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand sync" -l strategy -d 'How the base comes in (default: config sync.strategy, else rebase)' -r -f -a "rebase\t'The run\'s own commits replayed onto the base\'s tip, authors and messages kept'
merge\t'A merge commit of the base\'s tip into the run\'s branch (its history kept as it is)'"
complete -c git-loop -n "__fish_git_loop_using_subcommand sync" -l gate -d 'A command that must pass in a scratch checkout of the synced commit first (sh -c)' -r -f -a "(__fish_complete_command)"
complete -c git-loop -n "__fish_git_loop_using_subcommand sync" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand sync" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand sync" -l fetch -d 'Fetch each base\'s upstream first'
complete -c git-loop -n "__fish_git_loop_using_subcommand sync" -l dry-run -d 'Build every sync in memory and report what would happen; change nothing (no gate runs)'
complete -c git-loop -n "__fish_git_loop_using_subcommand sync" -l keep-going -d 'Go on with the other runs when one is skipped (default: stop; the rest are not attempted)'
complete -c git-loop -n "__fish_git_loop_using_subcommand sync" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand sync" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand sync" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -l into -d 'The local branch to land in (default: config land.into, else each run\'s base when it is a local branch)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -l strategy -d 'How the landed commits are built (default: config land.strategy, else rebase)' -r -f -a "rebase\t'The run\'s commits replayed onto the target\'s tip, authors and messages kept'
squash\t'One commit with the run\'s whole change'
merge\t'A merge commit of the target\'s tip and the run\'s tip'
ff\t'Only when the target\'s tip is an ancestor of the run\'s tip'"
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -l gate -d 'A command that must pass in a scratch checkout of the landed commit first (sh -c)' -r -f -a "(__fish_complete_command)"
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -s m -l message -d 'The message of a squash or merge commit' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -l land -d 'Land the winner (git loop land\'s rules and options) instead of marking it escalated'
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -l keep -d 'Leave each landed run\'s worktree and branch in place'
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -l push -d 'Push each landing to the target\'s upstream, never forced; rebuilt on the remote\'s tip when it moved (config land.push-retries)'
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -l salvage -d 'Remove the siblings\' worktrees, saving uncommitted work to refs/loop/salvage/<id> first (branches are kept)'
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -l dry-run -d 'Report what would happen; change nothing (a landing is built in memory, no gate runs)'
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand judge" -l gate -d 'The command that tests an attempt, run in its worktree (sh -c; default: config judge.gate)' -r -f -a "(__fish_complete_command)"
complete -c git-loop -n "__fish_git_loop_using_subcommand judge" -l jobs -d 'How many gates run at a time (default: the number of cores)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand judge" -l timeout -d 'Kill a gate (and all it started) after AGE: <n> with s, m, h or d (default: 10m)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand judge" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand judge" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand judge" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand judge" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand judge" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand watch" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand watch" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand watch" -l once -d 'Print one frame as plain text and exit (for a pipe or a script; width: COLUMNS, else 80)'
complete -c git-loop -n "__fish_git_loop_using_subcommand watch" -l fleet -d 'Every machine\'s published runs instead (the list --fleet table), read from the fleet\'s remote every 10 s; with --once, one listing (--json: list --fleet\'s)'
complete -c git-loop -n "__fish_git_loop_using_subcommand watch" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand watch" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand log" -s n -l max-count -d 'Only the newest N events (still printed oldest first, like `tail -n`)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand log" -l since -d 'Only the events of the last AGE: <n> with s, m, h or d (e.g. 2h, 7d)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand log" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand log" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand log" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand log" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand log" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and not __fish_seen_subcommand_from list restore empty help" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and not __fish_seen_subcommand_from list restore empty help" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and not __fish_seen_subcommand_from list restore empty help" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and not __fish_seen_subcommand_from list restore empty help" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and not __fish_seen_subcommand_from list restore empty help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and not __fish_seen_subcommand_from list restore empty help" -f -a "list" -d 'List the entries, oldest first (the default)'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and not __fish_seen_subcommand_from list restore empty help" -f -a "restore" -d 'Bring a deleted branch (or a kept tip, as a branch) back'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and not __fish_seen_subcommand_from list restore empty help" -f -a "empty" -d 'Drop entries: all of them, or those kept before now − AGE'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and not __fish_seen_subcommand_from list restore empty help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from list" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from list" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from list" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from restore" -l as -d 'The branch to restore it as (default: the branch it was, or trash/<run>/<ref> for a kept tip that was not a branch)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from restore" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from restore" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from restore" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from restore" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from restore" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from empty" -l older-than -d 'Only entries older than this (30d, 12h, 90m, 45s)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from empty" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from empty" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from empty" -l dry-run -d 'List what would be dropped; change nothing'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from empty" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from empty" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from empty" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the entries, oldest first (the default)'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from help" -f -a "restore" -d 'Bring a deleted branch (or a kept tip, as a branch) back'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from help" -f -a "empty" -d 'Drop entries: all of them, or those kept before now − AGE'
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-loop -n "__fish_git_loop_using_subcommand trust" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand trust" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand trust" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand trust" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand trust" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand mcp" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand mcp" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand mcp" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand mcp" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand mcp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and not __fish_seen_subcommand_from create remove activity help" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and not __fish_seen_subcommand_from create remove activity help" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and not __fish_seen_subcommand_from create remove activity help" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and not __fish_seen_subcommand_from create remove activity help" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and not __fish_seen_subcommand_from create remove activity help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and not __fish_seen_subcommand_from create remove activity help" -f -a "create" -d 'Read WorktreeCreate\'s JSON on stdin, create (or reuse) the run, print only its path'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and not __fish_seen_subcommand_from create remove activity help" -f -a "remove" -d 'Read WorktreeRemove\'s JSON on stdin and remove that run\'s worktree (never forced; branch kept)'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and not __fish_seen_subcommand_from create remove activity help" -f -a "activity" -d 'Read UserPromptSubmit\'s, Notification\'s or Stop\'s JSON on stdin and record the run\'s activity'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and not __fish_seen_subcommand_from create remove activity help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from create" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from create" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from create" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from create" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from remove" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from remove" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from remove" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from activity" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from activity" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from activity" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from activity" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from activity" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from help" -f -a "create" -d 'Read WorktreeCreate\'s JSON on stdin, create (or reuse) the run, print only its path'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Read WorktreeRemove\'s JSON on stdin and remove that run\'s worktree (never forced; branch kept)'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from help" -f -a "activity" -d 'Read UserPromptSubmit\'s, Notification\'s or Stop\'s JSON on stdin and record the run\'s activity'
complete -c git-loop -n "__fish_git_loop_using_subcommand claude-hook; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-loop -n "__fish_git_loop_using_subcommand schema" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand schema" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand schema" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand schema" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and not __fish_seen_subcommand_from status fill drain help" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and not __fish_seen_subcommand_from status fill drain help" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and not __fish_seen_subcommand_from status fill drain help" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and not __fish_seen_subcommand_from status fill drain help" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and not __fish_seen_subcommand_from status fill drain help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and not __fish_seen_subcommand_from status fill drain help" -f -a "status" -d 'Show the pool\'s members and whether each is ready (the default)'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and not __fish_seen_subcommand_from status fill drain help" -f -a "fill" -d 'Prepare worktrees at the base until the pool holds N'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and not __fish_seen_subcommand_from status fill drain help" -f -a "drain" -d 'Remove every member (never forced; one in use or not clean is left)'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and not __fish_seen_subcommand_from status fill drain help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from status" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from status" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from status" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from status" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from fill" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from fill" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from fill" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from fill" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from fill" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from drain" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from drain" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from drain" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from drain" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from drain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from help" -f -a "status" -d 'Show the pool\'s members and whether each is ready (the default)'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from help" -f -a "fill" -d 'Prepare worktrees at the base until the pool holds N'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from help" -f -a "drain" -d 'Remove every member (never forced; one in use or not clean is left)'
complete -c git-loop -n "__fish_git_loop_using_subcommand pool; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-loop -n "__fish_git_loop_using_subcommand config" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand config" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand config" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand config" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand completion" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand completion" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand completion" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand completion" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand completion" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand publish" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand publish" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand publish" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand publish" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand publish" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand claim" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand claim" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand claim" -l release -d 'Release this machine\'s lease on the task instead'
complete -c git-loop -n "__fish_git_loop_using_subcommand claim" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand claim" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand claim" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand handoff" -s C -l repo -d 'Repository to operate on (default: the current directory)' -r -F
complete -c git-loop -n "__fish_git_loop_using_subcommand handoff" -l color -d 'Colour: always, never or auto, as git\'s --color (alone: always; default: color.loop, color.ui, then the environment)' -r
complete -c git-loop -n "__fish_git_loop_using_subcommand handoff" -l json -d 'Machine-readable output: one JSON document on stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand handoff" -s q -l quiet -d 'No progress or summary lines on stderr, no per-run lines of what went as asked'
complete -c git-loop -n "__fish_git_loop_using_subcommand handoff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "create" -d 'Create a worktree and branch `loop/<RUN_ID>` for a new run'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "mark" -d 'Record what a run became (never deletes it)'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "cleanup" -d 'Remove the worktrees of finished runs (never forced; branches are kept)'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "remove" -d 'Remove the worktrees of the named runs, whatever their status but active (cleanup\'s rules)'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "restore" -d 'Bring back a run saved by `remove --salvage` or `cleanup --salvage`, as it was'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "reconcile" -d 'Compare git\'s worktrees with the manifest: report orphans, drop vanished runs'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "list" -d 'List recorded runs'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "path" -d 'Print the absolute path of a run\'s worktree'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "activity" -d 'Record what a run is doing: working, waiting (for a person) or done (list shows it)'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "env" -d 'Print a run\'s GIT_LOOP_* variables as export lines, for eval or direnv'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "run" -d 'Run a command inside a run\'s worktree, passing its exit code through'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "branches" -d 'List loop/* branches no run records (left by cleanup); delete the merged ones'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "conflicts" -d 'Which active runs would conflict when landed (with each other, or with the base), and where'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "land" -d 'Land runs onto their base: built in memory, gated, the branch moved by compare-and-swap'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "sync" -d 'Bring each run\'s base into its branch: rebased (or merged) in memory, moved by compare-and-swap'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "pick" -d 'Pick a task\'s winning attempt: escalate or land it, reject its siblings'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "judge" -d 'Run a gate in every attempt of a task (<TASK>.1, ...) and rank them on evidence'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "watch" -d 'A live full-screen view of every run: status, activity, dirty/ahead/behind, merged; keys to mark, open, diff'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "log" -d 'Show the event log: what each command did to each run, oldest first'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "trash" -d 'What destroying steps kept (refs/loop/trash/): list it, restore from it, empty it'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "trust" -d 'Let the hooks in this repository\'s .git-loop.toml run (for its current content)'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "mcp" -d 'Serve git-loop\'s commands to an AI agent: an MCP server on stdin/stdout'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "claude-hook" -d 'Claude Code\'s hooks: each run of Claude Code a git-loop run, and what it is doing'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "schema" -d 'Print the JSON Schema of a command\'s --json output (or of the MCP tools\' inputs)'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "pool" -d 'Prepared worktrees that make `create` fast: status, fill or drain the warm pool'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "config" -d 'Show the effective settings and where each one comes from'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "completion" -d 'Print the completion script for bash, zsh or fish (what git-loop\'s install script installs)'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "publish" -d 'Publish this machine\'s runs to the fleet\'s remote: each run\'s branch and its record, by compare-and-swap'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "claim" -d 'Take a lease on a task on the fleet\'s remote: exactly one machine gets it'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "handoff" -d 'Publish a run with everything not committed, for another machine to take (create --from)'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and not __fish_seen_subcommand_from create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and __fish_seen_subcommand_from trash" -f -a "list" -d 'List the entries, oldest first (the default)'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and __fish_seen_subcommand_from trash" -f -a "restore" -d 'Bring a deleted branch (or a kept tip, as a branch) back'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and __fish_seen_subcommand_from trash" -f -a "empty" -d 'Drop entries: all of them, or those kept before now − AGE'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and __fish_seen_subcommand_from claude-hook" -f -a "create" -d 'Read WorktreeCreate\'s JSON on stdin, create (or reuse) the run, print only its path'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and __fish_seen_subcommand_from claude-hook" -f -a "remove" -d 'Read WorktreeRemove\'s JSON on stdin and remove that run\'s worktree (never forced; branch kept)'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and __fish_seen_subcommand_from claude-hook" -f -a "activity" -d 'Read UserPromptSubmit\'s, Notification\'s or Stop\'s JSON on stdin and record the run\'s activity'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and __fish_seen_subcommand_from pool" -f -a "status" -d 'Show the pool\'s members and whether each is ready (the default)'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and __fish_seen_subcommand_from pool" -f -a "fill" -d 'Prepare worktrees at the base until the pool holds N'
complete -c git-loop -n "__fish_git_loop_using_subcommand help; and __fish_seen_subcommand_from pool" -f -a "drain" -d 'Remove every member (never forced; one in use or not clean is left)'

# Run ids from the manifest, status values, and positional values (added by
# git-loop's generator: clap's script completes none of them).

# Succeed when the token being completed is positional argument $argv[2]
# (counted from 0), or with $argv[3] = +, any from it on, of subcommand
# $argv[1] (a nested one as trash/restore).
function __fish_git_loop_positional
    set -l words (commandline -opc)
    set -e words[1]
    set -l sub
    set -l npos 0
    set -l pending
    for word in $words
        if set -q pending[1]
            set -e pending[1]
            continue
        end
        switch $word
            case --
                return 1
            case '--*=*'
            case '-*'
                if contains -- $word -C --repo --color; or contains -- "$sub:$word" create:--pattern create:--base create:--sparse create:--ports create:--attempts create:--from cleanup:--status cleanup:--older-than reconcile:--remove-orphan reconcile:--adopt reconcile:--min-age list:--status list:--task activity:--note conflicts:--base conflicts:--status land:--status land:--into land:--strategy land:--gate land:-m land:--message sync:--status sync:--strategy sync:--gate pick:--into pick:--strategy pick:--gate pick:-m pick:--message judge:--gate judge:--jobs judge:--timeout log:-n log:--max-count log:--since
                    set pending $word
                end
            case '*'
                if not set -q sub[1]
                    set sub $word
                else if test $npos = 0; and contains -- "$sub/$word" trash/list trash/restore trash/empty claude-hook/create claude-hook/remove claude-hook/activity pool/status pool/fill pool/drain
                    set sub "$sub/$word"
                else
                    set npos (math $npos + 1)
                end
        end
    end
    test "$sub" = "$argv[1]"; or return 1
    if test "$argv[3]" = +
        test "$npos" -ge "$argv[2]"
    else
        test "$npos" = "$argv[2]"
    end
end

# The run ids, but none already typed on the line (`mark a <TAB>`: not a
# again).
function __fish_git_loop_ids
    set -l typed (commandline -opc)
    for id in (git-loop list --ids 2>/dev/null)
        contains -- $id $typed; or echo $id
    end
end

# Task names: the ids of attempts (<TASK>.<n>) without their .<n>, each once.
function __fish_git_loop_tasks
    git-loop list --ids 2>/dev/null | string replace -rf -- '\.[0-9]+$' '' | sort -u
end

# The ids of attempts, <TASK>.<n>.
function __fish_git_loop_attempts
    git-loop list --ids 2>/dev/null | string match -r -- '.*\.[0-9]+$'
end

# The next member of the comma-separated list being completed, for each of
# $argv not given yet: `rejected,` completes to `rejected,escalated` and the
# others, never `rejected,rejected`.
function __fish_git_loop_csv
    set -l token (commandline -ct)
    set token (string replace -r -- '^--[^=]*=' '' $token)
    set -l given (string split , -- $token)
    set -e given[-1]
    set -l head (string join , -- $given)
    test -n "$head"; and set head "$head,"
    for value in $argv
        contains -- $value $given; or echo "$head$value"
    end
end

complete -c git-loop -n "__fish_git_loop_using_subcommand create" -l base -x -a "(git for-each-ref --format='%(refname:short)' refs/heads/ refs/remotes/ 2>/dev/null)"
complete -c git-loop -n "__fish_git_loop_positional mark 0 +" -f -a "(__fish_git_loop_ids)"
complete -c git-loop -n "__fish_git_loop_positional mark 0 +" -f -a "active rejected escalated merged stale"
complete -c git-loop -n "__fish_git_loop_using_subcommand cleanup" -l status -x -a "(__fish_git_loop_csv rejected escalated merged stale)"
complete -c git-loop -n "__fish_git_loop_positional remove 0 +" -f -a "(__fish_git_loop_ids)"
complete -c git-loop -n "__fish_git_loop_positional restore 0" -f -a "(git for-each-ref --format='%(refname:lstrip=3)' refs/loop/salvage/ 2>/dev/null)"
complete -c git-loop -n "__fish_git_loop_using_subcommand reconcile" -l remove-orphan -x -a "(__fish_git_loop_ids)"
complete -c git-loop -n "__fish_git_loop_using_subcommand reconcile" -l adopt -x -a "(__fish_git_loop_ids)"
complete -c git-loop -n "__fish_git_loop_using_subcommand list" -l status -x -a "(__fish_git_loop_csv active rejected escalated merged stale)"
complete -c git-loop -n "__fish_git_loop_using_subcommand list" -l task -x -a "(__fish_git_loop_tasks)"
complete -c git-loop -n "__fish_git_loop_positional path 0" -f -a "(__fish_git_loop_ids)"
complete -c git-loop -n "__fish_git_loop_positional activity 0" -f -a "(__fish_git_loop_ids)"
complete -c git-loop -n "__fish_git_loop_positional activity 1" -f -a "working waiting done"
complete -c git-loop -n "__fish_git_loop_positional env 0" -f -a "(__fish_git_loop_ids)"
complete -c git-loop -n "__fish_git_loop_positional run 0" -f -a "(__fish_git_loop_ids)"
complete -c git-loop -n "__fish_git_loop_using_subcommand conflicts" -l base -x -a "(git for-each-ref --format='%(refname:short)' refs/heads/ refs/remotes/ 2>/dev/null)"
complete -c git-loop -n "__fish_git_loop_using_subcommand conflicts" -l status -x -a "(__fish_git_loop_csv active rejected escalated merged stale)"
complete -c git-loop -n "__fish_git_loop_positional land 0 +" -f -a "(__fish_git_loop_ids)"
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l status -x -a "(__fish_git_loop_csv active rejected escalated merged stale)"
complete -c git-loop -n "__fish_git_loop_using_subcommand land" -l into -x -a "(git for-each-ref --format='%(refname:short)' refs/heads/ refs/remotes/ 2>/dev/null)"
complete -c git-loop -n "__fish_git_loop_positional sync 0 +" -f -a "(__fish_git_loop_ids)"
complete -c git-loop -n "__fish_git_loop_using_subcommand sync" -l status -x -a "(__fish_git_loop_csv active rejected escalated merged stale)"
complete -c git-loop -n "__fish_git_loop_positional pick 0" -f -a "(__fish_git_loop_attempts)"
complete -c git-loop -n "__fish_git_loop_using_subcommand pick" -l into -x -a "(git for-each-ref --format='%(refname:short)' refs/heads/ refs/remotes/ 2>/dev/null)"
complete -c git-loop -n "__fish_git_loop_positional judge 0" -f -a "(__fish_git_loop_tasks)"
complete -c git-loop -n "__fish_git_loop_positional log 0" -f -a "(__fish_git_loop_ids)"
complete -c git-loop -n "__fish_git_loop_positional trash/restore 0" -f -a "(git for-each-ref --format='%(refname:lstrip=3)' refs/loop/trash/ 2>/dev/null)"
complete -c git-loop -n "__fish_git_loop_using_subcommand trash; and __fish_seen_subcommand_from restore" -l as -x -a "(git for-each-ref --format='%(refname:short)' refs/heads/ refs/remotes/ 2>/dev/null)"
complete -c git-loop -n "__fish_git_loop_positional schema 0" -f -a "all activity branches cleanup config conflicts create env judge land list log mark path pick pool reconcile remove restore sync trash trust publish claim handoff error mcp-tools"
complete -c git-loop -n "__fish_git_loop_positional completion 0" -f -a "bash zsh fish"
complete -c git-loop -n "__fish_git_loop_positional publish 0 +" -f -a "(__fish_git_loop_ids)"
complete -c git-loop -n "__fish_git_loop_positional claim 0" -f -a "(__fish_git_loop_tasks)"
complete -c git-loop -n "__fish_git_loop_positional handoff 0" -f -a "(__fish_git_loop_ids)"
