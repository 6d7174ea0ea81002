# bash completion for git-loop                      -*- shell-script -*-
# Generated from the clap definitions by `cargo run --features generate --example generate`; do not edit.
#
# Completes `git-loop …` and, through git's own completion, `git loop …`
# (git calls `_git_loop`). Install as `git-loop` in a bash-completion
# directory, e.g. ~/.local/share/bash-completion/completions/git-loop or
# <prefix>/share/bash-completion/completions/git-loop for <prefix>/bin on PATH,
# or source it from ~/.bashrc.

# Run ids recorded in the manifest (honours a -C/--repo typed on the line).
__git_loop_ids() {
    if [[ -n ${__git_loop_repo-} ]]; then
        command git-loop -C "$__git_loop_repo" list --ids 2>/dev/null
    else
        command git-loop list --ids 2>/dev/null
    fi
}

# Task names: the ids of attempts (<TASK>.<n>) without their .<n>, each once
# (what `judge` and `list --task` take).
__git_loop_tasks() {
    __git_loop_ids | sed -n 's/\.[0-9][0-9]*$//p' | sort -u
}

# The ids of attempts, <TASK>.<n> (what `pick` takes).
__git_loop_attempts() {
    __git_loop_ids | grep '\.[0-9][0-9]*$'
}

# Git, as git's completion runs it when this is `git … loop` (honouring the
# `git -C` typed on the line), else in the -C/--repo typed on the line.
__git_loop_git() {
    if [[ -n ${__git_loop_repo-} ]]; then
        command git -C "$__git_loop_repo" "$@" 2>/dev/null
    elif declare -F __git >/dev/null; then
        __git "$@"
    else
        command git "$@" 2>/dev/null
    fi
}

# The ids `restore` takes: the salvaged runs, refs/loop/salvage/<id>.
__git_loop_salvaged() {
    __git_loop_git for-each-ref --format='%(refname:lstrip=3)' refs/loop/salvage/
}

# The names `trash restore` takes: the entries, refs/loop/trash/<name>.
__git_loop_trash() {
    __git_loop_git for-each-ref --format='%(refname:lstrip=3)' refs/loop/trash/
}

# Branch names, local and remote-tracking, for --base.
__git_loop_branches() {
    __git_loop_git for-each-ref --format='%(refname:short)' refs/heads/ refs/remotes/
}

# Offer the words of $1 that start with $cur, but none of the positional
# words already typed ($__git_loop_typed, set for a positional: `mark a <TAB>`
# does not offer a again). Each ends with
# $__git_loop_sfx: a space through git's completion, which registers `git`
# with `-o nospace` and ends each finished word with a space itself (as
# __gitcomp does); nothing for `git-loop`, where bash adds the space.
__git_loop_words() {
    local w
    COMPREPLY=()
    for w in $(compgen -W "$1" -- "$cur"); do
        [[ " ${__git_loop_typed-} " == *" $w "* ]] && continue
        COMPREPLY+=("$w${__git_loop_sfx-}")
    done
}

# Directories, marked with a slash and no space, as git's completion does
# for paths.
__git_loop_dirs() {
    compopt -o filenames +o nospace 2>/dev/null
    COMPREPLY=($(compgen -d -- "$cur"))
}

# Complete the last member of a comma-separated list, never offering a
# member already given; no space after it, so the list can go on with `,`.
__git_loop_csv() {
    local head="" tail="$cur" w
    if [[ $cur == *,* ]]; then
        head="${cur%,*},"
        tail="${cur##*,}"
    fi
    COMPREPLY=()
    for w in $(compgen -W "$1" -- "$tail"); do
        [[ ,$head == *,"$w",* ]] || COMPREPLY+=("$head$w")
    done
    compopt -o nospace 2>/dev/null
}

__git_loop_opts() {
    case "$1" in
        '') echo '-C --repo --json -q --quiet --color -h --help -V --version' ;;
        create) echo '--pattern --base --reuse --sparse --fetch --ports --attempts --claim --from -C --repo --json -q --quiet --color -h --help' ;;
        mark) echo '--detect-merged --dry-run -C --repo --json -q --quiet --color -h --help' ;;
        cleanup) echo '--status --older-than --dry-run --delete-merged-branches --recycle --salvage --reap -C --repo --json -q --quiet --color -h --help' ;;
        remove) echo '--dry-run --salvage --reap -C --repo --json -q --quiet --color -h --help' ;;
        restore) echo '--drop -C --repo --json -q --quiet --color -h --help' ;;
        reconcile) echo '--remove-orphan --adopt --min-age --dry-run -C --repo --json -q --quiet --color -h --help' ;;
        list) echo '--status -l --long --disk --salvaged --task --fleet -C --repo --json -q --quiet --color -h --help' ;;
        path) echo '-C --repo --json -q --quiet --color -h --help' ;;
        activity) echo '--note -C --repo --json -q --quiet --color -h --help' ;;
        env) echo '-C --repo --json -q --quiet --color -h --help' ;;
        run) echo '-C --repo --json -q --quiet --color -h --help' ;;
        branches) echo '--delete-merged --dry-run -C --repo --json -q --quiet --color -h --help' ;;
        conflicts) echo '--base --status -C --repo --json -q --quiet --color -h --help' ;;
        land) echo '--queue --status --keep-going --fleet --into --strategy --gate --keep --push -m --message --dry-run -C --repo --json -q --quiet --color -h --help' ;;
        sync) echo '--status --strategy --gate --fetch --dry-run --keep-going -C --repo --json -q --quiet --color -h --help' ;;
        pick) echo '--land --into --strategy --gate --keep --push -m --message --salvage --dry-run -C --repo --json -q --quiet --color -h --help' ;;
        judge) echo '--gate --jobs --timeout -C --repo --json -q --quiet --color -h --help' ;;
        watch) echo '--once --fleet -C --repo --json -q --quiet --color -h --help' ;;
        log) echo '-n --max-count --since -C --repo --json -q --quiet --color -h --help' ;;
        trash) echo '-C --repo --json -q --quiet --color -h --help' ;;
        trash/list) echo '-C --repo --json -q --quiet --color -h --help' ;;
        trash/restore) echo '--as -C --repo --json -q --quiet --color -h --help' ;;
        trash/empty) echo '--older-than --dry-run -C --repo --json -q --quiet --color -h --help' ;;
        trust) echo '-C --repo --json -q --quiet --color -h --help' ;;
        mcp) echo '-C --repo --json -q --quiet --color -h --help' ;;
        claude-hook) echo '-C --repo --json -q --quiet --color -h --help' ;;
        claude-hook/create) echo '-C --repo --json -q --quiet --color -h --help' ;;
        claude-hook/remove) echo '-C --repo --json -q --quiet --color -h --help' ;;
        claude-hook/activity) echo '-C --repo --json -q --quiet --color -h --help' ;;
        schema) echo '-C --repo --json -q --quiet --color -h --help' ;;
        pool) echo '-C --repo --json -q --quiet --color -h --help' ;;
        pool/status) echo '-C --repo --json -q --quiet --color -h --help' ;;
        pool/fill) echo '-C --repo --json -q --quiet --color -h --help' ;;
        pool/drain) echo '-C --repo --json -q --quiet --color -h --help' ;;
        config) echo '-C --repo --json -q --quiet --color -h --help' ;;
        completion) echo '-C --repo --json -q --quiet --color -h --help' ;;
        publish) echo '-C --repo --json -q --quiet --color -h --help' ;;
        claim) echo '--release -C --repo --json -q --quiet --color -h --help' ;;
        handoff) echo '-C --repo --json -q --quiet --color -h --help' ;;
    esac
}

# Whether $2 is a subcommand of subcommand $1 (`trash empty`): the words
# after it are completed as `$1/$2`'s.
__git_loop_nested() {
    case "$1:$2" in
        trash:list|trash:restore|trash:empty|claude-hook:create|claude-hook:remove|claude-hook:activity|pool:status|pool:fill|pool:drain) return 0 ;;
    esac
    return 1
}

__git_loop_takes_value() {
    case "$1:$2" in
        *:-C|*:--repo|*:--color|create:--pattern|create:--base|create:--sparse|create:--ports|create:--attempts|create:--from|cleanup:--status|cleanup:--older-than|reconcile:--remove-orphan|reconcile:--adopt|reconcile:--min-age|list:--status|list:--task|activity:--note|conflicts:--base|conflicts:--status|land:--status|land:--into|land:--strategy|land:--gate|land:-m|land:--message|sync:--status|sync:--strategy|sync:--gate|pick:--into|pick:--strategy|pick:--gate|pick:-m|pick:--message|judge:--gate|judge:--jobs|judge:--timeout|log:-n|log:--max-count|log:--since|trash/restore:--as|trash/empty:--older-than) return 0 ;;
    esac
    return 1
}

__git_loop_value() {
    case "$1:$2" in
        *:-C|*:--repo) __git_loop_dirs ;;
        create:--pattern) COMPREPLY=() ;;
        create:--base) __git_loop_words "$(__git_loop_branches)" ;;
        create:--sparse) __git_loop_dirs ;;
        create:--ports) COMPREPLY=() ;;
        create:--attempts) COMPREPLY=() ;;
        create:--from) COMPREPLY=() ;;
        cleanup:--status) __git_loop_csv 'rejected escalated merged stale' ;;
        cleanup:--older-than) COMPREPLY=() ;;
        reconcile:--remove-orphan) __git_loop_words "$(__git_loop_ids)" ;;
        reconcile:--adopt) __git_loop_words "$(__git_loop_ids)" ;;
        reconcile:--min-age) COMPREPLY=() ;;
        list:--status) __git_loop_csv 'active rejected escalated merged stale' ;;
        list:--task) __git_loop_words "$(__git_loop_tasks)" ;;
        activity:--note) COMPREPLY=() ;;
        conflicts:--base) __git_loop_words "$(__git_loop_branches)" ;;
        conflicts:--status) __git_loop_csv 'active rejected escalated merged stale' ;;
        land:--status) __git_loop_csv 'active rejected escalated merged stale' ;;
        land:--into) __git_loop_words "$(__git_loop_branches)" ;;
        land:--strategy) COMPREPLY=() ;;
        land:--gate) COMPREPLY=() ;;
        land:-m) COMPREPLY=() ;;
        land:--message) COMPREPLY=() ;;
        sync:--status) __git_loop_csv 'active rejected escalated merged stale' ;;
        sync:--strategy) COMPREPLY=() ;;
        sync:--gate) COMPREPLY=() ;;
        pick:--into) __git_loop_words "$(__git_loop_branches)" ;;
        pick:--strategy) COMPREPLY=() ;;
        pick:--gate) COMPREPLY=() ;;
        pick:-m) COMPREPLY=() ;;
        pick:--message) COMPREPLY=() ;;
        judge:--gate) COMPREPLY=() ;;
        judge:--jobs) COMPREPLY=() ;;
        judge:--timeout) COMPREPLY=() ;;
        log:-n) COMPREPLY=() ;;
        log:--max-count) COMPREPLY=() ;;
        log:--since) COMPREPLY=() ;;
        trash/restore:--as) __git_loop_words "$(__git_loop_branches)" ;;
        trash/empty:--older-than) COMPREPLY=() ;;
        *) COMPREPLY=() ;;
    esac
}

__git_loop_positional() {
    case "$1:$2" in
        help:0) __git_loop_words 'create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff' ;;
        create:0) COMPREPLY=() ;;
        mark:*) __git_loop_words "$(__git_loop_ids) active rejected escalated merged stale" ;;
        remove:*) __git_loop_words "$(__git_loop_ids)" ;;
        restore:0) __git_loop_words "$(__git_loop_salvaged)" ;;
        path:0) __git_loop_words "$(__git_loop_ids)" ;;
        activity:0) __git_loop_words "$(__git_loop_ids)" ;;
        activity:1) __git_loop_words 'working waiting done' ;;
        env:0) __git_loop_words "$(__git_loop_ids)" ;;
        run:0) __git_loop_words "$(__git_loop_ids)" ;;
        run:1) COMPREPLY=() ;;
        land:*) __git_loop_words "$(__git_loop_ids)" ;;
        sync:*) __git_loop_words "$(__git_loop_ids)" ;;
        pick:0) __git_loop_words "$(__git_loop_attempts)" ;;
        judge:0) __git_loop_words "$(__git_loop_tasks)" ;;
        log:0) __git_loop_words "$(__git_loop_ids)" ;;
        trash:0) __git_loop_words 'list restore empty' ;;
        trash/restore:0) __git_loop_words "$(__git_loop_trash)" ;;
        claude-hook:0) __git_loop_words 'create remove activity' ;;
        schema:0) __git_loop_words 'all activity branches cleanup config conflicts create env judge land list log mark path pick pool reconcile remove restore sync trash trust publish claim handoff error mcp-tools' ;;
        pool:0) __git_loop_words 'status fill drain' ;;
        pool/fill:0) COMPREPLY=() ;;
        completion:0) __git_loop_words 'bash zsh fish' ;;
        publish:*) __git_loop_words "$(__git_loop_ids)" ;;
        claim:0) __git_loop_words "$(__git_loop_tasks)" ;;
        handoff:0) __git_loop_words "$(__git_loop_ids)" ;;
        *) COMPREPLY=() ;;
    esac
}

# __git_loop_reply CUR WORD…: the words typed after the command name, before CUR.
__git_loop_reply() {
    local cur="$1"
    shift
    local sub="" word pending="" npos=0 __git_loop_repo="" typed=""
    for word in "$@"; do
        if [[ -n $pending ]]; then
            [[ $pending == -C || $pending == --repo ]] && __git_loop_repo="$word"
            pending=""
            continue
        fi
        case "$word" in
            --repo=*) __git_loop_repo="${word#--repo=}" ;;
            --*=*) ;;
            -*) __git_loop_takes_value "$sub" "$word" && pending="$word" ;;
            *)
                if [[ -z $sub ]]; then
                    sub="$word"
                elif ((npos == 0)) && __git_loop_nested "$sub" "$word"; then
                    sub="$sub/$word"
                else
                    npos=$((npos + 1))
                    typed+=" $word"
                fi
                ;;
        esac
    done
    if [[ -n $pending ]]; then
        __git_loop_value "$sub" "$pending"
        return
    fi
    if [[ $cur == --*=* ]]; then
        local opt="${cur%%=*}"
        cur="${cur#*=}"
        __git_loop_value "$sub" "$opt"
        return
    fi
    if [[ $cur == -* ]]; then
        __git_loop_words "$(__git_loop_opts "$sub")"
        return
    fi
    if [[ -z $sub ]]; then
        __git_loop_words 'create mark cleanup remove restore reconcile list path activity env run branches conflicts land sync pick judge watch log trash trust mcp claude-hook schema pool config completion publish claim handoff help'
        return
    fi
    local __git_loop_typed="$typed"
    __git_loop_positional "$sub" "$npos"
}

# `git-loop <TAB>`
_git-loop() {
    local __git_loop_sfx=""
    __git_loop_reply "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[@]:1:COMP_CWORD-1}"
}
complete -F _git-loop git-loop

# The words git alias $1 puts after `loop`, in __git_loop_expanded: `mark`
# for `git config alias.lm 'loop mark'`. Follows aliases of aliases and skips
# git options at the head of an alias; splits at spaces, as git's own
# completion does. Fails for a shell alias (`!…`) or one that never reaches
# `loop`.
__git_loop_alias_words() {
    local name="$1" seen=" " value i
    local -a parts rest=()
    while [[ $name != loop ]]; do
        [[ -n $name && $seen != *" $name "* ]] || return 1
        seen+="$name "
        if declare -F __git >/dev/null; then
            value=$(__git config --get "alias.$name")
        else
            value=$(git config --get "alias.$name" 2>/dev/null)
        fi
        [[ -n $value && $value != '!'* ]] || return 1
        read -ra parts <<< "$value"
        i=0
        while [[ ${parts[i]-} == -* ]]; do
            case ${parts[i]} in
                -c|-C|--git-dir|--work-tree|--namespace|--config-env) i=$((i + 2)) ;;
                *) i=$((i + 1)) ;;
            esac
        done
        name=${parts[i]-}
        rest=("${parts[@]:i+1}" "${rest[@]}")
    done
    __git_loop_expanded=("${rest[@]}")
}

# `git loop <TAB>`: git's completion sets words, cword and __git_cmd_idx.
# Through an alias (`git lm <TAB>` with alias.lm = 'loop mark') git calls
# this too, with the alias's name at __git_cmd_idx; but when that is word 1,
# git has already overwritten it with `loop`, so the name is read from
# COMP_WORDS. The alias's own words are then completed as if typed.
_git_loop() {
    local idx=${__git_cmd_idx:-1} name __git_loop_sfx=" "
    local -a __git_loop_expanded=()
    name=${words[idx]}
    [[ $name == loop && $idx == 1 ]] && name=${COMP_WORDS[1]-loop}
    [[ $name != loop ]] && __git_loop_alias_words "$name"
    __git_loop_reply "${words[cword]}" "${__git_loop_expanded[@]}" \
        "${words[@]:idx+1:cword-idx-1}"
}
