#!/usr/bin/env python3
"""exact_substring.py: the exact-substring seed script as its README describes it.

A row-wise pandas implementation written from the seed description
(seed document 000 of the project's shared seeds, "Evaluation scripts"), used by
scripts/bench-pandas.sh as the reference for score's speed: the golden answer,
lower-cased, must appear in the lower-cased response; blank responses score
incorrect and are counted apart; an empty golden answer scores correct and is
warned about. Prints per-domain and combined accuracy; --out writes verdicts.
"""
import argparse
import sys

import pandas as pd


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--responses", required=True)
    p.add_argument("--out")
    a = p.parse_args()
    df = pd.read_csv(a.responses, keep_default_na=False, dtype=str)
    if (df["answer"] == "").any():
        print("warning: empty golden answers score correct", file=sys.stderr)

    def score(row):
        resp = row["response"]
        if resp.strip() == "":
            return False
        return row["answer"].lower() in resp.lower()

    df["blank"] = df["response"].str.strip() == ""
    df["is_correct"] = df.apply(score, axis=1)
    for dom, g in df.groupby("Domain"):
        print(f"{dom}: {g['is_correct'].mean():.4f} ({g['is_correct'].sum()}/{len(g)}, blank {g['blank'].sum()})")
    print(f"combined: {df['is_correct'].mean():.4f} ({df['is_correct'].sum()}/{len(df)})")
    if a.out:
        df.to_csv(a.out, index=False)


if __name__ == "__main__":
    main()
