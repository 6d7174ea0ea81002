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

    for sub in &subs {
        let name = sub.get_name();
        let mut opts = Vec::new();
        let mut positional = 0;
        for arg in sub.get_arguments().filter(visible) {
            if arg.is_positional() {
                let case = match super::value_kind(arg) {
                    "ids" => "__git_loop_words \"$(__git_loop_ids)\"".to_owned(),
                    "choices" => format!(
                        "__git_loop_words '{}'",
                        arg.get_possible_values()
                            .iter()
                            .map(|v| v.get_name().to_owned())
                            .collect::<Vec<_>>()
                            .join(" ")
                    ),
                    _ => "COMPREPLY=()".to_owned(),
                };
                positional_cases.push_str(&format!("        {name}:{positional}) {case} ;;\n"));
                positional += 1;
                continue;
            }
            opts.extend(super::flags_of(arg));
            if super::takes_value(arg) && !arg.is_global_set() {
                for f in super::flags_of(arg) {
                    takes.push(format!("{name}:{f}"));
                    let case = match super::value_kind(arg) {
                        "ids" => "__git_loop_words \"$(__git_loop_ids)\"".to_owned(),
                        "statuses" => format!("__git_loop_csv '{}'", super::statuses()),
                        "dirs" => "COMPREPLY=($(compgen -d -- \"$cur\"))".to_owned(),
                        _ => "COMPREPLY=()".to_owned(),
                    };
                    value_cases.push_str(&format!("        {name}:{f}) {case} ;;\n"));
                }
            }
        }
        opts_cases.push_str(&format!("        {name}) echo '{}' ;;\n", opts.join(" ")));
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

__git_loop_words() {{
    COMPREPLY=($(compgen -W "$1" -- "$cur"))
}}

# Complete the last member of a comma-separated list.
__git_loop_csv() {{
    local head="" tail="$cur"
    if [[ $cur == *,* ]]; then
        head="${{cur%,*}},"
        tail="${{cur##*,}}"
    fi
    COMPREPLY=($(compgen -P "$head" -W "$1" -- "$tail"))
}}

__git_loop_opts() {{
    case "$1" in
{opts_cases}    esac
}}

__git_loop_takes_value() {{
    case "$1:$2" in
        {takes}) return 0 ;;
    esac
    return 1
}}

__git_loop_value() {{
    case "$1:$2" in
        *:-C|*:--repo) COMPREPLY=($(compgen -d -- "$cur")) ;;
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
    local sub="" word pending="" npos=0 __git_loop_repo=""
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
            *) if [[ -z $sub ]]; then sub="$word"; else npos=$((npos + 1)); fi ;;
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
        COMPREPLY=($(compgen -W "$(__git_loop_opts "$sub")" -- "$cur"))
        return
    fi
    if [[ -z $sub ]]; then
        COMPREPLY=($(compgen -W '{sub_list} help' -- "$cur"))
        return
    fi
    __git_loop_positional "$sub" "$npos"
}}

# `git-loop <TAB>`
_git-loop() {{
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
    local idx=${{__git_cmd_idx:-1}} name
    local -a __git_loop_expanded=()
    name=${{words[idx]}}
    [[ $name == loop && $idx == 1 ]] && name=${{COMP_WORDS[1]-loop}}
    [[ $name != loop ]] && __git_loop_alias_words "$name"
    __git_loop_reply "${{words[cword]}}" "${{__git_loop_expanded[@]}}" \
        "${{words[@]:idx+1:cword-idx-1}}"
}}
"#,
        takes = takes.join("|"),
        sub_list = sub_names.join(" "),
    )
}
