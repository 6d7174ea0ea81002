
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'git-loop' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'git-loop'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'git-loop' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a worktree and branch `loop/<RUN_ID>` for a new run')
            [CompletionResult]::new('mark', 'mark', [CompletionResultType]::ParameterValue, 'Record what a run became (never deletes it)')
            [CompletionResult]::new('cleanup', 'cleanup', [CompletionResultType]::ParameterValue, 'Remove the worktrees of finished runs (never forced; branches are kept)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove the worktrees of the named runs, whatever their status but active (cleanup''s rules)')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Bring back a run saved by `remove --salvage` or `cleanup --salvage`, as it was')
            [CompletionResult]::new('reconcile', 'reconcile', [CompletionResultType]::ParameterValue, 'Compare git''s worktrees with the manifest: report orphans, drop vanished runs')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List recorded runs')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print the absolute path of a run''s worktree')
            [CompletionResult]::new('activity', 'activity', [CompletionResultType]::ParameterValue, 'Record what a run is doing: working, waiting (for a person) or done (list shows it)')
            [CompletionResult]::new('env', 'env', [CompletionResultType]::ParameterValue, 'Print a run''s GIT_LOOP_* variables as export lines, for eval or direnv')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run a command inside a run''s worktree, passing its exit code through')
            [CompletionResult]::new('branches', 'branches', [CompletionResultType]::ParameterValue, 'List loop/* branches no run records (left by cleanup); delete the merged ones')
            [CompletionResult]::new('conflicts', 'conflicts', [CompletionResultType]::ParameterValue, 'Which active runs would conflict when landed (with each other, or with the base), and where')
            [CompletionResult]::new('land', 'land', [CompletionResultType]::ParameterValue, 'Land runs onto their base: built in memory, gated, the branch moved by compare-and-swap')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Bring each run''s base into its branch: rebased (or merged) in memory, moved by compare-and-swap')
            [CompletionResult]::new('pick', 'pick', [CompletionResultType]::ParameterValue, 'Pick a task''s winning attempt: escalate or land it, reject its siblings')
            [CompletionResult]::new('judge', 'judge', [CompletionResultType]::ParameterValue, 'Run a gate in every attempt of a task (<TASK>.1, ...) and rank them on evidence')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'A live full-screen view of every run: status, activity, dirty/ahead/behind, merged; keys to mark, open, diff')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'Show the event log: what each command did to each run, oldest first')
            [CompletionResult]::new('trash', 'trash', [CompletionResultType]::ParameterValue, 'What destroying steps kept (refs/loop/trash/): list it, restore from it, empty it')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Let the hooks in this repository''s .git-loop.toml run (for its current content)')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve git-loop''s commands to an AI agent: an MCP server on stdin/stdout')
            [CompletionResult]::new('claude-hook', 'claude-hook', [CompletionResultType]::ParameterValue, 'Claude Code''s hooks: each run of Claude Code a git-loop run, and what it is doing')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of a command''s --json output (or of the MCP tools'' inputs)')
            [CompletionResult]::new('pool', 'pool', [CompletionResultType]::ParameterValue, 'Prepared worktrees that make `create` fast: status, fill or drain the warm pool')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Show the effective settings and where each one comes from')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print the completion script for bash, zsh or fish (what git-loop''s install script installs)')
            [CompletionResult]::new('publish', 'publish', [CompletionResultType]::ParameterValue, 'Publish this machine''s runs to the fleet''s remote: each run''s branch and its record, by compare-and-swap')
            [CompletionResult]::new('claim', 'claim', [CompletionResultType]::ParameterValue, 'Take a lease on a task on the fleet''s remote: exactly one machine gets it')
            [CompletionResult]::new('handoff', 'handoff', [CompletionResultType]::ParameterValue, 'Publish a run with everything not committed, for another machine to take (create --from)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-loop;create' {
            [CompletionResult]::new('--pattern', '--pattern', [CompletionResultType]::ParameterName, 'Label of the kind of work (bugfix, agent, experiment), recorded for audit and shown by list; default: config create.pattern, else manual')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'Branch or commit to start from (default: config `loop.base`, else `main`)')
            [CompletionResult]::new('--sparse', '--sparse', [CompletionResultType]::ParameterName, 'Check out only this directory (repeat the flag, or give a comma list, for several; sparse checkout, cone mode; files at the top are always there)')
            [CompletionResult]::new('--ports', '--ports', [CompletionResultType]::ParameterName, 'Lease this many free TCP ports to the run, 0 to 32, as GIT_LOOP_PORT and GIT_LOOP_PORT_1… (default: config create.ports, else 0)')
            [CompletionResult]::new('--attempts', '--attempts', [CompletionResultType]::ParameterName, 'Make N runs of the task RUN_ID at once, <RUN_ID>.1 … <RUN_ID>.<N> (1 to 64), all or none (best of N)')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Take the run a machine handed off (git loop handoff): <MACHINE>, or <REMOTE>/<MACHINE>/<RUN_ID>')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--reuse', '--reuse', [CompletionResultType]::ParameterName, 'If this run is already active and its worktree is intact, print its path and change nothing; if loop/<RUN_ID> exists with no worktree, check it out as it is')
            [CompletionResult]::new('--fetch', '--fetch', [CompletionResultType]::ParameterName, 'Fetch the base''s upstream first (git fetch), e.g. origin/main for main (config create.fetch)')
            [CompletionResult]::new('--claim', '--claim', [CompletionResultType]::ParameterName, 'Claim the task on the fleet''s remote first, as git loop claim does (refused if held)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;mark' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--detect-merged', '--detect-merged', [CompletionResultType]::ParameterName, 'Mark `merged` every run whose work is in its base (ancestor, squash or rebase); empty runs are left alone')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'With --detect-merged: report what would be marked; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;cleanup' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Statuses to clean up, comma-separated (default: rejected,escalated; never active)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only runs created longer ago than this: <n> with s, m, h or d (e.g. 24h)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Report what would be removed; change nothing')
            [CompletionResult]::new('--delete-merged-branches', '--delete-merged-branches', [CompletionResultType]::ParameterName, 'Also delete each removed run''s branch, only if its work is in its base (ancestor, squash or rebase)')
            [CompletionResult]::new('--recycle', '--recycle', [CompletionResultType]::ParameterName, 'Put worktrees that would be removed back into the warm pool instead (up to pool.size)')
            [CompletionResult]::new('--salvage', '--salvage', [CompletionResultType]::ParameterName, 'Save a dirty run''s changes to refs/loop/salvage/<id> first, then remove it')
            [CompletionResult]::new('--reap', '--reap', [CompletionResultType]::ParameterName, 'Terminate the processes left working in a worktree it removes first (SIGTERM, 2 s, then SIGKILL; never one on a terminal)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;remove' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Report what would be removed; change nothing')
            [CompletionResult]::new('--salvage', '--salvage', [CompletionResultType]::ParameterName, 'Save a dirty run''s changes to refs/loop/salvage/<id> first, then remove it')
            [CompletionResult]::new('--reap', '--reap', [CompletionResultType]::ParameterName, 'Terminate the processes left working in a worktree it removes first (SIGTERM, 2 s, then SIGKILL; never one on a terminal)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;restore' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--drop', '--drop', [CompletionResultType]::ParameterName, 'Drop the salvage instead: refs/loop/salvage/<ID> moves to the trash (`git loop trash restore` brings it back)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;reconcile' {
            [CompletionResult]::new('--remove-orphan', '--remove-orphan', [CompletionResultType]::ParameterName, 'Remove this orphan worktree (repeatable; never forced)')
            [CompletionResult]::new('--adopt', '--adopt', [CompletionResultType]::ParameterName, 'Record this orphan as an active run instead (repeatable): it must be a worktree of this repository with loop/<ID> checked out, older than --min-age')
            [CompletionResult]::new('--min-age', '--min-age', [CompletionResultType]::ParameterName, 'Refuse to remove or adopt an orphan younger than this (<n><s|m|h|d>; 0 disables)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Report what would change; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;list' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only runs with these statuses, comma-separated')
            [CompletionResult]::new('--task', '--task', [CompletionResultType]::ParameterName, 'Only the attempts of this task (<TASK>.1, <TASK>.2, …, in that order), with their judge results')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Also show, per run, uncommitted work, commits ahead of and behind its base, and whether it is merged')
            [CompletionResult]::new('--long', '--long', [CompletionResultType]::ParameterName, 'Also show, per run, uncommitted work, commits ahead of and behind its base, and whether it is merged')
            [CompletionResult]::new('--disk', '--disk', [CompletionResultType]::ParameterName, 'Also show each worktree''s size on disk and how much is its own (not shared by reflink)')
            [CompletionResult]::new('--salvaged', '--salvaged', [CompletionResultType]::ParameterName, 'List the salvaged runs (refs/loop/salvage/<id>) instead, for `git loop restore`')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Every machine''s published runs, read from the fleet''s remote (refs/loop/fleet/*)')
            [CompletionResult]::new('--ids', '--ids', [CompletionResultType]::ParameterName, 'Print only the run ids, one a line (for shell completion); with --salvaged, the salvaged ones')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;path' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;activity' {
            [CompletionResult]::new('--note', '--note', [CompletionResultType]::ParameterName, 'A word on it, shown by `git loop log` and given to notify.command (GIT_LOOP_NOTE)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;env' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;run' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;branches' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--delete-merged', '--delete-merged', [CompletionResultType]::ParameterName, 'Delete the leftover branches merged into the base (only if still at the tip checked)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Report what --delete-merged would delete; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;conflicts' {
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'Land every run in this branch or commit (default: the base each run was created from)')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'The statuses of the runs to check, comma-separated (default: active; `land --queue` takes escalated)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;land' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'With --queue: the statuses to land, comma-separated (default: config land.queue-status, else escalated)')
            [CompletionResult]::new('--into', '--into', [CompletionResultType]::ParameterName, 'The local branch to land in (default: config land.into, else each run''s base when it is a local branch)')
            [CompletionResult]::new('--strategy', '--strategy', [CompletionResultType]::ParameterName, 'How the landed commits are built (default: config land.strategy, else rebase)')
            [CompletionResult]::new('--gate', '--gate', [CompletionResultType]::ParameterName, 'A command that must pass in a scratch checkout of the landed commit first (sh -c)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The message of a squash or merge commit')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'The message of a squash or merge commit')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--queue', '--queue', [CompletionResultType]::ParameterName, 'Land every run in the status set (--status), in `git loop conflicts`'' landing order')
            [CompletionResult]::new('--keep-going', '--keep-going', [CompletionResultType]::ParameterName, 'Go on with the next run when one is skipped (default: stop; the rest are not attempted)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'With --queue and --push: every machine''s published runs in the status set too, landed from their records')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Leave each landed run''s worktree and branch in place')
            [CompletionResult]::new('--push', '--push', [CompletionResultType]::ParameterName, 'Push each landing to the target''s upstream, never forced; rebuilt on the remote''s tip when it moved (config land.push-retries)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Build every landing in memory and report what would land; change nothing (no gate runs)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;sync' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Without run ids: the statuses of the runs to sync, comma-separated (default: active)')
            [CompletionResult]::new('--strategy', '--strategy', [CompletionResultType]::ParameterName, 'How the base comes in (default: config sync.strategy, else rebase)')
            [CompletionResult]::new('--gate', '--gate', [CompletionResultType]::ParameterName, 'A command that must pass in a scratch checkout of the synced commit first (sh -c)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--fetch', '--fetch', [CompletionResultType]::ParameterName, 'Fetch each base''s upstream first')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Build every sync in memory and report what would happen; change nothing (no gate runs)')
            [CompletionResult]::new('--keep-going', '--keep-going', [CompletionResultType]::ParameterName, 'Go on with the other runs when one is skipped (default: stop; the rest are not attempted)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;pick' {
            [CompletionResult]::new('--into', '--into', [CompletionResultType]::ParameterName, 'The local branch to land in (default: config land.into, else each run''s base when it is a local branch)')
            [CompletionResult]::new('--strategy', '--strategy', [CompletionResultType]::ParameterName, 'How the landed commits are built (default: config land.strategy, else rebase)')
            [CompletionResult]::new('--gate', '--gate', [CompletionResultType]::ParameterName, 'A command that must pass in a scratch checkout of the landed commit first (sh -c)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The message of a squash or merge commit')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'The message of a squash or merge commit')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--land', '--land', [CompletionResultType]::ParameterName, 'Land the winner (git loop land''s rules and options) instead of marking it escalated')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Leave each landed run''s worktree and branch in place')
            [CompletionResult]::new('--push', '--push', [CompletionResultType]::ParameterName, 'Push each landing to the target''s upstream, never forced; rebuilt on the remote''s tip when it moved (config land.push-retries)')
            [CompletionResult]::new('--salvage', '--salvage', [CompletionResultType]::ParameterName, 'Remove the siblings'' worktrees, saving uncommitted work to refs/loop/salvage/<id> first (branches are kept)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Report what would happen; change nothing (a landing is built in memory, no gate runs)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;judge' {
            [CompletionResult]::new('--gate', '--gate', [CompletionResultType]::ParameterName, 'The command that tests an attempt, run in its worktree (sh -c; default: config judge.gate)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'How many gates run at a time (default: the number of cores)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Kill a gate (and all it started) after AGE: <n> with s, m, h or d (default: 10m)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;watch' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--once', '--once', [CompletionResultType]::ParameterName, 'Print one frame as plain text and exit (for a pipe or a script; width: COLUMNS, else 80)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Every machine''s published runs instead (the list --fleet table), read from the fleet''s remote every 10 s; with --once, one listing (--json: list --fleet''s)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;log' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Only the newest N events (still printed oldest first, like `tail -n`)')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Only the newest N events (still printed oldest first, like `tail -n`)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only the events of the last AGE: <n> with s, m, h or d (e.g. 2h, 7d)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;trash' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the entries, oldest first (the default)')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Bring a deleted branch (or a kept tip, as a branch) back')
            [CompletionResult]::new('empty', 'empty', [CompletionResultType]::ParameterValue, 'Drop entries: all of them, or those kept before now − AGE')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-loop;trash;list' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;trash;restore' {
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The branch to restore it as (default: the branch it was, or trash/<run>/<ref> for a kept tip that was not a branch)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;trash;empty' {
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only entries older than this (30d, 12h, 90m, 45s)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'List what would be dropped; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;trash;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the entries, oldest first (the default)')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Bring a deleted branch (or a kept tip, as a branch) back')
            [CompletionResult]::new('empty', 'empty', [CompletionResultType]::ParameterValue, 'Drop entries: all of them, or those kept before now − AGE')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-loop;trash;help;list' {
            break
        }
        'git-loop;trash;help;restore' {
            break
        }
        'git-loop;trash;help;empty' {
            break
        }
        'git-loop;trash;help;help' {
            break
        }
        'git-loop;trust' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;mcp' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;claude-hook' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Read WorktreeCreate''s JSON on stdin, create (or reuse) the run, print only its path')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Read WorktreeRemove''s JSON on stdin and remove that run''s worktree (never forced; branch kept)')
            [CompletionResult]::new('activity', 'activity', [CompletionResultType]::ParameterValue, 'Read UserPromptSubmit''s, Notification''s or Stop''s JSON on stdin and record the run''s activity')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-loop;claude-hook;create' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;claude-hook;remove' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;claude-hook;activity' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;claude-hook;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Read WorktreeCreate''s JSON on stdin, create (or reuse) the run, print only its path')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Read WorktreeRemove''s JSON on stdin and remove that run''s worktree (never forced; branch kept)')
            [CompletionResult]::new('activity', 'activity', [CompletionResultType]::ParameterValue, 'Read UserPromptSubmit''s, Notification''s or Stop''s JSON on stdin and record the run''s activity')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-loop;claude-hook;help;create' {
            break
        }
        'git-loop;claude-hook;help;remove' {
            break
        }
        'git-loop;claude-hook;help;activity' {
            break
        }
        'git-loop;claude-hook;help;help' {
            break
        }
        'git-loop;schema' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;pool' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the pool''s members and whether each is ready (the default)')
            [CompletionResult]::new('fill', 'fill', [CompletionResultType]::ParameterValue, 'Prepare worktrees at the base until the pool holds N')
            [CompletionResult]::new('drain', 'drain', [CompletionResultType]::ParameterValue, 'Remove every member (never forced; one in use or not clean is left)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-loop;pool;status' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;pool;fill' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;pool;drain' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;pool;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the pool''s members and whether each is ready (the default)')
            [CompletionResult]::new('fill', 'fill', [CompletionResultType]::ParameterValue, 'Prepare worktrees at the base until the pool holds N')
            [CompletionResult]::new('drain', 'drain', [CompletionResultType]::ParameterValue, 'Remove every member (never forced; one in use or not clean is left)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-loop;pool;help;status' {
            break
        }
        'git-loop;pool;help;fill' {
            break
        }
        'git-loop;pool;help;drain' {
            break
        }
        'git-loop;pool;help;help' {
            break
        }
        'git-loop;config' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;completion' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;publish' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;claim' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--release', '--release', [CompletionResultType]::ParameterName, 'Release this machine''s lease on the task instead')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;handoff' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository to operate on (default: the current directory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: always, never or auto, as git''s --color (alone: always; default: color.loop, color.ui, then the environment)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output: one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress or summary lines on stderr, no per-run lines of what went as asked')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-loop;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a worktree and branch `loop/<RUN_ID>` for a new run')
            [CompletionResult]::new('mark', 'mark', [CompletionResultType]::ParameterValue, 'Record what a run became (never deletes it)')
            [CompletionResult]::new('cleanup', 'cleanup', [CompletionResultType]::ParameterValue, 'Remove the worktrees of finished runs (never forced; branches are kept)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove the worktrees of the named runs, whatever their status but active (cleanup''s rules)')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Bring back a run saved by `remove --salvage` or `cleanup --salvage`, as it was')
            [CompletionResult]::new('reconcile', 'reconcile', [CompletionResultType]::ParameterValue, 'Compare git''s worktrees with the manifest: report orphans, drop vanished runs')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List recorded runs')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print the absolute path of a run''s worktree')
            [CompletionResult]::new('activity', 'activity', [CompletionResultType]::ParameterValue, 'Record what a run is doing: working, waiting (for a person) or done (list shows it)')
            [CompletionResult]::new('env', 'env', [CompletionResultType]::ParameterValue, 'Print a run''s GIT_LOOP_* variables as export lines, for eval or direnv')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run a command inside a run''s worktree, passing its exit code through')
            [CompletionResult]::new('branches', 'branches', [CompletionResultType]::ParameterValue, 'List loop/* branches no run records (left by cleanup); delete the merged ones')
            [CompletionResult]::new('conflicts', 'conflicts', [CompletionResultType]::ParameterValue, 'Which active runs would conflict when landed (with each other, or with the base), and where')
            [CompletionResult]::new('land', 'land', [CompletionResultType]::ParameterValue, 'Land runs onto their base: built in memory, gated, the branch moved by compare-and-swap')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Bring each run''s base into its branch: rebased (or merged) in memory, moved by compare-and-swap')
            [CompletionResult]::new('pick', 'pick', [CompletionResultType]::ParameterValue, 'Pick a task''s winning attempt: escalate or land it, reject its siblings')
            [CompletionResult]::new('judge', 'judge', [CompletionResultType]::ParameterValue, 'Run a gate in every attempt of a task (<TASK>.1, ...) and rank them on evidence')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'A live full-screen view of every run: status, activity, dirty/ahead/behind, merged; keys to mark, open, diff')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'Show the event log: what each command did to each run, oldest first')
            [CompletionResult]::new('trash', 'trash', [CompletionResultType]::ParameterValue, 'What destroying steps kept (refs/loop/trash/): list it, restore from it, empty it')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Let the hooks in this repository''s .git-loop.toml run (for its current content)')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve git-loop''s commands to an AI agent: an MCP server on stdin/stdout')
            [CompletionResult]::new('claude-hook', 'claude-hook', [CompletionResultType]::ParameterValue, 'Claude Code''s hooks: each run of Claude Code a git-loop run, and what it is doing')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of a command''s --json output (or of the MCP tools'' inputs)')
            [CompletionResult]::new('pool', 'pool', [CompletionResultType]::ParameterValue, 'Prepared worktrees that make `create` fast: status, fill or drain the warm pool')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Show the effective settings and where each one comes from')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print the completion script for bash, zsh or fish (what git-loop''s install script installs)')
            [CompletionResult]::new('publish', 'publish', [CompletionResultType]::ParameterValue, 'Publish this machine''s runs to the fleet''s remote: each run''s branch and its record, by compare-and-swap')
            [CompletionResult]::new('claim', 'claim', [CompletionResultType]::ParameterValue, 'Take a lease on a task on the fleet''s remote: exactly one machine gets it')
            [CompletionResult]::new('handoff', 'handoff', [CompletionResultType]::ParameterValue, 'Publish a run with everything not committed, for another machine to take (create --from)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-loop;help;create' {
            break
        }
        'git-loop;help;mark' {
            break
        }
        'git-loop;help;cleanup' {
            break
        }
        'git-loop;help;remove' {
            break
        }
        'git-loop;help;restore' {
            break
        }
        'git-loop;help;reconcile' {
            break
        }
        'git-loop;help;list' {
            break
        }
        'git-loop;help;path' {
            break
        }
        'git-loop;help;activity' {
            break
        }
        'git-loop;help;env' {
            break
        }
        'git-loop;help;run' {
            break
        }
        'git-loop;help;branches' {
            break
        }
        'git-loop;help;conflicts' {
            break
        }
        'git-loop;help;land' {
            break
        }
        'git-loop;help;sync' {
            break
        }
        'git-loop;help;pick' {
            break
        }
        'git-loop;help;judge' {
            break
        }
        'git-loop;help;watch' {
            break
        }
        'git-loop;help;log' {
            break
        }
        'git-loop;help;trash' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the entries, oldest first (the default)')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Bring a deleted branch (or a kept tip, as a branch) back')
            [CompletionResult]::new('empty', 'empty', [CompletionResultType]::ParameterValue, 'Drop entries: all of them, or those kept before now − AGE')
            break
        }
        'git-loop;help;trash;list' {
            break
        }
        'git-loop;help;trash;restore' {
            break
        }
        'git-loop;help;trash;empty' {
            break
        }
        'git-loop;help;trust' {
            break
        }
        'git-loop;help;mcp' {
            break
        }
        'git-loop;help;claude-hook' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Read WorktreeCreate''s JSON on stdin, create (or reuse) the run, print only its path')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Read WorktreeRemove''s JSON on stdin and remove that run''s worktree (never forced; branch kept)')
            [CompletionResult]::new('activity', 'activity', [CompletionResultType]::ParameterValue, 'Read UserPromptSubmit''s, Notification''s or Stop''s JSON on stdin and record the run''s activity')
            break
        }
        'git-loop;help;claude-hook;create' {
            break
        }
        'git-loop;help;claude-hook;remove' {
            break
        }
        'git-loop;help;claude-hook;activity' {
            break
        }
        'git-loop;help;schema' {
            break
        }
        'git-loop;help;pool' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the pool''s members and whether each is ready (the default)')
            [CompletionResult]::new('fill', 'fill', [CompletionResultType]::ParameterValue, 'Prepare worktrees at the base until the pool holds N')
            [CompletionResult]::new('drain', 'drain', [CompletionResultType]::ParameterValue, 'Remove every member (never forced; one in use or not clean is left)')
            break
        }
        'git-loop;help;pool;status' {
            break
        }
        'git-loop;help;pool;fill' {
            break
        }
        'git-loop;help;pool;drain' {
            break
        }
        'git-loop;help;config' {
            break
        }
        'git-loop;help;completion' {
            break
        }
        'git-loop;help;publish' {
            break
        }
        'git-loop;help;claim' {
            break
        }
        'git-loop;help;handoff' {
            break
        }
        'git-loop;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
