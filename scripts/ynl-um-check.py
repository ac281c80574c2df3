#!/usr/bin/python3
"""ynl-um-check.py YNL_DIR NETDEV QUEUES RING_SIZE: upstream's YNL client against
our netdev family, as a user runs it; TAP on stdout.

Runs in the ynl-um boot (scripts/ynl-um-init.sh), chrooted into the host's
root, with the system python3 (cli.py needs yaml, its schema check
jsonschema). YNL_DIR holds 6.12's tools/net/ynl and Documentation/netlink
unmodified; cli.py is run as a program, with its schema check on, and
only its output is read. NETDEV is a ppsim device with QUEUES RX queues, up
in rx_mode "pool", that has received nothing: each queue has a pool whose
ring holds RING_SIZE pages.
"""

import json
import os
import subprocess
import sys

# The counters of upstream's page-pool-stats attribute set, by their
# names in netdev.yaml: what a user of the family may rely on.
COUNTERS = ('alloc-fast', 'alloc-slow', 'alloc-slow-high-order',
            'alloc-empty', 'alloc-refill', 'alloc-waive',
            'recycle-cached', 'recycle-cache-full', 'recycle-ring',
            'recycle-ring-full', 'recycle-released-refcnt')
# The ids the kernel hands out are small: this one is free, and still in
# the attribute's range.
UNKNOWN_GAP = 1000


# Every path below makes each of these checks, a failed step's as failed.
PLAN = 13


class Tap:
    """Numbered TAP results after the plan."""

    def __init__(self):
        self.n = 0
        self.failed = 0
        print('TAP version 13\n1..%d' % PLAN, flush=True)

    def check(self, ok, name, why=''):
        self.n += 1
        if ok:
            print('ok %d - %s' % (self.n, name), flush=True)
        else:
            self.failed += 1
            print('not ok %d - %s' % (self.n, name), flush=True)
            for line in str(why).splitlines():
                print('# ' + line, flush=True)
        return ok

    def done(self):
        if self.n != PLAN:
            print('# made %d checks, planned %d' % (self.n, PLAN))
        return 1 if self.failed or self.n != PLAN else 0


def cli(ynl, *args):
    """Run cli.py on the netdev spec: (exit status, output)."""
    cmd = [sys.executable, os.path.join(ynl, 'tools/net/ynl/cli.py'),
           '--spec',
           os.path.join(ynl, 'Documentation/netlink/specs/netdev.yaml'),
           '--output-json'] + list(args)
    print('# ' + ' '.join(cmd[1:]), flush=True)
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, check=False)
    return res.returncode, res.stdout


def cli_json(tap, name, ynl, *args):
    """cli.py's reply, decoded, or None after a failed TAP line."""
    rc, out = cli(ynl, *args)
    # What a user sees, for the log (and the README's example).
    for line in out.splitlines():
        print('# ' + line, flush=True)
    try:
        reply = json.loads(out) if rc == 0 else None
    except ValueError:
        reply = None
    tap.check(reply is not None, name,
              'cli.py exited with %d:\n%s' % (rc, out))
    return reply


def sysfs_int(path):
    with open(path) as f:
        return int(f.read())


def check_pools(tap, pools, ifindex, queues, ring):
    """The dump's entries for our device: one per RX queue, its pages."""
    tap.check(len(pools) == queues,
              'page-pool-get dump lists %d pools on ifindex %d, one per RX '
              'queue' % (queues, ifindex), 'listed: %r' % pools)
    # A pool is named by its id, and tied to its queue by its NAPI's.
    ids = [(p.get('id'), p.get('napi-id')) for p in pools]
    tap.check(ids and all(isinstance(i, int) and i > 0
                          for pair in ids for i in pair) and
              all(len(set(x)) == len(ids) for x in zip(*ids)),
              'the pools have distinct positive ids and NAPI ids',
              'id, napi-id: %r' % ids)
    page = os.sysconf('SC_PAGE_SIZE')
    held = [(p.get('inflight'), p.get('inflight-mem')) for p in pools]
    tap.check(held and all(h == (ring, ring * page) for h in held),
              'each pool has %d pages (%d bytes) in flight, the ring\'s'
              % (ring, ring * page), 'inflight, inflight-mem: %r' % held)


def check_do(tap, ynl, pool):
    """A do of one listed id returns that pool as the dump showed it."""
    reply = cli_json(tap, 'page-pool-get do of a listed id', ynl,
                     '--do', 'page-pool-get', '--json',
                     json.dumps({'id': pool['id']}))
    tap.check(reply == pool, 'page-pool-get do returns the dump\'s entry',
              'do: %r\ndump: %r' % (reply, pool))


def check_unknown(tap, ynl, ids):
    """An id no pool has: ENOENT, and the extack says why."""
    bad = max(ids, default=0) + UNKNOWN_GAP
    rc, out = cli(ynl, '--do', 'page-pool-get', '--json',
                  json.dumps({'id': bad}))
    tap.check(rc == 1 and 'No such file or directory' in out and
              'no page pool with this id' in out,
              'page-pool-get of an unknown id fails with ENOENT and its '
              'extack message', 'exit %d:\n%s' % (rc, out))


def check_stats(tap, ynl, stats, pools, ring):
    """Stats entries: the same pools, every counter, the ring's pages."""
    by_id = {s.get('info', {}).get('id'): s for s in stats}
    ids = sorted(p['id'] for p in pools)
    tap.check(ids and len(by_id) == len(stats) and set(by_id) == set(ids),
              'page-pool-stats-get dump has the same pool ids',
              'stats: %r\npools: %r' % (list(by_id), ids))
    bad = [(i, c) for i, s in by_id.items() for c in COUNTERS
           if not isinstance(s.get(c), int) or s[c] < 0]
    tap.check(by_id and not bad, 'every entry has the %d counters of '
              'upstream\'s spec as integers' % len(COUNTERS),
              'missing: %r' % bad)
    # Nothing came back yet: each page the ring holds was one allocation,
    # from the cache, the return ring or the page allocator.
    got = {i: [s.get(c) for c in ('alloc-fast', 'alloc-refill', 'alloc-slow')]
           for i, s in by_id.items()}
    tap.check(not bad and by_id and
              all(sum(g) == ring and g[2] > 0 for g in got.values()),
              'each pool counted its %d allocations, the first slow' % ring,
              'alloc-fast, alloc-refill, alloc-slow: %r' % got)
    first = ids[0] if ids else 1
    one = by_id.get(first)
    reply = cli_json(tap, 'page-pool-stats-get do of a listed id', ynl,
                     '--do', 'page-pool-stats-get', '--json',
                     json.dumps({'info': {'id': first}}))
    tap.check(reply is not None and reply == one,
              'page-pool-stats-get do returns the dump\'s entry',
              'do: %r\ndump: %r' % (reply, one))


def main(argv):
    if len(argv) != 5:
        sys.exit('usage: ynl-um-check.py YNL_DIR NETDEV QUEUES RING_SIZE')
    ynl, dev, queues, ring = argv[1], argv[2], int(argv[3]), int(argv[4])
    tap = Tap()
    ifindex = sysfs_int('/sys/class/net/%s/ifindex' % dev)
    print('# %s: ifindex %d' % (dev, ifindex))

    dump = cli_json(tap, 'page-pool-get dump', ynl, '--dump', 'page-pool-get')
    pools = [p for p in dump or [] if p.get('ifindex') == ifindex]
    check_pools(tap, pools, ifindex, queues, ring)
    # With no pool listed, the do still asks for one, to fail as planned.
    check_do(tap, ynl, pools[0] if pools else {'id': 1})
    check_unknown(tap, ynl, [p.get('id', 0) for p in dump or []])

    stats = cli_json(tap, 'page-pool-stats-get dump', ynl,
                     '--dump', 'page-pool-stats-get')
    check_stats(tap, ynl,
                [s for s in stats or []
                 if s.get('info', {}).get('ifindex') == ifindex],
                pools, ring)
    return tap.done()


if __name__ == '__main__':
    sys.exit(main(sys.argv))
