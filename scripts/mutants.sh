#!/bin/bash
# mutants.sh [--dry-run] [--only N[,N..]] [--stage S] [--no-baseline]:
# the project's mutation run. Each mutant of scripts/mutants.txt, a bug
# a reviewer could miss, is applied in turn to a scratch copy of the
# checkout (never to the checkout), the stage named for it runs there,
# and the file is restored. Prints a line per mutant, then 'killed K of
# N' and the survivors. Exits 1 if a mutant survived, is BROKEN (its text
# is not in its file exactly once, or its patch no longer applies), or
# a stage could not run at all.
#
# --dry-run checks the list against the checkout only, in seconds: each
# mutant's text occurs once, its filter names a suite, and with each
# driver mutant the patch series still applies, as prepare-tree.sh
# applies it, and changes the tree.
# --only and --stage pick mutants by number and by stage. Each stage
# first runs once unmutated (--no-baseline skips that): a stage that
# fails on its own would make every kill meaningless.
#
# The scratch copy is build/mutants/tree: the checkout's files, tracked
# and new but not ignored (what prepare-tree.sh overlays), as they are in
# the working tree, brought up to date at each start. Its build/ is its
# own, with a hard-linked copy of the checkout's pristine
# build/linux-source-6.1, so nothing is unpacked twice. Its kernels are
# built there on first use, through the compiler cache (ccache-env.sh),
# and then a mutant costs the rebuild of the file it changes. Logs go to
# build/mutants/logs/: N-STAGE.log (the stage's console or TAP) and
# N-STAGE.out (the stage's own output and the summary of its log).
set -uo pipefail
# The stages' own knobs: a mutant runs each stage as make test does.
unset FILTER TIMEOUT

top=$(cd "$(dirname "$0")/.." && pwd)
list=$top/scripts/mutants.txt
mut=$top/build/mutants
tree=$mut/tree
logs=$mut/logs
usage="usage: mutants.sh [--dry-run] [--only N[,N..]] [--stage ring|kunit-um|ppsim-um|kunit-x86_64] [--no-baseline]"

dry=0 only='' stage_only='' baseline=1
while [ $# -gt 0 ]; do
	case $1 in
	--dry-run) dry=1 ;;
	--only) only=${2:?$usage}; shift ;;
	--only=*) only=${1#--only=} ;;
	--stage) stage_only=${2:?$usage}; shift ;;
	--stage=*) stage_only=${1#--stage=} ;;
	--no-baseline) baseline=0 ;;
	-h|--help) echo "$usage"; exit 0 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
	shift
done

# Parsing the list, applying a mutant and the dry-run's checks, in
# Python: the texts are arbitrary code, which bash would mangle.
helper=$(cat <<'EOF'
import filecmp, fnmatch, os, re, shutil, subprocess, sys, tempfile

# In the order they run: each kernel is built once and reused.
STAGES = ('ring', 'kunit-um', 'ppsim-um', 'kunit-x86_64')
FIELDS = ('file', 'stage', 'why', 'old', 'new')
OPTIONAL = ('filter',)


def die(msg):
    sys.stderr.write('mutants: %s\n' % msg)
    sys.exit(2)


def parse(path):
    muts, cur = [], None

    def close():
        nonlocal cur
        if cur is None:
            return
        where = '%s:%d' % (path, cur['line'])
        missing = [k for k in FIELDS if k not in cur]
        if 'filter' in cur and not cur['stage'].startswith('kunit-'):
            die('%s: a filter is for the kunit stages' % where)
        if missing:
            die('%s: mutant without %s' % (where, ', '.join(missing)))
        if cur['stage'] not in STAGES:
            die('%s: unknown stage %r' % (where, cur['stage']))
        if cur['old'] == cur['new']:
            die('%s: the replacement is the text itself' % where)
        cur['n'] = len(muts) + 1
        muts.append(cur)
        cur = None

    with open(path) as f:
        for i, raw in enumerate(f, 1):
            line = raw.rstrip('\n')
            if line.startswith('#'):
                continue
            if not line.strip():
                close()
                continue
            if cur is None:
                cur = {'line': i}
            m = re.match(r'(file|stage|why|filter):(.*)$', line)
            if m:
                key, text = m.group(1), m.group(2).strip()
            elif line[:1] in '-+' and line[1:2] in ('', ' '):
                key, text = ('old' if line[0] == '-' else 'new'), line[2:]
                if '\t' in text or text != text.strip():
                    die('%s:%d: a tab, or a space at an end, in the text'
                        % (path, i))
            else:
                die('%s:%d: not a field: %s' % (path, i, line))
            if key in cur:
                die('%s:%d: a second %s' % (path, i, key))
            if not text and key != 'new':
                die('%s:%d: empty %s' % (path, i, key))
            cur[key] = text
    close()
    return muts


def select(muts, only, stage):
    sel = muts
    if only:
        want = set()
        for part in only.split(','):
            if not part.strip().isdigit():
                die('--only: %r is not a number' % part)
            n = int(part)
            if not 1 <= n <= len(muts):
                die('--only: there is no mutant %d (1 to %d)' % (n, len(muts)))
            want.add(n)
        sel = [m for m in sel if m['n'] in want]
    if stage:
        if stage not in STAGES:
            die('--stage: unknown stage %r' % stage)
        sel = [m for m in sel if m['stage'] == stage]
    return sorted(sel, key=lambda m: (STAGES.index(m['stage']), m['n']))


def read(path):
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        return f.read()


def write(path, text):
    with open(path, 'w', encoding='utf-8', errors='surrogateescape') as f:
        f.write(text)


def mutate(m, text):
    """@text with @m applied, or raise ValueError saying why not."""
    k = text.count(m['old'])
    if k != 1:
        raise ValueError('the text occurs %d times in %s' % (k, m['file']))
    if m['file'].startswith('patches/'):
        # Only what the patch adds: a context or '-' line would just
        # make the patch fail.
        at = text.index(m['old'])
        line = text[text.rfind('\n', 0, at) + 1:]
        if not line.startswith('+') or line.startswith('+++'):
            raise ValueError('the text is not in a + line of the patch')
    return text.replace(m['old'], m['new'], 1)


def cmd_plan(path, only, stage):
    for m in select(parse(path), only, stage):
        print('\t'.join((str(m['n']), m['stage'], m.get('filter', '-'),
                         m['file'], m['why'])))


def cmd_apply(path, n, root):
    m = parse(path)[int(n) - 1]
    target = os.path.join(root, m['file'])
    try:
        write(target, mutate(m, read(target)))
    except (OSError, ValueError) as e:
        print(e)
        sys.exit(3)


# ---- the dry-run: the series applied as prepare-tree.sh applies it ----

def series(root):
    with open(os.path.join(root, 'patches', 'series')) as f:
        return [p.strip() for p in f
                if p.strip() and not p.strip().startswith('#')]


def touched(text):
    return re.findall(r'^\+\+\+ b/(\S+)', text, re.M)


def pristine_copies(root, names, pristine, tarball, into):
    """The pristine versions of the files the series touches, in @into."""
    if os.path.isfile(os.path.join(pristine, 'Makefile')):
        for f in names:
            src = os.path.join(pristine, f)
            if os.path.isfile(src):
                os.makedirs(os.path.dirname(os.path.join(into, f)),
                            exist_ok=True)
                shutil.copy(src, os.path.join(into, f))
        return 'build/linux-source-6.1'
    # Not unpacked yet: only these members, from the tarball prepare-tree
    # unpacks. Files the series creates are not in it.
    tmp = tempfile.mkdtemp(dir=into)
    r = subprocess.run(['tar', '-xJf', tarball, '-C', tmp] +
                       ['linux-source-6.1/' + f for f in names],
                       stderr=subprocess.PIPE, text=True)
    errs = [x for x in r.stderr.splitlines()
            if 'Not found in archive' not in x and 'previous errors' not in x]
    if r.returncode and errs:
        die('cannot read %s: %s' % (tarball, errs[0]))
    for f in names:
        src = os.path.join(tmp, 'linux-source-6.1', f)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(into, f)), exist_ok=True)
            shutil.move(src, os.path.join(into, f))
    shutil.rmtree(tmp)
    return tarball


def apply_series(root, names, texts, orig, work):
    """Apply the series (@texts by patch) in a fresh @work; None if it
    applied, else why not. Notes fuzz, which prepare-tree's patch -s
    would hide."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    fuzz = []
    for p in names:
        for f in touched(texts[p]):
            dst = os.path.join(work, f)
            if os.path.exists(dst) or not os.path.isfile(os.path.join(orig, f)):
                continue
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy(os.path.join(orig, f), dst)
        r = subprocess.run(['patch', '-p1', '-d', work,
                            '--no-backup-if-mismatch'], input=texts[p],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        if r.returncode:
            bad = [x for x in r.stdout.splitlines() if 'FAILED' in x]
            return None, '%s does not apply (%s)' % (
                p, bad[0].strip() if bad else r.stdout.strip()[:200])
        if 'fuzz' in r.stdout:
            fuzz.append(p)
    return fuzz, None


def same_tree(a, b):
    def files(d):
        out = set()
        for dp, _, fs in os.walk(d):
            out |= {os.path.relpath(os.path.join(dp, f), d) for f in fs}
        return out
    fa, fb = files(a), files(b)
    return fa == fb and all(filecmp.cmp(os.path.join(a, f),
                                        os.path.join(b, f), shallow=False)
                            for f in fa)


def cmd_check(path, root, pristine, tarball, only, stage):
    muts = parse(path)
    sel = select(muts, only, stage)
    tmp = tempfile.mkdtemp(prefix='mutants.')
    try:
        broken = check(root, sel, pristine, tarball, tmp)
    finally:
        shutil.rmtree(tmp)
    by_stage = ', '.join('%s %d' % (s, sum(m['stage'] == s for m in sel))
                         for s in STAGES)
    by_file = {}
    for m in sel:
        by_file[m['file']] = by_file.get(m['file'], 0) + 1
    print('by stage: %s' % by_stage)
    print('by file: %s' % ', '.join('%s %d' % kv for kv in by_file.items()))
    if broken:
        print('%d of %d mutants BROKEN' % (broken, len(sel)))
        sys.exit(1)
    print('%d mutants of %d checked: each applies exactly once' %
          (len(sel), len(muts)))


def suite_names(root):
    """The KUnit suites of the checkout's own files, by .name."""
    out = set()
    files = subprocess.run(['git', '-C', root, 'ls-files', '-co',
                            '--exclude-standard', '*_test.c'],
                           stdout=subprocess.PIPE, text=True).stdout.split()
    for f in files:
        text = read(os.path.join(root, f))
        for suite in re.findall(r'struct kunit_suite \w+ = \{(.*?)\n\};',
                                text, re.S):
            out |= set(re.findall(r'\.name = "([^"]+)"', suite))
    return out


def check_filter(m, suites):
    """Why @m's filter can run none of its stage's cases, or None."""
    if 'filter' not in m:
        return None
    if not any(fnmatch.fnmatchcase(s, m['filter']) for s in suites):
        return 'the filter %s names no suite (there are %s)' % (
            m['filter'], ', '.join(sorted(suites)))
    return None


def check(root, sel, pristine, tarball, tmp):
    suites = suite_names(root)
    names = series(root)
    texts = {p: read(os.path.join(root, 'patches', p)) for p in names}
    orig = os.path.join(tmp, 'pristine')
    os.makedirs(orig)
    base = os.path.join(tmp, 'base')
    if any(m['file'].startswith('patches/') for m in sel):
        files = []
        for p in names:
            files += [f for f in touched(texts[p]) if f not in files]
        src = pristine_copies(root, files, pristine, tarball, orig)
        print('the series applied to the pristine files from %s' % src)
        _, err = apply_series(root, names, texts, orig, base)
        if err:
            die('the series itself: %s' % err)
    broken = 0
    for m in sel:
        why = None
        try:
            bad_filter = check_filter(m, suites)
            if bad_filter:
                raise ValueError(bad_filter)
            new = mutate(m, read(os.path.join(root, m['file'])))
            p = os.path.basename(m['file'])
            if m['file'].startswith('patches/'):
                if p not in texts:
                    raise ValueError('%s is not in patches/series' % p)
                fuzz, err = apply_series(root, names, dict(texts, **{p: new}),
                                         orig, os.path.join(tmp, 'mutant'))
                if err:
                    raise ValueError(err)
                if same_tree(base, os.path.join(tmp, 'mutant')):
                    raise ValueError('the series applies, but the tree '
                                     'is the same')
                if fuzz:
                    why = 'note: %s applies with fuzz' % ', '.join(fuzz)
        except (OSError, ValueError) as e:
            broken += 1
            print('%3d  BROKEN  %-12s  %s: %s' % (m['n'], m['stage'],
                                                 m['file'], m['why']))
            print('           %s' % e)
            continue
        print('%3d  ok      %-12s  %s: %s' % (m['n'], m['stage'], m['file'],
                                             m['why']))
        if why:
            print('           %s' % why)
    return broken


cmd = sys.argv[1]
if cmd == 'plan':
    cmd_plan(*sys.argv[2:5])
elif cmd == 'apply':
    cmd_apply(*sys.argv[2:5])
elif cmd == 'check':
    cmd_check(*sys.argv[2:8])
else:
    die('unknown command %s' % cmd)
EOF
)
helper() {
	python3 -c "$helper" "$@"
}

if [ $dry -eq 1 ]; then
	exec python3 -c "$helper" check "$list" "$top" \
		"$top/build/linux-source-6.1" /usr/src/linux-source-6.1.tar.xz \
		"$only" "$stage_only"
fi

plan=$(helper plan "$list" "$only" "$stage_only") || exit 2
[ -n "$plan" ] || { echo "mutants: no mutant selected" >&2; exit 2; }

mkdir -p "$mut" "$logs"
# Two runs would mutate the same scratch copy under each other.
exec 9>"$mut/lock"
flock -n 9 || { echo "mutants: another run holds $mut/lock" >&2; exit 2; }

# ---- the scratch copy ----

# The checkout's files as prepare-tree.sh sees them: a file that is not
# in the checkout any more goes too. The copy is a git repository of its
# own with nothing committed, so that prepare-tree.sh's and check.sh's
# git ls-files -co list the same files there as here.
sync_tree() {
	local f n=0
	mkdir -p "$tree"
	[ -d "$tree/.git" ] || git -C "$tree" init -q || return 1
	(cd "$top" && git ls-files -co --exclude-standard |
		while read -r f; do
			[ -e "$f" ] || [ -L "$f" ] && echo "$f"
		done) | sort > "$mut/files"
	while read -r f; do
		cmp -s "$top/$f" "$tree/$f" && continue
		mkdir -p "$tree/$(dirname "$f")"
		rm -f "$tree/$f"
		cp -P "$top/$f" "$tree/$f" || return 1
		n=$((n + 1))
	done < "$mut/files"
	(cd "$tree" && find . \( -path ./build -o -path ./.git \) -prune -o \
		-type f -print | sed 's|^\./||' | sort) |
		comm -23 - "$mut/files" | while read -r f; do
			rm -f "$tree/$f"
		done
	echo "mutants: scratch copy $tree up to date ($n file(s) copied)"
	# The pristine tree: linked, not unpacked again. A checkout's copy is
	# complete once a variant's tree was made from it.
	if [ ! -f "$tree/build/linux-source-6.1/Makefile" ]; then
		mkdir -p "$tree/build"
		if [ -f "$top/build/linux-source-6.1/Makefile" ] &&
		   { [ -f "$top/build/src-ours/Makefile" ] ||
		     [ -f "$top/build/src-base/Makefile" ]; }; then
			echo "mutants: linking the checkout's build/linux-source-6.1"
			rm -rf "$tree/build/linux-source-6.1.new"
			cp -al "$top/build/linux-source-6.1" \
				"$tree/build/linux-source-6.1.new" || return 1
			rm -rf "$tree/build/linux-source-6.1"
			mv "$tree/build/linux-source-6.1.new" \
				"$tree/build/linux-source-6.1"
		else
			# The ring stage, first to run, builds against it too.
			echo "mutants: the checkout's build/linux-source-6.1 is not complete; the scratch copy unpacks its own"
			"$tree/scripts/prepare-tree.sh" ours || return 1
		fi
	fi
}

# ---- running a stage ----

stage_script() {
	case $1 in
	ring) echo ring-test.sh ;;
	*) echo "$1.sh" ;;
	esac
}

# Seconds a whole stage may take, its kernel's first build included; each
# stage also has its own limit on the kernel or the tests.
stage_limit() {
	case $1 in
	ring) echo 1800 ;;
	kunit-x86_64) echo 5400 ;;
	*) echo 3600 ;;
	esac
}

# The stage runs under timeout(1), in a process group of its own: an
# interrupted run stops it by that group, then restores the file.
child=
cur_file=
restore() {
	[ -n "$cur_file" ] || return 0
	rm -f "$tree/$cur_file"
	# Every later mutant would run on top of this one.
	if ! cp "$mut/orig" "$tree/$cur_file" ||
	   ! cmp -s "$mut/orig" "$tree/$cur_file"; then
		echo "mutants: cannot restore $tree/$cur_file" >&2
		exit 2
	fi
	# A new mtime, so that make rebuilds what the mutant changed.
	touch "$tree/$cur_file"
	cur_file=
}
# The child is waited for before the file is restored: it may be writing it.
trap '[ -z "$child" ] || { kill -TERM -- -"$child" "$child"; wait "$child"; } 2>/dev/null
	restore; echo "mutants: interrupted" >&2; exit 130' INT TERM

# apply N: apply mutant N to the scratch copy; sets msg to why not, if
# it cannot. Python itself is the child, which the trap can stop: bash
# does not wait for a command substitution on a signal, and a function
# run in the background would leave python behind.
apply() {
	python3 -c "$helper" apply "$list" "$1" "$tree" > "$mut/apply.msg" 2>&1 &
	child=$!
	wait "$child"
	local rc=$?
	child=
	msg=$(cat "$mut/apply.msg")
	return $rc
}

# built_files FILE: the names of the source files a mutant of FILE
# changes, one a line: FILE's own, or for a patch those it touches.
built_files() {
	case $1 in
	patches/*) sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$tree/$1" ;;
	*) echo "$1" ;;
	esac | xargs -r -n1 basename
}

# ran_suite GLOB OUT LOG: whether a suite GLOB matches ran: summarize.py's
# table in OUT has a row for it, with cases run, or the console LOG has
# its KTAP header, for a kernel that died inside the suite (its table
# then has a row for the log alone).
ran_suite() {
	local suite count rest
	while read -r suite count rest; do
		# shellcheck disable=SC2053 # GLOB is a pattern
		[[ $suite == $1 && $count =~ ^[0-9]+$ && $rest == passed,* ]] &&
			return 0
	done < "$2"
	while read -r suite; do
		# shellcheck disable=SC2053 # GLOB is a pattern
		[[ $suite == $1 ]] && return 0
	done < <(sed -n 's/^[[:space:]]*# Subtest: \([^[:space:]]*\).*/\1/p' "$3")
	return 1
}

# run STAGE NAME [FILTER [FILE]]: run STAGE in the scratch copy (a KUnit
# stage only the suites FILTER matches), its log NAME-STAGE.log;
# sets verdict (survived, killed, "killed (build)", BROKEN or ERROR) and
# detail.
run() {
	local stage=$1 name=$2 filter=${3:--} file=${4:-} log out rc errs
	log=$logs/$name-$stage.log
	out=$logs/$name-$stage.out
	rm -f "$log" "$out"
	if [ "$filter" = - ]; then
		filter=
		[ "$stage" != kunit-um ] || filter='page_pool*'
	fi
	FILTER=$filter timeout -k 30 "$(stage_limit "$stage")" \
		"$tree/scripts/$(stage_script "$stage")" ours "$log" > "$out" 2>&1 9>&- &
	child=$!
	wait "$child"
	rc=$?
	child=
	detail=
	# Each stage bounds its own boot and still writes its log; running
	# out of this limit means a build or the machine stalled: no kill.
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		verdict=ERROR
		detail="the stage ran out of its $(stage_limit "$stage") s: $out"
		return
	fi
	if grep -q '^prepare-tree: .* does not apply' "$out"; then
		verdict=BROKEN
		detail=$(grep -m1 '^prepare-tree: .* does not apply' "$out")
		return
	fi
	# A mutant that does not compile is a weak one: said apart. A build
	# that fails elsewhere (a full disk, the compiler cache) is no kill.
	if { [ "$stage" = ring ] && grep -q '# build failed' "$log" 2>/dev/null; } ||
	   { [ ! -f "$log" ] && grep -Eq 'error:|\*\*\* .*Error [0-9]' "$out"; }; then
		errs=$(grep -Eh 'error:' "$out" "$log" 2>/dev/null)
		if [ -n "$file" ] &&
		   grep -Fq -f <(built_files "$file") <<<"$errs"; then
			verdict="killed (build)"
		else
			verdict=ERROR
		fi
		detail=$(head -n1 <<<"$errs")
		[ -n "$detail" ] || detail="the build failed: $out"
		return
	fi
	if [ ! -f "$log" ]; then
		verdict=ERROR
		detail="the stage exited with $rc and left no log: $out"
		return
	fi
	if "$tree/scripts/summarize.py" "$log" >> "$out" 2>&1; then
		verdict=survived
	elif [ "${stage#kunit-}" != "$stage" ] && [ -n "$filter" ] &&
	     ! ran_suite "$filter" "$out" "$log"; then
		verdict=ERROR
		detail="no suite matching $filter ran: $out"
	else
		verdict=killed
		detail=$(grep -E -m1 '^ +(FAILED|KERNEL REPORT|PROBLEM)' "$out" |
			sed 's/^ *//')
	fi
}

sync_tree || { echo "mutants: cannot set up $tree" >&2; exit 2; }

total=0 killed=0 by_build=0
survivors='' broken='' errors=''
declare -A stage_n stage_k baseline_ok
start=$SECONDS
while IFS=$'\t' read -r n stage filter file why; do
	if [ $baseline -eq 1 ] && [ -z "${baseline_ok[$stage]:-}" ]; then
		t=$SECONDS
		echo "== $stage: the unmutated tree first"
		run "$stage" base
		if [ "$verdict" = survived ]; then
			baseline_ok[$stage]=1
			echo "== $stage passes unmutated ($((SECONDS - t)) s)"
		else
			baseline_ok[$stage]=0
			echo "== $stage FAILS unmutated: ${detail:-$verdict}; its mutants are not run"
		fi
	fi
	total=$((total + 1))
	stage_n[$stage]=$((${stage_n[$stage]:-0} + 1))
	line="#$n $stage $file: $why"
	if [ "${baseline_ok[$stage]:-1}" = 0 ]; then
		errors="$errors    $line (the stage fails unmutated)"$'\n'
		continue
	fi
	t=$SECONDS
	cp "$tree/$file" "$mut/orig" || exit 2
	cur_file=$file
	if apply "$n"; then
		run "$stage" "$n" "$filter" "$file"
	else
		verdict=BROKEN detail=$msg
	fi
	restore
	printf '%4s  %-16s %-12s %s: %s (%d s)\n' "#$n" "$verdict" "$stage" \
		"$file" "$why" $((SECONDS - t))
	[ -z "$detail" ] || printf '      %s\n' "$detail"
	case $verdict in
	killed*)
		killed=$((killed + 1))
		stage_k[$stage]=$((${stage_k[$stage]:-0} + 1))
		case $verdict in
		*build*) by_build=$((by_build + 1)) ;;
		esac ;;
	survived) survivors="$survivors    $line"$'\n' ;;
	BROKEN) broken="$broken    $line: $detail"$'\n' ;;
	*) errors="$errors    $line: $detail"$'\n' ;;
	esac
done <<< "$plan"

echo "== mutants: $((SECONDS - start)) s; logs in $logs"
for stage in ring kunit-um ppsim-um kunit-x86_64; do
	[ -n "${stage_n[$stage]:-}" ] || continue
	echo "$stage: killed ${stage_k[$stage]:-0} of ${stage_n[$stage]}"
done
[ -z "$survivors" ] || printf 'survived:\n%s' "$survivors"
[ -z "$broken" ] || printf 'BROKEN (the list no longer fits the code):\n%s' "$broken"
[ -z "$errors" ] || printf 'not run (the stage could not run):\n%s' "$errors"
echo "killed $killed of $total ($by_build by a build failure)"
[ -z "$survivors$broken$errors" ]
