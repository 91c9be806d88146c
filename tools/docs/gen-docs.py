#!/usr/bin/env python3
"""Build-time generator of the man pages and shell completions (run by tools/meson.build).

The tools' pages and completions are made from each tool's own option table, printed by the
tool with its internal --help-table flag (the table that drives getopt and --help), so they
cannot drift from --help; TOOL.txt beside it adds what a table cannot say (examples, the
Perl-compatible spellings). libflame(3) is made from flame.h's FLAME_EXPORT declarations and
their comments.

  gen-docs.py man OUT TOOL EXTRA     flame-*.1
  gen-docs.py bash|zsh|fish OUT TOOL completion file for one tool
  gen-docs.py lib OUT FLAME_H VERSION libflame.3
"""
import re
import subprocess
import sys


def read_table(tool):
    """The tool's info lines, its options (with 'values' when the tool lists them: the
    format names from the library's tables, and 'heading' on the first option of a group:
    the text --help prints above it) and, under info['formats'], the formats it reads and
    writes: (kind, name, extensions, description)."""
    out = subprocess.run([tool, '--help-table'], check=True, capture_output=True,
                         text=True).stdout
    info, opts, heading = {'formats': []}, [], None
    for line in out.splitlines():
        f = [x.replace('\\n', '\n').replace('\\t', '\t') for x in line.split('\t')]
        if f[0] == 'heading':  # over the options after it (the man page's subsection)
            heading = f[1]
        elif f[0] == 'opt':
            opts.append({'short': f[1], 'long': f[2], 'arg': f[3], 'help': f[4],
                         'heading': heading})
            heading = None
        elif f[0] == 'values':
            next(o for o in opts if o['long'] == f[1])['values'] = f[2].split()
        elif f[0] == 'format':
            info['formats'].append(tuple(f[1:5]))
        else:
            info[f[0]] = f[1]
    return info, opts


def values(opt):
    """An option's values: the format names the tool lists for it, else the words its help
    lists ("hot (default), mem, io"), for the options whose argument is a name from a
    fixed set."""
    if 'values' in opt:
        return opt['values']
    if opt['arg'] not in ('FMT', 'PALETTE', 'COLOR', 'ORDER', 'MODE'):
        return []
    words = []
    for piece in re.split(r'[,;()]|\bor\b', opt['help']):
        piece = re.sub(r'\bdefault\b:?', '', piece)
        piece = piece.split(':')[-1].strip()
        if re.fullmatch(r'[a-z][a-z0-9-]*', piece) and piece not in words:
            words.append(piece)
    # one word is a default named in passing ("default rgb(...)"), not a list of values
    return words if len(words) > 1 else []


# ------------------------------------------------------------------------------ man pages
def roff(text):
    text = text.replace('\\', '\\e').replace('-', '\\-')
    return '\n'.join(('\\&' + l if l[:1] in ('.', "'") else l) for l in text.split('\n'))


def paragraph(text):
    # the tools wrap --help text at 80 columns; the pager wraps the page itself
    return roff(' '.join(text.split()))


def read_extra(path):
    """tools/docs/TOOL.txt: '== SECTION' headers; in EXAMPLES, '$ command' lines each
    followed by the text saying what it does; elsewhere paragraphs split by blank lines."""
    sections, cur = [], None
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        if line.startswith('== '):
            cur = (line[3:].strip(), [])
            sections.append(cur)
        elif cur is not None:
            cur[1].append(line)
    return sections


def man_tool(out, tool, extra):
    info, opts = read_table(tool)
    prog = info['prog']
    extra = read_extra(extra)
    w = []
    w.append('.TH %s 1 "" "libflame %s" "User Commands"' % (prog.upper(), info['version']))
    w.append('.SH NAME')
    w.append('%s \\- %s' % (roff(prog), paragraph(' '.join(dict(extra)['NAME']))))
    w.append('.SH SYNOPSIS')
    w.append('.B %s' % roff(prog))
    w.append(roff(info['usage']))
    w.append('.SH DESCRIPTION')
    w.append(paragraph(info['about']))
    w.append('.SH OPTIONS')
    for o in opts:
        if o['heading']:
            w.append('.SS ' + roff(o['heading'].rstrip(':')))
        names = []
        if o['short']:
            names.append('\\fB\\-%s\\fR' % o['short'])
        names.append('\\fB\\-\\-%s\\fR' % roff(o['long']))
        arg = ' \\fI%s\\fR' % roff(o['arg']) if o['arg'] else ''
        w.append('.TP')
        w.append(', '.join(names) + arg)
        w.append(paragraph(o['help']))
    fmt = [o for o in opts if o['long'] in ('format', 'input-format')]
    if fmt:
        w.append('.SH FORMATS')
        for o in fmt:
            w.append('.TP')
            w.append('\\fB\\-\\-%s\\fR' % roff(o['long']))
            w.append(paragraph(o['help']))
            w.append('.br')
            w.append('Values: ' + roff(', '.join(values(o))) + '.')
    for kind, head in (('input', 'Input formats (told from the content unless --input-format '
                                 'names one):'),
                       ('output', 'Output formats (named by --format or by the extension of '
                                  "-o's FILE):")):
        rows = [f for f in info['formats'] if f[0] == kind]
        if not rows:
            continue
        w.append('.PP')
        w.append(roff(head))
        for _, name, exts, desc in rows:
            w.append('.TP')
            w.append('\\fB%s\\fR (%s)' % (roff(name), roff(exts)))
            w.append(paragraph(desc))
    w.append('.SH OUTPUT')
    w.append(paragraph(info['output']))
    w.append('.SH EXIT STATUS')
    w.append(paragraph(info['exit']))
    for name, lines in extra:
        if name == 'NAME':
            continue
        w.append('.SH ' + roff(name))
        if name == 'EXAMPLES':
            for line in lines:
                if line.startswith('$ '):
                    w.append('.PP\n.RS 4\n.nf\n' + roff(line[2:]) + '\n.fi\n.RE')
                elif line.strip():
                    w.append('.PP\n' + paragraph(line))
        else:
            for para in '\n'.join(lines).strip().split('\n\n'):
                w.append('.PP')
                w.append(paragraph(para))
    others = [t for t in ('flame-collapse', 'flame-render', 'flame-diff', 'flame-merge', 'flame-top')
              if t != prog]
    w.append('.SH SEE ALSO')
    w.append(',\n'.join('.BR %s (1)' % roff(t) for t in others) + ',\n.BR libflame (3)')
    open(out, 'w', encoding='utf-8').write('\n'.join(w) + '\n')


def man_lib(out, header, version):
    """libflame(3): every FLAME_EXPORT declaration of flame.h under its section, with the
    /** */ comment before it."""
    src = open(header, encoding='utf-8').read()
    head = re.match(r'/\*(.*?)\*/', src, re.S).group(1)
    w = ['.TH LIBFLAME 3 "" "libflame %s" "Library Functions Manual"' % version,
         '.SH NAME', 'libflame \\- flame graph toolkit library: profile parsers, stack tree, '
         'folded/pprof/SVG/PNG/PDF writers',
         '.SH SYNOPSIS', '.nf', '.B #include <libflame/flame.h>', '.PP',
         'cc prog.c $(pkg\\-config \\-\\-cflags \\-\\-libs libflame)',
         'cc \\-static prog.c $(pkg\\-config \\-\\-static \\-\\-cflags \\-\\-libs libflame)', '.fi',
         '.SH DESCRIPTION',
         paragraph(' '.join(l.strip().lstrip('*') for l in head.split('\n')))]
    # a /** */ comment documents the FLAME_EXPORT declarations right after it
    doc, in_doc, decl, shown = '', False, None, False
    for line in src.split('\n'):
        s = line.strip()
        if decl is not None:
            decl += ' ' + s
        elif re.match(r'/\* -+ (.*?) ?\*/$', s):
            w.append('.SH ' + roff(re.match(r'/\* -+ (.*?) ?\*/$', s).group(1).upper()))
            doc = ''
        elif s.startswith('/**'):
            doc, in_doc, shown = s, not s.endswith('*/'), False
        elif in_doc:
            doc += ' ' + s.lstrip('*').strip()
            in_doc = not s.endswith('*/')
        elif s.startswith('FLAME_EXPORT'):
            decl = s
        elif s:
            doc = ''
        if decl is not None and decl.endswith(';'):
            text = ' '.join(decl[len('FLAME_EXPORT'):].split())
            w.append('.TP\n.B ' + roff(text).replace('"', '\\(dq'))
            body = ' '.join(x.strip().lstrip('*').strip() for x in doc[3:-2].split('\n'))
            w.append(paragraph(body) if doc and not shown else '.')
            shown = bool(doc)
            decl = None
    w += ['.SH RETURN VALUE', paragraph(
        'Every function returns 0 or a negative flame_status and fills a caller-owned '
        'flame_err (source, line, byte offset, message) when one is given; '
        'flame_err_format() prints it. There is no global state.'),
        '.SH SEE ALSO', '.BR flame-collapse (1),\n.BR flame-render (1),\n.BR flame-diff (1),\n'
        '.BR flame-merge (1),\n.BR pkg-config (1)']
    open(out, 'w', encoding='utf-8').write('\n'.join(x for x in w if x != '') + '\n')


# ------------------------------------------------------------------------------ completions
def shq(s):
    return "'" + s.replace("'", "'\\''") + "'"


def bash(out, tool):
    info, opts = read_table(tool)
    prog = info['prog']
    fn = '_' + prog.replace('-', '_')
    words = []
    for o in opts:
        if o['short']:
            words.append('-' + o['short'])
        words.append('--' + o['long'])
    cases = []
    for o in opts:
        if not o['arg']:
            continue
        pats = '|'.join((['-' + o['short']] if o['short'] else []) + ['--' + o['long']])
        v = values(o)
        if o['long'] == 'sample-type' and any(x['long'] == 'list-sample-types' for x in opts):
            # the names are in the profile: ask the tool about the first file on the line
            act = ('local w; for w in "${COMP_WORDS[@]:1}"; do [ -f "$w" ] && break; w=; done; '
                   '[ -n "$w" ] && COMPREPLY=($(compgen -W "$(%s --list-sample-types "$w" '
                   '2>/dev/null | sed \'s,/.*,,\')" -- "$cur"))' % prog)
        elif v:
            act = 'COMPREPLY=($(compgen -W %s -- "$cur"))' % shq(' '.join(v))
        elif 'FILE' in o['arg']:
            act = 'COMPREPLY=($(compgen -f -- "$cur"))'
        else:
            act = 'COMPREPLY=()'
        cases.append('    %s) %s; return 0 ;;' % (pats, act))
    text = '''# bash completion for %(prog)s, generated from its option table by tools/docs/gen-docs.py
%(fn)s()
{
  local cur=${COMP_WORDS[COMP_CWORD]} prev=
  [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
  case $prev in
%(cases)s
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W %(words)s -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
  return 0
}
complete -o filenames -F %(fn)s %(prog)s
''' % {'prog': prog, 'fn': fn, 'cases': '\n'.join(cases), 'words': shq(' '.join(words))}
    open(out, 'w', encoding='utf-8').write(text)


def zsh_esc(s):
    return s.replace('\\', '\\\\').replace('[', '\\[').replace(']', '\\]').replace(
        ':', '\\:').replace("'", "'\\''")


def zsh(out, tool):
    info, opts = read_table(tool)
    prog = info['prog']
    specs = []
    for o in opts:
        desc = '[%s]' % zsh_esc(' '.join(o['help'].split()))
        act = ''
        if o['arg']:
            v = values(o)
            act = ':%s:%s' % (zsh_esc(o['arg']), '(%s)' % ' '.join(v) if v else
                               '_files' if 'FILE' in o['arg'] else ' ')
        if o['short']:
            specs.append("'(-%s --%s)'{-%s,--%s}'%s%s'" % (o['short'], o['long'], o['short'],
                                                          o['long'], desc, act))
        else:
            specs.append("'--%s%s%s'" % (o['long'], desc, act))
    text = '#compdef %s\n# zsh completion for %s, generated from its option table by ' \
           'tools/docs/gen-docs.py\n_arguments -s \\\n  %s \\\n  \'*:file:_files\'\n' % (
               prog, prog, ' \\\n  '.join(specs))
    open(out, 'w', encoding='utf-8').write(text)


def fish(out, tool):
    info, opts = read_table(tool)
    prog = info['prog']
    lines = ['# fish completion for %s, generated from its option table by tools/docs/gen-docs.py'
             % prog]
    for o in opts:
        c = 'complete -c %s -l %s' % (prog, o['long'])
        if o['short']:
            c += ' -s ' + o['short']
        if o['arg']:
            v = values(o)
            c += ' -x -a %s' % shq(' '.join(v)) if v else (' -r -F' if 'FILE' in o['arg']
                                                          else ' -x')
        c += ' -d ' + shq(' '.join(o['help'].split())[:80])
        lines.append(c)
    open(out, 'w', encoding='utf-8').write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    mode, out = sys.argv[1], sys.argv[2]
    if mode == 'man':
        man_tool(out, sys.argv[3], sys.argv[4])
    elif mode == 'lib':
        man_lib(out, sys.argv[3], sys.argv[4])
    else:
        {'bash': bash, 'zsh': zsh, 'fish': fish}[mode](out, sys.argv[3])
