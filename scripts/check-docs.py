#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-docs.py ROOT KERNEL_DOC GET_ABI: the work of check-docs.sh.

Parses ROOT's page_pool.rst with docutils, its kernel-doc directives
expanded as the kernel's Sphinx extensions do, then the rst GET_ABI
makes of ROOT's sysfs-bus-ppsim. Prints each warning of docutils,
kernel-doc or get_abi.pl with the file and line it comes from, and
exits 1 if there was one.
"""
import glob
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

import docutils.core
from docutils import nodes, statemachine
from docutils.parsers.rst import Directive, directives, roles

RST = 'Documentation/networking/page_pool.rst'
ABI = 'Documentation/ABI/testing/sysfs-bus-ppsim'
root, kdoc, get_abi = sys.argv[1:4]
findings = 0


def finding(msg):
    global findings
    findings += 1
    print('check-docs: ' + msg)


def run(cmd, who, cwd=None):
    """Run @cmd: each line it writes to stderr is a finding. Returns its
    stdout, or None if it failed."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, cwd=cwd)
    for line in r.stderr.splitlines():
        finding('%s: %s' % (who, line))
    if r.returncode:
        finding('%s: exited with %d' % (who, r.returncode))
        return None
    return r.stdout


def parse_lines(directive, text, source, marker):
    """Parse @text in place of @directive, as the kernel's extensions do
    with Sphinx's switch_source_input(): a line matching @marker sets
    the source file and line of the lines after it, and messages about
    them name those."""
    content = statemachine.StringList()
    line = 0
    for s in statemachine.string2lines(
            text, directive.state.document.settings.tab_width,
            convert_whitespace=True):
        m = re.match(marker, s)
        if m:
            source, line = m.group(1) or source, int(m.group(2)) - 1
        else:
            content.append(s, source, line)
            line += 1
    lookup = statemachine.StateMachine([], None)
    lookup.input_lines = content
    reporter = directive.state.memo.reporter
    saved = reporter.get_source_and_line
    reporter.get_source_and_line = lookup.get_source_and_line
    node = nodes.section()
    try:
        directive.state.nested_parse(content, 0, node, match_titles=1)
    finally:
        reporter.get_source_and_line = saved
    return node.children


class KernelDoc(Directive):
    """".. kernel-doc:: FILE" as 6.1's Documentation/sphinx/kerneldoc.py
    takes it: the same options (it reads tab-width, but does not accept
    it), the same kernel-doc command."""
    required_arguments = 1
    optional_arguments = 4
    option_spec = {
        'doc': directives.unchanged_required,
        'export': directives.unchanged,
        'internal': directives.unchanged,
        'identifiers': directives.unchanged,
        'no-identifiers': directives.unchanged,
        'functions': directives.unchanged,
    }

    def run(self):
        path = self.arguments[0]
        # Without a version kernel-doc asks sphinx-build, and there is
        # none; it only tells the C domain of Sphinx before 3.0 from the
        # later one, so any later version gives the same rst. 5.3.0 is
        # the Sphinx of Debian 12, the host the README names.
        cmd = ['perl', kdoc, '-rst', '-enable-lineno',
               '-sphinx-version', '5.3.0']
        opts = self.options
        want = []
        if 'functions' in opts:
            opts['identifiers'] = opts['functions']
        if 'export' in opts or 'internal' in opts:
            kind = 'export' if 'export' in opts else 'internal'
            cmd.append('-' + kind)
            for pattern in opts[kind].split():
                for f in glob.glob(os.path.join(root, pattern)):
                    cmd += ['-export-file', f]
        elif 'doc' in opts:
            cmd += ['-function', opts['doc']]
        elif 'identifiers' in opts:
            want = opts['identifiers'].split()
            for f in want:
                cmd += ['-function', f]
            if not want:
                cmd.append('-no-doc-sections')
        for f in opts.get('no-identifiers', '').split():
            cmd += ['-nosymbol', f]
        cmd.append(os.path.join(root, path))

        where = '%s:%d: kernel-doc %s' % (RST, self.lineno, path)
        out = run(cmd, where)
        if not out:
            if out is not None:
                finding('%s: no output' % where)
            return []
        # kernel-doc says nothing when some of several are missing.
        for f in want:
            if not re.search(r'^\.\. c:\w+:: (.*[\s*])?%s\b' % re.escape(f),
                             out, re.M):
                finding('%s: no comment for %s' % (where, f))
        return parse_lines(self, out, path, r'^\.\. LINENO ()([0-9]+)$')


class KernelAbi(Directive):
    """".. kernel-abi:: DIR" as kernel_abi.py takes it (without its
    options), but on ROOT's ABI file alone: copied to a tree of its own,
    at its path, so that get_abi.pl sees no other and names it."""
    required_arguments = 1

    def run(self):
        tmp = tempfile.mkdtemp()
        try:
            os.makedirs(os.path.join(tmp, os.path.dirname(ABI)))
            shutil.copy(os.path.join(root, ABI), os.path.join(tmp, ABI))
            out = run(['perl', get_abi, 'rest', '--enable-lineno', '--dir',
                       'Documentation/ABI/' + self.arguments[0]],
                      'get_abi.pl', cwd=tmp)
        finally:
            shutil.rmtree(tmp)
        if out is None:
            return []
        return parse_lines(self, out, ABI, r'^\.\. LINENO (\S+)#([0-9]+)$')


class CDomain(Directive):
    """A stand-in for a directive of Sphinx's C domain: the body is
    parsed, the C declaration is not."""
    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True

    def run(self):
        box = nodes.container()
        self.state.nested_parse(self.content, self.content_offset, box)
        return [box]


def literal_role(name, rawtext, text, lineno, inliner, options={},
                 content=[]):
    return [nodes.literal(rawtext, text)], []


directives.register_directive('kernel-doc', KernelDoc)
directives.register_directive('kernel-abi', KernelAbi)
# The Sphinx markup kernel-doc and get_abi.pl write.
for d in ('function', 'macro', 'type', 'struct', 'union', 'enum'):
    directives.register_directive('c:' + d, CDomain)
for r in ('c:type', 'ref', 'doc'):
    roles.register_local_role(r, literal_role)


def parse(text, source):
    warnings = io.StringIO()
    docutils.core.publish_string(
        text, source_path=source, writer_name='null',
        settings_overrides={'report_level': 2, 'halt_level': 5,
                            'warning_stream': warnings,
                            'raw_enabled': False})
    # One finding a message, with the lines that quote the text.
    for msg in re.split(r'\n(?=\S.*\((?:WARNING|ERROR|SEVERE)/\d\))',
                        warnings.getvalue().rstrip('\n')):
        if msg:
            finding(msg)


try:
    with open(os.path.join(root, RST)) as f:
        parse(f.read(), RST)
except OSError as e:
    finding(str(e))
# As Documentation/admin-guide/abi-testing.rst does.
parse('.. kernel-abi:: testing\n', '(get_abi.pl rest of %s)' % ABI)

if findings:
    print('check-docs: %d finding(s)' % findings)
    sys.exit(1)
print('check-docs: %s and %s are clean' % (RST, ABI))
