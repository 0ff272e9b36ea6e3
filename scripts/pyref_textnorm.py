#!/usr/bin/env python3
"""Writes pkg/textnorm/testdata/python_lower.txt and python_space.txt: the
reference behaviour of Python's str.lower and str.isspace for every code point,
which pkg/textnorm's tests compare against. Run with any Python 3; the file
records the version used."""
import sys, unicodedata
out = sys.argv[1] if len(sys.argv) > 1 else "pkg/textnorm/testdata"
with open(out + "/python_lower.txt", "w", encoding="utf-8") as f:
    f.write("# Python %s (unicodedata %s): code points whose str.lower() differs from the input, as hex code point and hex of the result\n" % (sys.version.split()[0], unicodedata.unidata_version))
    for c in range(0x110000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        s = chr(c)
        l = s.lower()
        if l != s:
            f.write("%X %s\n" % (c, " ".join("%X" % ord(x) for x in l)))
with open(out + "/python_space.txt", "w", encoding="utf-8") as f:
    f.write("# Python %s: code points for which str.isspace() is true\n" % sys.version.split()[0])
    for c in range(0x110000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        if chr(c).isspace():
            f.write("%X\n" % c)
