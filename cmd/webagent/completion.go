package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// cmdCompletion prints a shell script that completes webagent's commands
// and each command's flags. The scripts are generated from the flag sets,
// so a new flag is completed without editing them.
func cmdCompletion(args []string, stdout io.Writer) (int, error) {
	if len(args) != 1 {
		return exitUsage, usagef("completion wants a shell: webagent completion bash|zsh|fish, e.g. source <(webagent completion bash)")
	}
	switch args[0] {
	case "bash":
		fmt.Fprint(stdout, bashCompletion())
	case "zsh":
		// zsh runs the bash function through its bashcompinit layer.
		fmt.Fprint(stdout, "#compdef webagent\n# zsh completion for webagent; load with: source <(webagent completion zsh)\n"+
			"autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n"+bashCompletion())
	case "fish":
		fmt.Fprint(stdout, fishCompletion())
	default:
		msg := fmt.Sprintf("completion: unknown shell %q; use bash, zsh or fish", args[0])
		if near := closest(args[0], []string{"bash", "zsh", "fish"}); near != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		}
		return exitUsage, usagef("%s", msg)
	}
	return exitOK, nil
}

func flagWords(fs *flag.FlagSet) string {
	var w []string
	fs.VisitAll(func(f *flag.Flag) { w = append(w, "--"+f.Name) })
	return strings.Join(w, " ")
}

func bashCompletion() string {
	var b strings.Builder
	b.WriteString(`# bash completion for webagent; load with: source <(webagent completion bash)
_webagent() {
  local cur=${COMP_WORDS[COMP_CWORD]} flags=""
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "` + strings.Join(commands, " ") + ` --version --help" -- "$cur"))
    return
  fi
  case "${COMP_WORDS[1]}" in
`)
	for _, c := range commands {
		if f, ok := commandFlags[c]; ok {
			fmt.Fprintf(&b, "    %s) flags=%q ;;\n", c, flagWords(f()))
		}
	}
	b.WriteString(`    help) [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "` + strings.Join(commands, " ") + `" -- "$cur")); return ;;
    completion) [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")); return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [[ ${COMP_WORDS[1]} == eval && $COMP_CWORD -eq 2 ]]; then
    COMPREPLY=($(compgen -W "compare judge" -- "$cur"))
  elif [[ ${COMP_WORDS[1]} == bench && $COMP_CWORD -eq 2 ]]; then
    COMPREPLY=($(compgen -W "snapshot" -- "$cur"))
  fi
}
complete -o default -F _webagent webagent
`)
	return b.String()
}

func fishCompletion() string {
	var b strings.Builder
	b.WriteString("# fish completion for webagent; load with: webagent completion fish | source\n")
	fmt.Fprintf(&b, "complete -c webagent -n __fish_use_subcommand -f -a '%s'\n", strings.Join(commands, " "))
	fmt.Fprintf(&b, "complete -c webagent -n '__fish_seen_subcommand_from help' -f -a '%s'\n", strings.Join(commands, " "))
	b.WriteString("complete -c webagent -n '__fish_seen_subcommand_from completion' -f -a 'bash zsh fish'\n")
	b.WriteString("complete -c webagent -n '__fish_seen_subcommand_from eval' -f -a 'compare judge'\n")
	for _, c := range commands {
		f, ok := commandFlags[c]
		if !ok {
			continue
		}
		f().VisitAll(func(fl *flag.Flag) {
			name, usage := flag.UnquoteUsage(fl)
			line := fmt.Sprintf("complete -c webagent -n '__fish_seen_subcommand_from %s' -l %s", c, fl.Name)
			if name != "" {
				line += " -r"
			}
			fmt.Fprintf(&b, "%s -d %s\n", line, fishQuote(firstClause(usage)))
		})
	}
	return b.String()
}

// firstClause is the start of a flag's usage, short enough for a menu.
func firstClause(s string) string {
	if i := strings.IndexAny(s, ";("); i > 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
