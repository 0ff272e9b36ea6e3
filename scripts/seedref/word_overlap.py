#!/usr/bin/env python3
"""word_overlap.py: the word-overlap seed script as its README describes it.

A row-wise pandas implementation written from the seed description
(seed document 000 of the project's shared seeds, "Evaluation scripts"), used by
scripts/bench-pandas.sh as the reference for score's speed: both sides
lower-cased, split on whitespace, stripped of leading and trailing
punctuation, compared as sets (every golden word must appear); the output
carries matching_words and total_golden_words. Prints per-domain and combined
accuracy; --out writes verdicts.
"""
import argparse
import string
import sys

import pandas as pd


def words(text):
    out = set()
    for w in text.lower().split():
        w = w.strip(string.punctuation)
        if w:
            out.add(w)
    return out


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
        gold = words(row["answer"])
        if resp.strip() == "":
            return (False, 0, len(gold))
        m = len(gold & words(resp))
        return (m == len(gold), m, len(gold))

    df["blank"] = df["response"].str.strip() == ""
    scored = df.apply(score, axis=1)
    df["is_correct"] = [s[0] for s in scored]
    df["matching_words"] = [s[1] for s in scored]
    df["total_golden_words"] = [s[2] for s in scored]
    for dom, g in df.groupby("Domain"):
        print(f"{dom}: {g['is_correct'].mean():.4f} ({g['is_correct'].sum()}/{len(g)}, blank {g['blank'].sum()})")
    print(f"combined: {df['is_correct'].mean():.4f} ({df['is_correct'].sum()}/{len(df)})")
    if a.out:
        df.to_csv(a.out, index=False)


if __name__ == "__main__":
    main()
