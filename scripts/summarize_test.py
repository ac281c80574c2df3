#!/usr/bin/env python3
"""Check that summarize.py fails a run on every defect report a pool prints.

usage: summarize_test.py POOL_SOURCE

Every message that POOL_SOURCE (our net/core/page_pool.c) prints with
pr_<level>() or WARN() is rendered the way printk would print it, put in
an otherwise passing log, and given to summarize.py. A message about a
defect must fail that log even without the WARNING line next to it (a kernel
without CONFIG_BUG prints none). The exceptions are the messages
of the parameter check, which tests provoke on purpose: they must not
fail a run. The base pool's stall message must fail it too, as must a
checker that switches itself off (but DMA-API debug may, once a test
says it injects allocation faults), a UML kernel killed for time and a
kunit.py that failed. A saved log of a boot that died must fail with its
cause quoted.
Every failure is listed again above the totals.

Prints one 'PASS name' or 'FAIL name' line a case, diagnostics after '#'.
"""
import contextlib
import io
import os
import re
import sys
import tempfile

import summarize

# The function whose messages report bad input from a caller, not a defect.
PARAM_CHECK = 'pp_check_params'
BASE_STALL = ('page_pool_release_retry() stalled pool shutdown 3 inflight '
              '60 sec')
CALL = re.compile(r'\b(pr_(?:emerg|alert|crit|err|warn|notice|info)|'
                  r'WARN(?:_ONCE)?)\s*\(')
FUNC = re.compile(r'^[a-z][^;(]*\b(\w+)\(', re.M)
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
SPEC = re.compile(r'%([-#0 +]*\d*(?:\.\d+)?(?:hh|h|ll|l|z)?)([diuxXsp])')
PASSING = 'TAP version 13\n1..1\nok 1 a case\n'



def render(fmt):
    """printk's output for fmt, with made-up arguments."""
    def one(m):
        flags, conv = m.group(1), m.group(2)
        if conv == 'p':
            return '000000001b7e52c1'
        if conv == 's':
            return 'xyz'
        if conv in 'xX':
            return ('0x' if '#' in flags else '') + '1f'
        return '3'
    return SPEC.sub(one, fmt.replace('\\n', '\n')).rstrip('\n')


def messages(path):
    """(function, call, printed line) for each message in the C file."""
    with open(path) as f:
        text = f.read()
    funcs = [(m.start(), m.group(1)) for m in FUNC.finditer(text)]
    for m in CALL.finditer(text):
        func = ([n for pos, n in funcs if pos < m.start()] or ['?'])[-1]
        # The format is the first string literal of the call: join the
        # pieces a long format is split into.
        rest = text[m.end():]
        first = LITERAL.search(rest)
        if not first:
            continue
        fmt, pos = first.group(1), first.end()
        while True:
            nxt = re.match(r'\s*"((?:[^"\\]|\\.)*)"', rest[pos:])
            if not nxt:
                break
            fmt += nxt.group(1)
            pos += nxt.end()
        line = render(fmt)
        if m.group(1).startswith('pr_'):
            line = 'page_pool: ' + line
        yield func, m.group(1), line


# A KCSAN report: the racing functions, then the stack of each access.
RACE = """BUG: KCSAN: data-race in {0} / {2}

{4} to 0xffff888003c2a040 of 8 bytes by task 1 on cpu 1:
 {0}+0x3c/0x90
 {1}+0x1d2/0x3e0
 kthread+0x16a/0x1a0

{5} to 0xffff888003c2a040 of 8 bytes by interrupt on cpu 0:
 {2}+0x21/0x60
 {3}+0x9a/0x1c0
 __do_softirq+0xf1/0x2e2

Reported by Kernel Concurrency Sanitizer on:
CPU: 0 PID: 25 Comm: kworker/u4:1 Not tainted 6.1.0 #1
Workqueue: events_unbound ppsim_wire_work
==================================================================="""

# A race with an interrupt handler: x86 goes on from the interrupt's
# entry into the stack of the code it interrupted.
IRQ_RACE = """BUG: KCSAN: data-race in ps2_do_sendbyte / {0}

write to 0xffff888004b3c9e8 of 2 bytes by task 33 on cpu 1:
 ps2_do_sendbyte+0x21f/0x4a0
 ps2_sendbyte+0x3e/0x60
 kthread+0x16a/0x1a0

read to 0xffff888004b3c9e8 of 2 bytes by interrupt on cpu 0:
 {0}+0x2a/0x140
 i8042_interrupt+0x27b/0x4e0
 __handle_irq_event_percpu+0x6e/0x2d0
 common_interrupt+0x7f/0xa0
 asm_common_interrupt+0x22/0x40
 {1}+0x5d/0x3e0
 kunit_try_run_case+0x8b/0x110
 kthread+0x16a/0x1a0

Reported by Kernel Concurrency Sanitizer on:
==================================================================="""

# A race with a softirq that a task of ours ran when it enabled BH again.
BH_RACE = """BUG: KCSAN: data-race in {0} / {1}

write to 0xffff888004b3c9e8 of 8 bytes by task 14 on cpu 1:
 {0}+0x21f/0x4a0
 kthread+0x16a/0x1a0

read to 0xffff888004b3c9e8 of 8 bytes by interrupt on cpu 0:
 {1}+0x2a/0x140
 __do_softirq+0xf1/0x2e2
 do_softirq+0x5a/0x80
 __local_bh_enable_ip+0x64/0x70
 {2}+0x5d/0x3e0
 kthread+0x16a/0x1a0

Reported by Kernel Concurrency Sanitizer on:
==================================================================="""

# 6.1's hrtimer sleeper race, met by a thread of ours in usleep_range().
HRTIMER_RACE = """BUG: KCSAN: data-race in hrtimer_wakeup / {0}

write to 0xffff8880404efe70 of 8 bytes by interrupt on cpu 1:
 hrtimer_wakeup+0x29/0x48
 __hrtimer_run_queues+0x126/0x197
 hrtimer_run_queues+0x87/0x9e
 update_process_times+0x35/0x91
 tick_handle_periodic+0x2e/0x72
 __sysvec_apic_timer_interrupt+0x72/0x82
 sysvec_apic_timer_interrupt+0x57/0x72
 asm_sysvec_apic_timer_interrupt+0x16/0x20
 delay_tsc+0x3e/0x79
 kcsan_setup_watchpoint+0x251/0x410
 schedule_hrtimeout_range_clock+0x109/0x17e
 usleep_range_state+0x87/0x98
 pp_ring_stress_thread+0xd1/0x10f
 kthread+0x159/0x161

{1} to 0xffff8880404efe70 of 8 bytes by task 134 on cpu 1:
 {0}+0x109/0x17e
 schedule_hrtimeout_range+0x31/0x44
 usleep_range_state+0x87/0x98
 pp_ring_stress_thread+0xd1/0x10f
 kthread+0x159/0x161

Reported by Kernel Concurrency Sanitizer on:
==================================================================="""

# The report KCSAN makes when it saw only one of the accesses.
UNKNOWN_ORIGIN = """BUG: KCSAN: data-race in {0}+0x1c/0x11f

race at unknown origin, with read to 0xffff888004a1e0c8 of 8 bytes by task 92 on cpu 0:
 {0}+0x1c/0x11f
 {1}+0x5e/0xa0
 kthread+0x16a/0x1a0

value changed: 0x0000000000000e7f -> 0x0000000000000e80

Reported by Kernel Concurrency Sanitizer on:
==================================================================="""


def race(first, second, first_caller='worker_thread',
         second_caller='run_timer_softirq', access='write',
         second_access='read'):
    return RACE.format(first, first_caller, second, second_caller, access,
                       second_access)


DMA_DEBUG_OFF = 'DMA-API: cacheline tracking ENOMEM, dma-debug disabled'
KMEMLEAK_OFF = ('kmemleak: Cannot allocate a kmemleak_object structure\n'
                'kmemleak: Kernel memory leak detector disabled')


def run(*logs):
    """summarize.py's status and output lines on logs with these texts."""
    paths = []
    for text in logs:
        with tempfile.NamedTemporaryFile('w', suffix='.log',
                                         delete=False) as f:
            f.write(text)
        paths.append(f.name)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            rc = summarize.main(['summarize.py'] + paths)
    finally:
        for path in paths:
            os.unlink(path)
    return rc, out.getvalue().splitlines()


def fails(report):
    """Does summarize.py fail a passing log that also shows report?"""
    return run(PASSING + ''.join('[   12.345678] %s\n' % x
                                 for x in report.split('\n')))[0] != 0


def recap(*logs):
    """The lines summarize.py lists under 'what failed:' for these logs."""
    lines = run(*logs)[1]
    if 'what failed:' not in lines:
        return []
    return lines[lines.index('what failed:') + 1:-2]


# printf '\nboot-um: timed out after %ss\n' ...
KILLED_PRINTF = re.compile(r"printf '\\n(\S+-um: timed out after %ss)\\n'")


def killed_lines():
    """What the UML boot scripts write into a log when time runs out."""
    here = os.path.dirname(os.path.abspath(__file__))
    found = []
    for script in ('boot-um.sh', 'kunit-um.sh'):
        with open(os.path.join(here, script)) as f:
            found += [m.group(1) % '600' for m in KILLED_PRINTF.finditer(
                f.read())]
    return found


# echo "kunit-py: kunit.py exited with $rc; its last lines:"
KUNIT_PY_ECHO = re.compile(r'echo "(kunit-py: kunit\.py exited with )\$rc'
                           r'([^"]*)"')


def kunit_py_lines():
    """What kunit-py.sh writes into its log when kunit.py fails."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, 'kunit-py.sh')) as f:
        return [m.group(1) + '1' + m.group(2)
                for m in KUNIT_PY_ECHO.finditer(f.read())]


# Saved consoles of boots that died before their tests ran, and the line
# that names why, which the summary must quote. um-ptrace-fp.log: a UML
# kernel whose FP state is shorter than the host's XSAVE area, as on an
# AMX host before the um patch; um-init-segfault.log: an init that faults.
DIED = [
    ('um-ptrace-fp.log',
     'userspace - ptrace set fp regs failed, errno = 14'),
    ('um-init-segfault.log', 'init-segv[1]: segfault at 0 '),
]


def problems(text):
    """The PROBLEM lines summarize.py prints for a log with this text
    (above its recap of the failures, which repeats them)."""
    lines = run(text)[1]
    if 'what failed:' in lines:
        lines = lines[:lines.index('what failed:')]
    return [x for x in lines if 'PROBLEM in' in x]


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    bad = 0

    def case(ok, name, detail=''):
        nonlocal bad
        print('%s %s' % ('PASS' if ok else 'FAIL', name))
        if not ok:
            bad += 1
            if detail:
                print('# ' + detail)

    found = list(messages(argv[1]))
    defects = [x for x in found if x[0] != PARAM_CHECK]
    inputs = [x for x in found if x[0] == PARAM_CHECK]
    case(not fails(''), 'a passing log without reports passes')
    case(fails(BASE_STALL), 'the base pool stall message fails a run')
    case(fails('watchdog: BUG: soft lockup - CPU#0 stuck for 22s! '
               '[ppsim_rx:93]'), 'a soft lockup fails a run')
    case(fails('INFO: task ppsim_rx:93 blocked for more than 120 seconds.'),
         'a hung task fails a run')
    killed = killed_lines()
    case(len(killed) == 2, 'boot-um.sh and kunit-um.sh say when they kill '
         'a kernel', repr(killed))
    for line in killed:
        case(fails(line), 'a run fails on: %s' % line)
        case(not fails('ok 9 summarize: a run fails on: ' + line),
             'a test result that quotes it does not fail a run: %s' % line)
    said = kunit_py_lines()
    case(len(said) >= 1, 'kunit-py.sh says when kunit.py fails', repr(said))
    for line in said:
        case(fails(line), 'a run fails on: %s' % line)
        case(not fails('ok 9 summarize: a run fails on: ' + line),
             'a test result that quotes it does not fail a run: %s' % line)
    uaf = 'BUG: KASAN: use-after-free in pp_recycle'
    listed = recap(PASSING + uaf + '\n', 'TAP version 13\n1..2\nok 1 a\n',
                   'TAP version 13\n1..1\nnot ok 1 b\n', 'no TAP at all\n')
    case(len(listed) == 4 and uaf in listed[0] and
         'only 1 results' in listed[1] and listed[2].endswith('/b') and
         'no test result' in listed[3],
         'every failure of every log is listed again above the totals',
         repr(listed))
    listed = recap('TAP version 13\n1..%d\n' % (summarize.RECAP_MAX + 5) +
                   ''.join('not ok %d c%d\n' % (i, i)
                           for i in range(1, summarize.RECAP_MAX + 6)))
    case(len(listed) == summarize.RECAP_MAX + 1 and
         listed[-1].strip() == '... and 5 more above',
         'a long list of failures says how many it left out', repr(listed))
    here = os.path.dirname(os.path.abspath(__file__))
    for name, cause in DIED:
        with open(os.path.join(here, 'testdata', name)) as f:
            said = problems(f.read())
        case(len(said) == 1 and 'the kernel said: ' + cause in said[0],
             'a boot that died is failed with its cause quoted: %s' % name,
             repr(said))
    said = problems('TAP version 13\n1..2\nsh[9]: segfault at 0 ip 0\n'
                    'ok 1 a\nstuck here\n')
    case(len(said) == 1 and said[0].endswith('the log ends: stuck here'),
         'a log cut short with no cause after its last result quotes its '
         'last line', repr(said))
    case(len(defects) >= 2 and len(inputs) >= 5,
         'messages found in %s' % os.path.basename(argv[1]),
         '%d defect and %d parameter messages' % (len(defects), len(inputs)))
    for func, call, line in defects:
        case(fails(line), '%s in %s fails a run: %s' % (call, func, line))
    case(fails(race('pp_ring_claim', 'stop_other_cpus')),
         'a data race in our functions fails a run')
    case(fails(race('skb_queue_tail', 'skb_dequeue', 'ppsim_xmit',
                    'ppsim_poll')),
         'two of our paths racing in a kernel helper fail a run')
    case(fails(race('skb_add_rx_frag', 'skb_copy_datagram_iter',
                    'ppsim_poll', 'udp_recvmsg')),
         'a kernel helper racing for us with the stack fails a run')
    case(fails(race('page_zonenum', 'stop_other_cpus', 'pp_ring_claim',
                    access='assert no writes')),
         'a failed KCSAN assertion in our code fails a run')
    case(fails(UNKNOWN_ORIGIN.format('ppsim_rxq_stats_read',
                                     'ppsim_get_stats')),
         'a race of ours at unknown origin fails a run')
    case(not fails(race('cpumask_empty', 'stop_other_cpus')),
         'a data race in the base kernel alone does not fail a run')
    case(not fails(UNKNOWN_ORIGIN.format('_find_first_bit', 'rcu_gp_kthread')),
         'a base kernel race at unknown origin does not fail a run')
    case(not fails(IRQ_RACE.format('ps2_handle_ack', 'pp_ring_claim')),
         'a base kernel race in an interrupt that stopped our code does '
         'not fail a run')
    case(fails(IRQ_RACE.format('ppsim_irq', 'schedule')),
         'a race in our interrupt handler fails a run')
    case(not fails(BH_RACE.format('rcu_gp_kthread', 'rcu_core',
                                  'ppsim_wire_work')),
         'a base kernel race in a softirq our task ran does not fail a run')
    case(fails(BH_RACE.format('rcu_gp_kthread', 'ppsim_poll', 'kthread')),
         'a race in our softirq handler run at BH enable fails a run')
    case(not fails(race('queue_delayed_work_on', 'worker_thread',
                        'ppsim_poll', 'kthread', 'read-write (marked)')),
         'the known workqueue race under our NAPI does not fail a run')
    case(not fails(race('move_linked_works', 'queue_delayed_work_on',
                        'process_one_work', 'ppsim_poll', 'read',
                        'read-write (marked)')),
         'the workqueue handing a running work over does not fail a run')
    case(fails(race('move_linked_works', 'queue_delayed_work_on',
                    'process_one_work', 'ppsim_poll', 'write',
                    'read-write (marked)')),
         'a plain write in the hand-over of a work fails a run')
    case(fails(race('queue_delayed_work_on', 'worker_thread',
                    'ppsim_poll', 'kthread', 'write')),
         'a plain write racing the workqueue from our code fails a run')
    case(fails(race('queue_delayed_work_on', 'worker_thread',
                    'ppsim_poll', 'kthread', 'read-write (marked)',
                    'write')),
         'the workqueue writing where it only reads fails a run')
    case(not fails(HRTIMER_RACE.format('schedule_hrtimeout_range_clock',
                                       'read')),
         'the known hrtimer sleeper race under our thread does not fail a '
         'run')
    case(fails(HRTIMER_RACE.format('schedule_hrtimeout_range_clock',
                                   'write')),
         'the hrtimer sleeper writing where it only reads fails a run')
    case(fails(HRTIMER_RACE.format('pp_ring_stress_thread', 'read')),
         'a plain read of ours racing hrtimer_wakeup fails a run')
    one_stack = re.sub(r'\nread to .*\n(.*\n)*? __do_softirq\S*\n', '\n',
                       race('cpumask_empty', 'stop_other_cpus'))
    case(fails(one_stack), 'a race report missing an access fails a run')
    raw = re.sub(r'\S+\+0x[0-9a-f]+/0x[0-9a-f]+', '0xffffffff8114d070',
                 race('0xffffffff81155a7c', '0xffffffff8125ef29'))
    case(fails(raw), 'a data race without function names fails a run')
    case(fails(DMA_DEBUG_OFF), 'DMA-API debug switching itself off fails '
         'a run')
    case(not fails('# ppsim_faults: allocation faults on\n' + DMA_DEBUG_OFF),
         'DMA-API debug switching itself off under injected faults passes')
    case(fails(KMEMLEAK_OFF), 'kmemleak switching itself off fails a run')
    for func, call, line in inputs:
        case(not fails(line), '%s in %s passes: %s' % (call, func, line))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
