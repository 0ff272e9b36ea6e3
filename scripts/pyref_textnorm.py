#!/usr/bin/env python3
"""Writes internal/fasttext/testdata/python_lower.txt and
pkg/textnorm/testdata/python_space.txt: the reference behaviour of Python's
str.lower and str.isspace for every code point, which the lower-casing
(internal/fasttext) and whitespace (pkg/textnorm) tests compare against. Run
with any Python 3 from the repository root, or give the root as the argument;
each file records the version used."""
import sys, unicodedata
root = sys.argv[1] if len(sys.argv) > 1 else "."
with open(root + "/internal/fasttext/testdata/python_lower.txt", "w", encoding="utf-8") as f:
    f.write("# Python %s (unicodedata %s): code points whose str.lower() differs from the input, as hex code point and hex of the result\n" % (sys.version.split()[0], unicodedata.unidata_version))
    for c in range(0x110000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        s = chr(c)
        l = s.lower()
        if l != s:
            f.write("%X %s\n" % (c, " ".join("%X" % ord(x) for x in l)))
with open(root + "/pkg/textnorm/testdata/python_space.txt", "w", encoding="utf-8") as f:
    f.write("# Python %s: code points for which str.isspace() is true\n" % sys.version.split()[0])
    for c in range(0x110000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        if chr(c).isspace():
            f.write("%X\n" % c)
