package main

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

// The flags many commands share, declared once with one default each and
// checked as they are parsed: a bad value is a usage error (exit status 2)
// naming the flag, before any file is read.

// Defaults of the shared interval flags.
const (
	defaultConfidence = 0.95
	defaultResamples  = 10000
	defaultSeed       = 1
)

// intervalFlags are --confidence, --resamples and --seed.
type intervalFlags struct {
	confidence confidenceValue
	resamples  countValue
	seed       uint64
}

// addIntervalFlags declares the interval flags on fs; what says what the
// bootstrap resamples (e.g. "for the MRR interval"), or is empty.
func addIntervalFlags(fs *flag.FlagSet, what string) *intervalFlags {
	return declareIntervalFlags(fs, what, countValue{n: defaultResamples, min: 1}, "")
}

// addOptionalIntervalFlags is addIntervalFlags for a command whose
// bootstrap is optional and off by default (leaderboard: a bootstrap of
// every cell's corpus metric costs about 20 times the board), so
// --resamples is 0 unless asked for.
func addOptionalIntervalFlags(fs *flag.FlagSet, what string) *intervalFlags {
	return declareIntervalFlags(fs, what, countValue{n: 0, min: 0}, " (0: no interval)")
}

func declareIntervalFlags(fs *flag.FlagSet, what string, resamples countValue, note string) *intervalFlags {
	f := &intervalFlags{confidence: defaultConfidence, resamples: resamples, seed: defaultSeed}
	fs.Var(&f.confidence, "confidence", "confidence `level` of the intervals, between 0 and 1")
	usage := "bootstrap `resamples`"
	if what != "" {
		usage += " " + what
	}
	fs.Var(&f.resamples, "resamples", usage+note)
	fs.Uint64Var(&f.seed, "seed", defaultSeed, "bootstrap random `seed` (same seed, same interval)")
	return f
}

// Confidence, Resamples and Seed return the parsed values.
func (f *intervalFlags) Confidence() float64 { return float64(f.confidence) }
func (f *intervalFlags) Resamples() int      { return f.resamples.n }
func (f *intervalFlags) Seed() uint64        { return f.seed }

// confidenceValue is a confidence level strictly between 0 and 1.
type confidenceValue float64

func (c *confidenceValue) String() string { return strconv.FormatFloat(float64(*c), 'g', -1, 64) }

func (c *confidenceValue) Set(s string) error {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || !(x > 0 && x < 1) {
		return fmt.Errorf("want a level between 0 and 1, such as 0.95")
	}
	*c = confidenceValue(x)
	return nil
}

// countValue is a whole number of at least min.
type countValue struct{ n, min int }

func (p *countValue) String() string {
	if p == nil {
		return "0"
	}
	return strconv.Itoa(p.n)
}

func (p *countValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < p.min {
		return fmt.Errorf("want a whole number of at least %d", p.min)
	}
	p.n = n
	return nil
}

// choiceValue is one of a fixed list of words.
type choiceValue struct {
	value   string
	choices []string
}

// addChoice declares a flag whose value must be one of choices; the first
// is the default.
func addChoice(fs *flag.FlagSet, name, usage string, choices ...string) *string {
	c := &choiceValue{value: choices[0], choices: choices}
	fs.Var(c, name, usage)
	return &c.value
}

func (c *choiceValue) String() string {
	if c == nil {
		return ""
	}
	return c.value
}

func (c *choiceValue) Set(s string) error {
	if !slices.Contains(c.choices, s) {
		return fmt.Errorf("want %s", orList(c.choices))
	}
	c.value = s
	return nil
}

// orList joins words as "a, b or c".
func orList(w []string) string {
	if len(w) < 2 {
		return strings.Join(w, "")
	}
	return strings.Join(w[:len(w)-1], ", ") + " or " + w[len(w)-1]
}

// profileValue is a --normalize profile, parsed by textnorm.ParseProfile.
type profileValue struct{ p textnorm.Profile }

// addNormalizeFlag declares --normalize (default none).
func addNormalizeFlag(fs *flag.FlagSet, usage string) *textnorm.Profile {
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
