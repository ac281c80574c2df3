#!/usr/bin/env python3
"""The reliability figures, from the logs of make test and make stress.

usage: reliability-table.py LOG...

One row a log: the kernel and checkers it ran under, the cases passed
and failed, the pool operations the stress case executed, the faults
injected, the random inputs tried, the kernel reports found and what
was left unaccounted for (pools never freed, mappings never unmapped,
pages handed out twice). Then the stress operations by kind, summed
over every log. Prints Markdown, for the README's reliability section.
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
            m = FAULTS.search(line)
            if m:
                row['faults'] += int(m.group(1))
            m = DRAWS.search(line)
            if m:
                row['inputs'] += int(m.group(1))
            if SEED.search(line):
                row['seeds'] += 1
            m = LOST.search(line)
            if m:
                row['lost'] += sum(int(x or 0) for x in m.groups())
    return row


def main(argv):
    logs = [p for p in argv[1:] if os.path.exists(p)]
    if not logs:
        print(__doc__, file=sys.stderr)
        return 2
    kinds = collections.Counter()
    total = collections.Counter()
    print('| log | machine | checkers | passed | failed | pool ops | '
          'faults injected | random inputs (seeds) | reports | '
          'unaccounted |')
    print('|---|---|---|---:|---:|---:|---:|---:|---:|---:|')
    for path in logs:
        name, machine, what = checkers(path)
        row = figures(path, kinds)
        total.update(row)
        print('| %s | %s | %s | %d | %d | %d | %d | %d (%d) | %d | %d |'
              % (name, machine, what, row['passed'], row['failed'],
                 row['ops'], row['faults'], row['inputs'], row['seeds'],
                 row['reports'], row['lost']))
    print('| **all** | | | %d | %d | %d | %d | %d (%d) | %d | %d |'
          % (total['passed'], total['failed'], total['ops'],
             total['faults'], total['inputs'], total['seeds'],
             total['reports'], total['lost']))
    if kinds:
        print()
        print('| stress operation | executed |')
        print('|---|---:|')
        for kind, n in sorted(kinds.items()):
            print('| %s | %d |' % (kind, n))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
