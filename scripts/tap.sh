# tap.sh: sourced by the scripts that write TAP logs.
#
# tap_subtest N NAME CMD...: CMD's TAP indented as subtest N, then its
# result, which fails if CMD exits non-zero (TSan exits 66 on a report).
tap_subtest() {
	local n=$1 name=$2 rc
	shift 2
	echo "    # Subtest: $name"
	"$@" 2>&1 | sed 's/^/    /'
	rc=${PIPESTATUS[0]}
	if [ "$rc" = 0 ]; then
		echo "ok $n $name"
	else
		echo "not ok $n $name # exit status $rc"
	fi
}
