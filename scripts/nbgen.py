#!/usr/bin/env python3
"""nbgen.py: build notebooks/NAME.ipynb from notebooks/src/NAME.nb (GoNB kernel).

A source file is a sequence of cells, each opened by a marker line:

    <<< md                 a markdown cell
    <<< go ID              a Go code cell with cell id ID
    <<< go ID hidden       the same, with its source collapsed in Jupyter
                           (used for the worked answers of exercises)

Notebooks are written without outputs and with stable ids, so a diff shows
only what an author changed. Usage:

    scripts/nbgen.py            # regenerate every notebook
    scripts/nbgen.py NAME...    # regenerate only these (e.g. 01-scoring-protocols)
    scripts/nbgen.py --check    # exit 1 if a notebook differs from its source
"""
import json, os, sys, glob

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
src_dir = os.path.join(root, "notebooks", "src")
out_dir = os.path.join(root, "notebooks")

def build(path):
    cells, cur = [], None
    for line in open(path, encoding="utf-8").read().split("\n"):
        if line.startswith("<<< "):
            words = line[4:].split()
            cur = {"kind": words[0], "id": words[1] if len(words) > 1 else None,
                   "hidden": "hidden" in words[2:], "lines": []}
            cells.append(cur)
        elif cur is not None:
            cur["lines"].append(line)
    out, n = [], 0
    for c in cells:
        while c["lines"] and c["lines"][-1] == "":
            c["lines"].pop()
        text = "\n".join(c["lines"])
        source = [l + "\n" for l in text.split("\n")]
        source[-1] = source[-1].rstrip("\n")
        n += 1
        if c["kind"] == "md":
            out.append({"cell_type": "markdown", "id": c["id"] or "md%02d" % n, "metadata": {}, "source": source})
        elif c["kind"] == "go":
            meta = {"jupyter": {"source_hidden": True}} if c["hidden"] else {}
            out.append({"cell_type": "code", "id": c["id"] or "go%02d" % n, "metadata": meta,
                        "execution_count": None, "outputs": [], "source": source})
        else:
            sys.exit("%s: unknown cell kind %r" % (path, c["kind"]))
    ids = [c["id"] for c in out]
    if len(ids) != len(set(ids)):
        sys.exit("%s: duplicate cell ids" % path)
    nb = {"nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "gonb", "display_name": "Go (gonb)", "language": "go"},
                       "language_info": {"name": "go", "file_extension": ".go", "mimetype": "text/x-go"}},
          "cells": out}
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"

check = "--check" in sys.argv
only = [a for a in sys.argv[1:] if not a.startswith("--")]
bad = 0
for src in sorted(glob.glob(os.path.join(src_dir, "*.nb"))):
    name = os.path.basename(src)[:-3]
    if only and name not in only:
        continue
    dst = os.path.join(out_dir, name + ".ipynb")
    text = build(src)
    old = open(dst, encoding="utf-8").read() if os.path.exists(dst) else None
    if check:
        if old != text:
            print("nbgen: %s is out of date with %s (run scripts/nbgen.py)" % (dst, src))
            bad = 1
    elif old != text:
        open(dst, "w", encoding="utf-8").write(text)
        print("nbgen: wrote", os.path.relpath(dst, root))
sys.exit(bad)
