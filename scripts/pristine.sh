# pristine.sh: sourced. Sets pristine, the base tree every variant is made
# from: $KSRC, your own 6.1.y tree, or by default Debian's linux-source-6.1
# unpacked into build/. check_pristine refuses a tree that is not a clean
# 6.1.y with a message that says why.
top=${top:?pristine.sh needs top}
if [ -n "${KSRC:-}" ]; then
	# The real path: a symlink copied by cp -al would be a way back
	# into your tree.
	pristine=$(cd "$KSRC" 2>/dev/null && pwd -P) || {
		echo "KSRC: no such folder: $KSRC" >&2
		exit 2
	}
else
	pristine=$top/build/linux-source-6.1
fi

check_pristine() {
	local v p
	[ -z "${KSRC:-}" ] && return 0
	if [ ! -f "$pristine/Makefile" ] || [ ! -f "$pristine/net/core/page_pool.c" ]; then
		echo "KSRC: $pristine is not a Linux source tree" >&2
		exit 2
	fi
	v=$(sed -n 's/^VERSION = //p' "$pristine/Makefile")
	p=$(sed -n 's/^PATCHLEVEL = //p' "$pristine/Makefile")
	if [ "$v.$p" != 6.1 ]; then
		echo "KSRC: $pristine is Linux $v.$p; the series is for 6.1.y" >&2
		exit 2
	fi
	# kbuild refuses an O= build from a tree built in place.
	if [ -e "$pristine/.config" ] || [ -d "$pristine/include/config" ]; then
		echo "KSRC: $pristine has been configured or built in place; run 'make mrproper' there first" >&2
		exit 2
	fi
}

# pristine_id: what the base tree is, for the stamps of what was made
# from it: its path, its version, and its git HEAD if it has one.
pristine_id() {
	local head=
	[ -e "$pristine/.git" ] &&
		head=$(git -C "$pristine" rev-parse -q HEAD 2>/dev/null)
	echo "$pristine $(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\|EXTRAVERSION\) = //p' \
		"$pristine/Makefile" 2>/dev/null | tr '\n' ' ')$head"
}

# copy_pristine DIR: DIR as a hard-linked copy of the base tree (a full
# copy on another file system), without its .git: git writes to a
# repository's files in place.
copy_pristine() {
	rm -rf "$1"
	mkdir -p "$1"
	cp -al "$pristine/." "$1" 2>/dev/null || {
		rm -rf "$1"
		mkdir -p "$1"
		cp -a "$pristine/." "$1"
	} || return 1
	rm -rf "$1/.git"
}
