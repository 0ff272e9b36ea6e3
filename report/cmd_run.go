package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/harness"
)

func init() {
	register(&command{name: "run", summary: "run the sample retrieval system over case records and write per-case outcomes", run: runRun})
}

const runHelp = `
Usage: evalbook run [--cases FILE] [--corpus DIR] [--chunking paragraph|sentence] [--min-score X]
                    [--min-margin Y] [--plan FILE] [--out FILE] [--json]

Runs the tiny deterministic system under test over case records: the help-centre corpus (every
*.md file in DIR: an optional "# Title" line, then paragraphs separated by blank lines) is cut
into paragraph or sentence chunks; a question's score for a chunk is the share of its words
(lower-cased, stop words dropped, exact match) that the chunk contains. The guard abstains when
nothing matches, when the top score is below --min-score, or when the top score exceeds the best
chunk of any other document by less than --min-margin. Otherwise a worst-case model copies the
top chunk and its document id, and never abstains by itself. A question with no searchable word
is an error.

A case passes when it expects abstain and the system abstained, or expects answer and the reply
contains every fact (after NFC, Indic digit folding and lower-casing). --out writes a CSV with
the header id,task,set,lang,expect,outcome,fact,pass (pass 1/0; fact: the case's facts found in
the reply, joined by " | "), which "evalbook compare", "evalbook summarize" and "evalbook plan
gate" read. The same cases, corpus and settings always give the same bytes.
With no --cases or --corpus, the embedded sample (datasets/helpdesk) is used.

Example:
	evalbook run --chunking paragraph --min-score 0.3 --out old.csv
	evalbook run --chunking sentence --min-score 0.4 --min-margin 0.1 --out new.csv
`

func runRun(e *env) error {
	fset := newFlags(e, "run", runHelp)
	casesFile := fset.String("cases", "", "case records `FILE` (JSONL); default: the embedded sample")
	corpusDir := fset.String("corpus", "", "corpus `DIR` of *.md documents; default: the embedded sample corpus")
	chunking := fset.String("chunking", "paragraph", "chunk `unit`: paragraph or sentence")
	minScore := fset.Float64("min-score", 0.3, "abstain when the top score is below `X`, in [0, 1]")
	minMargin := fset.Float64("min-margin", 0, "abstain when the top score beats other documents by less than `Y`, in [0, 1]")
	planFile := fset.String("plan", "", "plan `FILE` whose case_values extend the allowed case values")
	out := fset.String("out", "", "write the per-case run `FILE` (CSV)")
	asJSON := fset.Bool("json", false, "print one JSON document (summary and every case)")
	args, err := kitParse(e, fset)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("run: unexpected argument %q (cases go after --cases)", args[0])
	}
	ch, err := harness.ParseChunking(*chunking)
	if err != nil {
		return usagef("run: %v", err)
	}
	// A score is the share of the question's words a chunk holds, and a
	// margin the difference of two scores: both lie in [0, 1], so a
	// setting outside it would abstain on every case, or never.
	if !(*minScore >= 0 && *minScore <= 1) {
		return usagef("run: --min-score %v is outside [0, 1] (a score is the share of the question's words a chunk holds)", *minScore)
	}
	if !(*minMargin >= 0 && *minMargin <= 1) {
		return usagef("run: --min-margin %v is outside [0, 1] (a margin is the difference of two scores)", *minMargin)
	}
	if *corpusDir != "" {
		switch st, err := os.Stat(*corpusDir); {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("corpus %s: no such directory", *corpusDir)
		case err != nil:
			return fmt.Errorf("corpus %s: %w", *corpusDir, err)
		case !st.IsDir():
			return fmt.Errorf("corpus %s: not a directory (--corpus names a directory of *.md documents)", *corpusDir)
		}
	}
	var files []string
	if *casesFile != "" {
		files = []string{*casesFile}
	}
	cases, _, label, err := kitLoadCases(e, files, *planFile, "--cases FILE")
	if err != nil {
		return err
	}
	var corpus fs.FS
	corpusLabel := *corpusDir
	if corpusLabel == "" {
		fmt.Fprintln(e.stderr, "evalbook: no --corpus given; using the embedded sample datasets/helpdesk/corpus")
		corpus, _ = fs.Sub(datasets.Helpdesk, "helpdesk/corpus")
		corpusLabel = "datasets/helpdesk/corpus"
	} else {
		corpus = os.DirFS(*corpusDir)
	}
	docs, err := harness.ReadCorpus(corpus)
	if err != nil {
		return fmt.Errorf("corpus %s: %w", corpusLabel, err)
	}
	retriever, err := harness.NewRetriever(docs, ch)
	if err != nil {
		return err
	}
	sys := &harness.System{Retriever: retriever, MinScore: *minScore, MinMargin: *minMargin}
	rows := harness.Run(sys, harness.RunCases(cases))
	if *out != "" {
		var buf bytes.Buffer
		if err := harness.WriteCSV(&buf, rows); err != nil {
			return err
		}
		if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	sum := kitSummarizeRun(rows)
	sum.System = kitSystem{Chunking: string(ch), MinScore: *minScore, MinMargin: *minMargin, Corpus: corpusLabel,
		Documents: len(docs), Chunks: retriever.Len()}
	sum.Cases, sum.DatasetHash = label, design.Hash(cases)
	if *asJSON {
		sum.Rows = rows
		return writeJSON(e.stdout, sum)
	}
	fmt.Fprintf(e.stdout, "system: %s chunks (%d from %d documents in %s), min score %g, min margin %g\n",
		sum.System.Chunking, sum.System.Chunks, sum.System.Documents, corpusLabel, *minScore, *minMargin)
	fmt.Fprintf(e.stdout, "cases: %d from %s (hash %s)\n", sum.N, label, sum.DatasetHash)
	fmt.Fprintf(e.stdout, "pass: %d/%d = %s\n", sum.Passed, sum.N, kitFmt(sum.PassRate))
	fmt.Fprintf(e.stdout, "outcomes: answer %d, abstain %d, error %d; answers citing a listed document: %d/%d\n",
		sum.Outcomes[harness.KindAnswer], sum.Outcomes[harness.KindAbstain], sum.Outcomes[harness.KindError], sum.Cited, sum.AnsweredAnswerCases)
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nmetric\tpassed\tn\trate")
	for _, m := range sum.Metrics {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", m.Name, m.Passed, m.N, kitFmt(m.Rate))
	}
	fmt.Fprintln(tw, "\ntask\tpassed\tn\trate")
	for _, g := range sum.ByTask {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", g.Task, g.Passed, g.N, kitFmt(g.Rate))
	}
	tw.Flush()
	var failing []string
	for _, r := range rows {
		if !r.Pass {
			failing = append(failing, r.ID)
		}
	}
	fmt.Fprintf(e.stdout, "\nfailing: %s\n", kitOr(strings.Join(failing, " "), "none"))
	if *out != "" {
		fmt.Fprintf(e.stdout, "wrote %s\n", *out)
	}
	return nil
}

type kitSystem struct {
	Chunking  string  `json:"chunking"`
	MinScore  float64 `json:"min_score"`
	MinMargin float64 `json:"min_margin"`
	Corpus    string  `json:"corpus"`
	Documents int     `json:"documents"`
	Chunks    int     `json:"chunks"`
}

type kitRate struct {
	Name   string   `json:"name,omitempty"`
	Task   string   `json:"task,omitempty"`
	Passed int      `json:"passed"`
	N      int      `json:"n"`
	Rate   *float64 `json:"rate"`
}

type kitRunSummary struct {
	System              kitSystem        `json:"system"`
	Cases               string           `json:"cases"`
	DatasetHash         string           `json:"dataset_hash"`
	N                   int              `json:"n"`
	Passed              int              `json:"passed"`
	PassRate            *float64         `json:"pass_rate"`
	Outcomes            map[string]int   `json:"outcomes"`
	Cited               int              `json:"answers_citing_listed_doc"`
	AnsweredAnswerCases int              `json:"answered_answer_cases"`
	Metrics             []kitRate        `json:"metrics"`
	ByTask              []kitRate        `json:"by_task"`
	Rows                []harness.RunRow `json:"cases_run,omitempty"`
}

func kitRatio(p, n int) *float64 {
	if n == 0 {
		return nil
	}
	v := float64(p) / float64(n)
	return &v
}

func kitSummarizeRun(rows []harness.RunRow) kitRunSummary {
	s := kitRunSummary{N: len(rows), Outcomes: map[string]int{harness.KindAnswer: 0, harness.KindAbstain: 0, harness.KindError: 0},
		Metrics: []kitRate{}, ByTask: []kitRate{}}
	for _, r := range rows {
		s.Outcomes[r.Outcome]++
		if r.Pass {
			s.Passed++
		}
		if r.Expect == harness.KindAnswer && r.Outcome == harness.KindAnswer {
			s.AnsweredAnswerCases++
			if r.Cited {
				s.Cited++
			}
		}
	}
	s.PassRate = kitRatio(s.Passed, s.N)
	m := harness.Measure(rows)
	for _, name := range []string{"answer_correct", "abstain_correct"} {
		r := m[name]
		s.Metrics = append(s.Metrics, kitRate{Name: name, Passed: r.Passed, N: r.N, Rate: kitRatio(r.Passed, r.N)})
	}
	keys, by, _ := harness.ByField(rows, "task")
	for _, k := range keys {
		s.ByTask = append(s.ByTask, kitRate{Task: k, Passed: by[k].Passed, N: by[k].N, Rate: kitRatio(by[k].Passed, by[k].N)})
	}
	return s
}
