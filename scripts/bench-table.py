#!/usr/bin/env python3
"""Read the console logs of benchmark boots (scripts/bench-init.sh).

usage: bench-table.py csv VARIANT ROUND LOG     results of one boot as CSV rows
       bench-table.py table CSV [--plot PREFIX] [LOG...]
       bench-table.py tap [--xdp] [--rx] [--lo] LOG   TAP for one quick boot

csv prints rows of variant,test,round,cycles_per_op,ns_per_op (no header;
xdp_* and rx_* rows give ns per packet and no cycles, lo_* rows ns per
message) and exits 1, saying why on stderr, if the boot is incomplete: a
test missing (xdp_* ones unless bench-init.sh was told xdp=off, rx_*
ones unless rx=off, lo_* ones unless lo=off) or failed, module status
or BENCH-EXIT not 0, or a kernel report.

table prints, per test, the median and min-max of each variant in CSV.
With two variants (base and ours) it gives ours/base of the medians and
of the minimums (noise on a shared host only adds time, and it comes
in bursts that can catch a whole test, so the fastest boots are the
steadier comparison) and the 95% bootstrap interval of the ratio of the
medians, the boots of each variant resampled: a test is slower than the
base only when its interval lies above 1 (fewer than 5 boots of either
give none). With one variant it gives each test's ratio to page_o0 (the
page allocator). Cycles are medians. It lists the tests the LOGs
skipped. With two variants, --plot writes PREFIX.dat and PREFIX.gp, a
gnuplot script that charts what the table says: ours/base of each test
with its interval (with fewer boots, the span from the ratio of the
minimums to that of the medians) against a line at 1, one panel per
kind of figure. When the
CSV has rx_* rows (ppsim_bench: RX through the simulated NIC) it then
compares the RX buffer modes of each variant, from the medians, with
the published results and the goals, and gives the shares the LOGs'
rx_* lines report (direct=, recycle=, reuse=), averaged over the boots
of each variant (a LOG's variant is the base or ours in its name).

tap checks one boot: a test line per expected test (the xdp_* ones with
--xdp, the rx_* ones with --rx, the lo_* ones with --lo), each with a
positive finite figure or a skip (rx_*_stack_drop may skip: the test
kernel has no tc), and status 0.
"""
import csv
import math
import os
import random
import re
import statistics
import sys

MODULE = ['loop', 'page_o0', 'page_o3', 'page_o3_split1536', 'fast', 'ring',
          'slow', 'frag2048', 'frag1536', 'bulk16']
DMA = ['fast_dma', 'ring_dma', 'slow_dma']       # may skip (no DMA API)
XDP = ['xdp_drop', 'xdp_pass', 'xdp_tx']
RX_MODES = ['alloc', 'cache', 'pool', 'frag', 'order3']
RX_SINKS = ['xdp_drop', 'stack_drop', 'udp', 'udp_held']
RX = ['rx_%s_%s' % (m, k) for m in RX_MODES for k in RX_SINKS]
# The modes that get their pages from the pool under test.
RX_POOL_MODES = ['pool', 'frag']
# TCP over loopback (lo_bench): every socket's skb free path.
LO = ['lo_tcp_stream', 'lo_tcp_rr']
ORDER = MODULE + DMA + XDP + RX + LO
BASELINE = 'page_o0'
NUM = r'([-+0-9.eEinfa]+)'

RESULT = re.compile(r'page_pool_bench: test=(\S+) loops=\d+ cycles_per_op='
                    + NUM + ' ns_per_op=' + NUM)
SKIP = re.compile(r'page_pool_bench: test=(\S+) skipped reason=(.*)')
FAILED = re.compile(r'page_pool_bench: test=(\S+) failed (.*)')
DONE = re.compile(r'page_pool_bench: done status=(-?\d+)')
XDPLINE = re.compile(r'^bench (\S+) pps=\S+ ns_per_pkt=' + NUM)
EXIT = re.compile(r'^BENCH-EXIT (\d+)')
RXSKIP = re.compile(r'^bench (rx_\S+) skipped reason=(.*)')
SHARE = re.compile(r'\b(direct|recycle|reuse)=([0-9.]+)')
VARIANT = re.compile(r'(base|ours)')
PROGFAIL = re.compile(r'^bench ((?:rx|lo)_\S+) failed: (.*)')
# The parts of a boot bench-init.sh may leave out ("NAME=off"), and their
# tests.
PARTS = {'xdp': XDP, 'rx': RX, 'lo': LO}
PART_OFF = re.compile(r'^bench-init: (%s)=off' % '|'.join(PARTS))

# The plot's panels, each kind of figure on a scale of its own: by test
# list, None for the rest (ringbench's native_*).
PANELS = [('pool module (ns per op)', MODULE + DMA),
          ('RX through ppsim, TCP over lo (ns per packet or message)',
           XDP + RX + LO),
          ('return ring on the host cores: pp_ring / ptr_ring', None)]

REPORT = re.compile(r'^(BUG[: ]|WARNING[: ]|Kernel panic|Oops)')


def parse(path):
    """Return {test: (cycles or None, ns)}, {test: reason}, problems, and
    the set of PARTS the boot ran."""
    figs, skips, problems = {}, {}, []
    ran = set(PARTS)
    done = bexit = None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n').replace('\r', '')
            m = RESULT.search(line)
            if m:
                figs[m.group(1)] = (m.group(2), m.group(3))
            elif SKIP.search(line):
                m = SKIP.search(line)
                skips[m.group(1)] = m.group(2).strip()
            elif FAILED.search(line):
                m = FAILED.search(line)
                problems.append('%s failed: %s' % m.groups())
            elif DONE.search(line):
                done = int(DONE.search(line).group(1))
            elif RXSKIP.match(line):
                m = RXSKIP.match(line)
                skips[m.group(1)] = m.group(2).strip()
            elif PROGFAIL.match(line):
                problems.append('%s failed: %s' %
                                PROGFAIL.match(line).groups())
            elif XDPLINE.match(line):
                m = XDPLINE.match(line)
                figs[m.group(1)] = (None, m.group(2))
            elif EXIT.match(line):
                bexit = int(EXIT.match(line).group(1))
            elif PART_OFF.match(line):
                ran.discard(PART_OFF.match(line).group(1))
            elif REPORT.match(line):
                problems.append('kernel report: ' + line)
    if done != 0:
        problems.append('module status %s' % ('missing' if done is None
                                              else done))
    if bexit != 0:
        problems.append('BENCH-EXIT %s' % ('missing' if bexit is None
                                           else bexit))
    return figs, skips, problems, ran


def positive(s):
    """s as a positive finite float, or None."""
    try:
        v = float(s)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) and v > 0 else None


def expected(ran):
    """The tests a boot that ran the PARTS in ran must report."""
    return MODULE + DMA + [t for p in PARTS if p in ran for t in PARTS[p]]


def cmd_csv(variant, rnd, path):
    figs, skips, problems, ran = parse(path)
    out = csv.writer(sys.stdout, lineterminator='\n')
    for t in sorted(figs, key=lambda t: (ORDER + [t]).index(t)):
        c, n = figs[t]
        if positive(n) is None or (c is not None and positive(c) is None):
            problems.append('%s: bad figure %s/%s' % (t, c, n))
            continue
        out.writerow([variant, t, rnd, c if c is not None else '', n])
    for t in expected(ran):
        if t not in figs and t not in skips:
            problems.append('%s missing' % t)
        elif t in skips and t not in DMA:
            problems.append('%s skipped: %s' % (t, skips[t]))
    for p in problems:
        print('bench-table: %s: %s' % (path, p), file=sys.stderr)
    return 1 if problems else 0


def fmt(v):
    if v is None:
        return '-'
    return '%.2f' % v if v < 10 else '%.1f' % v if v < 1000 else '%.0f' % v


def fmt_ratio(r):
    if r is None:
        return '-'
    return '%.2f' % r if r >= 0.1 else '%.2g' % r


def spread(vals):
    """'median (min-max)' of vals, and the median; '-' if none."""
    if not vals:
        return '-', None
    med = statistics.median(vals)
    if len(vals) == 1:
        return fmt(med), med
    return '%s (%s-%s)' % (fmt(med), fmt(min(vals)), fmt(max(vals))), med


def median_ratio_ci(base, ours, resamples=2000, seed=1):
    """The 95% bootstrap interval (lo, hi) of median(ours) / median(base),
    each list resampled with replacement; fixed seed, so a CSV always
    gives the same table. None with fewer than 5 boots of either: so few
    resamples only restate the spread."""
    if len(base) < 5 or len(ours) < 5:
        return None
    rng = random.Random(seed)
    r = sorted(statistics.median(rng.choices(ours, k=len(ours))) /
               statistics.median(rng.choices(base, k=len(base)))
               for _ in range(resamples))
    return r[resamples * 25 // 1000], r[resamples * 975 // 1000 - 1]


def print_rows(rows):
    """rows (the first is the heading) as columns, the first left-aligned."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print('  '.join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths))).rstrip())


def rx_summary(data, variants):
    """The RX modes against each other, per variant and sink: packets per
    second from the median ns per packet, the two classic comparisons
    beside their published figures, and the goals, met or not."""
    def pps(v, mode, sink):
        ns = data.get((v, 'rx_%s_%s' % (mode, sink)), ([], []))[1]
        return 1e9 / statistics.median(ns) if ns else None

    def ratio(a, b):
        return a / b if a is not None and b is not None else None

    def pct(r):
        return '-' if r is None else '%+.0f%%' % ((r - 1) * 100)

    cols = [(v, k) for v in variants for k in RX_SINKS]
    print()
    print('RX through ppsim: 64-byte frames, one RX queue (udp_held: two, '
          'the socket holding 512 frames a queue before it reads); Mpps from the '
          'median ns per packet above. The wire (the far end, which '
          'writes and checksums each frame) runs on the same CPU in '
          'every mode: the ratios below are diluted by it')
    rows = [['mode'] + ['%s %s' % c for c in cols]]
    for m in RX_MODES:
        rows.append([m] + [fmt(p / 1e6) if p else '-'
                           for p in (pps(v, m, k) for v, k in cols)])
    print_rows(rows)

    print()
    print('The classic results: pps of one mode over another, as measured '
          'here, and as published')
    rows = [['comparison', 'published'] + ['%s %s' % c for c in cols]]
    classic = [
        ('cache vs alloc (driver page cache)', '+17% to +52%',
         'cache', 'alloc'),
        ('alloc vs order3 (order-0, no recycling)', '-26%',
         'alloc', 'order3'),
        ('pool vs order3 (order-0, recycled)', '-', 'pool', 'order3'),
    ]
    for name, published, a, b in classic:
        rows.append([name, published] +
                    [pct(ratio(pps(v, a, k), pps(v, b, k)))
                     for v, k in cols])
    print_rows(rows)

    print()
    print('Goals (pps ratios of the medians; "MISSED" where not met)')
    rows = [['goal'] + ['%s %s' % c for c in cols]]

    def verdict(r, want):
        if r is None:
            return '-'
        return '%.3f %s' % (r, 'ok' if r >= want else 'MISSED')

    for a, b, want in [('pool', 'alloc', 1.3), ('pool', 'cache', 1.0),
                       ('pool', 'order3', 1.0)]:
        rows.append(['%s/%s >= %.1f' % (a, b, want)] +
                    [verdict(ratio(pps(v, a, k), pps(v, b, k)), want)
                     for v, k in cols])
    print_rows(rows)
    if 'base' in variants and 'ours' in variants:
        print()
        rows = [['goal'] + list(RX_SINKS)]
        for m in RX_POOL_MODES:
            rows.append(['ours/base %s >= 1.0' % m] +
                        [verdict(ratio(pps('ours', m, k),
                                       pps('base', m, k)), 1.0)
                         for k in RX_SINKS])
        print_rows(rows)


def rx_shares(logs):
    """{(variant, test): {share: [value per boot]}} from the rx_* lines
    of LOGs whose names say their variant."""
    out = {}
    for log in logs:
        v = VARIANT.search(os.path.basename(log))
        if not v:
            continue
        with open(log, errors='replace') as f:
            for line in f:
                m = XDPLINE.match(line.rstrip('\n').replace('\r', ''))
                if not m or not m.group(1).startswith('rx_'):
                    continue
                got = out.setdefault((v.group(1), m.group(1)), {})
                for k, val in SHARE.findall(line):
                    got.setdefault(k, []).append(float(val))
    return out


def print_rx_shares(shares, variants):
    """A row per variant and RX mode, a column per sink: the shares."""
    if not shares:
        return
    print()
    print('Shares, mean over the boots: direct (pool returns to its alloc '
          'cache), recycle (pool returns kept, not freed), reuse (cache '
          'mode refills its cache served)')
    rows = [['mode'] + list(RX_SINKS)]
    for v in variants:
        for m in RX_MODES:
            cells = []
            for k in RX_SINKS:
                got = shares.get((v, 'rx_%s_%s' % (m, k)), {})
                cells.append(' '.join(
                    '%s %.3f' % (n, statistics.mean(got[n]))
                    for n in ('direct', 'recycle', 'reuse')
                    if got.get(n)) or '-')
            if any(c != '-' for c in cells):
                rows.append(['%s %s' % (v, m)] + cells)
    print_rows(rows)


def write_plot(prefix, ratios, variants, boots):
    """prefix.dat: a block per panel of test, ratio, low, high, whether
    the span is the bootstrap interval; prefix.gp: the chart of them, one
    panel per non-empty block, for gnuplot with its terminal and output
    set on the command line."""
    blocks, taken = [], set()
    for title, tests in PANELS:
        mine = [t for t in ratios if t not in taken and
                (tests is None or t in tests)]
        taken.update(mine)
        if mine:
            blocks.append((title, mine))
    with open(prefix + '.dat', 'w') as f:
        for i, (title, mine) in enumerate(blocks):
            f.write('%s# %s\n# test ratio low high is_ci\n'
                    % ('\n\n' if i else '', title))
            for t in mine:
                f.write('%s %.4f %.4f %.4f %d\n' % ((t,) + ratios[t][:3]
                                                   + (ratios[t][3],)))
    with open(prefix + '.gp', 'w') as f:
        f.write('set multiplot layout %d,1 title "page_pool: %s/%s of the '
                'medians, %d boots each; bars: 95%% bootstrap interval '
                '(fewer than 5 boots: to the ratio of the minimums)"\n'
                % (len(blocks), variants[1], variants[0], boots))
        f.write('set ylabel "%s/%s"\nset grid ytics\nset key off\n'
                'set xtics rotate by -30 nomirror font ",8"\n'
                'set offsets 0.5, 0.5, 0, 0\n' % (variants[1], variants[0]))
        for i, (title, mine) in enumerate(blocks):
            f.write('set title "%s"\nplot "%s.dat" index %d using 0:2:3:4:'
                    'xtic(1) with yerrorbars pt 7 ps 0.6, 1 with lines '
                    'dt 2 lc "black"\n' % (title, prefix, i))
        f.write('unset multiplot\n')


def cmd_table(path, logs, plot):
    data = {}           # (variant, test) -> ([cycles], [ns])
    rounds = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            cyc, ns = data.setdefault((r['variant'], r['test']), ([], []))
            if r['cycles_per_op']:
                cyc.append(float(r['cycles_per_op']))
            ns.append(float(r['ns_per_op']))
            rounds.setdefault(r['variant'], set()).add(r['round'])
    variants = [v for v in ('base', 'ours') if v in rounds] + sorted(
        v for v in rounds if v not in ('base', 'ours'))
    # Known tests in ORDER, then the others (ringbench's native_*) in the
    # order the CSV first gives them.
    first = list(dict.fromkeys(t for _, t in data))
    tests = sorted(first, key=lambda t: (ORDER.index(t) if t in ORDER
                                         else len(ORDER) + first.index(t)))
    if not variants:
        print('bench-table: no results in %s' % path, file=sys.stderr)
        return 1
    two = len(variants) == 2
    print('page_pool bench (UML, no lockdep): median (min-max) of %s; '
          'ns per op, per packet for xdp_* and rx_*'
          % ', '.join('%d %s boot(s)' % (len(rounds[v]), v)
                      for v in variants))
    head = ['test'] + ['%s ns' % v for v in variants]
    head += ['%s/%s' % (variants[1], variants[0]) if two
             else '/%s' % BASELINE]
    if two:
        head += ['min %s/%s' % (variants[1], variants[0]), '95% CI']
    head += ['%s cycles' % v for v in variants]
    rows, ratios, intervals = [head], {}, 0
    for t in tests:
        row, meds = [t], []
        for v in variants:
            s, med = spread(data.get((v, t), ([], []))[1])
            row.append(s)
            meds.append(med)
        if two:
            ratio = meds[1] / meds[0] if None not in meds else None
        else:
            base = data.get((variants[0], BASELINE), ([], []))[1]
            ratio = (meds[0] / statistics.median(base)
                     if base and meds[0] is not None else None)
        row.append(fmt_ratio(ratio))
        if two:
            mins = [min(data.get((v, t), ([], [0]))[1] or [0])
                    for v in variants]
            rmin = mins[1] / mins[0] if mins[0] else None
            row.append(fmt_ratio(rmin))
            ci = median_ratio_ci(*(data.get((v, t), ([], []))[1]
                                   for v in variants))
            row.append('%.3f-%.3f' % ci if ci else '-')
            intervals += ci is not None
            if ratio is not None:
                span = ci or sorted((ratio, rmin or ratio))
                ratios[t] = (ratio, span[0], span[1], ci is not None)
        for v in variants:
            cyc = data.get((v, t), ([], []))[0]
            row.append(fmt(statistics.median(cyc)) if cyc else '-')
        rows.append(row)
    print_rows(rows)
    if intervals:
        print('95%% CI: bootstrap interval of %s/%s of the medians; a test '
              'is slower only when the interval lies above 1'
              % (variants[1], variants[0]))
    if any(t in RX for t in tests):
        rx_summary(data, variants)
        print_rx_shares(rx_shares(logs), variants)
    skipped = {}
    for log in logs:
        for t, why in parse(log)[1].items():
            skipped.setdefault((t, why), []).append(log)
    if any(t.startswith('native_') for t in tests):
        print('native_*: ringbench on the host\'s cores (not UML): base is '
              'ptr_ring as 6.1 uses it, ours is pp_ring; _pP_bB_sS: P '
              'producers, batch B, ring size S; _prod: producer time only')
    for (t, why), seen in sorted(skipped.items()):
        print('skipped: %s (reason=%s%s) in %d of %d boot(s)'
              % (t, why, ': UML has no DMA API' if why == 'no-dma' else '',
                 len(seen), len(logs)))
    if plot and two:
        write_plot(plot, ratios, variants, len(rounds[variants[0]]))
    return 0


def cmd_tap(path, parts):
    figs, skips, problems, _ = parse(path)
    tests = expected(parts)
    print('TAP version 13')
    print('1..%d' % (len(tests) + 1))
    for i, t in enumerate(tests, 1):
        if t in skips and (t in DMA or t.endswith('_stack_drop')):
            print('ok %d %s # SKIP %s' % (i, t, skips[t]))
        elif t in figs and positive(figs[t][1]) is not None and (
                figs[t][0] is None or positive(figs[t][0]) is not None):
            print('ok %d %s' % (i, t))
        else:
            why = ('bad figure %s/%s' % figs[t] if t in figs else
                   'skipped: ' + skips[t] if t in skips else 'missing')
            print('# %s: %s' % (t, why))
            print('not ok %d %s' % (i, t))
    # Kernel reports are summarize.py's job (it knows the base kernel's).
    problems = [p for p in problems if not p.startswith('kernel report')]
    for p in problems:
        print('# %s' % p)
    print('%sok %d status' % ('not ' if problems else '', len(tests) + 1))
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == 'csv':
        return cmd_csv(argv[2], argv[3], argv[4])
    if len(argv) >= 3 and argv[1] == 'table':
        args, plot = argv[3:], None
        if args[:1] == ['--plot'] and len(args) >= 2:
            plot, args = args[1], args[2:]
        return cmd_table(argv[2], args, plot)
    if len(argv) >= 3 and argv[1] == 'tap':
        flags = argv[2:-1]
        if any(f[2:] not in PARTS or f[:2] != '--' for f in flags):
            print(__doc__, file=sys.stderr)
            return 2
        return cmd_tap(argv[-1], {f[2:] for f in flags})
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
