package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// WriteJSON writes s as one indented JSON document, full precision.
func (s *Score) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(s)
}

// ErrNoDocument is returned by ReadScore for input with no JSON
// document in it (empty, or only whitespace).
var ErrNoDocument = errors.New("no JSON document: the input is empty")

// ReadScore decodes a document written by WriteJSON. It reads r to its
// end, at most tabular.MaxFile bytes (--max-file-mib): input with nothing
// but whitespace is ErrNoDocument, and anything
// but whitespace after the document is an error giving its line and
// column. JSON syntax and type errors are returned as encoding/json's
// (a *json.SyntaxError or *json.UnmarshalTypeError, with the offset).
func ReadScore(r io.Reader) (*Score, error) {
	data, err := tabular.ReadAll(r, "the score result", 0) // bounded by tabular.MaxFile (--max-file-mib)
	if err != nil {
		return nil, err
	}
	var s Score
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		if err == io.EOF {
			return nil, ErrNoDocument
		}
		return nil, err
	}
	// Only whitespace may follow the document.
	end := int(dec.InputOffset())
	if i := bytes.IndexFunc(data[end:], func(c rune) bool { return !strings.ContainsRune(" \t\r\n", c) }); i >= 0 {
		at := data[:end+i]
		line := 1 + bytes.Count(at, []byte("\n"))
		col := utf8.RuneCount(at[bytes.LastIndexByte(at, '\n')+1:]) + 1
		return nil, fmt.Errorf("line %d, column %d: data after the end of the JSON document (a result file holds one document)", line, col)
	}
	if s.Kind != "score" {
		return nil, fmt.Errorf("not a score result (kind %q)", s.Kind)
	}
	return &s, nil
}

// GroupLabel is how a text table shows a group's name: "(empty)" for
// the empty value (e.g. rows with an empty Domain), which would otherwise
// be a blank cell; JSON and CSV keep the value as it is.
func GroupLabel(name string) string {
	if name == "" {
		return "(empty)"
	}
	return name
}

// plural formats a count with the singular or plural noun: "1 row", "2 rows".
func plural(n int, singular, pluralForm string) string {
	if n == 1 {
		return "1 " + singular
	}
	return strconv.Itoa(n) + " " + pluralForm
}

// pct formats a rate in [0,1] as a percentage with one decimal.
func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) }

// WriteText writes the human-readable report: one table per grouping
// with a combined line, the agreement buckets with examples, and the
// warnings. Figures are rounded; use JSON or CSV for full precision.
func (s *Score) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	level := ""
	if s.Settings.CI != "none" && s.Settings.CI != "" {
		level = fmt.Sprintf(" with %s%% %s intervals", strconv.FormatFloat(100*s.Settings.Confidence, 'f', -1, 64), s.Settings.CI)
		if s.Settings.Cluster != "" {
			level += fmt.Sprintf(" clustered by %s", s.Settings.Cluster)
		}
	}
	if s.Model != "" {
		fmt.Fprintf(ew, "model %s, ", TextCell(s.Model))
	}
	fmt.Fprintf(ew, "%s: %s, file hash %s, normalize %s%s\n", s.Dataset.Path, plural(s.Dataset.Rows, "row", "rows"), s.Dataset.Hash, s.Settings.Normalize, level)
	if src := s.Settings.LanguageSource; src != "" && src != "column" {
		fmt.Fprintf(ew, "language of each row: from the %s\n", src)
	}
	byNames := []string{}
	seen := map[string]bool{}
	for _, g := range s.Groups {
		if !seen[g.By] {
			seen[g.By] = true
			byNames = append(byNames, g.By)
		}
	}
	if len(byNames) == 0 {
		byNames = append(byNames, "")
	}
	for _, by := range byNames {
		s.writeGroupTable(ew, by)
	}
	for _, a := range s.Agreement {
		writeAgreement(ew, a)
	}
	if len(s.Reported) > 0 {
		fmt.Fprintf(ew, "\nFigures %s reported, beside the mean of its per-sample values:\n", s.Dataset.Format)
		tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "model\ttask\tmetric\treported\tper-sample mean\tn\tagree\t")
		for _, r := range s.Reported {
			agree := "yes"
			if !r.Match {
				agree = "NO"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t\n", TextCell(r.Model), TextCell(r.Task), TextCell(r.Metric),
				strconv.FormatFloat(r.Value, 'g', 6, 64), strconv.FormatFloat(r.Recomputed, 'g', 6, 64), r.N, agree)
		}
		tw.Flush()
	}
	writeScoreWarnings(ew, s.Warnings)
	return ew.err
}

// writeGroupTable writes the table of the groups by one column (by ""
// for the combined figures alone): n, blanks and each metric with its
// interval, then the combined row.
func (s *Score) writeGroupTable(ew io.Writer, by string) {
	fmt.Fprintln(ew)
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{by, "n", "blank"}
	if by == "" {
		head[0] = " "
	}
	for _, m := range s.Settings.Metrics {
		head = append(head, m, "")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, g := range s.Groups {
		if g.By == by {
			fmt.Fprintln(tw, strings.Join(s.groupCells(g, GroupLabel(g.Group)), "\t")+"\t")
		}
	}
	fmt.Fprintln(tw, strings.Join(s.groupCells(s.Combined, "combined"), "\t")+"\t")
	tw.Flush()
}

// groupCells is one row of a group table: the group's name, n, blanks,
// and per metric its count and rate and its interval.
func (s *Score) groupCells(g Group, name string) []string {
	cells := []string{name, strconv.Itoa(g.N), strconv.Itoa(g.Blank)}
	for _, id := range s.Settings.Metrics {
		ms, ok := g.Metrics[id]
		if !ok && g.N > 0 {
			cells = append(cells, "-", "") // no row of the group has a value
			continue
		}
		if ms.N > 0 {
			cells = append(cells, correctText(ms.Correct)+"/"+strconv.Itoa(ms.N)+"  "+pct(ms.Accuracy)+"%")
		} else if ms.Level == "corpus" {
			cells = append(cells, "corpus  "+pct(ms.Accuracy)+"%")
		} else {
			cells = append(cells, correctText(ms.Correct)+"  "+pct(ms.Accuracy)+"%")
		}
		if s.Settings.CI == "none" {
			cells = append(cells, "")
		} else if ms.Level == "corpus" && ms.CILow == ms.CIHigh {
			cells = append(cells, "[--ci bootstrap]")
		} else {
			cells = append(cells, "["+pct(ms.CILow)+", "+pct(ms.CIHigh)+"]")
		}
	}
	return cells
}

// writeAgreement writes how two metrics agree: the four buckets with
// their meaning and examples.
func writeAgreement(ew io.Writer, a Agreement) {
	fmt.Fprintf(ew, "\nAgreement of %s (first) and %s (second) over %s:\n", a.First, a.Second, plural(a.Both+a.Neither+a.OnlyFirst+a.OnlySecond, "row", "rows"))
	counts := map[string]int{"both": a.Both, "neither": a.Neither, "only_first": a.OnlyFirst, "only_second": a.OnlySecond}
	for _, b := range Buckets {
		meaning := b.Meaning
		switch b.Name {
		case "only_first":
			meaning = "only " + a.First + " passes" + bucketHint(a.First, a.Second, true)
		case "only_second":
			meaning = "only " + a.Second + " passes" + bucketHint(a.First, a.Second, false)
		}
		fmt.Fprintf(ew, "  %-12s %6d  %s\n", b.Name, counts[b.Name], meaning)
		for _, ex := range a.Examples[b.Name] {
			id := ""
			if ex.ID != "" {
				id = " " + ex.ID
			}
			fmt.Fprintf(ew, "      line %d%s: golden %s | response %s\n", ex.Line, id, clip(ex.Golden, 40), clip(ex.Response, 70))
		}
	}
}

// writeScoreWarnings writes the warnings, each with the lines it names.
func writeScoreWarnings(ew io.Writer, ws []Warning) {
	if len(ws) == 0 {
		return
	}
	fmt.Fprintln(ew, "\nWarnings:")
	for _, w := range ws {
		fmt.Fprintf(ew, "  %s", w.Message)
		if len(w.Lines) > 0 {
			word := "lines"
			if len(w.Lines) == 1 && w.Count <= 1 {
				word = "line"
			}
			fmt.Fprintf(ew, " (%s %s", word, joinInts(w.Lines))
			if w.Count > len(w.Lines) {
				fmt.Fprintf(ew, ", ... %d more", w.Count-len(w.Lines))
			}
			fmt.Fprint(ew, ")")
		}
		fmt.Fprintln(ew)
	}
}

func bucketHint(first, second string, onlyFirst bool) string {
	if first == "exact_substring" && second == "word_overlap" {
		if onlyFirst {
			return ": usually an inflection inside a longer word (amalak / Amalaka), mostly right answers"
		}
		return ": golden words present but not contiguous; a paraphrase or a different claim: review these"
	}
	return ""
}

func correctText(c float64) string {
	if c == float64(int64(c)) {
		return strconv.FormatInt(int64(c), 10)
	}
	return strconv.FormatFloat(c, 'f', 1, 64)
}

// clip quotes s (so whitespace and line breaks stay visible) and shortens
// it to at most n characters for one-line display.
func clip(s string, n int) string {
	// Counted and cut in place: []rune(s) of a 50 MB response cost four
	// times its size. Written rune by rune, as string([]rune) did, so
	// invalid UTF-8 still shows as U+FFFD.
	if utf8.RuneCountInString(s) > n {
		var b strings.Builder
		k := 0
		for _, r := range s {
			if k == n-1 {
				break
			}
			b.WriteRune(r)
			k++
		}
		s = b.String() + "…"
	}
	return strconv.Quote(s)
}

func joinInts(x []int) string {
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ", ")
}

// WriteCSV writes the per-group figures as CSV: one row per group and a
// combined row, columns by, group, n, blank, empty_golden, then
// <metric>_correct, <metric>_accuracy, <metric>_ci_low, <metric>_ci_high.
// A group name a spreadsheet would run as a formula gets a leading '
// (tabular.GuardFormula).
func (s *Score) WriteCSV(w io.Writer) error {
	cw := tabular.NewCSVWriter(w, tabular.CSVOptions{})
	head := []string{"by", "group", "n", "blank", "empty_golden"}
	for _, m := range s.Settings.Metrics {
		head = append(head, m+"_correct", m+"_accuracy", m+"_ci_low", m+"_ci_high")
	}
	cw.Write(head)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	row := func(g Group, by, name string) {
		r := []string{by, name, strconv.Itoa(g.N), strconv.Itoa(g.Blank), strconv.Itoa(g.EmptyGolden)}
		for _, m := range s.Settings.Metrics {
			ms := g.Metrics[m]
			r = append(r, f(ms.Correct), f(ms.Accuracy), f(ms.CILow), f(ms.CIHigh))
		}
		cw.Write(r)
	}
	for _, g := range s.Groups {
		row(g, g.By, g.Group)
	}
	row(s.Combined, "", "combined")
	cw.Flush()
	return cw.Error()
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
