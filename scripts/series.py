#!/usr/bin/env python3
"""series.py: the project as a git series against the base tree.

  series.py generate OUT   write OUT/*.patch, a format-patch series with
                           a cover letter, in patches/series order
  series.py check OUT      git am OUT onto the base commit, compare the
                           result with build/src-ours, checkpatch each
                           patch, and build each patch's objects on top
                           of its predecessors

patches/series is the order. A quilt patch is a commit of its own, with
its own message. A line "# overlay: NAME" is the commit of series/NAME:
the files of ours its Files: patterns claim, plus the quilt patches its
Fold: lines name (those get no commit of their own). Every file of ours
must be claimed by exactly one overlay, or named in series/harness-only.

The work repository is build/series-git: the base tree, hard-linked,
committed once as "base" (git breaks the links before it writes).
Commits are signed off by whoever runs this (git config user.name and
user.email), and written by them: it is their submission.
"""
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(TOP, 'build')
PRISTINE = os.environ.get('SERIES_PRISTINE',
                          os.path.join(BUILD, 'linux-source-6.1'))
REPO = os.path.join(BUILD, 'series-git')
OVERLAY_DIRS = ['net', 'include', 'drivers', 'Documentation', 'tools', 'lib']
# Commits are dated, so that a series of the same content and identity
# has the same commit ids; the base's date is the base tree's release.
BASE_DATE = '2026-11-06T18:15:16+00:00'


class SeriesError(Exception):
    pass


def run(args, cwd=None, env=None, check=True, quiet=False):
    """Run a command and return its stdout; raise SeriesError on failure."""
    res = subprocess.run(args, cwd=cwd, env=env, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and res.returncode != 0:
        raise SeriesError('%s failed (%d):\n%s%s' % (
            ' '.join(args[:4]), res.returncode, res.stdout[-2000:],
            res.stderr[-2000:]))
    if not quiet and res.stderr and check:
        sys.stderr.write(res.stderr)
    return res.stdout


def git(*args, check=True, env=None):
    return run(['git', '-C', REPO] + list(args), check=check, env=env,
               quiet=True)


def identity():
    """The runner's git identity, which signs the series."""
    name = run(['git', '-C', TOP, 'config', 'user.name'], check=False).strip()
    email = run(['git', '-C', TOP, 'config', 'user.email'],
                check=False).strip()
    if (not name or not email) and os.environ.get('SERIES_ANY_IDENTITY'):
        # make test in a clone with no git identity: sign as the user
        # running it, as git itself would.
        name = name or os.environ.get('USER') or 'root'
        email = email or '%s@%s' % (name, os.uname().nodename)
    if not name or not email:
        raise SeriesError('make series signs the patches with your git '
                          'identity: set git config user.name and '
                          'user.email first')
    return name, email


def commit_env(name, email, date):
    env = dict(os.environ)
    env.update(GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email,
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email,
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    return env


# ---- reading the sources ------------------------------------------------

def read_series():
    """patches/series as a list of ('patch', name) and ('overlay', name)."""
    entries = []
    with open(os.path.join(TOP, 'patches', 'series')) as f:
        for line in f:
            line = line.strip()
            m = re.match(r'#\s*overlay:\s*(\S+)$', line)
            if m:
                entries.append(('overlay', m.group(1)))
            elif line and not line.startswith('#'):
                entries.append(('patch', line.split()[0]))
    return entries


def read_overlay(name):
    """series/NAME: its header fields and its message."""
    path = os.path.join(TOP, 'series', name)
    if not os.path.isfile(path):
        raise SeriesError('patches/series names overlay %s, but series/%s '
                          'does not exist' % (name, name))
    with open(path) as f:
        head, _, body = f.read().partition('\n\n')
    fields = {'Subject': '', 'Files': [], 'Fold': []}
    key = None
    for line in head.split('\n'):
        if line[:1] in (' ', '\t') and key:
            fields[key] += line.split()
            continue
        key, _, value = line.partition(':')
        if key not in fields:
            raise SeriesError('series/%s: unknown field %r' % (name, key))
        if key == 'Subject':
            fields[key] = value.strip()
        else:
            fields[key] += value.split()
    if not fields['Subject'] or not body.strip():
        raise SeriesError('series/%s needs a Subject: and a message' % name)
    fields['body'] = body.strip() + '\n'
    return fields


def read_patch_message(name):
    """A quilt patch's subject and message, without its sign-offs."""
    with open(os.path.join(TOP, 'patches', name)) as f:
        text = f.read()
    head = text.split('\n---\n', 1)[0]
    subject, body, in_body = None, [], False
    for line in head.split('\n'):
        if not in_body:
            if line.startswith('Subject:'):
                subject = re.sub(r'^\[PATCH[^]]*\]\s*', '',
                                 line[len('Subject:'):].strip())
            elif line == '' and subject:
                in_body = True
            continue
        if not line.startswith('Signed-off-by:'):
            body.append(line)
    if not subject:
        raise SeriesError('patches/%s has no Subject: line' % name)
    return subject, '\n'.join(body).strip() + '\n'


def our_files():
    out = run(['git', '-C', TOP, 'ls-files', '-co', '--exclude-standard',
               '--'] + OVERLAY_DIRS, quiet=True)
    return sorted(f for f in out.split('\n')
                  if f and os.path.isfile(os.path.join(TOP, f)))


def harness_only():
    path = os.path.join(TOP, 'series', 'harness-only')
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.split()[0] for line in f
                if line.strip() and not line.startswith('#')]


def pattern_matches(pattern, path):
    if pattern.endswith('/'):
        return path.startswith(pattern)
    return fnmatch.fnmatchcase(path, pattern)


def claim_files(overlays):
    """Map each overlay to its files; every file is claimed exactly once.

    The longest matching pattern claims a file, so that an overlay of a
    directory may leave a subdirectory to another.
    """
    claims = {name: [] for name in overlays}
    harness = harness_only()
    unclaimed = []
    for path in our_files():
        if path in harness:
            continue
        best = []
        for name, fields in overlays.items():
            for pat in fields['Files']:
                if pattern_matches(pat, path):
                    best.append((len(pat), name))
        best.sort(reverse=True)
        if not best:
            unclaimed.append(path)
        elif len(best) > 1 and best[0][0] == best[1][0] and \
                best[0][1] != best[1][1]:
            raise SeriesError('%s is claimed by both %s and %s' %
                              (path, best[0][1], best[1][1]))
        else:
            claims[best[0][1]].append(path)
    if unclaimed:
        raise SeriesError('no overlay in series/ claims:\n  ' +
                          '\n  '.join(unclaimed))
    for name, files in claims.items():
        if not files:
            raise SeriesError('overlay %s claims no file' % name)
    return claims


# ---- the work repository ------------------------------------------------

def base_repo(name, email):
    """build/series-git with the base tree committed as branch 'base'."""
    stamp = os.path.join(REPO, '.git', 'series-pristine')
    if os.path.exists(stamp):
        with open(stamp) as f:
            if f.read() == PRISTINE:
                git('checkout', '-q', '--detach', 'base')
                git('reset', '-q', '--hard', 'base')
                git('clean', '-q', '-fdx')
                return
    if not os.path.isfile(os.path.join(PRISTINE, 'Makefile')):
        raise SeriesError('no base tree in %s' % PRISTINE)
    print('series: committing the base tree (once, about a minute)',
          file=sys.stderr)
    shutil.rmtree(REPO, ignore_errors=True)
    run(['cp', '-al', PRISTINE, REPO])
    git('init', '-q')
    git('add', '-f', '.')
    git('commit', '-q', '-m', 'base: %s' % os.path.basename(PRISTINE),
        env=commit_env(name, email, BASE_DATE))
    git('branch', 'base')
    git('checkout', '-q', '--detach', 'base')
    with open(stamp, 'w') as f:
        f.write(PRISTINE)


def apply_quilt_patch(name):
    """Apply patches/NAME as prepare-tree.sh does; return its files."""
    path = os.path.join(TOP, 'patches', name)
    run(['patch', '-s', '-p1', '-d', REPO, '--no-backup-if-mismatch',
         '-i', path])
    with open(path) as f:
        return re.findall(r'^\+\+\+ b/(\S+)', f.read(), re.M)


def commit(subject, body, files, name, email, date):
    """Commit FILES with the message; the runner signs it off."""
    git('add', '-f', '--', *files)
    if not git('diff', '--cached', '--name-only').strip():
        raise SeriesError('commit "%s" changes nothing' % subject)
    msg = '%s\n\n%s\nSigned-off-by: %s <%s>\n' % (subject, body, name,
                                                   email)
    res = subprocess.run(['git', '-C', REPO, 'commit', '-q', '-F', '-'],
                         input=msg, text=True,
                         env=commit_env(name, email, date),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if res.returncode:
        raise SeriesError('commit "%s": %s' % (subject, res.stderr))


def commit_date(i):
    """The i-th commit's date: a minute after the previous one."""
    return '%s +0000' % (1794075316 + 60 * (i + 1))


# ---- generate -----------------------------------------------------------

def plan():
    """The series as a list of (subject, body, quilt patches, our files)."""
    entries = read_series()
    overlays = {n: read_overlay(n) for kind, n in entries
                if kind == 'overlay'}
    claims = claim_files(overlays)
    listed = [n for kind, n in entries if kind == 'patch']
    folded = {}
    for name, fields in overlays.items():
        for p in fields['Fold']:
            if p not in listed:
                raise SeriesError('series/%s folds %s, which patches/series '
                                  'does not list' % (name, p))
            if p in folded:
                raise SeriesError('%s is folded by both %s and %s' %
                                  (p, folded[p], name))
            folded[p] = name
    on_disk = sorted(f for f in os.listdir(os.path.join(TOP, 'patches'))
                     if f.endswith('.patch'))
    missing = [p for p in on_disk if p not in listed]
    if missing:
        raise SeriesError('patches/series does not list: ' +
                          ' '.join(missing))
    steps = []
    for kind, name in entries:
        if kind == 'patch' and name not in folded:
            subject, body = read_patch_message(name)
            steps.append((subject, body, [name], []))
        elif kind == 'overlay':
            o = overlays[name]
            steps.append((o['Subject'], o['body'], o['Fold'], claims[name]))
    return steps


def copy_ours(path):
    dst = os.path.join(REPO, path)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if os.path.lexists(dst):
        os.unlink(dst)
    shutil.copy(os.path.join(TOP, path), dst)


def results_text():
    """The latest test summary and benchmark table of this checkout."""
    logs = os.path.join(BUILD, 'logs', 'ours')
    out = ['Tests (make test, the last run in this checkout):', '']
    names = sorted(f for f in os.listdir(logs) if f.endswith('.log')) \
        if os.path.isdir(logs) else []
    if names:
        res = subprocess.run([os.path.join(TOP, 'scripts', 'summarize.py')] +
                             [os.path.relpath(os.path.join(logs, n), TOP) for n in names],
                             cwd=TOP, text=True, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
        out += ['  ' + line for line in res.stdout.rstrip().split('\n')
                if re.search(r'passed|failed|PROBLEM', line)]
    else:
        out.append('  not run in this checkout yet')
    out += ['', 'Benchmark (make bench: UML, ns per op, ours/base in one '
            'run of both', 'kernels):', '']
    table = os.path.join(BUILD, 'bench', 'results.txt')
    if os.path.exists(table):
        with open(table) as f:
            out += ['  ' + line.rstrip() for line in f]
    else:
        out.append('  not run in this checkout yet')
    return '\n'.join(out) + '\n'


def fill_cover_letter(path, count):
    with open(os.path.join(TOP, 'series', 'cover-letter')) as f:
        head, _, body = f.read().partition('\n\n')
    subject = head.partition('Subject:')[2].strip()
    blurb = body.strip() + '\n\n' + results_text()
    with open(path) as f:
        text = f.read()
    text = text.replace('*** SUBJECT HERE ***', subject)
    text = text.replace('*** BLURB HERE ***', blurb.rstrip('\n'))
    with open(path, 'w') as f:
        f.write(text)


def generate(out):
    name, email = identity()
    steps = plan()
    base_repo(name, email)
    git('checkout', '-q', '-B', 'series', 'base')
    for i, (subject, body, patches, files) in enumerate(steps):
        touched = list(files)
        for p in patches:
            touched += apply_quilt_patch(p)
        for f in files:
            copy_ours(f)
        commit(subject, body, touched, name, email, commit_date(i))
    shutil.rmtree(out, ignore_errors=True)
    git('format-patch', '-q', '--cover-letter', '--base=base',
        '--no-signature', '-o', out, 'base..series')
    names = sorted(os.listdir(out))
    fill_cover_letter(os.path.join(out, names[0]), len(names) - 1)
    print('series: %d patches and a cover letter in %s' %
          (len(names) - 1, os.path.relpath(out, TOP)))


# ---- check --------------------------------------------------------------

def apply_series(out, name, email):
    """git am the series onto the base commit; return the new commits."""
    base_repo(name, email)
    patches = sorted(os.path.join(out, f) for f in os.listdir(out)
                     if f.endswith('.patch') and not f.startswith('0000-'))
    res = subprocess.run(['git', '-C', REPO, 'am', '-q'] + patches,
                         text=True, env=commit_env(name, email, BASE_DATE),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if res.returncode:
        git('am', '--abort', check=False)
        failed = re.search(r'Patch failed at (.*)', res.stdout)
        raise SeriesError('git am: %s' % (failed.group(1) if failed
                                          else res.stdout[-1500:]))
    return git('rev-list', '--reverse', 'base..HEAD').split()


def compare_with_prepared(src):
    """The applied series against the prepared tree, file by file."""
    with open(os.path.join(src, '.page_pool_overlay')) as f:
        want = set(f.read().split()) - set(harness_only())
    got = set(git('diff', '--name-only', 'base', 'HEAD').split())
    problems = ['only in the prepared tree: %s' % f
                for f in sorted(want - got)]
    problems += ['only in the series: %s' % f for f in sorted(got - want)]
    for f in sorted(want & got):
        a, b = os.path.join(REPO, f), os.path.join(src, f)
        with open(a, 'rb') as fa, open(b, 'rb') as fb:
            if fa.read() != fb.read():
                problems.append('differs: %s' % f)
        if os.access(a, os.X_OK) != os.access(b, os.X_OK):
            problems.append('mode differs: %s' % f)
    if problems:
        raise SeriesError('the series does not give the prepared tree:\n  ' +
                          '\n  '.join(problems))


def maintainers_patterns():
    """The F: patterns of MAINTAINERS, but for THE REST's catch-all."""
    pats, section = [], None
    with open(os.path.join(REPO, 'MAINTAINERS')) as f:
        for line in f:
            if not line.strip():
                section = None
            elif section is None:
                section = line.strip()
            elif line.startswith('F:') and section != 'THE REST':
                pats.append(line[2:].strip())
    return pats


def maintainers_match(pat, path):
    """get_maintainer.pl's rules: dir/ is recursive, * stays in a dir."""
    if pat.endswith('/'):
        return path.startswith(pat)
    if not fnmatch.fnmatchcase(path, pat):
        return False
    return path.count('/') == pat.count('/')


def run_checkpatch(out, patch):
    """checkpatch --strict's complaints about one patch, or None.

    FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is left to
    unlisted_files(), which asks what the warning asks: that every file
    the series adds is listed under an entry of the final MAINTAINERS.
    UNKNOWN_COMMIT_ID is what checkpatch says of every Fixes: tag in a
    tree without upstream's history, as the base tree is.
    """
    res = subprocess.run([os.path.join(REPO, 'scripts', 'checkpatch.pl'),
                          '--strict', '--no-tree', '--quiet', '--ignore',
                          'FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID',
                          os.path.join(out, patch)], cwd='/', text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if res.returncode or res.stdout.strip():
        return res.stdout.strip() or 'exit status %d' % res.returncode
    return None


def unlisted_files():
    """The files the applied series adds that no MAINTAINERS entry lists."""
    pats = maintainers_patterns()
    added = git('diff', '--name-only', '--diff-filter=A', 'base',
                'HEAD').split()
    orphans = [f for f in added
               if not any(maintainers_match(p, f) for p in pats)]
    return '\n'.join(orphans) or None


# ---- bisect build -------------------------------------------------------

# What each architecture's build of a commit compiles: the objects of the
# series' C files so far that the test kernel of that architecture
# builds (its folder holds their .o), with that kernel's config.
ARCHES = [
    # (ARCH, test kernel folder, scratch folder, what counts as touching it)
    ('x86_64', 'x86_64-ours', 'series-obj', lambda f: not f.startswith(
        ('arch/um/', 'arch/x86/um/', 'Documentation/', 'tools/',
         'MAINTAINERS'))),
    ('um', 'um-ours', 'series-obj-um',
     lambda f: f.startswith(('arch/um/', 'arch/x86/um/'))),
]


def kmake(arch, obj_dir, *targets):
    # The nm build-kernel.sh passes (KBUILD_NM, from ccache-env.sh).
    nm = os.environ.get('KBUILD_NM', 'nm')
    return subprocess.run(
        ['make', '-s', '-C', REPO, 'O=' + obj_dir, 'ARCH=' + arch,
         'NM=' + nm, '-j%d' % os.cpu_count()] + list(targets), text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def bisect_build(commits):
    """Build, at each commit, the objects of the series' files so far.

    Yields (n, subject, error or None, what was built) per commit.
    """
    sources = {a[0]: [] for a in ARCHES}
    configured = set()
    ref_config = {}
    for arch, ref, _, _ in ARCHES:
        cfg = os.path.join(BUILD, ref, '.config')
        if not os.path.exists(cfg):
            raise SeriesError('the bisect build takes its config and object '
                              'list from build/%s: build that kernel first '
                              '(scripts/build-kernel.sh %s ours)' %
                              (ref, ref.rsplit('-', 1)[0]))
        ref_config[arch] = cfg
    for n, sha in enumerate(commits, 1):
        files = git('diff-tree', '--no-commit-id', '--name-only', '-r',
                    sha).split()
        subject = git('log', '-1', '--format=%s', sha).strip()
        git('checkout', '-q', '--detach', sha)
        error, built = None, []
        for arch, ref, scratch, touches in ARCHES:
            if not any(touches(f) for f in files):
                continue
            for f in files:
                obj = f[:-2] + '.o'
                if not f.endswith('.c') or \
                        not os.path.exists(os.path.join(BUILD, ref, obj)):
                    continue
                # UML's host-side objects take their flags from their
                # directory's rules: build those directories whole.
                if arch == 'um':
                    obj = os.path.dirname(f) + '/'
                if obj not in sources[arch]:
                    sources[arch].append(obj)
            if not sources[arch]:
                continue
            out = os.path.join(BUILD, scratch)
            os.makedirs(out, exist_ok=True)
            # The test kernel's config again wherever a Kconfig changes:
            # olddefconfig drops an option until its Kconfig exists.
            res = None
            if arch not in configured or \
                    any(os.path.basename(f).startswith('Kconfig')
                        for f in files):
                configured.add(arch)
                shutil.copy(ref_config[arch], os.path.join(out, '.config'))
                res = kmake(arch, out, 'olddefconfig')
            if res is None or res.returncode == 0:
                res = kmake(arch, out, *sources[arch])
            if res.returncode:
                error = 'does not build on %s:\n%s' % (arch,
                                                       res.stdout[-3000:])
                break
            built.append('%d %s on %s' % (
                len(sources[arch]),
                'directories' if arch == 'um' else 'objects', arch))
        yield n, subject, error, built


class Tap:
    """TAP for summarize.py: one line per result, diagnostics as '#'."""

    def __init__(self, count):
        self.n = 0
        print('TAP version 13')
        print('1..%d' % count, flush=True)

    def result(self, name, error=None):
        self.n += 1
        if error:
            print('not ok %d %s' % (self.n, name))
            for line in str(error).rstrip().split('\n'):
                print('# ' + line)
        else:
            print('ok %d %s' % (self.n, name))
        sys.stdout.flush()


def check(out, src):
    """The series' checks, as TAP; returns whether all passed."""
    name, email = identity()
    patches = sorted(f for f in os.listdir(out)
                     if f.endswith('.patch') and not f.startswith('0000-'))
    tap = Tap(3 + 2 * len(patches))
    failed = 0

    def result(what, error=None):
        nonlocal failed
        failed += bool(error)
        tap.result('series: ' + what, error)

    start = time.time()
    try:
        commits = apply_series(out, name, email)
    except SeriesError as e:
        result('git am applies it onto the base tree', e)
        for i in range(2 + 2 * len(patches)):
            result('not checked: the series does not apply', 'skipped')
        return False
    result('git am applies it onto the base tree')
    try:
        compare_with_prepared(src)
        result('it gives build/src-ours byte for byte')
    except SeriesError as e:
        result('it gives build/src-ours byte for byte', e)
    for p in patches:
        result('checkpatch --strict %s' % p, run_checkpatch(out, p))
    result('MAINTAINERS lists every file it adds', unlisted_files())
    print('# applied, compared and checkpatched in %d s' %
          (time.time() - start))
    start = time.time()
    try:
        for n, subject, error, built in bisect_build(commits):
            what = ', '.join(built) or 'no kernel object'
            result('patch %d builds on its predecessors (%s): %s' %
                   (n, what, subject), error)
    except SeriesError as e:
        for _ in patches:
            result('patch builds on its predecessors', e)
    print('# built patch by patch in %d s' % (time.time() - start))
    return not failed


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ('generate', 'check'):
        sys.exit(__doc__)
    out = os.path.abspath(sys.argv[2])
    try:
        if sys.argv[1] == 'generate':
            generate(out)
        else:
            if not check(out, os.path.join(BUILD, 'src-ours')):
                sys.exit(1)
    except SeriesError as e:
        print('series: %s' % e, file=sys.stderr)
        sys.exit(1)


if __name__ == '__main__':
    main()
