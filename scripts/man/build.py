#!/usr/bin/env python3
"""Renders the manual pages from docs/man/*.in into OUTPUT_DIR (default .build/man):

    scripts/man/build.py [OUTPUT_DIR]

  dashpilotd.8, dashpilotctl.1   the templates with @VERSION@ and @DATE@ filled in;
  dashpilot-officed.8            the same, with @KEYS@ written from config/officed.conf;
  dashpilot.conf.5               the same, with @KEYS@ written from config/dashpilot.conf,
                                 the documented configuration that is installed as
                                 /etc/dashpilot/dashpilot.conf: one subsection per
                                 [Section], each key with its default (or the value
                                 the shipped file sets) and the comment above it, in
                                 the file's order. A comment followed by
                                 several keys documents them together, as in the file.

The version is the one in Sources/DashPilotCore/Version.swift (what `dashpilotd --version`
prints); the date is that of the newest entry of scripts/deb/changelog. Standard library
only; the output depends on nothing but those files, so the pages are reproducible.
"""
import email.utils
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def version():
    text = open(os.path.join(REPO, "Sources/DashPilotCore/Version.swift")).read()
    match = re.search(r'static let string = "([^"]+)"', text)
    if not match:
        sys.exit("build.py: no version in Sources/DashPilotCore/Version.swift")
    return match.group(1)


def date():
    for line in open(os.path.join(REPO, "scripts/deb/changelog")):
        if line.startswith(" -- "):
            stamp = line.split("  ", 1)[1].strip()
            return email.utils.parsedate_to_datetime(stamp).strftime("%Y-%m-%d")
    sys.exit("build.py: no dated entry in scripts/deb/changelog")


def roff_text(text):
    """One line of running text, safe for roff: backslashes escaped, no leading control
    character, minus signs in option-like words kept as minus signs."""
    text = text.replace("\\", "\\e")
    text = re.sub(r"(?<![\w-])-(?=[\w-])", r"\\-", text)
    text = re.sub(r"(?<=\\-)-", r"\\-", text)
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


def configuration_groups(path):
    """[(section, [(comment lines, [(key, default)])])] in the file's order."""
    sections = []
    comment, keys = [], []

    def close():
        nonlocal comment, keys
        if keys:
            sections[-1][1].append((comment, keys))
        comment, keys = [], []

    for raw in open(path):
        line = raw.rstrip("\n")
        header = re.fullmatch(r"\[([A-Za-z][A-Za-z0-9]*)\]", line.strip())
        if header:
            close()
            sections.append((header.group(1), []))
            continue
        if not sections:
            continue  # the file's own introduction: the page has its own
        # A key is documented commented out with its default, or, where the shipped file
        # sets it ([Shift] Start=movement), set to the shipped value.
        key = re.fullmatch(r"#?([A-Za-z][A-Za-z0-9_]*)=(.*)", line)
        if key:
            keys.append((key.group(1), key.group(2)))
        elif line.startswith("#") or line.startswith(";"):
            if keys:
                close()
            text = line[1:].strip()
            if text:
                comment.append(text)
        elif not line.strip():
            close()
        else:
            sys.exit(f"build.py: {path}: a line that is set, not documented: {line!r}")
    close()
    return sections


def keys_section(path):
    out = []
    for section, groups in configuration_groups(path):
        out.append(f'.SS "[{section}]"')
        for comment, keys in groups:
            for index, (key, default) in enumerate(keys):
                out.append(".TP" if index == 0 else ".TQ")
                out.append(f"\\fB{key}=\\fR{roff_text(default)}")
            out.extend(roff_text(line) for line in comment)
    return "\n".join(out)


def main():
    output = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, ".build/man")
    os.makedirs(output, exist_ok=True)
    values = {"@VERSION@": version(), "@DATE@": date()}
    # Each page with @KEYS@ documents the keys of its own configuration file.
    configs = {"dashpilot.conf.5": "config/dashpilot.conf", "dashpilot-officed.8": "config/officed.conf"}
    for name in ("dashpilotd.8", "dashpilotctl.1", "dashpilot.conf.5", "dashpilot-officed.8"):
        text = open(os.path.join(REPO, "docs/man", name + ".in")).read()
        if "@KEYS@" in text:
            text = text.replace("@KEYS@", keys_section(os.path.join(REPO, configs[name])))
        for placeholder, value in values.items():
            text = text.replace(placeholder, value)
        leftover = re.search(r"@[A-Z]+@", text)
        if leftover:
            sys.exit(f"build.py: {name}.in: {leftover.group(0)} is not filled in")
        with open(os.path.join(output, name), "w") as page:
            page.write(text)
        print(os.path.join(output, name))


if __name__ == "__main__":
    main()
