# SPDX-License-Identifier: GPL-2.0-or-later
"""What a tool takes and says, as data: its option table (the hidden
--r0-option-table: what it parses and what --help is written from), its
--help read back, and its usage lines. Shared by tests/options/check-options
(the option vocabulary, docs/options.md) and dist/bash-completion/make-completion."""
import re
import subprocess

# The option column of a --help, in the shapes a tool may print it: "  -o, --columns LIST   text",
# "      --plan   text", "--cleanup [ID]", "--rw=KIND", "--cleanup[=ID]", "-o LIST, --columns LIST",
# the text on the next line ("--fs-discard fstrim|mount" alone)
OPTION = re.compile(r"^ {2,6}(?:-([A-Za-z])(?: \S+)?, )?--([a-z][a-z0-9-]*)(?:[ =](\S+)|(\[=?\S+\]))?"
                    r"(?:\s{2,}(.*))?\s*$")
# An old name's text: "old name of --NEW, kept until 0.3", after a subcommand's "record-cycle: "
OLD_NAME = re.compile(r"^(?:([a-z][a-z-]*): )?old name of --([a-z][a-z0-9-]*), kept until (\d+\.\d+)$")


def help_text(tool):
    return subprocess.run([str(tool), "--help"], capture_output=True, text=True, check=True).stdout


def table(tool):
    """TOOL's option table as it parses it (the hidden --r0-option-table, tools/common/cli.h):
    a dict per option: long, letter (or None), value, default, needs, excludes, renamed_to,
    help, and text (what --help prints of it)."""
    out = subprocess.run([str(tool), "--r0-option-table"], capture_output=True, text=True, check=True).stdout
    keys = ("long", "letter", "value", "default", "needs", "excludes", "renamed_to", "help", "text")
    rows = []
    for line in out.splitlines():
        row = dict(zip(keys, line.split("\t")))
        row["letter"] = row["letter"] or None
        rows.append(row)
    return rows


def options(tool):
    """(letter or None, long, value, text) of every option in TOOL's table: what it parses,
    and what its --help is written from."""
    return [[r["letter"], r["long"], r["value"], r["text"]] for r in table(tool)]


def help_options(tool, text=None):
    """(letter or None, long, value, text) of every option TOOL's --help prints: the text
    read back, to hold it to the table."""
    out = help_text(tool) if text is None else text
    found, last = [], None
    for line in out.splitlines():
        m = OPTION.match(line)
        if m:
            value = m.group(3) or (m.group(4) or "").replace("[=", "[")
            last = [m.group(1), m.group(2), value, (m.group(5) or "").strip()]
            found.append(last)
        elif last is not None and line.startswith(" " * 20) and line.strip():
            last[3] = (last[3] + " " + line.strip()).strip()
        else:
            last = None
    return found


def old_name(text):
    """(subcommand or None, new long name, release kept until) of an option whose --help TEXT
    says it is an old name ("old name of --capacity, kept until 0.3"), else None."""
    m = OLD_NAME.match(text)
    return m.groups() if m else None


def usage(tool, text=None):
    """The synopsis lines of TOOL's --help, a continued line joined to the one before."""
    out = help_text(tool) if text is None else text
    lines, name = [], pathlib_name(tool)
    for line in out.split("\n\n")[0].splitlines()[1:]:
        if line.strip().startswith(name + " ") or line.strip() == name or not lines:
            lines.append(re.split(r"\s{2,}", line.strip())[0])
        else:
            lines[-1] += " " + line.strip()
    return lines


def pathlib_name(tool):
    return str(tool).rstrip("/").rsplit("/", 1)[-1]
