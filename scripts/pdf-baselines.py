#!/usr/bin/env python3
"""pdf-baselines.py: where Hindi and Bengali text sits against the Latin
text and numbers of the same table row, in a PDF that LibreOffice printed
from a workbook (scripts/screenshots.sh runs it on every workbook).

Usage: scripts/pdf-baselines.py FILE.pdf...

LibreOffice writes each text run as "x y Td /Fn size Tf" in a page's
content stream, y being the run's baseline. For each run in a Devanagari
or Bengali font this finds the row's Latin baseline (the one that most
Latin runs within 3 pt share) and prints, per page and font, how far
above it (+) or below (-) the Indic run sits, in points of the printed
page (a sheet printed to fit the page width is scaled down, so the
offset at 100% zoom is larger by the page's scale). No output for a PDF
without Indic text. Standard library only.
"""
import collections
import re
import sys
import zlib


def fonts_of(data):
    refs = {}
    for m in re.finditer(rb'/(F\d+) (\d+) 0 R', data):
        refs.setdefault(m.group(1).decode(), m.group(2).decode())
    names = {}
    for num in set(refs.values()):
        m = re.search(rb'\n' + num.encode() + rb' 0 obj\s*<<(.*?)>>', data, re.S)
        b = m and re.search(rb'/BaseFont\s*/(\S+)', m.group(1))
        if b:
            names[num] = b.group(1).decode().split('+')[-1]
    return {k: names.get(v, k) for k, v in refs.items()}


def indic(name):
    return 'Devanagari' in name or 'Bengali' in name


def offsets(path):
    data = open(path, 'rb').read()
    fname = fonts_of(data)
    out = collections.Counter()
    page = 0
    for m in re.finditer(rb'stream\r?\n', data):
        end = data.find(b'endstream', m.end())
        try:
            s = zlib.decompress(data[m.end():end])
        except zlib.error:
            continue
        if b' Tf' not in s:
            continue
        page += 1
        runs = [(float(y), f.decode()) for _, y, f in re.findall(rb'([-\d.]+) ([-\d.]+) Td /(F\d+) [\d.]+ Tf', s)]
        latin = collections.Counter(y for y, f in runs if not indic(fname.get(f, f)))
        for y, f in runs:
            name = fname.get(f, f)
            if not indic(name):
                continue
            near = [(n, l) for l, n in latin.items() if abs(l - y) < 3]
            if near:
                out[(page, name, round(y - max(near)[1], 1))] += 1
    return out


def main():
    for path in sys.argv[1:]:
        for (page, name, d), n in sorted(offsets(path).items()):
            print('%s page %d: %d %s runs %+.1f pt from the row\'s Latin baseline' % (path.split('/')[-1], page, n, name, d))


if __name__ == '__main__':
    main()
