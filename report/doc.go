/*
Evalbook scores LLM answers against golden answers, says how sure you can be
of the result, measures how well raters and model judges agree, and helps
design an evaluation before anyone tunes on it.

Usage:

	evalbook <command> [flags]

Build it with "go build -o evalbook ./report", or run it in place with
"go run ./report <command> ...". Every command prints a readable table by
default and one JSON document with --json; "evalbook <command> --help" lists
its flags with an example. Commands that read a data file use the sample
data built into the binary when the file is omitted, and say so on stderr.

# Example

Score the built-in sample (284 responses in English, Hindi and Bengali from
two fictional models) with the two seed protocols, without groups or
example rows:

	$ evalbook score --by "" --examples 0
	responses.csv: 284 rows, dataset hash 4eddc51363c3, normalize none with 95% wilson intervals

	              n  blank  exact_substring                word_overlap
	  combined  284      7       187  65.8%  [60.2, 71.1]    184  64.8%  [59.1, 70.1]

	Agreement of exact_substring (first) and word_overlap (second) over 284 rows:
	  both            164  both metrics pass: high confidence the answer is right
	  neither          77  both fail: wrong, or phrased very differently
	  only_first       23  only exact_substring passes: usually an inflection inside a longer word (amalak / Amalaka), mostly right answers
	  only_second      20  only word_overlap passes: golden words present but not contiguous; a paraphrase or a different claim: review these

The two protocols agree on 65.8% against 64.8%, but 43 rows flip in opposite
directions: the 20 "only_second" rows are the ones a person or a calibrated
judge should read. (The warnings that follow this table in a real run are
left out here.)

The content hash names the data a figure came from:

	$ evalbook cases hash
	7d310008b7ea

# Scoring

score reads a response table (CSV, JSONL or XLSX with the columns question,
answer, Domain and response; optional id, language and model), scores every
row under the chosen metrics (--metrics; default exact_substring and
word_overlap), and prints accuracy per group (--by, repeatable; COL1,COL2
for a cross grouping) and combined, with intervals (--ci wilson, bootstrap
or none; --cluster COL for clustered data), the agreement buckets of each
pair of binary metrics, and warnings. --out writes the verdict file (--out -
sends it to standard output and the report to standard error), --json the
accuracy JSON. --normalize nfc or indic normalises both sides first.

judge asks a model (any OpenAI-compatible endpoint) whether each response is
equivalent to its golden answer, and reports its accuracy beside the
deterministic metrics. Replies are cached, so a rerun or a resumed run makes
no repeated call; the API key is read from an environment variable and never
written anywhere.

# How sure are we

compare takes two verdict files of the same cases (from score --out or run
--out) and prints both pass rates with intervals, which cases got better and
which worse, the exact sign test, McNemar's test and a paired bootstrap
interval of the difference, per group when asked. --key takes several
columns (id,model) when a case is identified only by them together.

agree measures agreement between raters: Cohen's kappa (weighted for ordinal
labels), Fleiss' kappa, Krippendorff's alpha, with a bootstrap interval, the
confusion matrix and the items to adjudicate.

# Designing an evaluation

plan check validates an evaluation plan and lists what it leaves unguarded;
plan gate applies its release gates to a run. cases coverage, hash, split and
leakage work on case records: the coverage matrix with its thin and empty
cells, an order-independent content hash, a reproducible split by a salted
hash of each id, and near-copies across the split and in outside sources.
run runs the small sample retrieval system over case records, and summarize
scores answer-or-abstain outcomes.

# Judges

calibrate compares a pairwise judge (a fake biased judge or a real model)
with human labels: agreement with its interval, kappa, per-kind and
per-language slices, the shape of its errors, and whether it is usable.
probes prints the bias fingerprints: how often the first answer wins, how
often the verdict flips with order, how often the longer or the judge's own
style wins.

# Indian languages

--normalize nfc, indic or indic_stem (on score, leaderboard and others)
normalise both sides before any metric: NFC; then zero-width joiners
removed, Indic digits folded and Unicode punctuation such as the danda
stripped at word edges; then light Hindi and Bengali suffix stripping.
Grouping by language works without a language column (file name, else the
script of the golden answer).

leaderboard scores every <model>_<language>.csv in a directory and prints a
models-by-languages table with intervals, marking the best model of a
language only when its lead is significant on shared questions.

mc scores multiple-choice predictions (per-option log-likelihoods or
letters): accuracy, length-normalised accuracy, MRR and recall@k per
language and subject.

generate asks an OpenAI-compatible endpoint for a response per question of
a CSV, JSONL or .xlsx dataset, with per-language prompt templates, retries, a
cache and resume.

# Exit status

0 on success (including --help), 1 for bad data or a failed read or write
(the message names the file, line and column), 2 for a usage error, 3 for a
gate that ran and failed (plan gate's "no release").

# Statistical caveats

An interval is only as good as its assumptions. Wilson intervals assume
independent rows: when rows share a passage or a question (one question asked
in several languages), use --cluster. A row-level graded metric (squad_f1,
rouge1, char_f1...) gets the normal interval mean ± z·sd/√n while its values
vary; when every value is equal, or there is one row, that interval would be
a single point, so the Wilson interval of the mean with n is given instead:
by the Bhatia-Davis inequality a score in [0, 1] with mean m varies at most
m(1 − m), as a pass/fail one does. Two rows both scoring 1 thus get
[34.2, 100.0], not [100.0, 100.0]. A bootstrap over a handful of rows is
unreliable, and evalbook warns below 30. With many groups or many metrics
some differences will look significant by chance; read per-group figures as
descriptions, not tests. A sign test on 2 better and 0 worse gives p = 0.5:
small changes on small sets are usually noise.

# Limitations

Deterministic metrics cannot see paraphrase, negation or numbers written in
words; they are bounds with known failure modes, which each metric's
documentation (score --json, metric_defs) spells out. Lower-casing does
nothing for Indic scripts and does not unify NFC and NFD; use --normalize.
*/
package main
