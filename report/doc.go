/*
Evalbook scores LLM answers against golden answers, says how sure you can be
of the result, measures how well raters and model judges agree, and helps
design an evaluation before anyone tunes on it.

Usage:

	evalbook <command> [flags]

Build it with "go build -o evalbook ./report", or run it in place with
"go run ./report <command> ...". "evalbook --help" lists the commands and
"evalbook <command> --help" a command's flags with examples (the text is in
report/help). Every command prints a readable table by default and one JSON
document with --json; commands that read a data file use the sample data
built into the binary when the file is omitted, and say so on stderr.

# Example

Score the built-in sample (284 responses in English, Hindi and Bengali from
two fictional models) with the two seed protocols, without groups or
example rows:

	$ evalbook score --by "" --examples 0
	responses.csv: 284 rows, file hash 4eddc51363c3, normalize none with 95% wilson intervals

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

# Design

Each command parses its flags, makes one call into the library under pkg/
and renders the typed result it gets back (text, JSON, XLSX, HTML). The
guides under docs/ are the manual: what each command measures, the statistics and their
caveats, and the library calls a notebook makes to do the same.

Exit status: 0 on success (including --help), 1 for bad data or a failed
read or write (the message names the file, line and column), 2 for a usage
error, 3 for a gate or check that ran and failed (plan gate's "no release").
*/
package main
