package cli

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// The flags many commands share, declared once with one default each and
// checked as they are parsed: a bad value is a usage error (exit status 2)
// naming the flag, before any file is read.

// Defaults of the shared interval flags.
const (
	DefaultConfidence = 0.95
	DefaultResamples  = 10000
	DefaultSeed       = 1
)

// IntervalFlags are --confidence, --resamples and --seed.
type IntervalFlags struct {
	confidence ConfidenceValue
	resamples  CountValue
	seed       uint64
}

// AddIntervalFlags declares the interval flags on fs; what says what the
// bootstrap resamples (e.g. "for the MRR interval"), or is empty.
func AddIntervalFlags(fs *flag.FlagSet, what string) *IntervalFlags {
	return declareIntervalFlags(fs, what, CountValue{n: DefaultResamples, min: 1}, "")
}

// AddOptionalIntervalFlags is AddIntervalFlags for a command whose
// bootstrap is optional and off by default (leaderboard: a bootstrap of
// every cell's corpus metric costs about 20 times the board), so
// --resamples is 0 unless asked for.
func AddOptionalIntervalFlags(fs *flag.FlagSet, what string) *IntervalFlags {
	return declareIntervalFlags(fs, what, CountValue{n: 0, min: 0}, " (0: no interval)")
}

func declareIntervalFlags(fs *flag.FlagSet, what string, resamples CountValue, note string) *IntervalFlags {
	f := &IntervalFlags{confidence: DefaultConfidence, resamples: resamples, seed: DefaultSeed}
	fs.Var(&f.confidence, "confidence", "confidence `level` of the intervals, between 0 and 1")
	usage := "bootstrap `resamples`"
	if what != "" {
		usage += " " + what
	}
	fs.Var(&f.resamples, "resamples", usage+note)
	fs.Uint64Var(&f.seed, "seed", DefaultSeed, "bootstrap random `seed` (same seed, same interval)")
	return f
}

// Confidence, Resamples and Seed return the parsed values.
func (f *IntervalFlags) Confidence() float64 { return float64(f.confidence) }
func (f *IntervalFlags) Resamples() int      { return f.resamples.n }
func (f *IntervalFlags) Seed() uint64        { return f.seed }

// ConfidenceValue is a confidence level strictly between 0 and 1 (a
// flag.Value).
type ConfidenceValue float64

// String and Set make ConfidenceValue a flag.Value.
func (c *ConfidenceValue) String() string { return strconv.FormatFloat(float64(*c), 'g', -1, 64) }

func (c *ConfidenceValue) Set(s string) error {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || !(x > 0 && x < 1) {
		return fmt.Errorf("want a level between 0 and 1, such as 0.95")
	}
	*c = ConfidenceValue(x)
	return nil
}

// CountValue is a whole number of at least min (a flag.Value).
type CountValue struct{ n, min int }

func (p *CountValue) String() string {
	if p == nil {
		return "0"
	}
	return strconv.Itoa(p.n)
}

func (p *CountValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < p.min {
		return fmt.Errorf("want a whole number of at least %d", p.min)
	}
	p.n = n
	return nil
}

// ChoiceValue is one of a fixed list of words (a flag.Value).
type ChoiceValue struct {
	value   string
	choices []string
}

// AddChoice declares a flag whose value must be one of choices; the first
// is the default.
func AddChoice(fs *flag.FlagSet, name, usage string, choices ...string) *string {
	c := &ChoiceValue{value: choices[0], choices: choices}
	fs.Var(c, name, usage)
	return &c.value
}

func (c *ChoiceValue) String() string {
	if c == nil {
		return ""
	}
	return c.value
}

func (c *ChoiceValue) Set(s string) error {
	if !slices.Contains(c.choices, s) {
		return fmt.Errorf("want %s", OrList(c.choices))
	}
	c.value = s
	return nil
}

// OrList joins words as "a, b or c".
func OrList(w []string) string {
	if len(w) < 2 {
		return strings.Join(w, "")
	}
	return strings.Join(w[:len(w)-1], ", ") + " or " + w[len(w)-1]
}

// profileValue is a --normalize profile, parsed by textnorm.ParseProfile.
type profileValue struct{ p textnorm.Profile }

// AddNormalizeFlag declares --normalize (default none); the returned
// profile holds the parsed value.
func AddNormalizeFlag(fs *flag.FlagSet, usage string) *textnorm.Profile {
	v := &profileValue{}
	fs.Var(v, "normalize", usage)
	return &v.p
}

func (v *profileValue) String() string {
	if v == nil {
		return ""
	}
	return v.p.String()
}

func (v *profileValue) Set(s string) error {
	p, err := textnorm.ParseProfile(s)
	if err != nil {
		return err
	}
	v.p = p
	return nil
}

// MultiFlag collects a repeatable string flag.
type MultiFlag []string

func (m *MultiFlag) String() string     { return strings.Join(*m, " ") }
func (m *MultiFlag) Set(v string) error { *m = append(*m, v); return nil }

// AddConfidenceFlag declares --confidence alone, for a command without a
// bootstrap (aa, gate), with usage ("" for the usual text); the returned
// value's Level is the parsed level.
func AddConfidenceFlag(fs *flag.FlagSet, usage string) *ConfidenceValue {
	c := ConfidenceValue(DefaultConfidence)
	if usage == "" {
		usage = "confidence `level` of the intervals, between 0 and 1"
	}
	fs.Var(&c, "confidence", usage)
	return &c
}

// Level is the confidence level.
func (c *ConfidenceValue) Level() float64 { return float64(*c) }

// AddColumnFlags declares --question-col, --answer-col, --domain-col,
// --response-col and --id-col (idUsage is the id's usage text) with
// qa.DefaultColumns' names; the returned columns hold the parsed names.
func AddColumnFlags(fs *flag.FlagSet, idUsage string) *qa.Columns {
	c := qa.DefaultColumns
	fs.StringVar(&c.Question, "question-col", c.Question, "name of the question `column`")
	fs.StringVar(&c.Answer, "answer-col", c.Answer, "name of the golden answer `column`")
	fs.StringVar(&c.Domain, "domain-col", c.Domain, "name of the domain `column`")
	fs.StringVar(&c.Response, "response-col", c.Response, "name of the response `column`")
	fs.StringVar(&c.ID, "id-col", c.ID, idUsage)
	return &c
}

// SplitList splits a comma-separated flag value, trimming spaces and
// dropping empty items.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// fieldLimit is --max-field-mib, the longest CSV record or JSON Lines
// line a command reads (tabular.Limit), declared by NewFlags for every
// command that reads a table and applied by ParseFlags.
type fieldLimit struct{ mib int }

func (f *fieldLimit) String() string {
	if f == nil {
		return "0"
	}
	return strconv.Itoa(f.mib)
}

func (f *fieldLimit) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 1<<20 {
		return fmt.Errorf("want a whole number of MiB between 1 and 1048576")
	}
	f.mib = n
	return nil
}

func addFieldLimit(fs *flag.FlagSet) {
	fs.Var(&fieldLimit{mib: tabular.DefaultMaxRecord >> 20}, "max-field-mib",
		"refuse a CSV record or JSON Lines line longer than `N` MiB (a runaway quote, a file that is not a table); raise it for a genuine file with longer fields")
	fs.Var(&fileLimit{fieldLimit{mib: tabular.DefaultMaxFile >> 20}}, "max-file-mib",
		"refuse a file read whole (a plan, a case file, a prompt file, a JSON results document, a task's data), or an inspect .eval ZIP whose members inflate to more, larger than `N` MiB; raise it for a genuine file that large")
}

// fileLimit is --max-file-mib, the largest file a command reads whole
// (tabular.MaxFile), declared and applied with --max-field-mib.
type fileLimit struct{ fieldLimit }

// applyFieldLimit sets tabular.Limit from --max-field-mib and
// tabular.MaxFile from --max-file-mib; each written only
// when it changes, so commands run side by side in one process (the
// tests) with the default only read it.
func applyFieldLimit(fs *flag.FlagSet) {
	f, ok := fs.Lookup("max-field-mib").Value.(*fieldLimit)
	if !ok {
		return
	}
	if n := f.mib << 20; n != tabular.Limit.MaxRecord && !(n == tabular.DefaultMaxRecord && tabular.Limit.MaxRecord == 0) {
		tabular.Limit.MaxRecord = n
	}
	if g, ok := fs.Lookup("max-file-mib").Value.(*fileLimit); ok {
		if n := int64(g.mib) << 20; n != tabular.MaxFile {
			tabular.MaxFile = n
		}
	}
}
