package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// This file holds the results of `evalbook summarize` and `evalbook run`
// as values that write the command's text and encode as its JSON, and the
// file-level entry that reads a dataset and results in any of the formats
// the command takes.

// SummarizeFiles scores the outcomes in results against the dataset, as
// `evalbook summarize` does. The dataset is a seed 004 dataset (a JSON
// array or JSONL with "expected") or case records (JSONL with "expect",
// recognised by the first record), whose slice field (task, set, lang or
// expect) becomes the slice and whose facts joined by " | " the fact.
// results is a JSON object from id to outcome, JSONL of {id, kind, fact},
// or the CSV that Run's rows are written as (recognised by its header or
// a .csv name). An outcome whose id is no case of the dataset is an error
// naming its line (ErrUnknownResult), as is everything Summarize refuses.
func SummarizeFiles(dataset, results design.File, slice string) (*Report, error) {
	cases, err := readDatasetAuto(dataset.Data, dataset.Name, slice)
	if err != nil {
		return nil, err
	}
	outcomes, lines, err := readResultsAuto(results.Data, results.Name)
	if err != nil {
		return nil, err
	}
	if err := unknownResults(cases, dataset.Name, outcomes, lines, results.Name); err != nil {
		return nil, err
	}
	return Summarize(cases, outcomes)
}

// readDatasetAuto reads a seed 004 dataset, or case records (recognised
// by an "expect" member in the first record) converted with slice as the
// slice field and the joined facts as the fact.
func readDatasetAuto(data []byte, file, slice string) ([]Case, error) {
	if !looksLikeRecords(data) {
		return ReadDataset(bytes.NewReader(data), file)
	}
	recs, err := design.ReadCases(bytes.NewReader(data), file, design.DefaultVocabulary)
	if err != nil {
		return nil, err
	}
	return Dataset(recs, slice), nil
}

// looksLikeRecords reports whether the first JSON line is an object with
// an "expect" member (a case record), not "expected" (seed 004).
func looksLikeRecords(data []byte) bool {
	// A first line beyond the limit is no case record; ReadDataset then
	// reports it, naming the limit and the flag.
	max := tabular.RecordLimit()
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, min(64<<10, max)), max)
	for sc.Scan() {
		t := bytes.TrimSpace(bytes.TrimPrefix(sc.Bytes(), []byte("\xef\xbb\xbf")))
		if len(t) == 0 {
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(t, &m) != nil {
			return false
		}
		_, ok := m["expect"]
		return ok
	}
	return false
}

// readResultsAuto reads results as JSON, JSONL or a run CSV (recognised by
// its header line or name), with the line each id's outcome starts on.
func readResultsAuto(data []byte, file string) (map[string]Outcome, map[string]int, error) {
	head := strings.TrimPrefix(string(data[:min(len(data), 64)]), "\ufeff")
	if strings.HasPrefix(head, strings.Join(CSVHeader, ",")) || strings.HasSuffix(strings.ToLower(file), ".csv") {
		rows, lines, err := ReadCSVLines(bytes.NewReader(data), file)
		if err != nil {
			return nil, nil, err
		}
		return Outcomes(rows), lines, nil
	}
	return ReadResultsLines(bytes.NewReader(data), file)
}

// unknownResults is Summarize's "Unknown result ID" check, placed: it
// names the results file and the line of the first outcome (in file
// order) whose id is no case of the dataset, and the lines of a few more.
func unknownResults(dataset []Case, dsName string, results map[string]Outcome, lines map[string]int, resName string) error {
	ids := make(map[string]bool, len(dataset))
	for _, c := range dataset {
		ids[c.ID] = true
	}
	var unknown []string
	for id := range results {
		if !ids[id] {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Slice(unknown, func(i, j int) bool {
		a, b := unknown[i], unknown[j]
		return lines[a] < lines[b] || lines[a] == lines[b] && a < b
	})
	more := ""
	if n := len(unknown) - 1; n > 0 {
		const most = 5
		var list []string
		for _, id := range unknown[1:min(len(unknown), 1+most)] {
			list = append(list, fmt.Sprintf("%q on line %d", id, lines[id]))
		}
		if n > most {
			list = append(list, fmt.Sprintf("%d others", n-most))
		}
		more = fmt.Sprintf("; %d more: %s", n, strings.Join(list, ", "))
	}
	return fmt.Errorf("%s:%d: %w: %q (no case of %s has this id%s)", resName, lines[unknown[0]], ErrUnknownResult, unknown[0], dsName, more)
}

// rateText formats a rate to three decimals, or "-" for none.
func rateText(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', 3, 64)
}

// sliceNames returns the report's slice names in order.
func (r *Report) sliceNames() []string {
	names := make([]string, 0, len(r.Slices))
	for n := range r.Slices {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// WriteText writes the totals and rates, then each slice's counts.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, kv := range r.figures() {
		fmt.Fprintf(tw, "%s\t%s\n", kv[0], kv[1])
	}
	fmt.Fprintln(tw, "\nslice\ttotal\tsuccess")
	for _, n := range r.sliceNames() {
		fmt.Fprintf(tw, "%s\t%d\t%d\n", n, r.Slices[n].Total, r.Slices[n].Success)
	}
	return tw.Flush()
}

// figures lists the report's counts and rates as text pairs.
func (r *Report) figures() [][2]string {
	itoa := strconv.Itoa
	return [][2]string{{"total", itoa(r.Total)}, {"success", itoa(r.Success)}, {"answered", itoa(r.Answered)},
		{"correct answers", itoa(r.CorrectAnswers)}, {"errors", itoa(r.Errors)}, {"missing", itoa(r.Missing)},
		{"task success", rateText(r.TaskSuccess)}, {"answer coverage", rateText(r.AnswerCoverage)},
		{"answered accuracy", rateText(r.AnsweredAccuracy)}}
}

// Tables returns the figures and the slices: counts as counts, the
// three rates as rates (percentages on the page and in the workbook, as
// the cards show them; the text keeps figures' decimals).
func (r *Report) Tables() []results.Table {
	f := results.Table{Title: "Answer-or-abstain summary", Columns: []results.Column{{Name: "figure"}, {Name: "value", Kind: results.KindCount, PerRow: true}}, Rows: [][]string{}}
	figs := r.figures()
	rates := []*float64{r.TaskSuccess, r.AnswerCoverage, r.AnsweredAccuracy} // figures' last three
	for i, kv := range figs {
		v, kind := kv[1], results.KindCount
		if k := i - (len(figs) - len(rates)); k >= 0 {
			v, kind = "", results.KindRate
			if rates[k] != nil {
				v = results.Float(*rates[k])
			}
		}
		f.Rows = append(f.Rows, []string{kv[0], v})
		f.RowKinds = append(f.RowKinds, kind)
	}
	s := results.Table{Title: "By slice", Columns: []results.Column{{Name: "slice"}, {Name: "total", Kind: results.KindNumber},
		{Name: "success", Kind: results.KindNumber}}, Rows: [][]string{}}
	for _, n := range r.sliceNames() {
		s.Rows = append(s.Rows, []string{n, strconv.Itoa(r.Slices[n].Total), strconv.Itoa(r.Slices[n].Success)})
	}
	return []results.Table{f, s}
}

// SystemInfo describes the sample system a run used.
type SystemInfo struct {
	Chunking  string  `json:"chunking"`
	MinScore  float64 `json:"min_score"`
	MinMargin float64 `json:"min_margin"`
	Corpus    string  `json:"corpus"`
	Documents int     `json:"documents"`
	Chunks    int     `json:"chunks"`
}

// Info describes s for a RunReport: its retriever's chunking, documents
// and chunks, its guard settings, and corpus, the label of where the
// documents came from (a directory, or the embedded sample's path).
func (s *System) Info(corpus string) SystemInfo {
	return SystemInfo{Chunking: string(s.Retriever.Chunking), MinScore: s.MinScore, MinMargin: s.MinMargin,
		Corpus: corpus, Documents: s.Retriever.Documents(), Chunks: s.Retriever.Len()}
}

// PassCount is a pass count and rate of a plan metric or a task.
type PassCount struct {
	Name   string   `json:"name,omitempty"`
	Task   string   `json:"task,omitempty"`
	Passed int      `json:"passed"`
	N      int      `json:"n"`
	Rate   *float64 `json:"rate"` // null when N is 0
}

// RunReport is what `evalbook run` prints: the system, the cases, the
// pass counts overall, per plan metric and per task, and (in JSON, when
// Rows is set) every case's row.
type RunReport struct {
	Kind                string         `json:"kind"` // always "run"
	System              SystemInfo     `json:"system"`
	Cases               string         `json:"cases"`
	DatasetHash         string         `json:"dataset_hash"`
	N                   int            `json:"n"`
	Passed              int            `json:"passed"`
	PassRate            *float64       `json:"pass_rate"`
	Outcomes            map[string]int `json:"outcomes"`
	Cited               int            `json:"answers_citing_listed_doc"`
	AnsweredAnswerCases int            `json:"answered_answer_cases"`
	Metrics             []PassCount    `json:"metrics"`
	ByTask              []PassCount    `json:"by_task"`
	Rows                []RunRow       `json:"cases_run,omitempty"`
	// failing lists the ids of the cases that did not pass.
	failing []string
}

func ratio(p, n int) *float64 {
	if n == 0 {
		return nil
	}
	v := float64(p) / float64(n)
	return &v
}

// NewRunReport counts the rows of a run of sys over the cases named by
// input (their Hash is hash). The report keeps rows: set Rows to nil to
// leave them out of its JSON.
func NewRunReport(rows []RunRow, sys SystemInfo, input, hash string) *RunReport {
	s := &RunReport{Kind: "run", System: sys, Cases: input, DatasetHash: hash, N: len(rows), Rows: rows,
		Outcomes: map[string]int{KindAnswer: 0, KindAbstain: 0, KindError: 0},
		Metrics:  []PassCount{}, ByTask: []PassCount{}}
	for _, r := range rows {
		s.Outcomes[r.Outcome]++
		if r.Pass {
			s.Passed++
		} else {
			s.failing = append(s.failing, r.ID)
		}
		if r.Expect == KindAnswer && r.Outcome == KindAnswer {
			s.AnsweredAnswerCases++
			if r.Cited {
				s.Cited++
			}
		}
	}
	s.PassRate = ratio(s.Passed, s.N)
	m := Measure(rows)
	for _, name := range []string{"answer_correct", "abstain_correct"} {
		r := m[name]
		s.Metrics = append(s.Metrics, PassCount{Name: name, Passed: r.Passed, N: r.N, Rate: ratio(r.Passed, r.N)})
	}
	keys, by, _ := ByField(rows, "task")
	for _, k := range keys {
		s.ByTask = append(s.ByTask, PassCount{Task: k, Passed: by[k].Passed, N: by[k].N, Rate: ratio(by[k].Passed, by[k].N)})
	}
	return s
}

// WriteText writes the system, the cases, the pass counts and the ids of
// the failing cases.
func (s *RunReport) WriteText(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "system: %s chunks (%d from %d documents in %s), min score %g, min margin %g\n",
		s.System.Chunking, s.System.Chunks, s.System.Documents, s.System.Corpus, s.System.MinScore, s.System.MinMargin)
	fmt.Fprintf(&b, "cases: %d from %s (hash %s)\n", s.N, s.Cases, s.DatasetHash)
	fmt.Fprintf(&b, "pass: %d/%d = %s\n", s.Passed, s.N, rateText(s.PassRate))
	fmt.Fprintf(&b, "outcomes: answer %d, abstain %d, error %d; answers citing a listed document: %d/%d\n",
		s.Outcomes[KindAnswer], s.Outcomes[KindAbstain], s.Outcomes[KindError], s.Cited, s.AnsweredAnswerCases)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nmetric\tpassed\tn\trate")
	for _, m := range s.Metrics {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", m.Name, m.Passed, m.N, rateText(m.Rate))
	}
	fmt.Fprintln(tw, "\ntask\tpassed\tn\trate")
	for _, g := range s.ByTask {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", g.Task, g.Passed, g.N, rateText(g.Rate))
	}
	tw.Flush()
	ids := s.failing
	if ids == nil { // a report decoded from JSON: its rows say which failed
		for _, r := range s.Rows {
			if !r.Pass {
				ids = append(ids, r.ID)
			}
		}
	}
	failing := strings.Join(ids, " ")
	if failing == "" {
		failing = "none"
	}
	fmt.Fprintf(&b, "\nfailing: %s\n", failing)
	_, err := w.Write(b.Bytes())
	return err
}

// Tables returns the pass counts per plan metric and per task.
func (s *RunReport) Tables() []results.Table {
	cols := func(first string) []results.Column {
		return []results.Column{{Name: first}, {Name: "passed", Kind: results.KindNumber}, {Name: "n", Kind: results.KindNumber}, {Name: "rate", Kind: results.KindRate}}
	}
	cell := func(v *float64) string {
		if v == nil {
			return ""
		}
		return results.Float(*v)
	}
	m := results.Table{Title: "By plan metric", Note: fmt.Sprintf("%d cases from %s (hash %s)", s.N, results.DisplayName(s.Cases), s.DatasetHash), Columns: cols("metric"), Rows: [][]string{}}
	for _, r := range s.Metrics {
		m.Rows = append(m.Rows, []string{r.Name, strconv.Itoa(r.Passed), strconv.Itoa(r.N), cell(r.Rate)})
	}
	t := results.Table{Title: "By task", Columns: cols("task"), Rows: [][]string{}}
	for _, r := range s.ByTask {
		t.Rows = append(t.Rows, []string{r.Task, strconv.Itoa(r.Passed), strconv.Itoa(r.N), cell(r.Rate)})
	}
	return []results.Table{m, t}
}
