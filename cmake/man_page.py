#!/usr/bin/python3
"""Writes kebab(1) from what the built kebab prints: `kebab --version`, `kebab --help` and
`kebab <command> --help` for every command and subcommand the help lists, so the page says what
--help says. The build runs it (cmake/Install.cmake):

  man_page.py KEBAB OUT

CLI11's help is: the description, a `Usage:` line, then groups (`Options:`, `Positionals:`,
`Subcommands:`), each a heading ending in a colon over entries whose name starts in column 2 and
whose description starts in column 30 (on the next line when the name is longer), continuation
lines indented to column 30. An option group (`[Option Group: NAME]`) holds a bracketed note
and its own `Options:`, both indented, and entries two columns further in.
"""
import os
import re
import subprocess
import sys

COLUMN = 30  # CLI11's default column width


def help_text(kebab, words):
    run = subprocess.run([kebab] + words + ["--help"], capture_output=True, text=True,
                         check=True)
    return run.stdout


def parse(text):
    """(description lines, usage, [(heading, [(name, description lines)])]); an option group's
    note is an entry without a name."""
    description, usage, groups = [], "", []
    entry_column = COLUMN  # where the last entry's description starts
    lines = text.rstrip("\n").split("\n")
    for i, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        column = COLUMN + indent - 2  # for an entry starting at `indent`
        if not usage:
            if line.startswith("Usage:"):
                usage = line[len("Usage:"):].strip()
            else:
                description.append(line)
        elif not stripped or (indent and re.fullmatch(r"\w+:", stripped)):
            continue  # blank, or an option group's own "Options:"
        elif option_group := re.fullmatch(r"\[Option Group: (.*)\]", line):
            groups.append((option_group[1], []))
        elif not indent and line.endswith(":"):
            groups.append((line[:-1], []))
        elif not groups or not indent:
            description.append(line)
        elif stripped.startswith("[") and stripped.endswith("]"):
            groups[-1][1].append(("", [stripped]))
        elif indent >= entry_column and groups[-1][1]:
            groups[-1][1][-1][1].append(stripped)
        else:
            entry_column = column
            if has_description(line, column, lines[i + 1] if i + 1 < len(lines) else ""):
                groups[-1][1].append((line[:column].strip(), [line[column:].strip()]))
            else:
                groups[-1][1].append((stripped, []))
    return description, usage, groups


def has_description(line, column, next_line):
    """Whether an entry's description starts on the entry's line, at `column`, its name padded
    to there. A name that long (`--page TEXT Excludes: start end --time`) is alone on its line,
    its description below, so a single space before `column` is padding only when the next line
    does not continue the entry."""
    if len(line) <= column or line[column] == " " or line[column - 1] != " ":
        return False
    continued = next_line.startswith(" " * column)
    return line[column - 2] == " " or not continued


def roff(text):
    """`text` escaped for roff: backslashes, and dashes kept as the ASCII minus a reader copies."""
    return text.replace("\\", "\\e").replace("-", "\\-")


def line(text):
    """A line of filled text; one starting with a dot or a quote would be a request."""
    text = roff(text)
    return "\\&" + text if text[:1] in (".", "'") else text


def paragraphs(lines):
    """Description lines: plain lines are filled, indented ones (examples, tables) kept as they
    are, a blank line starts a paragraph."""
    out, verbatim = [], False
    for l in lines:
        indented = l.startswith(" ")
        if indented != verbatim:
            out.append(".nf" if indented else ".fi")
            verbatim = indented
        out.append(".PP" if not l.strip() and not verbatim else line(l))
    if verbatim:
        out.append(".fi")
    return out


def option_name(name):
    """`-q,--quiet` -> bold names; what follows (`--config TEXT`, `query TEXT ...`) in
    italics."""
    names, _, value = name.partition(" ")
    bold = ", ".join("\\fB%s\\fR" % roff(n) for n in names.split(","))
    return bold + (" \\fI%s\\fR" % roff(value) if value else "")


def entries(groups, skip_help, headings=True):
    out = []
    for heading, items in groups:
        items = [(n, d) for n, d in items if not (skip_help and n == "-h,--help")]
        if not items:
            continue
        if headings:
            out += [".PP", "\\fI%s:\\fR" % roff(heading)]
        for name, desc in items:
            out += [".TP", option_name(name)] if name else [".PP"]
            out += [line(d) for d in desc]
    return out


def synopsis(usage, words):
    """`kebab list docs [OPTIONS]`: the command in bold, the rest as it is."""
    command = " ".join(["kebab"] + words)
    rest = usage[len(command):] if usage.startswith(command) else " " + usage
    return "\\fB%s\\fR%s" % (roff(command), roff(rest))


def subcommands(groups):
    return [name for heading, items in groups if heading == "Subcommands"
            for name, _ in items]


def command_sections(kebab, words, out):
    """A subsection per command under `words`, depth first, in the order --help lists them."""
    description, usage, groups = parse(help_text(kebab, words))
    if words:
        out += [".SS \"kebab %s\"" % roff(" ".join(words))]
        out += paragraphs([l for l in description if l.strip()] or [""])
        out += [".PP", "\\fBUsage:\\fR " + synopsis(usage, words)]
        out += entries(groups, skip_help=True)
    for name in subcommands(groups):
        command_sections(kebab, words + [name], out)


def main():
    kebab, dest = sys.argv[1:3]
    version = subprocess.run([kebab, "--version"], capture_output=True, text=True,
                             check=True).stdout.strip()
    description, usage, groups = parse(help_text(kebab, []))
    # The description's first line is "kebab — what it is: ...": NAME is what it is.
    summary = re.sub(r"^kebab\s*[—-]+\s*", "", description[0]).split(":")[0].strip()
    out = ['.\\" Made from kebab --help by cmake/man_page.py; not to be edited.',
           '.TH KEBAB 1 "" "%s" "User Commands"' % roff(version),
           ".SH NAME", "kebab \\- " + roff(summary),
           ".SH SYNOPSIS", synopsis(usage, []),
           ".SH DESCRIPTION"]
    out += paragraphs(description)
    out += [".SH OPTIONS"]
    # kebab's own options are one group, which the section's title names.
    out += entries([g for g in groups if g[0] != "Subcommands"], skip_help=False,
                   headings=False)
    out += [".SH COMMANDS", "Each command also takes the options above, and \\fB\\-\\-help\\fR."]
    command_sections(kebab, [], out)
    out += [".SH SEE ALSO",
            "The README in kebab's repository, and \\fBkebab \\fIcommand\\fB \\-\\-help\\fR."]
    os.makedirs(os.path.dirname(os.path.abspath(dest)), exist_ok=True)
    with open(dest + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    os.replace(dest + ".tmp", dest)


if __name__ == "__main__":
    main()
