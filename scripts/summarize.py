#!/usr/bin/env python3
"""Count the results of every (K)TAP log given and check kernel logs.

usage: summarize.py [--expect NAME=COUNT ...] LOG...

Each leaf result counts once: a parameterised KUnit case counts each of
its parameters, not the case itself. A skip whose reason starts with
XFAIL is an expected failure, counted and named apart. A log fails as a
whole (one failure) when it shows a kernel report (BUG, WARNING, KASAN,
KCSAN, kmemleak, lockdep, DMA-API debug, panic, a pool's report of lost
pages), when its TAP plan is not complete, when it has no result at all,
when a UML kernel was killed for time, or when kunit.py (kunit-py.sh)
failed; such a log quotes the line that names why it stopped (see
CAUSES). A KCSAN report whose racing
accesses the base kernel makes in its own code, or that KNOWN_RACES
lists, is listed but not counted (see foreign_race()). Prints one line
per suite, then every failure again (the tail of a CI log names them),
and ends with 'N passed, N failed'. Exits 1 if anything failed.
"""
import re
import sys

TIMESTAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')
RESULT = re.compile(r'^(not ok|ok) (\d+)(?: -)? ?([^#]*?)\s*(?:#\s*(\S+)\s*(.*))?$')
PLAN = re.compile(r'^1\.\.(\d+)')
REPORTS = [
    re.compile(p) for p in (
        r'^BUG[: ]', r'^WARNING[: ]', r'^Kernel panic', r'^Oops',
        r'^general protection fault', r'KASAN', r'kmemleak: \d+ new suspected',
        r'^unreferenced object', r'DMA-API: .*(leak|pending)',
        r'possible (circular|recursive) locking', r'^INFO: (possible|task)',
        r'inconsistent lock state', r'^dma-api-debug: error_count [1-9]',
        # The soft lockup detector prefixes its BUG line.
        r'^watchdog: BUG: soft lockup',
        # What the pools print about pages they lost count of, with or
        # without the WARNING line (a kernel without CONFIG_BUG prints
        # none): the base pool's and ours.
        r'^page_pool_release_retry\(\) stalled',
        r'^page_pool: pool \S+: -?\d+ pages still in flight',
        r'^page_pool \S+: -?\d+ more pages released than held',
        # A checker that switched itself off checks nothing after.
        r'kmemleak: Cannot allocate', r'leak detector disabled',
    )
]

# What boot-um.sh and kunit-um.sh write, on a line of its own, when they
# kill a UML kernel for time: a problem even after the last result (a
# hang at poweroff).
KILLED = re.compile(r'^(boot|kunit)-um: timed out after \S+$')

# What kunit-py.sh writes, on a line of its own, when the tree's kunit.py
# fails: a config its kunitconfig cannot give, a build error, a run its
# own parser fails, or an error of kunit.py itself. A problem even when
# the console it leaves shows no failed case.
KUNIT_PY_FAILED = re.compile(r'^kunit-py: kunit\.py exited with \d+')

# Lines a kernel prints as it dies, or that name why a boot cannot go on:
# quoted, the first of them, when a log stops before its tests finish.
CAUSES = [
    re.compile(p) for p in (
        # UML's loop around its userspace processes (ptrace refused).
        r'^userspace - .*failed',
        r'^(copy_context_skas0|get_skas_faultinfo|start_userspace)\b.* '
        r'failed',
        # A process killed by a fault (show_unhandled_signals).
        r'^\S+\[\d+\]: segfault at ',
        r'^Kernel panic - not syncing: ',
        r'^(BUG[: ]|Oops|general protection fault)',
        r'^Failed to execute /init|^No working init found',
        r'^Out of memory: Killed process',
        r'^qemu-system-\w+: ',
    )
]
QEMU = re.compile(r'^qemu-system-\w+: ')

# DMA-API debug switches itself off when its own atomic allocations fail.
# That is expected once a test makes every atomic allocation fail, and
# says so with FAULTS_ON; anywhere else it is a report.
CHECKER_OFF = re.compile(r'DMA-API: .*(dma-debug disabled|out of memory)')
FAULTS_ON = re.compile(r'# ppsim_faults: allocation faults on$')

# Reports the base 6.1 kernel itself makes, whatever the pool: a report
# line is forgiven when one of the next few lines matches. Keep this list
# short and say why each entry is there.
KNOWN = [
    # UML 6.1 walks the maple tree without the RCU read lock when init
    # first forks (lockdep's RCU checks, every boot with a userspace).
    (re.compile(r'^WARNING: suspicious RCU usage'),
     re.compile(r'^lib/maple_tree\.c:\d+ suspicious rcu_dereference')),
]


# A KCSAN report is ours when a function of ours is in the stack of one
# of its racing accesses (lines outside those stacks, such as a kworker's
# "Workqueue:" line, do not count; an interrupt's stack counts up to its
# entry, see below); the others are races the base kernel has in its own
# code, listed but not counted. A report whose stacks do not parse as
# expected is counted.
KCSAN = re.compile(r'^BUG: KCSAN: ')
KCSAN_END = re.compile(r'^={20,}$')
ACCESS = re.compile(r'\b(assert no (writes|accesses)|read-write|read|write)'
                    r'( \([\w, ]+\))* to 0x[0-9a-f]+ of \d+ bytes by ')
OURS = re.compile(r'\b(page_pool|pp_|ppsim|mlx[45])\w*')
TWO_ACCESSES = re.compile(r'^BUG: KCSAN: data-race in \S+ / \S+$')

# Races of the base 6.1 kernel that our code only triggers through the
# API, as (function making the write, how it writes: 'marked' or a plain
# 'write', function making the plain read). Keep this list short and say
# why each entry is there.
KNOWN_RACES = [
    # worker_thread() tests WORK_STRUCT_LINKED in the data word of the
    # work at the head of its list with a plain read, under pool->lock;
    # queue_delayed_work_on() test-and-sets PENDING in that word without
    # the lock. A queued work already has PENDING set, so the word does
    # not change: strict KCSAN reports it anyway. ppsim queues its wire
    # work from NAPI, and any driver requeueing its work does the same.
    ('queue_delayed_work_on', 'marked', 'worker_thread'),
    # The same word, read plainly by move_linked_works() when the work
    # at the head is LINKED, or when process_one_work() finds it already
    # running on another worker and hands it over: rarer, same race.
    ('queue_delayed_work_on', 'marked', 'move_linked_works'),
    # hrtimer_wakeup() clears the sleeper's task with a plain store from
    # the timer interrupt; schedule_hrtimeout_range_clock() tests it with
    # a plain load before it schedules. Any task in usleep_range() can
    # meet it: the ring stress case's threads sleep there.
    ('hrtimer_wakeup', 'write', 'schedule_hrtimeout_range_clock'),
]


def writes_as(access, how):
    """Is the access line a write of the kind a KNOWN_RACES entry names?"""
    if how == 'marked':
        return '(marked)' in access
    return access.lstrip().startswith('write to ')


FRAME = re.compile(r'^\s*[A-Za-z_][\w.]*\+0x[0-9a-f]+/0x[0-9a-f]+')

# The stack of an access made in an interrupt goes on, past its entry,
# into whatever the interrupt stopped: frames that made no part of the
# access. The entry is the x86 stub of a hard IRQ (asm_common_interrupt,
# asm_sysvec_*), or __do_softirq for softirqs, which KCSAN calls
# interrupts too, wherever they run: on IRQ exit, in ksoftirqd, or in
# the task that enabled BH again (with no stub in the stack).
BY_INTERRUPT = re.compile(r' by interrupt on cpu \d+:$')
IRQ_ENTRY = re.compile(r'^(asm_(common_interrupt|spurious_interrupt|'
                       r'sysvec_\w+)|__do_softirq)$')


def access_stacks(lines, i):
    """The access lines and symbolized frames of the KCSAN report at i."""
    stacks = []
    frames = None
    for x in lines[i + 1:i + 200]:
        if KCSAN_END.search(x):
            break
        if ACCESS.search(x):
            frames = []
            stacks.append((x, frames))
            in_irq = bool(BY_INTERRUPT.search(x))
        elif not x.strip():
            frames = None
        elif frames is not None and FRAME.search(x):
            name = x.strip().split('+')[0]
            if in_irq and IRQ_ENTRY.search(name):
                frames = None
            else:
                frames.append(name)
    return stacks


def known_race(stacks):
    if len(stacks) != 2:
        return False
    (a, fa), (b, fb) = stacks
    for writer, how, reader in KNOWN_RACES:
        for (xa, xfa), (xb, xfb) in (((a, fa), (b, fb)), ((b, fb), (a, fa))):
            if (xfa[0] == writer and writes_as(xa, how) and
                    xfb[0] == reader and xb.lstrip().startswith('read to ')):
                return True
    return False


def foreign_race(lines, i):
    """Is lines[i] a KCSAN report whose racing accesses are not ours?"""
    if not KCSAN.search(lines[i]):
        return False
    stacks = access_stacks(lines, i)
    want = 2 if TWO_ACCESSES.search(lines[i]) else 1
    if len(stacks) != want or not all(f for _, f in stacks):
        return False
    if known_race(stacks):
        return True
    return not any(OURS.search(f) for _, frames in stacks for f in frames)


def known(lines, i):
    for trigger, context in KNOWN:
        if trigger.search(lines[i]) and any(
                context.search(x) for x in lines[i + 1:i + 6]):
            return True
    return False


def strip(line):
    line = line.rstrip('\n').replace('\r', '')
    return TIMESTAMP.sub('', line)


def parse(path):
    """Return (suites, reports, problems) for one log."""
    with open(path, errors='replace') as f:
        lines = [strip(x) for x in f]
    suites = {}
    reports = []
    faults_on = False
    for i, ln in enumerate(lines):
        faults_on = faults_on or bool(FAULTS_ON.search(ln))
        if CHECKER_OFF.search(ln):
            if faults_on:
                print('    note: DMA-API debug off under injected faults, '
                      'in %s: %s' % (path, ln))
            else:
                reports.append(ln)
            continue
        if not any(r.search(ln) for r in REPORTS) or known(lines, i):
            continue
        if foreign_race(lines, i):
            print('    note: a race of the base kernel, not counted, in %s: %s'
                  % (path, ln))
        else:
            reports.append(ln)
    problems = ['killed for time (%s)' % m.group(0) for m in
                map(KILLED.search, lines) if m]
    problems += ['%s' % m.group(0) for m in
                 map(KUNIT_PY_FAILED.search, lines) if m]
    # results[depth] = list of (ok, skip, reason, name) since last parent
    pending = {}
    plans = {}
    counted = {}
    names = {}
    seen_tap = False
    for raw in lines:
        body = raw.lstrip(' ')
        if body.startswith(('KTAP version', 'TAP version')):
            seen_tap = True
            continue
        if not seen_tap:
            continue
        depth = (len(raw) - len(body)) // 4
        m = re.match(r'^# Subtest: (.*)', body)
        if m:
            names[depth + 1] = m.group(1).strip()
            continue
        m = PLAN.match(body)
        if m:
            # A second program's plan in the same log: the first one's
            # must be complete before its count starts again.
            if counted.get(depth, 0) < plans.get(depth, 0):
                problems.append('plan 1..%d at depth %d, only %d results'
                                % (plans[depth], depth, counted[depth]))
            plans[depth] = int(m.group(1))
            counted[depth] = 0
            continue
        m = RESULT.match(body)
        if not m:
            continue
        ok = m.group(1) == 'ok'
        name = m.group(3).strip()
        directive = (m.group(4) or '').upper()
        reason = (m.group(5) or '').strip()
        counted[depth] = counted.get(depth, 0) + 1
        children = pending.pop(depth + 1, [])
        if children:
            # A parent: its leaves were counted already; a failed
            # parent with passing children still fails (e.g. a crash).
            if not ok and all(c[0] for c in children):
                children.append((False, False, 'parent failed', name))
            suite = name if depth == 0 else names.get(depth, name)
            if depth == 0:
                suites.setdefault(name, []).extend(children)
            else:
                pending.setdefault(depth, []).extend(
                    (c[0], c[1], c[2], name + '/' + c[3]) for c in children)
            continue
        skip = directive == 'SKIP'
        pending.setdefault(depth, []).append((ok, skip, reason, name))
    # Top-level results without a KUnit parent (plain TAP selftests).
    for depth, items in pending.items():
        suite = names.get(depth, path.split('/')[-1])
        suites.setdefault(suite, []).extend(items)
    for depth, plan in plans.items():
        if counted.get(depth, 0) < plan:
            problems.append('plan 1..%d at depth %d, only %d results'
                            % (plan, depth, counted.get(depth, 0)))
    if not suites:
        problems.append('no test result')
    if problems:
        problems[-1] += last_words(lines)
    return suites, reports, problems


def last_words(lines):
    """What a log that stopped early says about why: the first line after
    its last result that names a cause (what follows it is its
    consequence) and is no known report of the base kernel; else its
    last line."""
    results = [i for i, x in enumerate(lines) if RESULT.match(x.lstrip())]
    start = results[-1] + 1 if results else 0
    for i in range(start, len(lines)):
        if any(c.search(lines[i]) for c in CAUSES) and not known(lines, i):
            who = 'log' if QEMU.search(lines[i]) else 'kernel'
            return '; the %s said: %s' % (who, lines[i])
    text = [x for x in lines if x.strip()]
    return '; the log ends: %s' % text[-1] if text else '; the log is empty'


# Failure lines listed again at the end, at most.
RECAP_MAX = 20


def main(argv):
    logs = argv[1:]
    passed = failed = skipped = 0
    xfails = []
    # Every failure again at the end, where a CI page that shows only the
    # tail of the output still shows it.
    recap = []

    def bad(line):
        print(line)
        recap.append(line.strip())

    for path in logs:
        try:
            suites, reports, problems = parse(path)
        except OSError as e:
            suites, reports, problems = {}, [], ['cannot read: %s' % e]
        for suite, items in sorted(suites.items()):
            p = sum(1 for ok, skip, _, _ in items if ok and not skip)
            s = [(r, n) for ok, skip, r, n in items if ok and skip]
            f = [n for ok, skip, _, n in items if not ok]
            x = [(n, r) for r, n in s if r.upper().startswith('XFAIL')]
            passed += p
            failed += len(f)
            skipped += len(s) - len(x)
            xfails += x
            print('%-28s %3d passed, %3d failed, %2d skipped, %2d xfail  (%s)'
                  % (suite, p, len(f), len(s) - len(x), len(x), path))
            for n in f:
                bad('    FAILED: %s/%s' % (suite, n))
        for r in reports[:20]:
            bad('    KERNEL REPORT in %s: %s' % (path, r))
        for pr in problems:
            bad('    PROBLEM in %s: %s' % (path, pr))
        if reports or problems:
            failed += 1
    for n, r in xfails:
        print('expected failure: %s (%s)' % (n, r))
    if recap:
        print('what failed:')
        for line in recap[:RECAP_MAX]:
            print('    ' + line)
        if len(recap) > RECAP_MAX:
            print('    ... and %d more above' % (len(recap) - RECAP_MAX))
    print('%d skipped, %d expected failures' % (skipped, len(xfails)))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
