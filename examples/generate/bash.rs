//! The bash script, emitted from the clap tree (see the parent module's doc).

use clap::{Arg, Command};

/// The bash script.
pub fn script() -> String {
    let cmd = super::command();
    let subs: Vec<&Command> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .collect();
    let visible = |a: &&Arg| !a.is_hide_set();

    let mut opts_cases = String::new();
    let mut value_cases = String::new();
    let mut positional_cases = String::new();
    let mut takes = Vec::new();
    let mut nested_cases = Vec::new();

    let mut root_opts: Vec<String> = Vec::new();
    for arg in cmd.get_arguments().filter(visible) {
        root_opts.extend(super::flags_of(arg));
        if super::takes_value(arg) {
            for f in super::flags_of(arg) {
                takes.push(format!("*:{f}"));
            }
        }
    }
    opts_cases.push_str(&format!("        '') echo '{}' ;;\n", root_opts.join(" ")));

    for (name, sub) in super::subcommands(&cmd) {
        let name = name.as_str();
        let mut opts = Vec::new();
        for arg in sub.get_arguments().filter(visible) {
            if arg.is_positional() {
                continue;
            }
            opts.extend(super::flags_of(arg));
            if super::takes_value(arg) && !arg.is_global_set() {
                for f in super::flags_of(arg) {
                    takes.push(format!("{name}:{f}"));
                    let case = match super::value_kind(name, arg) {
                        "ids" => "__git_loop_words \"$(__git_loop_ids)\"".to_owned(),
                        "tasks" => "__git_loop_words \"$(__git_loop_tasks)\"".to_owned(),
                        "statuses" => format!("__git_loop_csv '{}'", super::statuses()),
                        "removable_statuses" => {
                            format!("__git_loop_csv '{}'", super::removable_statuses())
                        }
                        "branches" => "__git_loop_words \"$(__git_loop_branches)\"".to_owned(),
                        "dirs" => "__git_loop_dirs".to_owned(),
                        _ => "COMPREPLY=()".to_owned(),
                    };
                    value_cases.push_str(&format!("        {name}:{f}) {case} ;;\n"));
                }
            }
        }
        opts_cases.push_str(&format!("        {name}) echo '{}' ;;\n", opts.join(" ")));
        positional_cases.push_str(&positionals(name, sub));
        // A command with subcommands of its own (`pool`, `claude-hook`,
        // `trash`): its first word is one of them, and the words after it
        // are that one's (`trash/empty` above).
        let nested: Vec<&str> = sub
            .get_subcommands()
            .filter(|s| !s.is_hide_set() && s.get_name() != "help")
            .map(|s| s.get_name())
            .collect();
        if !nested.is_empty() {
            positional_cases.push_str(&format!(
                "        {name}:0) __git_loop_words '{}' ;;\n",
                nested.join(" ")
            ));
            for n in nested {
                nested_cases.push(format!("{name}:{n}"));
            }
        }
    }
    let sub_names: Vec<&str> = subs.iter().map(|s| s.get_name()).collect();

    format!(
        r#"# bash completion for git-loop                      -*- shell-script -*-
# Generated from the clap definitions by `cargo run --features generate --example generate`; do not edit.
#
# Completes `git-loop …` and, through git's own completion, `git loop …`
# (git calls `_git_loop`). Install as `git-loop` in a bash-completion
# directory, e.g. ~/.local/share/bash-completion/completions/git-loop or
# <prefix>/share/bash-completion/completions/git-loop for <prefix>/bin on PATH,
# or source it from ~/.bashrc.

# Run ids recorded in the manifest (honours a -C/--repo typed on the line).
__git_loop_ids() {{
    if [[ -n ${{__git_loop_repo-}} ]]; then
        command git-loop -C "$__git_loop_repo" list --ids 2>/dev/null
    else
        command git-loop list --ids 2>/dev/null
    fi
}}

# Task names: the ids of attempts (<TASK>.<n>) without their .<n>, each once
# (what `judge` and `list --task` take).
__git_loop_tasks() {{
    __git_loop_ids | sed -n 's/\.[0-9][0-9]*$//p' | sort -u
}}

# The ids of attempts, <TASK>.<n> (what `pick` takes).
__git_loop_attempts() {{
    __git_loop_ids | grep '\.[0-9][0-9]*$'
}}

# Git, as git's completion runs it when this is `git … loop` (honouring the
# `git -C` typed on the line), else in the -C/--repo typed on the line.
__git_loop_git() {{
    if [[ -n ${{__git_loop_repo-}} ]]; then
        command git -C "$__git_loop_repo" "$@" 2>/dev/null
    elif declare -F __git >/dev/null; then
        __git "$@"
    else
        command git "$@" 2>/dev/null
    fi
}}

# The ids `restore` takes: the salvaged runs, refs/loop/salvage/<id>.
__git_loop_salvaged() {{
    __git_loop_git for-each-ref --format='%(refname:lstrip=3)' refs/loop/salvage/
}}

# The names `trash restore` takes: the entries, refs/loop/trash/<name>.
__git_loop_trash() {{
    __git_loop_git for-each-ref --format='%(refname:lstrip=3)' refs/loop/trash/
}}

# Branch names, local and remote-tracking, for --base.
__git_loop_branches() {{
    __git_loop_git for-each-ref --format='%(refname:short)' refs/heads/ refs/remotes/
}}

# Offer the words of $1 that start with $cur, but none of the positional
# words already typed ($__git_loop_typed, set for a positional: `mark a <TAB>`
# does not offer a again). Each ends with
# $__git_loop_sfx: a space through git's completion, which registers `git`
# with `-o nospace` and ends each finished word with a space itself (as
# __gitcomp does); nothing for `git-loop`, where bash adds the space.
__git_loop_words() {{
    local w
    COMPREPLY=()
    for w in $(compgen -W "$1" -- "$cur"); do
        [[ " ${{__git_loop_typed-}} " == *" $w "* ]] && continue
        COMPREPLY+=("$w${{__git_loop_sfx-}}")
    done
}}

# Directories, marked with a slash and no space, as git's completion does
# for paths.
__git_loop_dirs() {{
    compopt -o filenames +o nospace 2>/dev/null
    COMPREPLY=($(compgen -d -- "$cur"))
}}

# Complete the last member of a comma-separated list, never offering a
# member already given; no space after it, so the list can go on with `,`.
__git_loop_csv() {{
    local head="" tail="$cur" w
    if [[ $cur == *,* ]]; then
        head="${{cur%,*}},"
        tail="${{cur##*,}}"
    fi
    COMPREPLY=()
    for w in $(compgen -W "$1" -- "$tail"); do
        [[ ,$head == *,"$w",* ]] || COMPREPLY+=("$head$w")
    done
    compopt -o nospace 2>/dev/null
}}

__git_loop_opts() {{
    case "$1" in
{opts_cases}    esac
}}

# Whether $2 is a subcommand of subcommand $1 (`trash empty`): the words
# after it are completed as `$1/$2`'s.
__git_loop_nested() {{
    case "$1:$2" in
        {nested}) return 0 ;;
    esac
    return 1
}}

__git_loop_takes_value() {{
    case "$1:$2" in
        {takes}) return 0 ;;
    esac
    return 1
}}

__git_loop_value() {{
    case "$1:$2" in
        *:-C|*:--repo) __git_loop_dirs ;;
{value_cases}        *) COMPREPLY=() ;;
    esac
}}

__git_loop_positional() {{
    case "$1:$2" in
        help:0) __git_loop_words '{sub_list}' ;;
{positional_cases}        *) COMPREPLY=() ;;
    esac
}}

# __git_loop_reply CUR WORD…: the words typed after the command name, before CUR.
__git_loop_reply() {{
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
            --repo=*) __git_loop_repo="${{word#--repo=}}" ;;
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
        local opt="${{cur%%=*}}"
        cur="${{cur#*=}}"
        __git_loop_value "$sub" "$opt"
        return
    fi
    if [[ $cur == -* ]]; then
        __git_loop_words "$(__git_loop_opts "$sub")"
        return
    fi
    if [[ -z $sub ]]; then
        __git_loop_words '{sub_list} help'
        return
    fi
    local __git_loop_typed="$typed"
    __git_loop_positional "$sub" "$npos"
}}

# `git-loop <TAB>`
_git-loop() {{
    local __git_loop_sfx=""
    __git_loop_reply "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[@]:1:COMP_CWORD-1}}"
}}
complete -F _git-loop git-loop

# The words git alias $1 puts after `loop`, in __git_loop_expanded: `mark`
# for `git config alias.lm 'loop mark'`. Follows aliases of aliases and skips
# git options at the head of an alias; splits at spaces, as git's own
# completion does. Fails for a shell alias (`!…`) or one that never reaches
# `loop`.
__git_loop_alias_words() {{
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
        while [[ ${{parts[i]-}} == -* ]]; do
            case ${{parts[i]}} in
                -c|-C|--git-dir|--work-tree|--namespace|--config-env) i=$((i + 2)) ;;
                *) i=$((i + 1)) ;;
            esac
        done
        name=${{parts[i]-}}
        rest=("${{parts[@]:i+1}}" "${{rest[@]}}")
    done
    __git_loop_expanded=("${{rest[@]}}")
}}

# `git loop <TAB>`: git's completion sets words, cword and __git_cmd_idx.
# Through an alias (`git lm <TAB>` with alias.lm = 'loop mark') git calls
# this too, with the alias's name at __git_cmd_idx; but when that is word 1,
# git has already overwritten it with `loop`, so the name is read from
# COMP_WORDS. The alias's own words are then completed as if typed.
_git_loop() {{
    local idx=${{__git_cmd_idx:-1}} name __git_loop_sfx=" "
    local -a __git_loop_expanded=()
    name=${{words[idx]}}
    [[ $name == loop && $idx == 1 ]] && name=${{COMP_WORDS[1]-loop}}
    [[ $name != loop ]] && __git_loop_alias_words "$name"
    __git_loop_reply "${{words[cword]}}" "${{__git_loop_expanded[@]}}" \
        "${{words[@]:idx+1:cword-idx-1}}"
}}
"#,
        takes = takes.join("|"),
        nested = nested_cases.join("|"),
        sub_list = sub_names.join(" "),
    )
}

/// The `__git_loop_positional` cases of subcommand `name`: each position's
/// words, then (`name:*`) those of every later position, for the
/// positionals completed from a position on (`mark`: run ids, and statuses
/// from the second word).
fn positionals(name: &str, sub: &Command) -> String {
    let words = |arg: &Arg| -> Option<String> {
        Some(match super::value_kind(name, arg) {
            "ids" => "$(__git_loop_ids)".to_owned(),
            "salvaged" => "$(__git_loop_salvaged)".to_owned(),
            "trash" => "$(__git_loop_trash)".to_owned(),
            "tasks" => "$(__git_loop_tasks)".to_owned(),
            "attempts" => "$(__git_loop_attempts)".to_owned(),
            "choices" => arg
                .get_possible_values()
                .iter()
                .map(|v| v.get_name().to_owned())
                .collect::<Vec<_>>()
                .join(" "),
            _ => return None,
        })
    };
    // One source: as written before there were several.
    let case = |sources: &[(String, bool)]| match sources {
        [] => "COMPREPLY=()".to_owned(),
        [(words, true)] => format!("__git_loop_words '{words}'"),
        _ => {
            let all: Vec<&str> = sources.iter().map(|(w, _)| w.as_str()).collect();
            format!("__git_loop_words \"{}\"", all.join(" "))
        }
    };
    let slots: Vec<(usize, bool, Option<String>)> = super::positions(sub)
        .into_iter()
        .map(|(arg, at, rest)| (at, rest, words(arg)))
        .collect();
    let source = |w: &String| (w.clone(), !w.starts_with('$'));
    let mut out = String::new();
    let last = slots.iter().map(|(at, _, _)| *at).max();
    let rest: Vec<(String, bool)> = slots
        .iter()
        .filter(|(_, rest, _)| *rest)
        .filter_map(|(_, _, w)| w.as_ref().map(source))
        .collect();
    for i in 0..=last.unwrap_or(0) {
        if last.is_none() {
            break;
        }
        let here: Vec<&(usize, bool, Option<String>)> = slots
            .iter()
            .filter(|(at, r, _)| *at == i || (*r && *at < i))
            .collect();
        let sources: Vec<(String, bool)> = here
            .iter()
            .filter_map(|(_, _, w)| w.as_ref().map(source))
            .collect();
        if !rest.is_empty() && Some(i) == last && sources == rest {
            continue; // the `name:*` case says it
        }
        out.push_str(&format!("        {name}:{i}) {} ;;\n", case(&sources)));
    }
    if !rest.is_empty() {
        out.push_str(&format!("        {name}:*) {} ;;\n", case(&rest)));
    }
    out
}
