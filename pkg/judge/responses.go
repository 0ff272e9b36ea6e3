package judge

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// ResponseOptions configures ReadResponses.
type ResponseOptions struct {
	// By is the group column ("" for none).
	By string
	// Limit reads only the first Limit rows (0: all).
	Limit int
}

// Responses is a response table read for a reference judge: its rows
// with the two seed metrics' verdicts (exact_substring, word_overlap) and,
// once judged (JudgeResponses), the judge's verdict on each.
type Responses struct {
	Name string
	// Header names the input columns, each row's Fields in order.
	Header []string
	// By is the group column, "" for none.
	By   string
	Rows []ResponseRow
	// FileRows counts the rows in the whole file (more than len(Rows)
	// under a limit), -1 when unknown (a format other than CSV or JSONL).
	FileRows int
	// Score is pkg/qa's score of Rows under the two seed metrics, with
	// the whole file's hash.
	Score *results.Score
}

// ResponseRow is one row of a response table with its verdicts.
type ResponseRow struct {
	Fields                         []string // the input columns
	Question, Golden, Response, ID string
	Group                          string
	// Exact and Overlap are the exact_substring and word_overlap verdicts.
	Exact, Overlap     bool
	Blank, EmptyGolden bool
	// GenError is the input's error cell (generate's response table): the
	// response is missing because generating it failed. Such a row is not
	// sent and is left out of every llm_judge figure (KindNoResponse).
	GenError string
	// Line is the line of the file the row starts on.
	Line int
	// Verdict is the judge's; a blank response is not sent and is
	// incorrect, with the reason "blank response (not sent)".
	Verdict RefVerdict
}

// RunSummary is the result of evalbook judge: the judge, the accuracy
// figures in the same shape as evalbook score's (llm_judge beside
// exact_substring and word_overlap, and the agreement of llm_judge with
// each), and what the judge says in each agreement bucket of the two seed
// metrics.
type RunSummary struct {
	Kind   string         `json:"kind"` // always "judge"
	Judge  RunInfo        `json:"judge"`
	Score  *results.Score `json:"score"`
	Review *results.Table `json:"review"`
}

// RunInfo names the judge of a run and counts what it was asked.
type RunInfo struct {
	Endpoint       string         `json:"endpoint"`
	Model          string         `json:"model"`
	Prompt         PromptRef      `json:"prompt"`
	Temperature    float64        `json:"temperature"`
	Rows           int            `json:"rows"`
	FileRows       int            `json:"file_rows,omitempty"`
	Sent           int            `json:"sent"`
	Invalid        int            `json:"invalid"`
	InvalidReasons map[string]int `json:"invalid_reasons,omitempty"`
	// Failed counts the rows whose call failed after its retries
	// (FailedKinds by llm.Kind: "server_error", "timeout", ...); they have
	// no verdict and are left out of every llm_judge figure, whose
	// denominator is Judged = Rows - Failed.
	Failed      int            `json:"failed"`
	FailedKinds map[string]int `json:"failed_kinds,omitempty"`
	// NoResponse counts the rows not sent because the input's error cell
	// says their response was never obtained (generate failed); they are
	// left out like failed rows, but a judge rerun cannot fix them.
	NoResponse int `json:"no_response,omitempty"`
	Judged     int `json:"judged"`
}

// CodeCallsFailed is the code of the warning that rows' judge calls
// failed after their retries (Count: the rows; Lines: the first 20).
const CodeCallsFailed = "judge_call_failed"

// CodeNoResponse is the code of the warning that rows had an error cell
// in the input and were not sent (Count: the rows; Lines: the first 20).
const CodeNoResponse = "no_response"

// RunOptions configures JudgeResponses.
type RunOptions struct {
	// Model and Endpoint name the judge model in the summary (the
	// endpoint as it may be shown: without credentials).
	Model, Endpoint string
	// Tool is the score's tool, e.g. "evalbook v1.2.0".
	Tool string
	// Workers is the number of rows judged at once (JudgeReferences).
	Workers int
	// Progress, when set, is called after each row sent, from several
	// goroutines.
	Progress func(done, total int)
}

const maxWarningLines = 20

// ReadResponses reads the first opt.Limit rows (all when 0) of a response
// table (CSV, JSONL or XLSX, by name's extension) through pkg/qa, which
// validates the columns and scores exact_substring and word_overlap. For
// CSV and JSONL the file is cut after the last row read, so every figure
// and warning covers exactly those rows, with their lines in the
// original file.
//
// A bad row is a *tabular.ParseError naming the file, line, character
// column and column. Text that is not UTF-8 is refused, never
// repaired (a judge must read the responses as they were written), in
// the whole file even past the limit (the dataset hash covers the whole
// file): the error wraps tabular.ErrInvalidUTF8 and names the first bad
// byte, and its only advice is to re-save the file, so a caller adds
// nothing unless it has a flag of its own to suggest.
func ReadResponses(ctx context.Context, data []byte, name string, opt ResponseOptions) (*Responses, error) {
	if opt.Limit < 0 {
		return nil, fmt.Errorf("judge: read responses: limit %d is negative (0 reads every row)", opt.Limit)
	}
	by, limit := opt.By, opt.Limit
	lines, ends, known := recordBounds(data, name)
	if known {
		if err := checkUTF8(data, name); err != nil {
			return nil, err
		}
	}
	in := data
	t := &Responses{Name: name, By: by, FileRows: -1}
	if known {
		t.FileRows = len(lines)
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
	qopt := qa.Options{Metrics: metrics, Rows: rows.Add, By: [][]string{}, KeepFailedRows: true} // judge counts them as no_response
	if by != "" {
		qopt.By = [][]string{{by}}
	}
	sc, err := qa.Score(ctx, bytes.NewReader(in), name, qopt)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	sc.Dataset.Hash = hex.EncodeToString(sum[:])[:12]
	t.Score = sc

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
			return nil, fmt.Errorf("%s: no column %s in the scored rows", name, tabular.Quote(n))
		}
	}
	t.Header = slices.Clone(sch.Columns)
	idCol := col(cols.ID)
	errCol := col("error")
	iQ, iA, iR := col(cols.Question), col(cols.Answer), col(cols.Response)
	for i := range rows.Len() {
		if limit > 0 && i >= limit {
			break
		}
		r := rows.Row(i) // the table's own copy
		row := ResponseRow{
			Fields:   r.Fields,
			Question: r.Fields[iQ], Golden: r.Fields[iA], Response: r.Fields[iR],
			Exact: r.Values[0] == 1, Overlap: r.Values[1] == 1, // the metrics are exact_substring, word_overlap
			Blank: r.Blank, EmptyGolden: r.EmptyGolden,
			Line: i + 2, // a header line, then one line per row, unless recordBounds knows better
		}
		if known && i < len(lines) {
			row.Line = lines[i]
		}
		if idCol >= 0 {
			row.ID = r.Fields[idCol]
		}
		if errCol >= 0 {
			row.GenError = strings.TrimSpace(r.Fields[errCol])
		}
		if by != "" {
			row.Group = r.Fields[col(by)]
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// Sendable counts the rows JudgeResponses sends to the judge: those
// whose response is not blank and has no error cell.
func (t *Responses) Sendable() int {
	n := 0
	for _, r := range t.Rows {
		if r.sendable() {
			n++
		}
	}
	return n
}

func (r ResponseRow) sendable() bool { return !r.Blank && r.GenError == "" }

// KindNoResponse is the RefVerdict.Kind of a row not sent because its
// input has an error cell (generate failed to get its response).
const KindNoResponse = "no_response"

// JudgeResponses asks j about every row of t whose response is not blank
// (JudgeReferences, with opt.Workers and opt.Progress), sets each row's
// Verdict, and returns the run summary: llm_judge's accuracy per group
// and combined with 95% Wilson intervals (a reply that breaks the
// contract counts as not correct and is warned about with its lines,
// CodeInvalidReplies), its agreement with each seed metric over the rows
// with a valid reply, and the review table. t.Score itself is left as it
// was. This is what evalbook judge computes.
//
// A row whose call failed after its retries gets a Verdict with Error
// set; it is counted in RunInfo.Failed, warned about (CodeCallsFailed)
// and left out of llm_judge's accuracy, agreements and review shares.
// Then the summary comes back with a *RowsFailedError naming the first
// failed row's line: write the verdict file and the summary, then report
// the error. Other errors are those of JudgeReferences (an authentication
// error, a cancelled ctx), with no summary; the replies received are in
// the client's cache, and t's verdicts are unchanged.
func JudgeResponses(ctx context.Context, j *ClientJudge, t *Responses, opt RunOptions) (*RunSummary, error) {
	if j == nil {
		return nil, fmt.Errorf("judge responses: %w", ErrNilJudge)
	}
	var items []RefItem
	var index []int // items[k] is row index[k]
	for i, r := range t.Rows {
		if !r.sendable() {
			continue
		}
		items = append(items, RefItem{Question: r.Question, Golden: r.Golden, Response: r.Response})
		index = append(index, i)
	}
	verdicts, err := JudgeReferences(ctx, j, items, opt.Workers, opt.Progress)
	var rf *RowsFailedError
	if err != nil && !errors.As(err, &rf) {
		return nil, err
	}
	first := 0
	for k, v := range verdicts {
		t.Rows[index[k]].Verdict = v
		if v.Failed() && first == 0 {
			first = t.Rows[index[k]].Line
		}
	}
	for i := range t.Rows {
		switch r := &t.Rows[i]; {
		case r.GenError != "":
			r.Verdict = RefVerdict{Error: "not sent: the input's error cell says the response was never obtained: " + quoteCell(r.GenError), Kind: KindNoResponse}
		case r.Blank:
			r.Verdict = RefVerdict{Valid: true, Reason: "blank response (not sent)"}
		}
	}
	sum := t.summary(j.Prompt, opt)
	if rf != nil {
		return sum, &RowsFailedError{Failed: rf.Failed, Total: len(items), Where: fmt.Sprintf("line %d", first), First: rf.First}
	}
	return sum, nil
}

// cloneScore copies what summary changes in a score: the metric lists,
// the per-metric maps, the agreements and the warnings.
func cloneScore(s *results.Score) *results.Score {
	c := *s
	c.Settings.Metrics = slices.Clone(s.Settings.Metrics)
	c.Metrics = slices.Clone(s.Metrics)
	c.Combined.Metrics = maps.Clone(s.Combined.Metrics)
	c.Groups = slices.Clone(s.Groups)
	for i := range c.Groups {
		c.Groups[i].Metrics = maps.Clone(c.Groups[i].Metrics)
	}
	c.Agreement = slices.Clone(s.Agreement)
	c.Warnings = slices.Clone(s.Warnings)
	return &c
}

func (t *Responses) summary(p Prompt, opt RunOptions) *RunSummary {
	model, endpoint := opt.Model, opt.Endpoint
	sc := cloneScore(t.Score)
	sc.Title = "LLM judge"
	sc.Tool = opt.Tool
	sc.Settings.Metrics = append(sc.Settings.Metrics, "llm_judge")
	sc.Metrics = append(sc.Metrics, results.MetricDef{
		ID: "llm_judge", Name: "LLM judge (reference prompt)",
		Rule: fmt.Sprintf("the model %s, asked with the reference prompt %s (hash %s) at temperature 0 whether the response gives the same answer as the golden answer, replies {\"verdict\": \"correct\"}",
			model, p.ID(), p.Hash()),
		FalsePositives: "a lenient or misled judge: a response that names the golden answer only to reject it, or text written to persuade the judge",
		FalseNegatives: "a strict judge, or one that reads the response's language poorly; calibrate it on labelled pairs, per language",
		Blank: "a blank response is not sent and scores 0; a reply that breaks the contract is empty in the verdict column and counts as 0; " +
			"a row whose judge call failed after its retries has no verdict and is left out of llm_judge (its denominator is the rows judged)",
		Source: "SPEC.md section 1 (seed 000's LLM judge script) and section 3 (a real judge)",
	})
	info := RunInfo{Endpoint: endpoint, Model: model, Prompt: p.Ref(), Rows: len(t.Rows), InvalidReasons: map[string]int{}, FailedKinds: map[string]int{}}
	if t.FileRows > len(t.Rows) {
		info.FileRows = t.FileRows
	}
	c := t.count(&info)
	sc.Combined.Metrics["llm_judge"] = c.all.metric()
	for i := range sc.Groups {
		if g := c.groups[sc.Groups[i].Group]; g != nil {
			sc.Groups[i].Metrics["llm_judge"] = g.metric()
		}
	}
	sc.Agreement = append(sc.Agreement,
		refAgreement(t.Rows, "exact_substring", func(r ResponseRow) bool { return r.Exact }, t.By != ""),
		refAgreement(t.Rows, "word_overlap", func(r ResponseRow) bool { return r.Overlap }, t.By != ""))
	sc.Warnings = append(sc.Warnings, info.warnings(c)...)
	return &RunSummary{Kind: "judge", Judge: info, Score: sc, Review: reviewTable(t.Rows)}
}

// judgeTally is llm_judge's count of rows judged and judged correct.
type judgeTally struct{ n, correct int }

// metric is the tally's accuracy with its 95% Wilson interval.
func (tl judgeTally) metric() results.MetricScore {
	lo, hi := stats.Wilson(tl.correct, tl.n, 0.95)
	ms := results.MetricScore{Correct: float64(tl.correct), CILow: lo, CIHigh: hi}
	if tl.n > 0 {
		ms.Accuracy = float64(tl.correct) / float64(tl.n)
	}
	return ms
}

// judgeCounts are a run's tallies, overall and per group, and the first
// lines of each kind of row left out or invalid.
type judgeCounts struct {
	all                                    judgeTally
	groups                                 map[string]*judgeTally
	invalidLines, failedLines, noRespLines []int
}

// count tallies the rows: sent, without a response, failed, invalid, and
// per group the rows judged and judged correct; info gets the counts.
func (t *Responses) count(info *RunInfo) judgeCounts {
	c := judgeCounts{groups: map[string]*judgeTally{}}
	for _, r := range t.Rows {
		if r.sendable() {
			info.Sent++
		}
		if r.Verdict.Kind == KindNoResponse {
			info.NoResponse++
			if len(c.noRespLines) < maxWarningLines {
				c.noRespLines = append(c.noRespLines, r.Line)
			}
			continue // no response: out of every rate
		}
		if r.Verdict.Failed() {
			info.Failed++
			info.FailedKinds[r.Verdict.Kind]++
			if len(c.failedLines) < maxWarningLines {
				c.failedLines = append(c.failedLines, r.Line)
			}
			continue // no verdict: out of every rate
		}
		if !r.Verdict.Valid {
			info.Invalid++
			info.InvalidReasons[r.Verdict.Invalid]++
			if len(c.invalidLines) < maxWarningLines {
				c.invalidLines = append(c.invalidLines, r.Line)
			}
		}
		g := c.groups[r.Group]
		if g == nil {
			g = &judgeTally{}
			c.groups[r.Group] = g
		}
		ok := r.Verdict.Valid && r.Verdict.Correct
		for _, tl := range []*judgeTally{g, &c.all} {
			tl.n++
			if ok {
				tl.correct++
			}
		}
	}
	if len(info.InvalidReasons) == 0 {
		info.InvalidReasons = nil
	}
	if len(info.FailedKinds) == 0 {
		info.FailedKinds = nil
	}
	info.Judged = info.Rows - info.Failed - info.NoResponse
	return c
}

// warnings are the run's warnings: invalid replies by reason, failed
// calls by kind, rows without a response.
func (info *RunInfo) warnings(c judgeCounts) []results.Warning {
	var w []results.Warning
	if info.Invalid > 0 {
		var reasons []string
		for _, k := range sortedKeys(info.InvalidReasons) {
			reasons = append(reasons, fmt.Sprintf("%s %d", k, info.InvalidReasons[k]))
		}
		w = append(w, results.Warning{
			Code: CodeInvalidReplies, Count: info.Invalid, Lines: c.invalidLines,
			Message: invalidMessage(info.Invalid, strings.Join(reasons, ", ")),
		})
	}
	if info.Failed > 0 {
		var kinds []string
		for _, k := range sortedKeys(info.FailedKinds) {
			kinds = append(kinds, fmt.Sprintf("%s %d", k, info.FailedKinds[k]))
		}
		w = append(w, results.Warning{
			Code: CodeCallsFailed, Count: info.Failed, Lines: c.failedLines,
			Message: fmt.Sprintf("%s got no judge reply after the retries (%s): %s no verdict, llm_judge_error in the verdict file says why, "+
				"and llm_judge's accuracy, agreements and review shares are over the %d rows judged (exact_substring and word_overlap are over all %d); "+
				"the replies received are cached, so running the same command again asks only for these",
				countNoun(info.Failed, "row", "rows"), strings.Join(kinds, ", "), itHas(info.Failed), info.Judged, info.Rows),
		})
	}
	if info.NoResponse > 0 {
		w = append(w, results.Warning{
			Code: CodeNoResponse, Count: info.NoResponse, Lines: c.noRespLines,
			Message: fmt.Sprintf("%s an error cell in the input (generate never obtained the response): not sent, and left out of llm_judge, whose figures are over the %d rows judged; rerun generate for them",
				countNoun(info.NoResponse, "row has", "rows have"), info.Judged),
		})
	}
	return w
}

// quoteCell cuts an input cell to 200 characters for a message.
func quoteCell(s string) string {
	if utf8.RuneCountInString(s) <= 200 {
		return s
	}
	r := []rune(s)
	return fmt.Sprintf("%s... (%d characters)", string(r[:200]), len(r))
}

// itHas is "it has" for one, "they have" for more.
func itHas(n int) string {
	if n == 1 {
		return "it has"
	}
	return "they have"
}

// refAgreement compares llm_judge with a deterministic metric row by row,
// leaving out rows whose judge reply was invalid.
func refAgreement(rows []ResponseRow, other string, pass func(ResponseRow) bool, grouped bool) results.Agreement {
	a := results.Agreement{First: "llm_judge", Second: other, Examples: map[string][]results.Example{}}
	for _, b := range results.Buckets {
		a.Examples[b.Name] = []results.Example{}
	}
	groups := map[string]*results.AgreementGroup{}
	for _, r := range rows {
		if !r.Verdict.Valid {
			continue
		}
		j, d := r.Verdict.Correct, pass(r)
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
			a.Examples[bucket] = append(a.Examples[bucket], results.Example{Line: r.Line, ID: r.ID, Group: r.Group, Golden: r.Golden, Response: r.Response})
		}
		if grouped {
			g := groups[r.Group]
			if g == nil {
				g = &results.AgreementGroup{Group: r.Group}
				groups[r.Group] = g
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

// reviewTable says what the judge decided in each agreement bucket of the
// two seed metrics.
func reviewTable(rows []ResponseRow) *results.Table {
	names := []struct{ key, label string }{
		{"both", "both pass"}, {"neither", "both fail"},
		{"only_first", "exact_substring only"}, {"only_second", "word_overlap only (review these)"},
	}
	type counts struct{ n, correct, incorrect, invalid, failed int }
	c := map[string]*counts{}
	for _, n := range names {
		c[n.key] = &counts{}
	}
	for _, r := range rows {
		key := "neither"
		switch {
		case r.Exact && r.Overlap:
			key = "both"
		case r.Exact:
			key = "only_first"
		case r.Overlap:
			key = "only_second"
		}
		k := c[key]
		k.n++
		switch {
		case r.Verdict.Failed():
			k.failed++
		case !r.Verdict.Valid:
			k.invalid++
		case r.Verdict.Correct:
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
			{Name: "judge incorrect", Kind: results.KindNumber}, {Name: "invalid", Kind: results.KindNumber}, {Name: "no verdict", Kind: results.KindNumber},
			{Name: "judge correct share", Kind: results.KindRate}},
	}
	for _, n := range names {
		k := c[n.key]
		share := ""
		if valid := k.correct + k.incorrect; valid > 0 {
			share = results.Float(float64(k.correct) / float64(valid))
		}
		t.Rows = append(t.Rows, []string{n.label, strconv.Itoa(k.n), strconv.Itoa(k.correct), strconv.Itoa(k.incorrect), strconv.Itoa(k.invalid), strconv.Itoa(k.failed), share})
	}
	return t
}

// invalidMessage is the warning about n replies that broke the
// contract, for the reasons listed.
func invalidMessage(n int, reasons string) string {
	if n == 1 {
		return fmt.Sprintf("1 judge reply broke the reply contract (%s): its llm_judge cell is empty, it counts as not correct and is left out of the llm_judge agreement buckets", reasons)
	}
	return fmt.Sprintf("%d judge replies broke the reply contract (%s): their llm_judge cell is empty, they count as not correct and are left out of the llm_judge agreement buckets", n, reasons)
}

// Tables lays the summary out as tables for the XLSX and HTML
// renderers: the accuracy of each metric per group and combined
// (results.GroupTable) and the review table. A summary decoded without
// them gives fewer tables.
func (r *RunSummary) Tables() []results.Table {
	var out []results.Table
	if r.Score != nil {
		out = append(out, results.GroupTable(r.Score, ""))
	}
	if r.Review != nil {
		out = append(out, *r.Review)
	}
	if r.Score != nil {
		out = append(out, results.WarningTable(r.Score.Warnings)...)
	}
	return out
}

// WriteText writes the summary as evalbook judge prints it: the judge
// and its prompt, how many rows were judged and sent and how many replies
// broke the contract, the score text (results.Score.WriteText) and the
// review table.
func (r *RunSummary) WriteText(w io.Writer) error {
	j := r.Judge
	fmt.Fprintf(w, "judge: %s at %s, prompt %s@%d (hash %s), temperature 0\n", j.Model, j.Endpoint, j.Prompt.Name, j.Prompt.Version, j.Prompt.Hash)
	rows := countNoun(j.Rows, "row", "rows")
	if j.FileRows > 0 {
		rows = fmt.Sprintf("the first %d of %d rows", j.Rows, j.FileRows)
	}
	broke := "replies broke the contract"
	if j.Invalid == 1 {
		broke = "reply broke the contract"
	}
	failed := ""
	if j.Failed > 0 {
		failed = fmt.Sprintf(", %s with no reply after the retries", countNoun(j.Failed, "row", "rows"))
	}
	if j.NoResponse > 0 {
		failed += fmt.Sprintf(", %s with an error cell in the input (not sent)", countNoun(j.NoResponse, "row", "rows"))
	}
	if failed != "" {
		failed += fmt.Sprintf(" (left out of llm_judge, which is over %s)", countNoun(j.Judged, "row", "rows"))
	}
	if _, err := fmt.Fprintf(w, "judged %s: %d sent, %s not sent, %d %s%s\n\n", rows, j.Sent, countNoun(j.Rows-j.Sent, "blank response", "blank responses"), j.Invalid, broke, failed); err != nil {
		return err
	}
	if r.Score == nil || r.Review == nil {
		return errors.New("judge: a run summary without its score or review table")
	}
	if err := r.Score.WriteText(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return r.Review.WriteText(w)
}

// WriteVerdicts writes the verdict file of evalbook judge --out as CSV:
// the input columns, exact_substring and word_overlap (1 or 0), llm_judge
// (1, 0, or empty when the reply broke the contract or the call failed),
// llm_judge_reason and, when some row's call failed, llm_judge_error
// (empty, or why: "HTTP 500 after 4 attempts: ..."; named so as not to
// clash with an error column of the input, such as generate's).
//
// A cell a spreadsheet would run as a formula is written with a leading
// ' (tabular.NeedsFormulaGuard); WriteVerdictsCSV can turn that off and
// says how many cells it guarded.
func (t *Responses) WriteVerdicts(w io.Writer) error {
	_, err := t.WriteVerdictsCSV(w, tabular.CSVOptions{})
	return err
}

// WriteVerdictsCSV is WriteVerdicts with options; it returns the number
// of cells it guarded.
func (t *Responses) WriteVerdictsCSV(w io.Writer, opt tabular.CSVOptions) (int, error) {
	cw := tabular.NewCSVWriter(w, opt)
	failed := slices.ContainsFunc(t.Rows, func(r ResponseRow) bool { return r.Verdict.Failed() })
	head := append(append([]string(nil), t.Header...), "exact_substring", "word_overlap", "llm_judge", "llm_judge_reason")
	if failed {
		head = append(head, "llm_judge_error")
	}
	cw.Write(head)
	for _, r := range t.Rows {
		lj := ""
		if r.Verdict.Valid {
			lj = bit(r.Verdict.Correct)
		}
		reason := r.Verdict.Reason
		switch {
		case r.Verdict.Failed():
			reason = ""
		case !r.Verdict.Valid:
			reason = "invalid reply: " + r.Verdict.Invalid
		}
		rec := append(append([]string(nil), r.Fields...), bit(r.Exact), bit(r.Overlap), lj, reason)
		if failed {
			rec = append(rec, r.Verdict.Error)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Guarded(), cw.Error()
}

func bit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// checkUTF8 returns the error of the first bad byte of a CSV or JSONL
// file that is not valid UTF-8, read through tabular's reader so that it
// names its place as every reader does. Other problems are left to qa,
// which words them for a response table.
func checkUTF8(data []byte, name string) error {
	if utf8.Valid(data) {
		return nil
	}
	rd, err := tabular.NewReader(bytes.NewReader(data), name, tabular.Options{})
	if err == nil {
		for rd.Scan() {
		}
		err = rd.Err()
	}
	if errors.Is(err, tabular.ErrInvalidUTF8) {
		return err
	}
	return nil
}

// recordBounds returns, for each data record of a CSV or JSONL file, the
// 1-based line it starts on and the byte offset just past it; ok is false
// for other formats or a file the standard CSV reader cannot read (qa
// then reports the problem itself).
func recordBounds(data []byte, name string) (lines []int, ends []int64, ok bool) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		r := csv.NewReader(bytes.NewReader(data))
		r.FieldsPerRecord = -1
		r.ReuseRecord = true
		for first := true; ; first = false {
			if _, err := r.Read(); err == io.EOF {
				return lines, ends, true
			} else if err != nil {
				return nil, nil, false
			}
			if !first {
				line, _ := r.FieldPos(0)
				lines = append(lines, line)
				ends = append(ends, r.InputOffset())
			}
		}
	case ".jsonl", ".ndjson":
		var off int64
		for i, l := range bytes.SplitAfter(data, []byte("\n")) {
			off += int64(len(l))
			if len(bytes.TrimSpace(l)) > 0 {
				lines = append(lines, i+1)
				ends = append(ends, off)
			}
		}
		return lines, ends, true
	}
	return nil, nil, false
}

// Requests returns the chat requests JudgeResponses sends for t's rows
// with prompt p, in row order, without sending any and without touching
// t's verdicts (it judges a copy through llm.Collect), for a batch
// submission (llm.Client.Batch) whose replies JudgeResponses then finds
// in the client's cache.
func (t *Responses) Requests(p Prompt) ([]llm.Request, error) {
	cp := *t
	cp.Rows = slices.Clone(t.Rows)
	return llm.Collect(func(c llm.Completer) error {
		_, err := JudgeResponses(context.Background(), NewClientJudge(c, p), &cp, RunOptions{Workers: 1})
		if errors.Is(err, ErrRowsFailed) { // a row that cannot render: the online pass reports it
			return nil
		}
		return err
	})
}
