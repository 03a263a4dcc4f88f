# winnow's bash completion, after the lists 'winnow --completion=bash'
# prints above it (src/cli/complete.c says what each holds).

# COMPREPLY: the words of _winnow_vals[$1] starting with $2, each after
# the prefix $3 ("--by=" when the shell did not break the word at '=').
_winnow_values()
{
	local vals=${_winnow_vals[$1]-} cur=$2 pre=$3
	case $vals in
	@file|@dir)
		compopt -o filenames 2>/dev/null
		local IFS=$'\n'
		COMPREPLY=($(compgen -P "$pre" "-${vals:1:1}" -- "$cur"))
		return ;;
	@,*)
		# "--by=bot,sev": complete the word after the last comma.
		vals=${vals#@,}
		if [[ $cur == *,* ]]; then
			pre+=${cur%,*},
			cur=${cur##*,}
		fi
		compopt -o nospace 2>/dev/null ;;
	esac
	COMPREPLY=($(compgen -P "$pre" -W "$vals" -- "$cur"))
}

# opts: the options of command $1, main's without one.
_winnow_options()
{
	if [[ -n $1 ]]; then
		opts=${_winnow_opts[$1]-}
	else
		opts=$_winnow_global
	fi
}

# The completion function: $2 is the word to complete, as readline cut
# it (after a '=' of COMP_WORDBREAKS), COMP_WORDS the line's words.
_winnow()
{
	local cur=${2-${COMP_WORDS[COMP_CWORD]}} cw=$COMP_CWORD
	local cmd= opt= pre= pos=0 i=1 w opts
	COMPREPLY=()
	# The option whose value this is: "--by" "=" "" or "--by" "=" "b"
	# where '=' breaks words, "--by=b" where it does not, "--by" "b".
	if [[ ${COMP_WORDS[cw]} == = ]]; then
		opt=${COMP_WORDS[cw - 1]}
	elif ((cw > 1)) && [[ ${COMP_WORDS[cw - 1]} == = ]]; then
		opt=${COMP_WORDS[cw - 2]}
	elif [[ $cur == -*=* ]]; then
		opt=${cur%%=*}
		pre=$opt=
		cur=${cur#*=}
	fi
	# The command, and how many of its arguments come before this one.
	while ((i < cw)); do
		w=${COMP_WORDS[i]}
		((i++))
		if [[ ${COMP_WORDS[i]} == = ]]; then
			((i += 2))
			continue
		fi
		case $w in
		-*=*) ;;
		-*)
			_winnow_options "$cmd"
			opts=" $opts "
			if [[ $opts == *" $w= "* ]]; then
				if ((i == cw)); then
					opt=$w
				fi
				((i++))
			fi ;;
		*)
			if [[ -n $cmd ]]; then
				((pos++))
			elif [[ " $_winnow_commands " == *" $w "* ]]; then
				cmd=$w
			else
				return	# a notmuch query for the interface
			fi ;;
		esac
	done
	if [[ -n $opt ]]; then
		_winnow_values "$cmd/$opt" "$cur" "$pre"
	elif [[ $cur == -* ]]; then
		_winnow_options "$cmd"
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
	elif [[ -n $cmd ]]; then
		_winnow_values "$cmd/$((pos + 1))" "$cur" ""
	else
		COMPREPLY=($(compgen -W "$_winnow_commands" -- "$cur"))
	fi
	return 0
}
complete -F _winnow winnow
