#!/usr/bin/env python3
"""nbgen.py: build notebooks/NAME.ipynb from notebooks/src/NAME.nb (GoNB kernel).

A source file is a sequence of cells, each opened by a marker line:

    <<< md                 a markdown cell
    <<< go ID              a Go code cell with cell id ID
    <<< go ID hidden       the same, with its source and outputs collapsed in
                           Jupyter (used for the worked answers of exercises)

A figure that the prose of a markdown cell quotes from a code cell's output
is written {{ID: text}}, e.g. "the interval starts at {{kappa: 0.603}}". The
notebook shows the text alone, and the cell's metadata.evalbook.quotes
records [ID, text] so that internal/tools/nbcheck can check that cell ID's
output shows the text (a whole figure: 0.60 is not found in 0.603).
A figure that no cell prints (an input, a threshold, a hand computation, a
literature value) is written {{=text}}, e.g. "a {{=95%}} interval": the
notebook shows the text alone and metadata.evalbook.plain records it, so
that nbcheck -unmarked (run by CI) does not report it as an unchecked figure.

Notebooks are committed executed, so a reader sees every table and chart
without running anything. Generating keeps the outputs (and execution
counts) of each code cell whose id and source are unchanged, from the
committed notebook or, with --outputs DIR, from an executed copy
DIR/NAME.ipynb (which wins). Cell timings that nbclient records are not
kept, so outputs change only when what a cell shows changes. Usage:

    scripts/nbgen.py            # regenerate every notebook, keeping outputs
    scripts/nbgen.py NAME...    # regenerate only these (e.g. 01-scoring-protocols)
    scripts/nbgen.py --outputs build/notebooks NAME...
                                # and take the outputs of a fresh run
                                # (scripts/run-notebooks.sh --update does this)
    scripts/nbgen.py --check    # exit 1 if a notebook differs from its source
"""
import json, os, re, sys, glob

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
src_dir = os.path.join(root, "notebooks", "src")
out_dir = os.path.join(root, "notebooks")
quote_re = re.compile(r"\{\{([A-Za-z0-9_.-]+):[ \t]*([^{}\n]*?)[ \t]*\}\}")
plain_re = re.compile(r"\{\{=([^{}\n]*?)\}\}")


def read_cells(path):
    """The code cells of an existing notebook, by id (empty if none)."""
    if not path or not os.path.exists(path):
        return {}
    try:
        nb = json.load(open(path, encoding="utf-8"))
    except ValueError as e:
        sys.exit("%s: not a notebook: %s" % (path, e))
    return {c.get("id"): c for c in nb.get("cells", []) if c.get("cell_type") == "code"}


def joined(source):
    return "".join(source) if isinstance(source, list) else source


def build(path, keep):
    """Build the notebook of source file path; keep is a list of dicts of
    executed cells by id, the first with the same source wins."""
    cells, cur = [], None
    for line in open(path, encoding="utf-8").read().split("\n"):
        if line.startswith("<<< "):
            words = line[4:].split()
            cur = {"kind": words[0], "id": words[1] if len(words) > 1 else None,
                   "hidden": "hidden" in words[2:], "lines": []}
            cells.append(cur)
        elif cur is not None:
            cur["lines"].append(line)
    out, n, quoted = [], 0, []
    for c in cells:
        while c["lines"] and c["lines"][-1] == "":
            c["lines"].pop()
        text = "\n".join(c["lines"])
        n += 1
        cid = c["id"] or ("md%02d" % n if c["kind"] == "md" else "go%02d" % n)
        meta = {}
        if c["kind"] == "md":
            quotes = [[m.group(1), m.group(2)] for m in quote_re.finditer(text)]
            if quotes:
                text = quote_re.sub(lambda m: m.group(2), text)
                meta = {"evalbook": {"quotes": [{"cell": q[0], "text": q[1]} for q in quotes]}}
                quoted += [(cid, q) for q in quotes]
            plain = [m.group(1) for m in plain_re.finditer(text)]
            if plain:
                text = plain_re.sub(lambda m: m.group(1), text)
                meta.setdefault("evalbook", {})["plain"] = plain
            if "{{" in text and re.search(r"\{\{([A-Za-z0-9_.-]+:|=)", text):
                sys.exit("%s: cell %s: a {{ID: text}} or {{=text}} marker that is not closed on its line" % (path, cid))
        source = [l + "\n" for l in text.split("\n")]
        source[-1] = source[-1].rstrip("\n")
        if c["kind"] == "md":
            out.append({"cell_type": "markdown", "id": cid, "metadata": meta, "source": source})
        elif c["kind"] == "go":
            if c["hidden"]:
                meta = {"jupyter": {"outputs_hidden": True, "source_hidden": True}}
            cell = {"cell_type": "code", "id": cid, "metadata": meta,
                    "execution_count": None, "outputs": [], "source": source}
            for cells_by_id in keep:
                old = cells_by_id.get(cid)
                if old is not None and joined(old.get("source", "")) == text:
                    cell["execution_count"] = old.get("execution_count")
                    cell["outputs"] = old.get("outputs", [])
                    break
            out.append(cell)
        else:
            sys.exit("%s: unknown cell kind %r" % (path, c["kind"]))
    ids = [c["id"] for c in out]
    if len(ids) != len(set(ids)):
        sys.exit("%s: duplicate cell ids" % path)
    code_ids = {c["id"] for c in out if c["cell_type"] == "code"}
    for cid, (target, figure) in quoted:
        if target not in code_ids:
            sys.exit("%s: cell %s quotes %r from %r, which is not a code cell of this notebook" % (path, cid, figure, target))
    nb = {"nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "gonb", "display_name": "Go (gonb)", "language": "go"},
                       "language_info": {"name": "go", "file_extension": ".go", "mimetype": "text/x-go"}},
          "cells": out}
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


args = sys.argv[1:]
check = "--check" in args
fresh_dir = None
if "--outputs" in args:
    i = args.index("--outputs")
    if i + 1 >= len(args):
        sys.exit("nbgen: --outputs needs a folder of executed notebooks (e.g. build/notebooks)")
    fresh_dir = args[i + 1]
    del args[i:i + 2]
only = [a for a in args if not a.startswith("--")]
unknown = [a for a in args if a.startswith("--") and a != "--check"]
if unknown:
    sys.exit("nbgen: unknown flag %s (see the top of scripts/nbgen.py)" % unknown[0])
names = [os.path.basename(s)[:-3] for s in sorted(glob.glob(os.path.join(src_dir, "*.nb")))]
for name in only:
    if name not in names:
        sys.exit("nbgen: no notebooks/src/%s.nb" % name)
bad = 0
for name in names:
    if only and name not in only:
        continue
    src = os.path.join(src_dir, name + ".nb")
    dst = os.path.join(out_dir, name + ".ipynb")
    keep = [read_cells(dst)]
    if fresh_dir and not check:
        fresh = os.path.join(fresh_dir, name + ".ipynb")
        if not os.path.exists(fresh):
            sys.exit("nbgen: no executed copy %s" % fresh)
        keep.insert(0, read_cells(fresh))
    text = build(src, keep)
    old = open(dst, encoding="utf-8").read() if os.path.exists(dst) else None
    if check:
        if old != text:
            print("nbgen: %s is out of date with %s (run scripts/nbgen.py, then scripts/run-notebooks.sh --update for its outputs)" % (dst, src))
            bad = 1
    elif old != text:
        open(dst, "w", encoding="utf-8").write(text)
        print("nbgen: wrote", os.path.relpath(dst, root))
sys.exit(bad)
