package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
)

// judgeRow is one row of the response table with its verdicts.
type judgeRow struct {
	fields                         []string // the input columns
	question, golden, response, id string
	group                          string
	exact, overlap                 bool
	blank, emptyGolden             bool
	line                           int
	verdict                        judge.RefVerdict
}

// judgeTable is the part of a response table the judge looks at, read and
// scored by pkg/qa under the two seed metrics.
type judgeTable struct {
	name        string
	inputHeader []string
	rows        []judgeRow
	fileRows    int // rows in the whole file, -1 when unknown
	score       *results.Score
}

// readJudgeTable reads the first limit rows (all when limit is 0) of a
// response table through pkg/qa, which validates the columns and scores
// exact_substring and word_overlap, and hands over the scored rows. For
// CSV and JSONL the file is cut after the last row judged, so every figure
// and warning of the report covers exactly the judged rows, with their
// lines in the original file.
func readJudgeTable(ctx context.Context, data []byte, name, by string, limit int) (*judgeTable, error) {
	lines, ends, known := judgeRecordBounds(data, name)
	in := data
	t := &judgeTable{name: name, fileRows: -1}
	if known {
		t.fileRows = len(lines)
		if limit > 0 && limit < len(lines) {
			in = data[:ends[limit-1]]
		}
	}
	var metrics []*score.Metric
	for _, id := range []string{"exact_substring", "word_overlap"} {
		m, err := score.Lookup(id)
		if err != nil {
			return nil, err
		}
		metrics = append(metrics, m)
	}
	var rows results.RowTable
	opt := qa.Options{Metrics: metrics, Rows: rows.Add, By: [][]string{}}
	if by != "" {
		opt.By = [][]string{{by}}
	}
	sc, err := qa.Score(ctx, bytes.NewReader(in), name, opt)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	sc.Dataset.Hash = hex.EncodeToString(sum[:])[:12]
	t.score = sc

	sch := rows.Schema()
	if sch == nil {
		return nil, fmt.Errorf("%s: no rows were scored", name)
	}
	col := func(n string) int { return slices.Index(sch.Columns, n) }
	cols := qa.DefaultColumns
	need := []string{cols.Question, cols.Answer, cols.Response}
	if by != "" {
		need = append(need, by)
	}
	for _, n := range need {
		if col(n) < 0 {
			return nil, fmt.Errorf("%s: no column %q in the scored rows", name, n)
		}
	}
	t.inputHeader = slices.Clone(sch.Columns)
	idCol := col(cols.ID)
	iQ, iA, iR := col(cols.Question), col(cols.Answer), col(cols.Response)
	for i := range rows.Len() {
		if limit > 0 && i >= limit {
			break
		}
		r := rows.Row(i) // the table's own copy
		row := judgeRow{
			fields:   r.Fields,
			question: r.Fields[iQ], golden: r.Fields[iA], response: r.Fields[iR],
			exact: r.Values[0] == 1, overlap: r.Values[1] == 1, // the metrics are exact_substring, word_overlap
			blank: r.Blank, emptyGolden: r.EmptyGolden,
			line: i + 2, // a header line, then one line per row, unless recordBounds knows better
		}
		if known && i < len(lines) {
			row.line = lines[i]
		}
		if idCol >= 0 {
			row.id = r.Fields[idCol]
		}
		if by != "" {
			row.group = r.Fields[col(by)]
		}
		t.rows = append(t.rows, row)
	}
	return t, nil
}

// judgeReport is the JSON document of evalbook judge: the judge, the
// accuracy figures in the same shape as evalbook score's, and what the
// judge says in each agreement bucket of the two deterministic metrics.
type judgeReport struct {
	Kind   string         `json:"kind"` // always "judge"
	Judge  judgeInfo      `json:"judge"`
	Score  *results.Score `json:"score"`
	Review *results.Table `json:"review"`
}

type judgeInfo struct {
	Endpoint       string          `json:"endpoint"`
	Model          string          `json:"model"`
	Prompt         judge.PromptRef `json:"prompt"`
	Temperature    float64         `json:"temperature"`
	Rows           int             `json:"rows"`
	FileRows       int             `json:"file_rows,omitempty"`
	Sent           int             `json:"sent"`
	Invalid        int             `json:"invalid"`
	InvalidReasons map[string]int  `json:"invalid_reasons,omitempty"`
}

const judgeMaxWarningLines = 20

func buildJudgeReport(t *judgeTable, p judge.Prompt, model, endpoint, by string) *judgeReport {
	sc := t.score
	sc.Title = "LLM judge"
	sc.Tool = "evalbook " + version
	sc.Settings.Metrics = append(sc.Settings.Metrics, "llm_judge")
	sc.Metrics = append(sc.Metrics, results.MetricDef{
		ID: "llm_judge", Name: "LLM judge (reference prompt)",
		Rule: fmt.Sprintf("the model %s, asked with the reference prompt %s (hash %s) at temperature 0 whether the response gives the same answer as the golden answer, replies {\"verdict\": \"correct\"}",
			model, p.ID(), p.Hash()),
		FalsePositives: "a lenient or misled judge: a response that names the golden answer only to reject it, or text written to persuade the judge",
		FalseNegatives: "a strict judge, or one that reads the response's language poorly; calibrate it on labelled pairs, per language",
		Blank:          "a blank response is not sent and scores 0; a reply that breaks the contract is empty in the verdict column and counts as 0",
		Source:         "SPEC.md section 1 (seed 000's LLM judge script) and section 3 (a real judge)",
	})
	info := judgeInfo{Endpoint: endpoint, Model: model, Prompt: p.Ref(), Rows: len(t.rows), InvalidReasons: map[string]int{}}
	if t.fileRows > len(t.rows) {
		info.FileRows = t.fileRows
	}
	type tally struct{ n, correct int }
	groups := map[string]*tally{}
	var all tally
	var invalidLines []int
	for _, r := range t.rows {
		if !r.blank {
			info.Sent++
		}
		if !r.verdict.Valid {
			info.Invalid++
			info.InvalidReasons[r.verdict.Invalid]++
			if len(invalidLines) < judgeMaxWarningLines {
				invalidLines = append(invalidLines, r.line)
			}
		}
		g := groups[r.group]
		if g == nil {
			g = &tally{}
			groups[r.group] = g
		}
		ok := r.verdict.Valid && r.verdict.Correct
		for _, tl := range []*tally{g, &all} {
			tl.n++
			if ok {
				tl.correct++
			}
		}
	}
	if len(info.InvalidReasons) == 0 {
		info.InvalidReasons = nil
	}
	metric := func(tl tally) results.MetricScore {
		lo, hi := stats.Wilson(tl.correct, tl.n, 0.95)
		ms := results.MetricScore{Correct: float64(tl.correct), CILow: lo, CIHigh: hi}
		if tl.n > 0 {
			ms.Accuracy = float64(tl.correct) / float64(tl.n)
		}
		return ms
	}
	sc.Combined.Metrics["llm_judge"] = metric(all)
	for i := range sc.Groups {
		if g := groups[sc.Groups[i].Group]; g != nil {
			sc.Groups[i].Metrics["llm_judge"] = metric(*g)
		}
	}
	sc.Agreement = append(sc.Agreement,
		judgeAgreement(t.rows, "exact_substring", func(r judgeRow) bool { return r.exact }, by != ""),
		judgeAgreement(t.rows, "word_overlap", func(r judgeRow) bool { return r.overlap }, by != ""))
	if info.Invalid > 0 {
		var reasons []string
		for _, k := range judgeSortedKeys(info.InvalidReasons) {
			reasons = append(reasons, fmt.Sprintf("%s %d", k, info.InvalidReasons[k]))
		}
		sc.Warnings = append(sc.Warnings, results.Warning{
			Code: "judge_invalid", Count: info.Invalid, Lines: invalidLines,
			Message: judgeInvalidMessage(info.Invalid, strings.Join(reasons, ", ")),
		})
	}
	return &judgeReport{Kind: "judge", Judge: info, Score: sc, Review: judgeReviewTable(t.rows)}
}

// judgeAgreement compares llm_judge with a deterministic metric row by row,
// leaving out rows whose judge reply was invalid.
func judgeAgreement(rows []judgeRow, other string, pass func(judgeRow) bool, grouped bool) results.Agreement {
	a := results.Agreement{First: "llm_judge", Second: other, Examples: map[string][]results.Example{}}
	for _, b := range results.Buckets {
		a.Examples[b.Name] = []results.Example{}
	}
	groups := map[string]*results.AgreementGroup{}
	for _, r := range rows {
		if !r.verdict.Valid {
			continue
		}
		j, d := r.verdict.Correct, pass(r)
		var bucket string
		switch {
		case j && d:
			bucket, a.Both = "both", a.Both+1
		case !j && !d:
			bucket, a.Neither = "neither", a.Neither+1
		case j:
			bucket, a.OnlyFirst = "only_first", a.OnlyFirst+1
		default:
			bucket, a.OnlySecond = "only_second", a.OnlySecond+1
		}
		if len(a.Examples[bucket]) < 5 {
			a.Examples[bucket] = append(a.Examples[bucket], results.Example{Line: r.line, ID: r.id, Group: r.group, Golden: r.golden, Response: r.response})
		}
		if grouped {
			g := groups[r.group]
			if g == nil {
				g = &results.AgreementGroup{Group: r.group}
				groups[r.group] = g
			}
			switch bucket {
			case "both":
				g.Both++
			case "neither":
				g.Neither++
			case "only_first":
				g.OnlyFirst++
			default:
				g.OnlySecond++
			}
		}
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		a.Groups = append(a.Groups, *groups[k])
	}
	return a
}

// judgeReviewTable says what the judge decided in each agreement bucket of the
// two seed metrics.
func judgeReviewTable(rows []judgeRow) *results.Table {
	names := []struct{ key, label string }{
		{"both", "both pass"}, {"neither", "both fail"},
		{"only_first", "exact_substring only"}, {"only_second", "word_overlap only (review these)"},
	}
	type counts struct{ n, correct, incorrect, invalid int }
	c := map[string]*counts{}
	for _, n := range names {
		c[n.key] = &counts{}
	}
	for _, r := range rows {
		key := "neither"
		switch {
		case r.exact && r.overlap:
			key = "both"
		case r.exact:
			key = "only_first"
		case r.overlap:
			key = "only_second"
		}
		k := c[key]
		k.n++
		switch {
		case !r.verdict.Valid:
			k.invalid++
		case r.verdict.Correct:
			k.correct++
		default:
			k.incorrect++
		}
	}
	t := &results.Table{
		Title: "What llm_judge says in each agreement bucket of exact_substring and word_overlap",
		Note: "Rows are put in buckets by the two seed metrics. Where only word_overlap passes, the golden words are present " +
			"but not contiguous (a paraphrase or a different claim): those are the rows a judge is for, and its verdicts there are the ones to read.",
		Columns: []results.Column{{Name: "bucket"}, {Name: "rows", Kind: results.KindNumber}, {Name: "judge correct", Kind: results.KindNumber},
			{Name: "judge incorrect", Kind: results.KindNumber}, {Name: "invalid", Kind: results.KindNumber}, {Name: "judge correct share", Kind: results.KindRate}},
	}
	for _, n := range names {
		k := c[n.key]
		share := ""
		if valid := k.correct + k.incorrect; valid > 0 {
			share = results.Float(float64(k.correct) / float64(valid))
		}
		t.Rows = append(t.Rows, []string{n.label, strconv.Itoa(k.n), strconv.Itoa(k.correct), strconv.Itoa(k.incorrect), strconv.Itoa(k.invalid), share})
	}
	return t
}

// judgeInvalidMessage is the warning about n replies that broke the
// contract, for the reasons listed.
func judgeInvalidMessage(n int, reasons string) string {
	if n == 1 {
		return fmt.Sprintf("1 judge reply broke the reply contract (%s): its llm_judge cell is empty, it counts as not correct and is left out of the llm_judge agreement buckets", reasons)
	}
	return fmt.Sprintf("%d judge replies broke the reply contract (%s): their llm_judge cell is empty, they count as not correct and are left out of the llm_judge agreement buckets", n, reasons)
}

func (r *judgeReport) writeText(w io.Writer) error {
	j := r.Judge
	fmt.Fprintf(w, "judge: %s at %s, prompt %s@%d (hash %s), temperature 0\n", j.Model, j.Endpoint, j.Prompt.Name, j.Prompt.Version, j.Prompt.Hash)
	rows := nounCount(j.Rows, "row", "rows")
	if j.FileRows > 0 {
		rows = fmt.Sprintf("the first %d of %d rows", j.Rows, j.FileRows)
	}
	broke := "replies broke the contract"
	if j.Invalid == 1 {
		broke = "reply broke the contract"
	}
	fmt.Fprintf(w, "judged %s: %d sent, %s not sent, %d %s\n\n", rows, j.Sent, nounCount(j.Rows-j.Sent, "blank response", "blank responses"), j.Invalid, broke)
	if err := r.Score.WriteText(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return r.Review.WriteText(w)
}

func judgeSortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
