#!/usr/bin/env /usr/bin/python3
"""nbtimes.py: execute notebooks with the GoNB kernel and time every code cell.

    scripts/nbtimes.py notebooks/03-plan-and-dataset.ipynb ...

The kernel's own timestamps (in an executed notebook's metadata.execution)
have one-second resolution, so this runs each notebook with nbclient and
times each cell on this side, from the moment the cell is sent to the moment
its reply arrives. Nothing is written. For each notebook it prints the
kernel start, the set-up cell (the first code cell), the first Go cell after
it (which pays for building the notebook's imports), the median and the
slowest of the other code cells, and the sum over all cells; a last line
gives the median first cell and the median of all other cells over the
notebooks. Times are wall seconds; run on a quiet machine, twice, and read
the second run for a warm build cache.
"""
import statistics, sys, time

import nbformat
from nbclient import NotebookClient


def run(path):
    nb = nbformat.read(path, as_version=4)
    times, starts = [], {}

    def start(cell, cell_index, **kw):
        starts[cell_index] = time.monotonic()

    def done(cell, cell_index, **kw):
        if cell.cell_type == "code" and cell.source.strip():
            times.append((cell.get("id"), time.monotonic() - starts[cell_index]))

    import os
    client = NotebookClient(nb, kernel_name="gonb", timeout=600,
                            resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}},
                            on_cell_execute=start, on_cell_executed=done)
    t0 = time.monotonic()
    with client.setup_kernel():
        kernel = time.monotonic() - t0
        for i, cell in enumerate(nb.cells):
            client.execute_cell(cell, i)
    return kernel, times


if len(sys.argv) < 2:
    sys.exit(__doc__)
fmt = "%-36s %6s %6s %6s %7s %6s %7s %6s"
print(fmt % ("notebook", "kernel", "setup", "first", "median", "max", "sum", "cells"))
firsts, rest = [], []
for p in sys.argv[1:]:
    kernel, t = run(p)
    if len(t) < 2:
        continue
    others = [x for _, x in t[2:]] or [0.0]
    firsts.append(t[1][1])
    rest += others
    print(fmt % (p.split("/")[-1][:36], "%.1f" % kernel, "%.1f" % t[0][1], "%.1f" % t[1][1],
                 "%.2f" % statistics.median(others), "%.1f" % max(others), "%.1f" % sum(x for _, x in t), len(t)),
          flush=True)
if firsts:
    print(fmt % ("median over notebooks", "", "", "%.1f" % statistics.median(firsts),
                 "%.2f" % statistics.median(rest), "", "", ""))
