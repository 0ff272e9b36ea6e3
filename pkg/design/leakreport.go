package design

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// SplitLeak is a dev case and a holdout case that look alike.
type SplitLeak struct {
	Dev     string  `json:"dev"`
	Holdout string  `json:"holdout"`
	Method  string  `json:"method"`
	Score   float64 `json:"score"`
}

// SourceLeak is a case that looks like a text of an outside source (a
// few-shot prompt, an earlier tuning set).
type SourceLeak struct {
	ID     string  `json:"id"`
	Source string  `json:"source"`
	Line   int     `json:"line"`
	Text   string  `json:"text"`
	Method string  `json:"method"`
	Score  float64 `json:"score"`
}

// LeakageReport is the result of CheckLeakage. Both lists are sorted by
// score, highest first, then by ids, line and method.
type LeakageReport struct {
	Threshold  float64      `json:"threshold"`
	DevHoldout []SplitLeak  `json:"dev_holdout"`
	Sources    []SourceLeak `json:"sources"`
}

// Source is a named outside text collection, one question per entry.
type Source struct {
	Name  string
	Texts []SourceText
}

// SourceText is one question of a source and the line it came from.
type SourceText struct {
	Line int
	Text string
}

// CheckLeakage compares the questions of dev with those of holdout, and
// every case (dev and holdout) with every text of each source, by word-set
// Jaccard and by character n-gram similarity; a pair appears once per
// method that reaches the threshold.
//
// What neither method catches: a paraphrase that shares few words or
// letters ("send a bike back" / "return a bicycle"), a translation (an
// English case and its Bengali version across the split), a transliteration
// (Bengali written in Latin letters), a question quoted inside a much longer
// line (the extra words dilute both scores), and anything in a hosted
// model's training data. Both also flag different questions that share
// their wording, such as two questions that differ only in a number.
//
// A configuration that fails Validate is an error, and nothing is compared.
func (c LeakageConfig) CheckLeakage(dev, holdout []Case, sources []Source) (LeakageReport, error) {
	if err := c.Validate(); err != nil {
		return LeakageReport{}, err
	}
	c = c.withDefaults()
	rep := LeakageReport{Threshold: c.Threshold, DevHoldout: []SplitLeak{}, Sources: []SourceLeak{}}
	for _, m := range c.across(questions(dev), questions(holdout)) {
		rep.DevHoldout = append(rep.DevHoldout, SplitLeak{dev[m.A].ID, holdout[m.B].ID, m.Method, m.Score})
	}
	all := append(append([]Case(nil), dev...), holdout...)
	qs := questions(all)
	for _, s := range sources {
		texts := make([]string, len(s.Texts))
		for i, t := range s.Texts {
			texts[i] = t.Text
		}
		for _, m := range c.across(qs, texts) {
			t := s.Texts[m.B]
			rep.Sources = append(rep.Sources, SourceLeak{all[m.A].ID, s.Name, t.Line, t.Text, m.Method, m.Score})
		}
	}
	sort.Slice(rep.DevHoldout, func(i, j int) bool {
		x, y := rep.DevHoldout[i], rep.DevHoldout[j]
		if x.Score != y.Score {
			return x.Score > y.Score
		}
		if x.Dev != y.Dev {
			return x.Dev < y.Dev
		}
		if x.Holdout != y.Holdout {
			return x.Holdout < y.Holdout
		}
		return x.Method < y.Method
	})
	sort.Slice(rep.Sources, func(i, j int) bool {
		x, y := rep.Sources[i], rep.Sources[j]
		if x.Score != y.Score {
			return x.Score > y.Score
		}
		if x.ID != y.ID {
			return x.ID < y.ID
		}
		if x.Source != y.Source {
			return x.Source < y.Source
		}
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		return x.Method < y.Method
	})
	return rep, nil
}

func questions(cases []Case) []string {
	out := make([]string, len(cases))
	for i := range cases {
		out[i] = cases[i].Question
	}
	return out
}

// ReadSource reads an outside source: either a text file with one question
// per line (blank lines skipped), or, when its first non-blank line starts
// with "{", JSONL whose objects carry a string "question" (other members
// are ignored, so an earlier set in another format still reads). Text
// that is not UTF-8, a line longer than tabular.RecordLimit() (64 MiB,
// --max-field-mib) and a source without any question are errors.
func ReadSource(r io.Reader, name, file string) (Source, error) {
	src := Source{Name: name}
	sc, max := lineScanner(r)
	jsonl := false
	decided := false
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if line == 1 {
			b = trimBOM(b)
		}
		t := bytes.TrimSpace(b)
		if len(t) == 0 {
			continue
		}
		if !decided {
			jsonl, decided = t[0] == '{', true
		}
		find := badUTF8
		if jsonl {
			find = BadText
		}
		if off, terr := find(b); terr != nil {
			return src, textError(file, b, line-1, off, terr, nil)
		}
		if !jsonl {
			src.Texts = append(src.Texts, SourceText{line, strings.TrimSpace(string(b))})
			continue
		}
		var rec map[string]json.RawMessage
		if err := json.Unmarshal(t, &rec); err != nil {
			return src, &ParseError{File: file, Line: line, Err: fmt.Errorf("want a JSON object: %v", err)}
		}
		var q string
		if err := json.Unmarshal(rec["question"], &q); err != nil || strings.TrimSpace(q) == "" {
			return src, &ParseError{File: file, Line: line, Field: "question", Err: fmt.Errorf("want a non-empty string")}
		}
		src.Texts = append(src.Texts, SourceText{line, q})
	}
	if err := sc.Err(); err != nil {
		return src, scanError(file, line, err, max)
	}
	if len(src.Texts) == 0 {
		return src, &ParseError{File: file, Err: errors.New("no questions (the file is empty or has only blank lines)")}
	}
	return src, nil
}
