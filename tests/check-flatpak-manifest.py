#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Checks flatpak/io.github.tabwright.Tabwright.json without building a
# Flatpak (no runtime is downloaded): the manifest parses and names the app
# id, the GNOME runtime and SDK, the command and the sandbox permissions the
# app needs (each explained in the README); every library the meson build
# depends on is either in the GNOME runtime or built by a module; and, with
# the project configured the way flatpak-builder configures it (prefix /app,
# libdir lib, the module's config-opts), the web-process extension, the
# settings schema and the launcher are installed where the app looks for
# them, computed by the app's own lookup function.
#
#   check-flatpak-manifest.py MANIFEST SOURCE_ROOT APP_ID MESON INSTALL_DIRS_TOOL BUILT_TABWRIGHT

import json
import os
import re
import subprocess
import sys
import tempfile

from checks import check, failures, report

# What org.gnome.Platform//47 and //48 ship, by pkg-config name.
RUNTIME_PROVIDES = {
    'glib-2.0', 'gio-2.0', 'gio-unix-2.0', 'json-glib-1.0', 'libsoup-3.0', 'gtk4',
    'libadwaita-1', 'webkitgtk-6.0', 'webkitgtk-web-process-extension-6.0', 'threads',
    'x11', 'm', 'sqlite3',
    # The X test extension's client library (test-demonstrate only).
    'xtst',
    # GStreamer with its base and good plugins (vp8enc, webmmux).
    'gstreamer-1.0', 'gstreamer-app-1.0', 'gstreamer-pbutils-1.0',
}
# Libraries the manifest builds, by pkg-config name: the module that builds
# each, and the modules that one needs first.
MODULE_PROVIDES = {
    'vte-2.91-gtk4': ('vte', ['fast_float']),
}
RUNTIME_VERSIONS = {'47', '48'}
SUCCESS = 'flatpak manifest: id, runtime, command, sandbox, modules and /app layout check out'

FINISH_ARGS = [
    '--share=network',        # web pages, and agents on the host reach the loopback MCP server
    '--share=ipc',            # X11 shared memory
    '--socket=wayland',
    '--socket=fallback-x11',
    '--device=dri',           # WebKit's GPU rendering
    '--talk-name=org.freedesktop.Flatpak',  # flatpak-spawn --host, to run agents on the host
]

def run(*args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs).stdout


def main():
    if len(sys.argv) != 7:
        print(__doc__ or 'usage: check-flatpak-manifest.py MANIFEST SOURCE_ROOT APP_ID MESON TOOL TABWRIGHT',
              file=sys.stderr)
        return 2
    manifest_path, source_root, app_id, meson, tool, built_tabwright = sys.argv[1:]

    with open(manifest_path, encoding='utf-8') as f:
        manifest = json.load(f)

    # The app.
    check(manifest.get('id') == app_id, f'id is {app_id}, not {manifest.get("id")}')
    check(manifest.get('runtime') == 'org.gnome.Platform', 'the runtime is org.gnome.Platform')
    check(manifest.get('sdk') == 'org.gnome.Sdk', 'the SDK is org.gnome.Sdk')
    check(str(manifest.get('runtime-version')) in RUNTIME_VERSIONS,
          f'runtime-version is one of {sorted(RUNTIME_VERSIONS)}, not {manifest.get("runtime-version")}')
    check(manifest.get('command') == 'tabwright', 'the command is tabwright')

    # The sandbox.
    finish_args = manifest.get('finish-args', [])
    for arg in FINISH_ARGS:
        check(arg in finish_args, f'finish-args include {arg}')
    check('--socket=x11' not in finish_args, 'X11 is only a fallback (--socket=fallback-x11)')
    check(any(arg in ('--filesystem=home', '--filesystem=host') for arg in finish_args),
          'finish-args give workspaces a filesystem (--filesystem=home or host)')
    with open(os.path.join(source_root, 'README.md'), encoding='utf-8') as f:
        readme = f.read()
    for arg in finish_args:
        check(arg in readme, f'README.md explains {arg}')
    check('flatpak-builder' in readme and os.path.basename(manifest_path) in readme,
          'README.md says how to build the manifest with flatpak-builder')

    # The modules.
    modules = manifest.get('modules', [])
    names = [m.get('name') for m in modules if isinstance(m, dict)]
    check(len(names) == len(modules), 'every module is an object with a name')
    check(names and names[-1] == 'tabwright', 'tabwright is the last module')
    app_module = modules[-1] if modules else {}
    check(app_module.get('buildsystem') == 'meson', 'tabwright builds with meson')
    sources = app_module.get('sources', [])
    check(len(sources) == 1 and sources[0].get('type') == 'dir', 'tabwright builds from this folder')
    if sources and sources[0].get('type') == 'dir':
        folder = os.path.realpath(os.path.join(os.path.dirname(manifest_path), sources[0].get('path', '')))
        check(folder == os.path.realpath(source_root), f'the dir source {folder} is the source root')

    vte = next((m for m in modules if m.get('name') == 'vte'), {})
    for opt in ('-Dgtk4=true', '-Dgtk3=false', '-Dvapi=false', '-Dgir=false', '-Ddocs=false'):
        check(opt in vte.get('config-opts', []), f'the vte module is configured with {opt}')

    # Turndown: the GNOME SDK has none, so a module joins a pinned release's
    # src/ with build-aux/bundle-turndown into the file -Dturndown names, and
    # keeps its licence but not the file, which the app carries compiled in.
    turndown = next((m for m in modules if m.get('name') == 'turndown'), {})
    turndown_opts = [o for o in app_module.get('config-opts', []) if o.startswith('-Dturndown=')]
    if check(turndown and turndown_opts, 'a turndown module builds the file tabwright\'s -Dturndown names'):
        path = turndown_opts[0].split('=', 1)[1]
        check(names.index('turndown') < names.index('tabwright'), 'turndown is built before tabwright')
        git = [s for s in turndown.get('sources', []) if s.get('type') == 'git']
        check(len(git) == 1 and git[0].get('url', '').endswith('/mixmark-io/turndown.git')
              and re.fullmatch(r'v\d+\.\d+\.\d+', git[0].get('tag', ''))
              and re.fullmatch(r'[0-9a-f]{40}', git[0].get('commit', '')),
              'turndown comes from a release tag of its repository, pinned to its commit')
        files = [s for s in turndown.get('sources', []) if s.get('type') == 'file']
        check(any(os.path.realpath(os.path.join(os.path.dirname(manifest_path), s.get('path', '')))
                  == os.path.realpath(os.path.join(source_root, 'build-aux', 'bundle-turndown')) for s in files),
              'the turndown module is given build-aux/bundle-turndown')
        commands = turndown.get('build-commands', [])
        check(any(c.split()[:3] == ['python3', 'bundle-turndown', 'src'] and c.split()[-1] == path
                  for c in commands), f'the turndown module bundles src/ into {path}')
        check(any('LICENSE' in c and f'/app/share/licenses/{app_id}/' in c for c in commands),
              'the turndown module installs Turndown\'s licence')
        check(any(path.startswith('/app' + c + '/') for c in turndown.get('cleanup', [])),
              f'{path} is cleaned up once tabwright has compiled it in')

    # Every dependency of the meson build, found in the runtime or a module.
    with tempfile.TemporaryDirectory(prefix='tabwright-flatpak-layout-') as tmp:
        build = os.path.join(tmp, 'build')
        # The bundled Turndown only exists inside the Flatpak build; here the
        # option keeps its default (Debian's copy).
        options = ['--prefix=/app', '--libdir=lib', '--buildtype=release'] + [
            o for o in app_module.get('config-opts', []) if not o.startswith('-Dturndown=')]
        try:
            run(meson, 'setup', build, source_root, *options)
        except subprocess.CalledProcessError as error:
            print(error.stdout, error.stderr, sep='\n', file=sys.stderr)
            failures.append('meson setup with the manifest\'s options fails')
            return report(SUCCESS)

        deps = [d['name'] for d in json.loads(run(meson, 'introspect', '--dependencies', build))]
        check('vte-2.91-gtk4' in deps or 'vte' not in names,
              'the vte module is built because the app needs it')
        for dep in deps:
            if dep in RUNTIME_PROVIDES:
                continue
            if not check(dep in MODULE_PROVIDES,
                         f'{dep} is neither in the GNOME runtime nor known to be built by a module'):
                continue
            module, needs = MODULE_PROVIDES[dep]
            if check(module in names, f'a module named {module} builds {dep}'):
                for need in needs:
                    check(need in names and names.index(need) < names.index(module),
                          f'{need} is built before {module}')
                check(names.index(module) < names.index('tabwright'), f'{module} is built before tabwright')

        # Where things land under /app, and where the app looks.
        installed = json.loads(run(meson, 'introspect', '--installed', build))
        destinations = list(installed.values())
        with open(os.path.join(build, 'config.h'), encoding='utf-8') as f:
            config = dict(re.findall(r'#define (\w+) "(.*)"', f.read()))

        check(f'/app/bin/{manifest.get("command")}' in destinations, 'the command is installed in /app/bin')
        check('/app/bin/tabwright-mcp' in destinations, 'tabwright-mcp is installed in /app/bin')
        check(f'/app/share/applications/{app_id}.desktop' in destinations, 'the desktop file is named after the app id')
        check(f'/app/share/metainfo/{app_id}.metainfo.xml' in destinations, 'the metainfo is named after the app id')
        check(f'/app/share/icons/hicolor/scalable/apps/{app_id}.svg' in destinations, 'the icon is named after the app id')

        extensions = [d for d in destinations if d.endswith('.so') and '/web-process-extensions/' in d]
        schemas = [d for d in destinations if d.endswith('.gschema.xml')]
        check(len(extensions) == 1, f'one web-process extension is installed: {extensions}')
        check(len(schemas) == 1, f'one settings schema is installed: {schemas}')
        for name in ('BINDIR', 'WEB_EXTENSION_DIR', 'SCHEMA_DIR', 'LOCALEDIR'):
            check(config.get(name, '').startswith('/app/'), f'{name} is inside /app: {config.get(name)}')

        exe = f'/app/bin/{manifest.get("command")}'
        found = run(tool, exe, config['BINDIR'], config['WEB_EXTENSION_DIR'], config['SCHEMA_DIR'],
                    config['LOCALEDIR']).split('\n')
        if extensions:
            check(found[0] == os.path.dirname(extensions[0]),
                  f'the app looks for its extension in {found[0]}, it is installed in {os.path.dirname(extensions[0])}')
        if schemas:
            check(found[1] == os.path.dirname(schemas[0]),
                  f'the app looks for its schema in {found[1]}, it is installed in {os.path.dirname(schemas[0])}')
        check(found[2] == '/app/share/locale', f'the app looks for translations in {found[2]}')

    # UI files, style and the in-page runtime are compiled into the binary,
    # so they are wherever it is.
    listed = run('gresource', 'list', built_tabwright).split('\n')
    for resource in ('/io/github/tabwright/Tabwright/runtime/snapshot.js',
                     '/io/github/tabwright/Tabwright/ui/tw-window.ui',
                     '/io/github/tabwright/Tabwright/style.css'):
        check(resource in listed, f'the tabwright binary carries {resource}')

    return report(SUCCESS)


if __name__ == '__main__':
    sys.exit(main())
