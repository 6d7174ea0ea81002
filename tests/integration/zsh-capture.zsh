# Capture zsh completion candidates through a real interactive zsh on a pty.
# usage: zsh -f zsh-capture.zsh FPATH_DIR "command line"   (prints one candidate a line)
zmodload zsh/zpty
zpty z zsh -f -i
local line
zpty -w z "PS1='' PROMPT='' RPROMPT=''"
zpty -w z "fpath=($1 \$fpath)"
zpty -w z 'autoload -U compinit; compinit -u -D'
zpty -w z 'compadd () {
  if [[ ${@[1,-1]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a __hits
  builtin compadd -A __hits "$@"
  local h
  for h in $__hits; do print -r -- "<<C""AND:$h>>"; done
}'
zpty -w z "zstyle ':completion:*' list-grouped false"
zpty -w z "bindkey '^I' complete-word"
zpty -w z 'null-line () { print -r -- "<<DO""NE>>" }; compprefuncs=( ); comppostfuncs=( null-line exit )'
zpty -n -w z "$2"$'\t'
while zpty -r z line; do
  [[ $line == *'<<DONE>>'* ]] && break
  if [[ $line == *'<<CAND:'* ]]; then
    line=${line#*<<CAND:}; print -r -- ${line%%>>*}
  fi
done
zpty -d z
