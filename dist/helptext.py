# SPDX-License-Identifier: GPL-2.0-or-later
"""What a tool's --help says, as data: its options and its usage lines. The one
parser of the --help texts, shared by tests/options/check-options (the option
vocabulary, docs/options.md) and dist/bash-completion/make-completion."""
import re
import subprocess

# "  -o, --columns LIST   text" or "      --plan   text": the option column of a --help
OPTION = re.compile(r"^ {2,6}(?:-([A-Za-z]), )?--([a-z][a-z0-9-]*)(?:[ =](\S+))?(?:\s{2,}(.*))?\s*$")


def help_text(tool):
    return subprocess.run([str(tool), "--help"], capture_output=True, text=True, check=True).stdout


def options(tool, text=None):
    """(letter or None, long, value, text) of every option TOOL's --help lists."""
    out = help_text(tool) if text is None else text
    found, last = [], None
    for line in out.splitlines():
        m = OPTION.match(line)
        if m:
            last = [m.group(1), m.group(2), m.group(3) or "", (m.group(4) or "").strip()]
            found.append(last)
        elif last is not None and line.startswith(" " * 20) and line.strip():
            last[3] = (last[3] + " " + line.strip()).strip()
        else:
            last = None
    return found


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
