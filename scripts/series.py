#!/usr/bin/env python3
"""series.py: the project as a git series against the base tree.

  series.py generate OUT   write OUT/*.patch, a format-patch series with
                           a cover letter, in patches/series order
  series.py check-applied OUT
                           git am OUT onto the base commit (branch
                           applied), compare the result with
                           build/src-ours, checkpatch each patch,
                           spdxcheck the files it changes, and check
                           that MAINTAINERS lists those it adds
  series.py check-built OUT
                           build each commit of branch applied's objects
                           on top of its predecessors
  series.py check OUT      both

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
PRISTINE = os.path.realpath(os.environ.get(
    'SERIES_PRISTINE', os.path.join(BUILD, 'linux-source-6.1')))
# What the base tree is (scripts/pristine.sh's pristine_id).
PRISTINE_ID = os.environ.get('SERIES_PRISTINE_ID', PRISTINE)
REPO = os.path.join(BUILD, 'series-git')
OVERLAY_DIRS = ['net', 'include', 'drivers', 'Documentation', 'tools', 'lib']
# Commits are dated, so that a series of the same content and identity
# has the same commit ids; the base's date is the base tree's release.
BASE_DATE = '2026-11-06T18:15:16+00:00'


# scripts/spdxcheck.py runs the python3 on PATH; it needs the system's,
# where install-deps.sh put python3-ply and python3-git.
SYSTEM_PYTHON_ENV = dict(os.environ,
                         PATH='/usr/bin:' + os.environ.get('PATH', ''))


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
    """A quilt patch's subject, message (sign-offs kept) and author."""
    with open(os.path.join(TOP, 'patches', name)) as f:
        text = f.read()
    head = text.split('\n---\n', 1)[0]
    subject, author, body, in_body = None, None, [], False
    for line in head.split('\n'):
        if in_body:
            body.append(line)
        elif line.startswith('Subject:'):
            subject = re.sub(r'^\[PATCH[^]]*\]\s*', '',
                             line[len('Subject:'):].strip())
        elif line.startswith('From:'):
            m = re.match(r'From:\s*(.*?)\s*<([^>]+)>', line)
            author = (m.group(1), m.group(2)) if m else None
        elif line == '' and subject:
            in_body = True
    if not subject or not author:
        raise SeriesError('patches/%s needs From: and Subject: lines' % name)
    return subject, '\n'.join(body).strip() + '\n', author


def our_files():
    out = run(['git', '-C', TOP, 'ls-files', '-co', '--exclude-standard',
               '--'] + OVERLAY_DIRS, quiet=True)
    return sorted(f for f in out.split('\n')
                  if f and os.path.isfile(os.path.join(TOP, f)))


def harness_entries():
    path = os.path.join(TOP, 'series', 'harness-only')
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.split()[0] for line in f
                if line.strip() and not line.startswith('#')]


def harness_patches():
    """Quilt patches the harness needs that are not for the series."""
    return [e for e in harness_entries() if e.startswith('patches/')
            for e in [e[len('patches/'):]]]


def patch_files(path):
    """The files a quilt patch changes, from its +++ lines."""
    with open(path) as f:
        return re.findall(r'^\+\+\+ b/(\S+)', f.read(), re.M)


def harness_only():
    """Files of the prepared tree the series leaves out: our harness-only
    files, and the files of the harness-only patches."""
    files = []
    for e in harness_entries():
        path = os.path.join(TOP, e)
        if not os.path.exists(path):
            raise SeriesError('series/harness-only lists %s, which does '
                              'not exist' % e)
        files += patch_files(path) if e.startswith('patches/') else [e]
    return files


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
    used = set()
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
                    used.add(pat)
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
    for name, fields in overlays.items():
        for pat in fields['Files']:
            if pat not in used:
                raise SeriesError('series/%s: %s matches no file' %
                                  (name, pat))
    return claims


# ---- the work repository ------------------------------------------------

def base_repo(name, email):
    """build/series-git with the base tree committed as branch 'base'."""
    stamp = os.path.join(REPO, '.git', 'series-pristine')
    if os.path.exists(stamp):
        with open(stamp) as f:
            if f.read() == PRISTINE_ID:
                # A run stopped in the middle of git am leaves it behind.
                if os.path.exists(os.path.join(REPO, '.git', 'rebase-apply')):
                    git('am', '--abort', check=False)
                git('checkout', '-q', '-f', '--detach', 'base')
                git('reset', '-q', '--hard', 'base')
                git('clean', '-q', '-fdx')
                git('branch', '-q', '-D', 'applied', check=False)
                git('config', 'gc.auto', '0')
                return
    if not os.path.isfile(os.path.join(PRISTINE, 'Makefile')):
        raise SeriesError('no base tree in %s' % PRISTINE)
    print('series: committing the base tree (once, about half a minute)',
          file=sys.stderr)
    shutil.rmtree(REPO, ignore_errors=True)
    os.makedirs(REPO)
    # Hard links (git replaces a file, never writes it in place), or a
    # full copy on another file system; never the base tree's own .git.
    if subprocess.run(['cp', '-al', PRISTINE + '/.', REPO]).returncode:
        shutil.rmtree(REPO)
        os.makedirs(REPO)
        run(['cp', '-a', PRISTINE + '/.', REPO])
    shutil.rmtree(os.path.join(REPO, '.git'), ignore_errors=True)
    git('init', '-q')
    # zlib's fastest level: 27 s and 500 MB for the tree, not 60 s and
    # 250 MB. No automatic gc: after the base commit's 80,000 objects it
    # repacks the tree in a session of its own, at full weight beside
    # make test's stages.
    git('config', 'core.looseCompression', '1')
    git('config', 'gc.auto', '0')
    git('add', '-f', '.')
    git('commit', '-q', '-m', 'base: %s' % PRISTINE_ID,
        env=commit_env(name, email, BASE_DATE))
    git('branch', 'base')
    git('checkout', '-q', '--detach', 'base')
    with open(stamp, 'w') as f:
        f.write(PRISTINE_ID)


def apply_quilt_patch(name):
    """Apply patches/NAME as prepare-tree.sh does; return its files."""
    path = os.path.join(TOP, 'patches', name)
    run(['patch', '-s', '-F0', '-p1', '-d', REPO, '--no-backup-if-mismatch',
         '-i', path])
    return patch_files(path)


def commit(subject, body, files, author, signer, date):
    """Commit FILES as AUTHOR; SIGNER adds a sign-off, as git am -s."""
    git('add', '-f', '--', *files)
    if not git('diff', '--cached', '--name-only').strip():
        raise SeriesError('commit "%s" changes nothing' % subject)
    sob = 'Signed-off-by: %s <%s>' % signer
    if sob not in body.split('\n'):
        body += ('' if body.rstrip('\n').split('\n')[-1].startswith(
            'Signed-off-by:') else '\n') + sob + '\n'
    env = commit_env(signer[0], signer[1], date)
    env.update(GIT_AUTHOR_NAME=author[0], GIT_AUTHOR_EMAIL=author[1])
    res = subprocess.run(['git', '-C', REPO, 'commit', '-q', '-F', '-'],
                         input='%s\n\n%s' % (subject, body), text=True,
                         env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
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
        if kind == 'patch' and name not in folded and \
                name not in harness_patches():
            subject, body, author = read_patch_message(name)
            steps.append((subject, body, author, [name], []))
        elif kind == 'overlay':
            o = overlays[name]
            steps.append((o['Subject'], o['body'], None, o['Fold'],
                          claims[name]))
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
    # Not the series' own log: the check that writes it is running.
    names = sorted(f for f in os.listdir(logs)
                   if f.endswith('.log') and f != 'series.log') \
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


def fill_cover_letter(path):
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
    signer = identity()
    steps = plan()
    base_repo(*signer)
    git('checkout', '-q', '-B', 'series', 'base')
    for i, (subject, body, author, patches, files) in enumerate(steps):
        touched = list(files)
        for p in patches:
            touched += apply_quilt_patch(p)
        for f in files:
            copy_ours(f)
        commit(subject, body, touched, author or signer, signer,
               commit_date(i))
    tmp = out + '.new'
    shutil.rmtree(tmp, ignore_errors=True)
    git('format-patch', '-q', '--cover-letter', '--base=base',
        '--no-signature', '-o', tmp, 'base..series')
    names = sorted(os.listdir(tmp))
    fill_cover_letter(os.path.join(tmp, names[0]))
    shutil.rmtree(out, ignore_errors=True)
    os.rename(tmp, out)
    print('series: %d patches and a cover letter in %s' %
          (len(names) - 1, os.path.relpath(out, TOP)))


# ---- check --------------------------------------------------------------

def series_patches(out):
    """The patches of a generated series, in order, cover letter aside."""
    return sorted(f for f in os.listdir(out)
                  if f.endswith('.patch') and not f.startswith('0000-'))


def apply_series(out, patches, name, email):
    """git am the series onto the base commit, as branch 'applied'."""
    base_repo(name, email)
    res = subprocess.run(['git', '-C', REPO, 'am', '-q'] +
                         [os.path.join(out, p) for p in patches],
                         text=True, env=commit_env(name, email, BASE_DATE),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if res.returncode:
        git('am', '--abort', check=False)
        failed = re.search(r'Patch failed at (.*)', res.stdout)
        raise SeriesError('git am: %s' % (failed.group(1) if failed
                                          else res.stdout[-1500:]))
    git('branch', '-f', 'applied', 'HEAD')


def tree_files(root, skip):
    """Every file and symlink under ROOT but .git and SKIP, by path."""
    found = {}
    for d, dirs, files in os.walk(root):
        if d == root and '.git' in dirs:
            dirs.remove('.git')
        rel = os.path.relpath(d, root)
        for f in files + [x for x in dirs
                          if os.path.islink(os.path.join(d, x))]:
            path = os.path.normpath(os.path.join(rel, f))
            if path not in skip:
                found[path] = os.path.join(d, f)
    return found


def same_file(a, b):
    sa, sb = os.lstat(a), os.lstat(b)
    if (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino):
        return True
    if os.path.islink(a) or os.path.islink(b):
        return os.path.islink(a) and os.path.islink(b) and \
            os.readlink(a) == os.readlink(b)
    if sa.st_size != sb.st_size or \
            bool(sa.st_mode & 0o100) != bool(sb.st_mode & 0o100):
        return False
    with open(a, 'rb') as fa, open(b, 'rb') as fb:
        return fa.read() == fb.read()


def compare_with_prepared(src):
    """The applied series against the whole prepared tree."""
    skip = set(harness_only()) | {'.page_pool_overlay'}
    got, want = tree_files(REPO, skip), tree_files(src, skip)
    problems = ['only in the prepared tree: %s' % f
                for f in sorted(set(want) - set(got))]
    problems += ['only in the series: %s' % f
                 for f in sorted(set(got) - set(want))]
    problems += ['differs: %s' % f for f in sorted(set(want) & set(got))
                 if not same_file(got[f], want[f])]
    if problems:
        raise SeriesError('the series does not give the prepared tree:\n  ' +
                          '\n  '.join(problems[:50]))


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
    tree without upstream's history, as the base tree is. The licenses
    are left to invalid_licenses(): checkpatch would start spdxcheck.py,
    which reads all of LICENSES/ through git, once per file (three of
    the check's four minutes); GIT_DIR pointing nowhere turns that off.
    """
    res = subprocess.run([os.path.join(REPO, 'scripts', 'checkpatch.pl'),
                          '--strict', '--quiet', '--root=' + REPO,
                          '--ignore', 'FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID',
                          os.path.join(out, patch)], cwd=REPO, text=True,
                         env=dict(os.environ, GIT_DIR='/nonexistent'),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if res.returncode or res.stdout.strip():
        return res.stdout.strip() or 'exit status %d' % res.returncode
    return None


def invalid_licenses():
    """spdxcheck.py's complaints about the files the series adds or
    changes, in one run, or None."""
    changed = git('diff', '--name-only', '--no-renames', '--diff-filter=d',
                  'base', 'HEAD').split()
    res = subprocess.run([os.path.join('scripts', 'spdxcheck.py')] + changed,
                         cwd=REPO, text=True, env=SYSTEM_PYTHON_ENV,
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

# The bisect build: the x86_64 test kernel's config (all our options on),
# in a folder of its own, and its objects as the list of what exists.
REF = 'x86_64-ours'
SCRATCH = 'series-obj'


def dependents(obj_dir, tree):
    """Map each file of TREE (a folder name beside OBJ_DIR) that an
    object of OBJ_DIR was built from to those objects: the headers and
    any .c it includes, as its .o.cmd lists them (its own .c is on a
    line of its own, which this leaves out)."""
    users = {}
    dep = re.compile(r'^\s+\.\./%s/(\S+) \\$' % re.escape(tree), re.M)
    for d, _, files in os.walk(obj_dir):
        for f in files:
            if not (f.startswith('.') and f.endswith('.o.cmd')):
                continue
            obj = os.path.relpath(os.path.join(d, f[1:-4]), obj_dir)
            with open(os.path.join(d, f), errors='replace') as cmd:
                for m in dep.finditer(cmd.read()):
                    users.setdefault(m.group(1), set()).add(obj)
    return users


def dropped_options(config, ref_config):
    """Options the reference config sets that CONFIG's Kconfig knows but
    olddefconfig turned off or changed: a dependency a patch broke."""
    def options(path):
        opts = {}
        with open(path) as f:
            for line in f:
                m = re.match(r'(CONFIG_\w+)=(.*)', line) or \
                    re.match(r'# (CONFIG_\w+) is not set', line)
                if m:
                    opts[m.group(1)] = m.group(2) if m.lastindex == 2 \
                        else 'n'
        return opts
    have, want = options(config), options(ref_config)
    return ['%s=%s (wanted %s)' % (k, have[k], v) for k, v in want.items()
            if k in have and have[k] != v]


def kmake(arch, obj_dir, *targets):
    # The nm build-kernel.sh passes (KBUILD_NM, from ccache-env.sh).
    nm = os.environ.get('KBUILD_NM', 'nm')
    return subprocess.run(
        ['make', '-s', '-C', REPO, 'O=' + obj_dir, 'ARCH=' + arch,
         'NM=' + nm, '-j%d' % os.cpu_count()] + list(targets), text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def up_to_date(obj_dir, sources):
    """A test: is OBJ_DIR's object newer than all its sources in
    build/src-ours (the tree has not changed since the kernel built)?"""
    mtimes = {}

    def mtime(path):
        if path not in mtimes:
            try:
                mtimes[path] = os.stat(path).st_mtime
            except OSError:
                mtimes[path] = float('inf')
        return mtimes[path]

    def test(obj):
        src = os.path.join(BUILD, 'src-ours')
        built = mtime(os.path.join(obj_dir, obj))
        return all(mtime(os.path.join(src, f)) <= built
                   for f in sources.get(obj, ()))
    return test


def commit_files(sha):
    return git('diff-tree', '--no-commit-id', '--name-only', '-r',
               sha).split()


def bisect_build(commits, all_users=False):
    """Build, at each commit, what it changes.

    That is the objects built from a file it changes, as the x86_64 test
    kernel's objects (.o.cmd) list their sources, or as this folder's
    own objects of an earlier commit list theirs (an include the final
    tree no longer has); at a commit that changes a Kconfig, Makefile or
    Kbuild file, every object built so far as well.

    A user of a header that the series never changes is left out (unless
    ALL_USERS) where it is covered: its reference object is newer than
    every source it was built from, and an object built at this commit
    includes every file of it that differs here from the final tree.
    Its own code is then the same as in the base tree, which built, and
    in the test kernel, which built it: what could still break is how
    the headers that differ here fit together, and the covering object
    compiles them together. netdevice.h and page_pool.h have 700 such
    users: 40 minutes of CPU when the compiler cache is cold.
    Yields (n, subject, error or None, what was built) per commit.
    """
    ref_dir = os.path.join(BUILD, REF)
    ref_config = os.path.join(ref_dir, '.config')
    if not os.path.exists(ref_config):
        raise SeriesError('the bisect build takes its config and objects '
                          'from build/%s: build that kernel first '
                          '(scripts/build-kernel.sh x86_64 ours)' % REF)
    final = dependents(ref_dir, 'src-ours')
    sources = {}
    for f, objs in final.items():
        for o in objs:
            sources.setdefault(o, set()).add(f)
    changes = [commit_files(sha) for sha in commits]
    ours = {f[:-2] + '.o' for files in changes for f in files
            if f.endswith(('.c', '.S'))}
    ours |= {o for files in changes for f in files
             if f.endswith(('.c', '.S')) for o in final.get(f, set())}
    fresh = up_to_date(ref_dir, sources)
    out = os.path.join(BUILD, SCRATCH)
    os.makedirs(out, exist_ok=True)
    built, configured = set(), False
    for n, sha in enumerate(commits, 1):
        files = changes[n - 1]
        later = {f for files_ in changes[n:] for f in files_}
        subject = git('log', '-1', '--format=%s', sha).strip()
        git('checkout', '-q', '--detach', sha)
        earlier = dependents(out, os.path.basename(REPO))
        changed, untouched = set(), set()
        for f in files:
            users = final.get(f, set())
            changed |= users & ours
            untouched |= users - ours
            changed |= earlier.get(f, set()) & built
            if f.endswith(('.c', '.S')):
                changed.add(f[:-2] + '.o')
        differ = later | set(files)
        covers = [sources.get(o, set()) for o in changed
                  if os.path.exists(os.path.join(REPO, o[:-2] + '.c'))]
        changed |= {o for o in untouched
                    if all_users or not fresh(o) or
                    not any(sources[o] & differ <= c for c in covers)}
        names = [os.path.basename(f) for f in files
                 if not f.startswith(('tools/testing/', 'Documentation/'))]
        reconfigure = not configured or any(
            f.startswith('Kconfig') for f in names)
        if reconfigure or any(f.startswith(('Makefile', 'Kbuild'))
                              for f in names):
            changed |= built
        # Only what the test kernel builds and this commit has the
        # source of: a later patch's object left in the folder would
        # otherwise stand in for it.
        building = sorted(
            o for o in changed
            if os.path.exists(os.path.join(ref_dir, o)) and
            (os.path.exists(os.path.join(REPO, o[:-2] + '.c')) or
             os.path.exists(os.path.join(REPO, o[:-2] + '.S'))))
        if not building:
            yield n, subject, None, None
            continue
        built |= set(building)
        # The test kernel's config again wherever a Kconfig changes:
        # olddefconfig drops an option until its Kconfig exists.
        error = None
        if reconfigure:
            configured = True
            shutil.copy(ref_config, os.path.join(out, '.config'))
            res = kmake('x86_64', out, 'olddefconfig')
            dropped = dropped_options(os.path.join(out, '.config'),
                                      ref_config)
            if res.returncode or dropped:
                error = 'olddefconfig: %s' % (
                    res.stdout[-2000:] if res.returncode else
                    'options the test kernel sets are off: ' +
                    ', '.join(dropped))
        if not error:
            res = kmake('x86_64', out, *building)
            if res.returncode:
                error = 'does not build:\n%s' % res.stdout[-3000:]
        yield n, subject, error, '%d objects' % len(building)


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


def check_applied(out, src):
    """git am, byte compare, checkpatch, licenses and MAINTAINERS, as
    TAP; returns whether all passed. Leaves branch 'applied'."""
    name, email = identity()
    patches = series_patches(out)
    tap = Tap(4 + len(patches))
    failed = 0

    def result(what, error=None):
        nonlocal failed
        failed += bool(error)
        tap.result('series: ' + what, error)

    start = time.time()
    try:
        apply_series(out, patches, name, email)
    except SeriesError as e:
        result('git am applies it onto the base tree', e)
        for i in range(3 + len(patches)):
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
    result('spdxcheck accepts the license of every file it adds or '
           'changes', invalid_licenses())
    result('MAINTAINERS lists every file it adds', unlisted_files())
    print('# applied, compared and checkpatched in %d s' %
          (time.time() - start))
    return not failed


def check_built(out):
    """Each commit of branch 'applied' builds on its predecessors, as
    TAP; returns whether all passed."""
    patches = series_patches(out)
    tap = Tap(len(patches))
    failed = 0
    start = time.time()
    commits = git('rev-list', '--reverse', 'base..applied',
                  check=False).split()
    if len(commits) != len(patches):
        for _ in patches:
            tap.result('series: patch builds on its predecessors',
                       'branch applied of build/series-git has %d commits '
                       'for %d patches: check-applied did not apply the '
                       'series (its log says why)'
                       % (len(commits), len(patches)))
        return False
    try:
        all_users = os.environ.get('SERIES_ALL_USERS', '0') != '0'
        for n, subject, error, built in bisect_build(commits, all_users):
            if built is None:
                tap.result('series: patch %d builds on its predecessors # '
                           'SKIP no kernel object: %s' % (n, subject))
            else:
                failed += bool(error)
                tap.result('series: patch %d builds on its predecessors '
                           '(%s): %s' % (n, built, subject), error)
    except SeriesError as e:
        for _ in range(len(patches) - tap.n):
            failed += 1
            tap.result('series: patch builds on its predecessors', e)
    print('# built patch by patch in %d s' % (time.time() - start))
    return not failed


COMMANDS = ('generate', 'check', 'check-applied', 'check-built')


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    cmd, out = sys.argv[1], os.path.abspath(sys.argv[2])
    src = os.path.join(BUILD, 'src-ours')
    try:
        if cmd == 'generate':
            generate(out)
            return
        ok = True
        if cmd in ('check', 'check-applied'):
            ok = check_applied(out, src)
        if cmd in ('check', 'check-built'):
            ok = check_built(out) and ok
        if not ok:
            sys.exit(1)
    except SeriesError as e:
        print('series: %s' % e, file=sys.stderr)
        sys.exit(1)


if __name__ == '__main__':
    main()
