# winnow's zsh completion, after the lists 'winnow --completion=zsh'
# prints above it (src/cli/complete.c says what each holds).  The file
# is the completion function's body: zsh runs it on every completion.

local cur=${words[CURRENT]} cmd= opt= w opts vals
local -i pos=0 i=2

# The options of the command (main's without one) into opts.
_winnow_options() {
	if [[ -n $1 ]]; then
		opts=${_winnow_opts[$1]-}
	else
		opts=$_winnow_global
	fi
}

if [[ $cur == -*=* ]]; then
	opt=${cur%%=*}
	compset -P '*='	# "--by=": the value is what completes
fi
# The command, and how many of its arguments come before this one.
while (( i < CURRENT )); do
	w=${words[i]}
	(( i++ ))
	case $w in
	-*=*) ;;
	-*)
		_winnow_options "$cmd"
		if [[ " $opts " == *" $w= "* ]]; then
			(( i == CURRENT )) && opt=$w
			(( i++ ))
		fi ;;
	*)
		if [[ -n $cmd ]]; then
			(( pos++ ))
		elif [[ " $_winnow_commands " == *" $w "* ]]; then
			cmd=$w
		else
			return 1	# a notmuch query for the interface
		fi ;;
	esac
done

if [[ -n $opt ]]; then
	vals=${_winnow_vals[$cmd/$opt]-}
elif [[ $cur == -* ]]; then
	_winnow_options "$cmd"
	local -a all=(${=opts})
	compadd -S '' -- ${(M)all:#*=}
	compadd -- ${all:#*=}
	return 0
elif [[ -n $cmd ]]; then
	vals=${_winnow_vals[$cmd/$((pos + 1))]-}
else
	compadd -- ${=_winnow_commands}
	return 0
fi
case $vals in
@file) _files ;;
@dir) _files -/ ;;
@,*)
	# "--by=bot,sev": complete the word after the last comma.
	compset -P '*,'
	compadd -S '' -- ${=vals#@,} ;;
*) compadd -- ${=vals} ;;
esac
