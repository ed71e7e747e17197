#!/usr/bin/python3
"""The repository stands on its own: no file refers to the notes vibro was written from (their file
names, section numbers or decision labels) instead of saying the thing itself.

Usage: test_self_contained.py SOURCE_DIR. Walks every file under SOURCE_DIR except .git and build
trees (a folder holding CMakeCache.txt), and fails naming each line that matches. The patterns are
assembled from pieces so that this file does not match itself.
"""
import os
import re
import sys

SPEC, SEED = "sp" + "ec", "se" + "ed"
PATTERNS = [
    SEED + " 0",                                  # a numbered source document
    SPEC + " [0-9U]",                             # a section number or decision label of a note
    "shared/" + SPEC + "s",                       # the notes' folder
    "[Ss]" + SPEC + " [a-z_]+\\.md",              # a note's file name
    "[Ss]" + SPEC + " [0-9]",                     # a section number, capitalised too
    "\\.\\./shared/",                             # anything beside the repository
]
PATTERN = re.compile("|".join("(?:%s)" % p for p in PATTERNS))


def source_files(root):
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [d for d in subfolders if d != ".git" and not d.startswith("build")
                         and not os.path.exists(os.path.join(folder, d, "CMakeCache.txt"))]
        for name in files:
            yield os.path.join(folder, name)


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: test_self_contained.py SOURCE_DIR")
    root = sys.argv[1]
    hits, scanned = [], 0
    for path in source_files(root):
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (UnicodeDecodeError, OSError):
            continue  # binary files (images) hold no prose
        scanned += 1
        for number, line in enumerate(lines, 1):
            if PATTERN.search(line):
                hits.append("%s:%d: %s" % (os.path.relpath(path, root), number, line.strip()[:160]))
    if scanned < 100:
        sys.exit("FAIL: only %d text files under %s: not the source tree?" % (scanned, root))
    for hit in hits:
        print("refers outside the repository:", hit)
    print("%d text files scanned, %d lines refer outside the repository" % (scanned, len(hits)))
    sys.exit(1 if hits else 0)


if __name__ == "__main__":
    main()
