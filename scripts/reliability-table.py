#!/usr/bin/env python3
"""The reliability figures, from the logs of make test and make stress.

usage: reliability-table.py [--out FILE] LOG...

One row a log: the kernel and checkers it ran under, the cases passed
and failed, the pool operations the stress case executed, the faults
injected, the random inputs tried, the kernel reports found and what
was left unaccounted for (pools never freed, mappings never unmapped,
pages handed out twice). Then the stress operations by kind, summed
over every log. Prints Markdown; with --out, also writes it to FILE.
"""
import collections
import os
import re
import sys

import summarize


# What each log's kernel or program runs under, by the log's name.
CHECKERS = [
    ('kunit-um', 'UML, 1 CPU', 'lockdep'),
    ('selftest-um', 'UML, 1 CPU', 'lockdep'),
    ('bench-smoke', 'UML, 1 CPU', 'none'),
    ('ppsim-um', 'UML, 1 CPU', 'lockdep'),
    ('ppsim-x86_64', 'QEMU x86_64, 2 CPUs',
     'KASAN, lockdep, kmemleak, DMA-API debug'),
    ('ppsim-kcsan', 'QEMU x86_64, 2 CPUs', 'KCSAN (strict)'),
    ('kunit-x86_64', 'QEMU x86_64, 2 CPUs',
     'KASAN, lockdep, kmemleak, DMA-API debug'),
    ('stress-x86_64-kcsan', 'QEMU x86_64, 2 CPUs', 'KCSAN (strict)'),
    ('stress-x86_64', 'QEMU x86_64, 2 CPUs',
     'KASAN, lockdep, kmemleak, DMA-API debug'),
    ('kunit-kcsan', 'QEMU x86_64, 2 CPUs', 'KCSAN (strict)'),
    ('stress-ring', 'host threads', 'none'),
    ('ring', 'host threads', 'ThreadSanitizer (ringstress-tsan)'),
    ('check', 'static', 'checkpatch, sparse, W=1, coccicheck'),
    ('users', 'static', 'compile'),
]
OPS = re.compile(r'# \w+: ops (\w+) (\d+)$')
FAULTS = re.compile(r'# \w+: faults injected (\d+)')
# ppsim_rx's faults_while_receiving: the refills that failed.
REFILLS = re.compile(r'# \w+: \d+% failing: (\d+) failed refills')
REFUSED = re.compile(r'# \w+: handoffs refused, queue full: (\d+)')

DRAWS = re.compile(r'# \w+: \d+ of (\d+) draws accepted')
SEED = re.compile(r'# \w+: seed \d+')
LOST = re.compile(r'# \w+: unaccounted: (\d+) pools, (\d+) mappings'
                  r'(?:, (\d+) double hand-outs)?')


def checkers(path):
    name = os.path.basename(path).rsplit('.', 1)[0]
    for prefix, machine, what in CHECKERS:
        if name.startswith(prefix):
            return name, machine, what
    return name, '?', '?'


def figures(path, kinds):
    """One row of figures for the log at path; adds its ops to kinds."""
    suites, reports, problems = summarize.parse(path)
    items = [i for v in suites.values() for i in v]
    row = collections.Counter(
        passed=sum(1 for ok, skip, _, _ in items if ok and not skip),
        failed=sum(1 for ok, _, _, _ in items if not ok) + len(problems),
        reports=len(reports))
    with open(path, errors='replace') as f:
        for line in f:
            line = summarize.strip(line).strip()
            m = OPS.search(line)
            if m and m.group(1) != 'total':
                kinds[m.group(1)] += int(m.group(2))
                row['ops'] += int(m.group(2))
            m = FAULTS.search(line) or REFILLS.search(line)
            if m:
                row['faults'] += int(m.group(1))
            m = REFUSED.search(line)
            if m:
                row['refused'] += int(m.group(1))
            m = DRAWS.search(line)
            if m:
                row['inputs'] += int(m.group(1))
            if SEED.search(line):
                row['seeds'] += 1
            m = LOST.search(line)
            if m:
                row['lost'] += sum(int(x or 0) for x in m.groups())
    return row


def table(logs):
    """The Markdown lines for the logs."""
    out = []
    kinds = collections.Counter()
    total = collections.Counter()
    out.append('| log | machine | checkers | passed | failed | pool ops | '
               'faults injected | random inputs (seeds) | reports | '
               'unaccounted |')
    out.append('|---|---|---|---:|---:|---:|---:|---:|---:|---:|')
    for path in logs:
        name, machine, what = checkers(path)
        row = figures(path, kinds)
        total.update(row)
        out.append('| %s | %s | %s | %d | %d | %d | %d | %d (%d) | %d | %d |'
                   % (name, machine, what, row['passed'], row['failed'],
                      row['ops'], row['faults'], row['inputs'],
                      row['seeds'], row['reports'], row['lost']))
    out.append('| **all** | | | %d | %d | %d | %d | %d (%d) | %d | %d |'
               % (total['passed'], total['failed'], total['ops'],
                  total['faults'], total['inputs'], total['seeds'],
                  total['reports'], total['lost']))
    if kinds:
        out.append('')
        out.append('| stress operation | executed |')
        out.append('|---|---:|')
        for kind, n in sorted(kinds.items()):
            out.append('| %s | %d |' % (kind, n))
        out.append('')
        out.append('Handoffs to a returner refused because its queue was '
                   'full (the owner returned the page itself): %d.'
                   % total['refused'])
    return out


def main(argv):
    args = argv[1:]
    out = None
    if args[:1] == ['--out'] and len(args) > 1:
        out, args = args[1], args[2:]
    logs = [p for p in args if os.path.exists(p)]
    if not logs:
        sys.stderr.write(__doc__)
        return 2
    lines = table(logs)
    sys.stdout.write('\n'.join(lines) + '\n')
    if out:
        with open(out, 'w') as f:
            f.write('\n'.join(lines) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
