# SPDX-License-Identifier: GPL-2.0-or-later
"""A man page's lines as a reader sees them: shared by tests/docs/check-examples
(an example's text, exact) and tests/options/check-options (an option's prose)."""
import re

# roff's escapes and their characters, in the order they are undone (\e last: it makes a backslash)
ESCAPES = [("\\(aq", "'"), ("\\(em", "\u2014"), ("\\-", "-"), ("\\&", ""), ("\\ ", " "), ("\\e", "\\")]
FONT_REQUEST = re.compile(r"^\.(?:BI|BR|IR|RB|IB|B|I)\s+")
FONT_ESCAPE = re.compile(r"\\f[BIRP]")


def decode(line):
    """LINE with its escapes undone, nothing else changed: an example's text as printed."""
    for esc, char in ESCAPES:
        line = line.replace(esc, char)
    return line


def prose(line):
    """LINE as read in running text: font requests and escapes gone, quotes dropped, spaces single."""
    line = decode(FONT_ESCAPE.sub("", FONT_REQUEST.sub("", line))).replace('"', "")
    return " ".join(line.split()).replace(" ,", ",")
