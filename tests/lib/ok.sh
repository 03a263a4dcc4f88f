# ok NAME HITS: the checks of the tree's own shape (one-of-each.sh,
# dead-functions.sh) -- HITS empty passes, else NAME fails with each
# line of HITS shown.  Counts into $pass and $fail.
ok() {
	if [ -z "$2" ]; then
		echo "ok - $1"
		pass=$((pass + 1))
	else
		echo "FAIL - $1:"
		sed 's/^/  /' <<<"$2"
		fail=$((fail + 1))
	fi
}
