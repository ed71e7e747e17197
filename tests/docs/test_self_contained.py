#!/usr/bin/python3
"""The repository stands on its own: no file refers to the notes or the tracker vibro was written from
instead of saying the thing itself, every repository path a Markdown page names exists, and every line
count a page gives for a file is that file's.

Usage: test_self_contained.py SOURCE_DIR. Walks every file under SOURCE_DIR except .git and build
trees (a folder holding CMakeCache.txt), and fails naming each line that matches. The patterns are
assembled from pieces so that this file does not match itself.
"""
import glob
import os
import re
import sys

SPEC, SEED, SHARED = "sp" + "ec", "se" + "ed", "sha" + "red/"
OUTSIDE_PATTERNS = [
    SEED + " 0",                                  # a numbered source document
    SPEC + " [0-9U]",                             # a section number or decision label of a note
    "[Ss]" + SPEC + " [a-z_]+\\.md",              # a note's file name
    "[Ss]" + SPEC + " [0-9]",                     # a section number, capitalised too
    "(?<![\\w-])" + SHARED,                       # the folder beside the repository (notes, specs, peers)
    "\\b[Ii]ssues? #?[0-9]+",                     # the tracker's issue numbers
    "(?<![Oo]n )\\b[Aa]cce" + "ptance\\b",        # the tracker's criteria (an ODE step's "on acceptance" is fine)
]
OUTSIDE = re.compile("|".join("(?:%s)" % p for p in OUTSIDE_PATTERNS))

# A repository path in prose: a top-level folder, then a name; placeholders and globs are not paths.
TOP_FOLDERS = "engine|models|jobs|analysis|tests|cmake|examples|scripts|bench|docs|python"
REPO_PATH = re.compile(r"(?<![\w./-])((?:%s)/[A-Za-z0-9_./-]*[A-Za-z0-9_])" % TOP_FOLDERS)
PLACEHOLDER = re.compile(r"[*{}<>]|NAME|XXX")
# "`path` (56 lines" or "path (56 lines": a count of that file's lines.
LINE_COUNT = re.compile(r"((?:%s)/[A-Za-z0-9_./-]+\.[a-z]+)`?\s*\((\d+) lines" % TOP_FOLDERS)


def source_files(root):
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [d for d in subfolders if d != ".git" and not d.startswith("build") and d != "devrun"
                         and not os.path.exists(os.path.join(folder, d, "CMakeCache.txt"))]
        for name in files:
            yield os.path.join(folder, name)


def names_something(candidate):
    """A path names a file or folder, a source stem (analysis/steady_state: its .hpp/.cpp), a family
    (examples/beam_slider_fig6_...) or a built target of a CMake folder (bench/gpu/conveyor_missed_impacts)."""
    if os.path.exists(candidate) or glob.glob(candidate + ".*"):
        return True
    if candidate.endswith("_") and glob.glob(candidate + "*"):
        return True
    folder, target = os.path.split(candidate)
    cmake = os.path.join(folder, "CMakeLists.txt")
    return os.path.exists(cmake) and re.search(r"add_executable\(%s\b" % re.escape(target), open(cmake).read())


def missing_paths(root, path, number, line):
    for match in REPO_PATH.finditer(line):
        named = match.group(1)
        if PLACEHOLDER.search(named):
            continue
        if not any(names_something(os.path.join(base, named)) for base in (root, os.path.dirname(path))):
            yield "%s:%d: names %s, which does not exist" % (os.path.relpath(path, root), number, named)


def stale_line_counts(root, path, number, line):
    for match in LINE_COUNT.finditer(line):
        named, said = match.group(1), int(match.group(2))
        target = os.path.join(root, named)
        if os.path.isfile(target):
            with open(target, encoding="utf-8") as f:
                actual = len(f.read().splitlines())
            if actual != said:
                yield "%s:%d: says %s has %d lines; it has %d" % (os.path.relpath(path, root), number, named,
                                                                said, actual)


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: test_self_contained.py SOURCE_DIR")
    root = sys.argv[1]
    hits, scanned, pages = [], 0, 0
    for path in source_files(root):
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (UnicodeDecodeError, OSError):
            continue  # binary files (images) hold no prose
        scanned += 1
        is_page = path.endswith(".md")
        pages += is_page
        for number, line in enumerate(lines, 1):
            if OUTSIDE.search(line):
                hits.append("refers outside the repository: %s:%d: %s" % (os.path.relpath(path, root), number,
                                                                         line.strip()[:160]))
            if is_page:
                hits.extend(missing_paths(root, path, number, line))
                hits.extend(stale_line_counts(root, path, number, line))
    if scanned < 100 or pages < 10:
        sys.exit("FAIL: only %d text files (%d pages) under %s: not the source tree?" % (scanned, pages, root))
    for hit in hits:
        print(hit)
    print("%d text files (%d Markdown pages) scanned, %d problems" % (scanned, pages, len(hits)))
    sys.exit(1 if hits else 0)


if __name__ == "__main__":
    main()
