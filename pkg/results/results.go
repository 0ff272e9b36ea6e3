// Package results is the one model of an evaluation's outcome that every
// renderer draws from: the text table, CSV and JSON here, and the XLSX,
// HTML and chart renderers at the edge. Results are computed once (by
// pkg/qa and the other core packages) into these plain structs; renderers
// never recompute. JSON is the canonical form: `evalbook report --from`
// replays a saved JSON document without touching the data again.
//
// Machine formats (JSON, CSV) keep full float precision; the text table rounds.
package results

import (
	"strconv"
	"time"
)

// Score is the result of scoring a response table under one or more metrics.
type Score struct {
	Kind    string     `json:"kind"` // always "score"
	Title   string     `json:"title,omitempty"`
	Tool    string     `json:"tool"` // "evalbook <version>"
	Created *time.Time `json:"created,omitempty"`
	// Model is the model that answered, when the source names one model
	// (a harness output does; a response table does not).
	Model    string   `json:"model,omitempty"`
	Dataset  Dataset  `json:"dataset"`
	Settings Settings `json:"settings"`
	// Metrics defines, in words, every metric that was scored, in column order.
	Metrics []MetricDef `json:"metric_defs"`
	// Combined is the micro-average over all rows.
	Combined Group `json:"combined"`
	// Groups holds one entry per group of every grouping, groupings in the
	// order asked for and groups sorted by name within each grouping.
	Groups []Group `json:"groups"`
	// Agreement compares each pair of binary metrics row by row.
	Agreement []Agreement `json:"agreement"`
	// Reported lists, for a harness output (Dataset.Format names the
	// harness), the figures the harness itself reported beside the mean
	// recomputed from its per-sample values.
	Reported []Reported `json:"reported,omitempty"`
	Warnings []Warning  `json:"warnings"`
}

// Reported is one figure a harness reported for a task, beside the
// mean of the per-sample values it wrote.
type Reported struct {
	Model  string  `json:"model,omitempty"`
	Task   string  `json:"task"`
	Metric string  `json:"metric"`
	Value  float64 `json:"value"`
	// N is the number of per-sample values the recomputation averaged.
	N          int     `json:"n"`
	Recomputed float64 `json:"recomputed"`
	// Match reports whether Recomputed equals Value within the harness's
	// rounding (the test of evalbook import --check).
	Match bool `json:"match"`
}

// Dataset names the data a result was computed from.
type Dataset struct {
	Path   string `json:"path"`
	Format string `json:"format"` // csv, jsonl or xlsx
	// Hash is the first 12 hex digits of SHA-256 over the file's bytes.
	Hash string `json:"hash"`
	Rows int    `json:"rows"`
}

// Settings records every choice that changes a figure.
type Settings struct {
	Metrics    []string   `json:"metrics"`
	Normalize  string     `json:"normalize"`
	By         [][]string `json:"by"`
	CI         string     `json:"ci"` // wilson, clopper-pearson, jeffreys, beta, bootstrap or none
	Confidence float64    `json:"confidence"`
	Resamples  int        `json:"resamples,omitempty"`
	Seed       uint64     `json:"seed"`
	Cluster    string     `json:"cluster,omitempty"`
	// LanguageSource says where row languages came from when a grouping
	// uses them: "column", "file name", or the script of the golden answer.
	LanguageSource string `json:"language_source,omitempty"`
}

// MetricDef is a metric's definition in words.
type MetricDef struct {
	ID             string `json:"id"`
	Name           string `json:"name"`
	Graded         bool   `json:"graded"`
	Rule           string `json:"rule"`
	FalsePositives string `json:"false_positives"`
	FalseNegatives string `json:"false_negatives"`
	Blank          string `json:"blank"`
	Source         string `json:"source"`
	// By says who computed the per-row values: "harness" (the value a
	// harness wrote in its output, reported as read) or "evalbook";
	// empty for evalbook's own scoring of a response table.
	By string `json:"by,omitempty"`
}

// Group is the figures of one group of rows (or of all rows, for Combined).
type Group struct {
	// By names the grouping columns; Group is the group's value(s), joined
	// by " / " for a cross grouping. Both are empty for Combined.
	By    string `json:"by,omitempty"`
	Group string `json:"group,omitempty"`
	N     int    `json:"n"`
	// Blank counts responses that are empty after trimming whitespace.
	Blank int `json:"blank"`
	// EmptyGolden counts rows whose golden answer is empty.
	EmptyGolden int `json:"empty_golden"`
	// Clusters is the number of distinct clusters, when intervals are clustered.
	Clusters int                    `json:"clusters,omitempty"`
	Metrics  map[string]MetricScore `json:"metrics"`
}

// MetricScore is one metric's figures over a group.
type MetricScore struct {
	// Correct is the number of correct rows for a binary metric and the
	// sum of scores for a graded one.
	Correct float64 `json:"correct"`
	// Accuracy is Correct / n (0 when n is 0); for a corpus-level metric
	// (Level "corpus") it is the corpus value computed from statistics
	// summed over the group's rows, and SentenceMean is the mean of the
	// rows' sentence-level values.
	Accuracy float64 `json:"accuracy"`
	// N is the number of rows with a value when it is fewer than the
	// group's n (a harness metric some samples lack, a value missing);
	// Accuracy is then Correct / N. 0 when every row has one.
	N            int     `json:"n,omitempty"`
	Level        string  `json:"level,omitempty"`
	SentenceMean float64 `json:"sentence_mean,omitempty"`
	// CILow and CIHigh bound Accuracy at Settings.Confidence; both equal
	// Accuracy when no interval was asked for.
	CILow  float64 `json:"ci_low"`
	CIHigh float64 `json:"ci_high"`
	// SE is the standard error behind a clustered interval, else 0.
	SE float64 `json:"se,omitempty"`
	// MatchingWords and GoldenWords sum word_overlap's partial credit.
	MatchingWords int `json:"matching_words,omitempty"`
	GoldenWords   int `json:"total_golden_words,omitempty"`
}

// Agreement counts, for two binary metrics, the rows in each of the four
// buckets, overall and per group, with up to a few example rows per bucket.
type Agreement struct {
	First      string `json:"first"`
	Second     string `json:"second"`
	Both       int    `json:"both"`
	Neither    int    `json:"neither"`
	OnlyFirst  int    `json:"only_first"`
	OnlySecond int    `json:"only_second"`
	// Examples maps a bucket name (both, neither, only_first, only_second)
	// to the first rows in file order that fell in it.
	Examples map[string][]Example `json:"examples"`
	// Groups repeats the four counts per group of the first grouping.
	Groups []AgreementGroup `json:"groups,omitempty"`
}

// AgreementGroup is Agreement's four counts within one group.
type AgreementGroup struct {
	Group      string `json:"group"`
	Both       int    `json:"both"`
	Neither    int    `json:"neither"`
	OnlyFirst  int    `json:"only_first"`
	OnlySecond int    `json:"only_second"`
}

// Buckets lists Agreement's bucket names in display order, with what each means.
var Buckets = []struct{ Name, Meaning string }{
	{"both", "both metrics pass: high confidence the answer is right"},
	{"neither", "both fail: wrong, or phrased very differently"},
	{"only_first", "only the first passes"},
	{"only_second", "only the second passes"},
}

// Example is one row shown as evidence.
type Example struct {
	Line     int    `json:"line"` // 1-based line (or row) of the record in its file
	ID       string `json:"id,omitempty"`
	Group    string `json:"group,omitempty"`
	Golden   string `json:"golden"`
	Response string `json:"response"`
}

// Warning is something the reader of a result must see: a count and, where
// it helps, the first rows concerned.
type Warning struct {
	Code    string `json:"code"` // stable id, e.g. empty_golden
	Message string `json:"message"`
	Count   int    `json:"count"`
	Lines   []int  `json:"lines,omitempty"`
}

// ReportedTable is the table of Reported, for the workbook and the page:
// each figure the harness reported beside the mean of its per-sample
// values. It has no rows when there is nothing reported.
func (s *Score) ReportedTable() Table {
	t := Table{Title: "Reported by " + s.Dataset.Format,
		Note:    "Each figure the harness wrote in its results file, beside the mean of the per-sample values it wrote; agree is yes when the two are equal within the harness's rounding.",
		Columns: []Column{{Name: "model"}, {Name: "task"}, {Name: "metric"}, {Name: "reported", Kind: KindNumber}, {Name: "per-sample mean", Kind: KindNumber}, {Name: "n", Kind: KindNumber}, {Name: "agree"}}}
	for _, r := range s.Reported {
		agree := "yes"
		if !r.Match {
			agree = "no"
		}
		t.Rows = append(t.Rows, []string{r.Model, r.Task, r.Metric, strconv.FormatFloat(r.Value, 'g', -1, 64), strconv.FormatFloat(r.Recomputed, 'g', -1, 64), strconv.Itoa(r.N), agree})
	}
	return t
}
