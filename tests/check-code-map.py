#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Keeps docs/code-map.md true to the tree. Every name the map writes in
# backticks is looked up:
#
#   a path (it has a slash or ends in a file extension; * and [ch] match as
#   in a shell, <name> stands for any part of one name): a file or folder
#   of the source tree matches it;
#   a function, `name()`: a C function, prototype or function-like macro
#   of that name is defined or declared in app/, mcp/, ui/, webview/ or
#   tests/ (GNU style: the name opens its line, or follows the type words
#   that open it), or a JavaScript function in webview/; a call alone does
#   not count;
#   a method, `Object.name()`: the JavaScript file of webview/ that defines
#   Object (const Object = {...}, or a class) defines the method;
#   a tool, `browser_name`: a tool table has a row with that name;
#   a page runtime function, `module.name`: webview/runtime/ registers it
#   with Api.register();
#   a type, `TwName`: a C struct, typedef or enum of that name is defined;
#   a constant, `TW_NAME`: a macro or enum member of that name is defined;
#   any other C name, `name_of_table`: the C, JavaScript or meson sources
#   have it as a word.
#
# Names of the libraries the code builds on (g_, soup_, webkit_, json_,
# jsc_, gtk_; GTask, SoupServerMessage, ...) are theirs and not looked up.
# Anything else in backticks (a command line, an argument) is left alone.
#
#   check-code-map.py SOURCE_ROOT MAP

import glob
import os
import re
import sys

from checks import check, report

C_FOLDERS = ['app', 'mcp', 'ui', 'webview', 'tests']
JS_FOLDERS = ['webview']
SKIP_FOLDERS = {'node_modules', 'fixtures', 'bundle-turndown'}
EXTENSIONS = ('.c', '.h', '.js', '.mjs', '.json', '.md', '.build', '.py', '.xml', '.ui',
              '.css', '.txt', '.in', '.cfg', '.png')
LIBRARY_FUNCTION = re.compile(r'^(g|soup|webkit|json|jsc|gtk|adw|gdk|graphene)_\w+$')
LIBRARY_TYPE = re.compile(r'^(G|Json|Soup|WebKit|Gtk|Adw|JSC|Gdk|Graphene)[A-Z]\w*$')

SPAN = re.compile(r'`([^`\n]+)`')
FUNCTION = re.compile(r'^((?:[A-Za-z_$][\w$]*\.)*)([A-Za-z_$][\w$]*)\(\)$')
TOOL = re.compile(r'^browser_\w+$')
IDENTIFIER = re.compile(r'^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$')
RUNTIME_CALL = re.compile(r'^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$')
TYPE = re.compile(r'^_?[A-Z][a-z]+[A-Z][A-Za-z0-9]*$')
CONSTANT = re.compile(r'^[A-Z][A-Z0-9]*_[A-Z0-9_]+$')


def read_sources(root, folders, extensions):
    texts = {}
    for folder in folders:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, folder)):
            dirnames[:] = [d for d in dirnames if d not in SKIP_FOLDERS]
            for name in filenames:
                if name.endswith(extensions):
                    path = os.path.join(dirpath, name)
                    with open(path, encoding='utf-8', errors='replace') as f:
                        texts[os.path.relpath(path, root)] = f.read()
    return texts


def spans(text):
    """Every backticked span outside fenced blocks, with its line number."""
    fenced = False
    for number, line in enumerate(text.split('\n'), 1):
        if line.lstrip().startswith('```'):
            fenced = not fenced
            continue
        if fenced:
            continue
        for match in SPAN.finditer(line):
            yield number, match.group(1).strip()


def is_path(span):
    if ' ' in span or '(' in span:
        return False
    return '/' in span or span.endswith(EXTENSIONS) or re.search(r'\.\[\w+\]$', span) is not None


def path_exists(root, span):
    pattern = re.sub(r'<[^>/]+>', '*', span.rstrip('/'))
    if glob.has_magic(pattern):
        return len(glob.glob(os.path.join(root, pattern))) > 0
    return os.path.exists(os.path.join(root, pattern))


def defines(sources, extensions, pattern):
    return any(pattern.search(text) for path, text in sources.items() if path.endswith(extensions))


def c_defines_function(sources, name):
    n = re.escape(name)
    # A definition or prototype: the name opens the line, or follows the
    # type words that open it; or a function-like macro.
    pattern = re.compile(r'^(?:(?:[A-Za-z_]\w*[ \t*]+)+\**)?' + n + r'[ \t]*\('
                         r'|^#[ \t]*define[ \t]+' + n + r'\(', re.MULTILINE)
    return defines(sources, ('.c', '.h'), pattern)


def js_function_pattern(name):
    n = re.escape(name)
    return re.compile(r'\bfunction\s*\*?\s*' + n + r'\s*\('
                      r'|^[ \t]*(?:static\s+)?(?:async\s+)?\*?' + n + r'[ \t]*\([^)\n]*\)[ \t]*\{'
                      r'|(?:^|[\s,{])' + n + r'\s*[:=]\s*(?:async\s*)?'
                      r'(?:function\b|\([^)\n]*\)\s*=>|[\w$]+\s*=>)', re.MULTILINE)


def js_defines_function(sources, name, owner=None):
    """With @owner, the function is a method defined in the file that
    defines the object @owner (const Owner = {...}, or a class)."""
    pattern = js_function_pattern(name)
    if owner is None:
        return defines(sources, ('.js', '.mjs'), pattern)
    owner_pattern = re.compile(r'^(?:const|let|var|class)[ \t]+' + re.escape(owner) + r'\b', re.MULTILINE)
    return any(owner_pattern.search(text) and pattern.search(text) for text in sources.values())


def c_defines_type(sources, name):
    n = re.escape(name)
    pattern = re.compile(r'^\}[ \t]*' + n + r'[ \t]*;'
                         r'|^(?:typedef[ \t]+)?(?:struct|enum|union)[ \t]+_?' + n + r'[ \t]*\{?[ \t]*$'
                         r'|^typedef\b[^;]*\b' + n + r'[ \t]*;'
                         r'|^typedef\b[^;]*\(\*' + n + r'\)'
                         r'|G_DECLARE_\w+[ \t]*\([ \t]*' + n + r'[ \t]*,', re.MULTILINE)
    return defines(sources, ('.c', '.h'), pattern)


def c_defines_constant(sources, name):
    n = re.escape(name)
    # A macro, or an enumerator on a line of its own.
    pattern = re.compile(r'^#[ \t]*define[ \t]+' + n + r'\b'
                         r'|^[ \t]+' + n + r'[ \t]*(?:=[^=][^,\n]*)?,?[ \t]*(?:/\*.*)?$', re.MULTILINE)
    return defines(sources, ('.c', '.h'), pattern)


def has_word(sources, name):
    pattern = re.compile(r'(?<![\w$])' + re.escape(name) + r'(?![\w$])')
    return any(pattern.search(text) for text in sources.values())


def tool_exists(sources, name):
    needle = '.name = "' + name + '"'
    return any(needle in text for path, text in sources.items()
               if path.startswith(os.path.join('mcp', 'tools') + os.sep) and path.endswith('.c'))


def runtime_registers(sources, name):
    pattern = re.compile(r"Api\.register\(\s*'" + re.escape(name) + "'")
    return any(pattern.search(text) for path, text in sources.items()
               if path.startswith(os.path.join('webview', 'runtime') + os.sep))


def main():
    root, map_path = sys.argv[1:]
    with open(map_path, encoding='utf-8') as f:
        text = f.read()

    c_sources = read_sources(root, C_FOLDERS, ('.c', '.h'))
    js_sources = read_sources(root, JS_FOLDERS, ('.js', '.mjs'))
    meson_sources = read_sources(root, C_FOLDERS + ['docs', 'data'], ('meson.build',))
    where = os.path.basename(map_path)
    counts = dict.fromkeys(['path', 'function', 'tool', 'runtime function', 'type', 'constant', 'name'], 0)

    for number, span in spans(text):
        function = FUNCTION.match(span)
        if function:
            owner, name = function.group(1), function.group(2)
            counts['function'] += 1
            if not owner and LIBRARY_FUNCTION.match(name):
                continue
            if owner:
                owner = owner.rstrip('.').split('.')[-1]
                check(js_defines_function(js_sources, name, owner),
                      f'{where}:{number}: `{span}` is not a method of an object {owner} '
                      f'of the JavaScript sources')
            else:
                check(c_defines_function(c_sources, name) or js_defines_function(js_sources, name),
                      f'{where}:{number}: `{span}` is not defined or declared in the C or '
                      f'JavaScript sources')
        elif is_path(span):
            counts['path'] += 1
            check(path_exists(root, span),
                  f'{where}:{number}: `{span}` is not a path of the source tree')
        elif TOOL.match(span):
            counts['tool'] += 1
            check(tool_exists(c_sources, span), f'{where}:{number}: `{span}` is not a tool of any '
                  f'table in mcp/tools/')
        elif RUNTIME_CALL.match(span):
            counts['runtime function'] += 1
            check(runtime_registers(js_sources, span), f'{where}:{number}: `{span}` is not a function '
                  f'the page runtime registers (Api.register)')
        elif TYPE.match(span):
            counts['type'] += 1
            if not LIBRARY_TYPE.match(span):
                check(c_defines_type(c_sources, span), f'{where}:{number}: `{span}` is not a type '
                      f'defined in the C sources')
        elif CONSTANT.match(span):
            counts['constant'] += 1
            check(c_defines_constant(c_sources, span), f'{where}:{number}: `{span}` is not a macro '
                  f'or enum member defined in the C sources')
        elif IDENTIFIER.match(span):
            counts['name'] += 1
            check(any(has_word(sources, span) for sources in (c_sources, js_sources, meson_sources)),
                  f'{where}:{number}: `{span}` is not a name of the C, JavaScript or meson sources')

    check(counts['path'] > 0 and counts['function'] > 0,
          f'{where} names paths and functions in backticks (found {counts["path"]} paths, '
          f'{counts["function"]} functions)')

    summary = ', '.join(f'{n} {kind}s' for kind, n in counts.items())
    return report(f'{where}: every name is in the tree ({summary})')


if __name__ == '__main__':
    sys.exit(main())
