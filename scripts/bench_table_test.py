#!/usr/bin/env python3
"""Check bench-table.py's interval of ours/base, on which the table's
claim "slower than the base" rests, and the chart drawn from it.

usage: bench_table_test.py

Prints one 'PASS name' or 'FAIL name' line a case, diagnostics after '#'.
"""
import importlib.util
import os
import sys
import tempfile

spec = importlib.util.spec_from_file_location(
    'bench_table', os.path.join(os.path.dirname(__file__), 'bench-table.py'))
bt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bt)

# Boots of one test: a quiet spread, and two boots caught by host noise.
BASE = [88.1, 89.0, 87.5, 90.2, 88.8, 89.4, 87.9, 88.6, 131.0, 89.9, 136.5]


def ci(base, ours):
    return bt.median_ratio_ci(base, ours)


def case_same_code_contains_one():
    lo, hi = ci(BASE, list(reversed(BASE)))
    return lo <= 1 <= hi, 'interval %.3f-%.3f' % (lo, hi)


def case_five_percent_slower_lies_above_one():
    lo, hi = ci(BASE, [x * 1.05 for x in BASE])
    return lo > 1 and hi < 1.2, 'interval %.3f-%.3f' % (lo, hi)


def case_faster_lies_below_one():
    lo, hi = ci(BASE, [x * 0.8 for x in BASE])
    return hi < 1, 'interval %.3f-%.3f' % (lo, hi)


def case_holds_the_median_ratio():
    ours = [x * 1.02 + (i % 3) for i, x in enumerate(BASE)]
    r = bt.statistics.median(ours) / bt.statistics.median(BASE)
    lo, hi = ci(BASE, ours)
    return lo <= r <= hi, 'ratio %.3f, interval %.3f-%.3f' % (r, lo, hi)


def case_same_csv_same_interval():
    a, b = ci(BASE, BASE[::2] * 2), ci(BASE, BASE[::2] * 2)
    return a == b, '%s then %s' % (a, b)


def case_too_few_boots_gives_none():
    got = ci(BASE[:4], BASE), ci(BASE, BASE[:4]), ci(BASE[:5], BASE[:5])
    return got[0] is None and got[1] is None and got[2] is not None, \
        repr(got)


def case_plot_puts_each_kind_in_its_panel():
    # fast: a module test, with an interval; rx_pool_udp: RX, without;
    # native_p1_b1_s256: the host ring. No XDP test: no empty panel.
    ratios = {'fast': (0.5, 0.45, 0.55, True),
              'rx_pool_udp': (1.02, 0.99, 1.02, False),
              'native_p1_b1_s256': (0.9, 0.8, 1.1, True)}
    with tempfile.TemporaryDirectory() as d:
        bt.write_plot(os.path.join(d, 'r'), ratios, ['base', 'ours'], 3)
        with open(os.path.join(d, 'r.dat')) as f:
            blocks = [[line.split() for line in b.split('\n')
                       if line and not line.startswith('#')]
                      for b in f.read().split('\n\n\n')]
        with open(os.path.join(d, 'r.gp')) as f:
            gp = f.read()
    want = [[['fast', '0.5000', '0.4500', '0.5500', '1']],
            [['rx_pool_udp', '1.0200', '0.9900', '1.0200', '0']],
            [['native_p1_b1_s256', '0.9000', '0.8000', '1.1000', '1']]]
    ok = (blocks == want and gp.count(' index ') == 3 and
          'layout 3,1' in gp and gp.count('1 with lines') == 3)
    return ok, 'blocks %r' % blocks


def case_shares_by_variant_averaged_over_boots():
    lines = {'base-1.log': 'bench rx_pool_udp pps=1 ns_per_pkt=2.0 runs=5 '
                           'lost=0 direct=0.000 recycle=0.300\n',
             'ours-1.log': 'bench rx_cache_udp_held pps=1 ns_per_pkt=2.0 '
                           'runs=5 lost=0 reuse=0.500\n'
                           'bench xdp_drop pps=1 ns_per_pkt=2.0\n',
             'ours-2.log': 'bench rx_cache_udp_held pps=1 ns_per_pkt=2.0 '
                           'runs=5 lost=0 reuse=0.600\n',
             'other.log': 'bench rx_pool_udp pps=1 ns_per_pkt=2.0 runs=5 '
                          'lost=0 direct=1.000\n'}
    with tempfile.TemporaryDirectory() as d:
        for name, text in lines.items():
            with open(os.path.join(d, name), 'w') as f:
                f.write(text)
        got = bt.rx_shares([os.path.join(d, n) for n in sorted(lines)])
    want = {('base', 'rx_pool_udp'): {'direct': [0.0], 'recycle': [0.3]},
            ('ours', 'rx_cache_udp_held'): {'reuse': [0.5, 0.6]}}
    return got == want, 'got %r' % got


def main():
    failed = 0
    for name, fn in sorted(globals().items()):
        if not name.startswith('case_'):
            continue
        ok, why = fn()
        print('%s %s' % ('PASS' if ok else 'FAIL', name[5:]))
        if not ok:
            print('# ' + why)
            failed += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
