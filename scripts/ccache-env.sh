# shellcheck shell=bash
# Sourced by the scripts that compile kernel code: every gcc they start
# goes through ccache when it is installed, with the cache outside the
# checkout, so that a fresh clone (CI after a session) reuses the objects
# an earlier clone compiled. BASEDIR turns the clone's absolute paths into
# relative ones and NOHASHDIR keeps the working folder out of the hash:
# together they make a clone's path irrelevant to a hit. Set CCACHE=0 to
# compile without it.
if [ "${CCACHE:-1}" != 0 ] && [ -x /usr/lib/ccache/gcc ]; then
	case ":$PATH:" in
	*:/usr/lib/ccache:*) ;;
	*) PATH=/usr/lib/ccache:$PATH ;;
	esac
	export PATH
	export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/page_pool-ccache}
	CCACHE_BASEDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	export CCACHE_BASEDIR
	export CCACHE_NOHASHDIR=true
	# Four kernels and the users' objects, compressed: about 250 MB.
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
fi
# BASEDIR hands gcc the source as ../src-VARIANT/FILE, which the kernel's
# own -fmacro-prefix-map (the absolute tree) misses: map it too, so that
# __FILE__ in WARN()s and KUnit messages stays FILE. Set with or without
# ccache, so that turning it off does not change every command line.
case " ${KCFLAGS:-} " in
*" -fmacro-prefix-map=../src-ours/= "*) ;;
*) KCFLAGS="${KCFLAGS:+$KCFLAGS }-fmacro-prefix-map=../src-ours/= -fmacro-prefix-map=../src-base/=" ;;
esac
export KCFLAGS
# Binutils' nm loads every plugin in /usr/lib/bfd-plugins each time it
# starts, LLVM's gold plugin (there wherever clang is) included: 0.1 s a
# run, and kbuild runs nm on every object it compiles (check-local-export),
# a third of a kernel build's time on a warm cache. gcc-nm names gcc's own
# plugin, so nm loads only that one, and prints the same. Kernel makes
# take NM="$KBUILD_NM".
KBUILD_NM="nm"
command -v gcc-nm >/dev/null 2>&1 && KBUILD_NM=gcc-nm
export KBUILD_NM
