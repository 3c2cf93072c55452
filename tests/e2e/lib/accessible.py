# SPDX-License-Identifier: GPL-3.0-or-later
#
# Reads an application as assistive technologies do, through AT-SPI on the
# accessibility bus (AT_SPI_BUS_ADDRESS), for the end-to-end tests
# (tests/e2e/lib/accessible.mjs runs it).
#
#   accessible.py tree PID [SKIP...]
#       prints, as JSON, the tree of the application of process PID:
#       {role, name, description, text, states, actions, children}, without
#       what is hidden, the insides of terminals and web pages, and the
#       insides of elements named SKIP (each element is a few calls to the
#       app: a big tree takes long on a loaded machine).
#   accessible.py act PID ROLE NAME ACTION [SKIP...]
#       does ACTION (e.g. "click") on the first visible element of ROLE
#       named NAME, outside the elements named SKIP, as a screen reader's
#       user would; fails when there is none.

import json
import sys
import warnings

import gi

gi.require_version('Atspi', '2.0')
from gi.repository import Atspi, GLib  # noqa: E402

# libatspi marks the name of an action deprecated for a C function that
# its bindings do not have.
warnings.filterwarnings('ignore', category=DeprecationWarning)

# What the tests never need to look inside: slow to walk and not ours.
OPAQUE_ROLES = {'terminal', 'document web', 'document frame'}


def application(pid):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is not None and app.get_process_id() == pid:
            return app
    return None


def states_of(node):
    states = node.get_state_set()
    return [Atspi.StateType(s).value_nick for s in states.get_states()]


def text_of(node):
    if 'Text' not in node.get_interfaces():
        return None
    return Atspi.Text.get_text(node, 0, Atspi.Text.get_character_count(node))


def actions_of(node):
    if 'Action' not in node.get_interfaces():
        return []
    return [Atspi.Action.get_action_name(node, i) for i in range(Atspi.Action.get_n_actions(node))]


def vanished(error):
    # A widget the app destroyed between two calls of the walk (a page of
    # the window closing while it is read): the app answers that the
    # object is unknown, and libatspi says so in its own domain. A screen
    # reader passes over it; a gone app fails the next read instead.
    return error.domain == 'atspi_error'


def child_at(node, i):
    try:
        return node.get_child_at_index(i)
    except GLib.Error as error:
        if vanished(error):
            return None
        raise


def walk(node, skip, depth=0):
    states = states_of(node)
    if 'visible' not in states and depth > 0:
        return None
    role = node.get_role_name()
    out = {
        'role': role,
        'name': node.get_name() or '',
        'description': node.get_description() or '',
        'states': states,
    }
    text = text_of(node) if role in ('text', 'entry', 'label') else None
    if text:
        out['text'] = text
    actions = actions_of(node) if role in ('push button', 'toggle button') else []
    if actions:
        out['actions'] = actions
    children = []
    if role not in OPAQUE_ROLES and out['name'] not in skip:
        for i in range(node.get_child_count()):
            child = child_at(node, i)
            if child is None:
                continue
            try:
                item = walk(child, skip, depth + 1)
            except GLib.Error as error:
                if not vanished(error):
                    raise
                item = None
            if item is not None:
                children.append(item)
    out['children'] = children
    return out


def find(node, role, name, skip):
    node_name = node.get_name()
    if node.get_role_name() == role and node_name == name and \
            'visible' in states_of(node):
        return node
    if node.get_role_name() in OPAQUE_ROLES or node_name in skip:
        return None
    for i in range(node.get_child_count()):
        child = node.get_child_at_index(i)
        found = find(child, role, name, skip) if child is not None else None
        if found is not None:
            return found
    return None


def main(argv):
    Atspi.set_timeout(5000, 20000)
    command, pid = argv[1], int(argv[2])
    app = application(pid)
    if app is None:
        print(f'no application of process {pid} on the accessibility bus', file=sys.stderr)
        return 2
    if command == 'tree':
        json.dump(walk(app, set(argv[3:])), sys.stdout)
        return 0
    if command == 'act':
        role, name, wanted = argv[3], argv[4], argv[5]
        node = find(app, role, name, set(argv[6:]))
        if node is None:
            print(f'no visible {role} named "{name}"', file=sys.stderr)
            return 3
        names = actions_of(node)
        if wanted not in names:
            print(f'{role} "{name}" has no action {wanted} (it has {names})', file=sys.stderr)
            return 4
        return 0 if Atspi.Action.do_action(node, names.index(wanted)) else 5
    print(f'unknown command {command}', file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
