package qa

import (
	"fmt"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
)

// The codes of the warnings pkg/qa words itself (results.Warning.Code).
// The warnings of intervals carry the codes of pkg/stats (stats.CodeFewValues
// and the others), except CodeNoInterval.
const (
	CodeEmptyGolden      = "empty_golden"
	CodeBlankResponse    = "blank_response"
	CodeGoldenWhitespace = "golden_whitespace"
	CodeNotNFC           = "not_nfc"
	CodeRepairedUTF8     = "repaired_utf8"
	// CodeFormulaCells: cells of the verdict file that a spreadsheet
	// would read as a formula (tabular.NeedsFormulaGuard) were written
	// with a leading ' (Options.RawCSV turns this off). Count is the
	// number of cells, Lines the first input lines that had one.
	CodeFormulaCells = "formula_cells"
	// CodeNoInterval: a corpus-level metric has no interval unless it is
	// bootstrapped (its value is not a mean of rows, so Wilson and the
	// normal interval do not apply); pkg/qa gives it when a Wilson
	// interval was asked for, and pkg/leaderboard when no resamples
	// were. The interval is then the point value.
	CodeNoInterval = results.CodeNoInterval
	// CodeGenerationFailed: rows whose ErrorColumn cell is not empty
	// (evalbook generate wrote no response for them: the call failed
	// after its retries) are left out of every figure, counted and listed
	// here; a rerun of generate asks only for them.
	CodeGenerationFailed = "generation_failed"
	// CodeBadReferences: a Columns.References cell was not a JSON array
	// of strings, or held no reference; the row is scored against its
	// golden answer instead, and Lines lists the first such rows.
	CodeBadReferences = "bad_references"
)

// ErrorColumn is the column in which evalbook generate says why a row has
// no response. A row with text there is not scored (CodeGenerationFailed).
const ErrorColumn = "error"

var warningOrder = []string{CodeGenerationFailed, CodeEmptyGolden, CodeBlankResponse, CodeGoldenWhitespace, CodeNotNFC, CodeRepairedUTF8, CodeFormulaCells, CodeBadReferences}

// defaultAdvice is pkg/qa's own closing advice of the warnings that have
// one; Options.Advice replaces it.
var defaultAdvice = map[string]string{
	CodeNotNFC:     "consider normalising both sides to NFC (the nfc or indic profile)",
	CodeNoInterval: "ask for a bootstrap interval",
}

// advise returns the closing advice of a warning code: advice[code] if
// set, else pkg/qa's own.
func advise(code string, advice map[string]string) string {
	if a, ok := advice[code]; ok {
		return a
	}
	return defaultAdvice[code]
}

// WarningMessage is the sentence that explains the warning code for
// count rows (singular or plural to match), scored under metrics: the
// empty-golden warning names only those of the metrics that score an
// empty golden answer correct against any response (found by asking
// each), and says nothing about the others. advice replaces, by code,
// the advice that closes the sentence (see Options.Advice); nil keeps
// pkg/qa's own.
func WarningMessage(code string, count int, metrics []*score.Metric, advice map[string]string) string {
	one := count == 1
	pick := func(singular, plural string) string {
		if one {
			return singular
		}
		return plural
	}
	var text string
	switch code {
	case CodeEmptyGolden:
		var pass []string
		for _, m := range metrics {
			if m.New().Score("", "any response").Value == 1 {
				pass = append(pass, m.ID)
			}
		}
		text = pick("row has an empty golden answer: ", "rows have an empty golden answer: ")
		if len(pass) > 0 {
			verb := " scores "
			if len(pass) > 1 {
				verb = " score "
			}
			text += joinAnd(pass) + verb + pick("it", "them") + " correct (the empty string is in everything), so "
		}
		text += pick("check whether this question has no answer on purpose", "check whether these questions have no answer on purpose")
	case CodeBlankResponse:
		text = pick("row has a blank response (empty after trimming): it scores 0 under the seed protocols and is counted",
			"rows have a blank response (empty after trimming): they score 0 under the seed protocols and are counted") +
			" in the blank column, so missing output is not mistaken for a wrong answer"
	case CodeGoldenWhitespace:
		text = pick("golden answer has leading or trailing whitespace: exact_substring does not strip it",
			"golden answers have leading or trailing whitespace: exact_substring does not strip them") +
			", so a response without that whitespace can fail"
	case CodeNotNFC:
		text = pick("row contains", "rows contain") + " text not in Unicode NFC: the same Indic word in NFC and NFD compares unequal; " +
			advise(code, advice)
	case CodeGenerationFailed:
		text = pick("row has", "rows have") + " no response because generating it failed (the " + ErrorColumn + " column says why): " +
			pick("it is", "they are") + " left out of every figure; running evalbook generate again asks only for " + pick("it", "them")
	case CodeRepairedUTF8:
		text = pick("row had its", "rows had their") + " invalid UTF-8 replaced by U+FFFD"
	case CodeFormulaCells:
		// Where the cells went depends on where the verdicts went (a
		// file, standard output, or only a report's rows): the caller
		// that knows says so through advice.
		where, ok := advice[code]
		if !ok {
			where = pick("was", "were") + " written to the verdict file with a leading ' (--raw-csv writes them as they came)"
		}
		text = pick("cell", "cells") + " that a spreadsheet would run as a formula (leading = + - @ tab or CR) " + where
	case CodeBadReferences:
		text = pick("row has a references cell", "rows have a references cell") + " that is not a JSON array of strings (or holds no reference): " +
			pick("it is", "they are") + " scored against the golden answer alone; write [\"first\", \"second\"], or name the separator (--ref-sep)"
	default:
		text = code
	}
	return fmt.Sprintf("%d %s", count, text)
}

// joinAnd joins names as "a", "a and b", "a, b and c".
func joinAnd(s []string) string {
	if len(s) <= 2 {
		return strings.Join(s, " and ")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func (e *engine) result() (*results.Score, error) {
	if e.combined.n == 0 {
		return nil, &ParseError{File: e.file, Err: ErrNoRows}
	}
	o := e.opt
	res := &results.Score{
		Kind: "score",
		Settings: results.Settings{
			Normalize: o.Profile.String(), By: o.By, CI: o.CI, Confidence: o.Confidence, Seed: o.Seed, Cluster: o.Cluster,
		},
		Groups:    []results.Group{},
		Agreement: []results.Agreement{},
		Warnings:  []results.Warning{},
	}
	if o.CI == "bootstrap" || o.CI == "bca" {
		res.Settings.Resamples = o.Resamples
	}
	res.Settings.LanguageSource = e.languageSource()
	for _, m := range e.metrics {
		res.Settings.Metrics = append(res.Settings.Metrics, m.ID)
		res.Metrics = append(res.Metrics, results.MetricDef{ID: m.ID, Name: m.Name, Graded: m.Graded, Rule: m.Rule,
			FalsePositives: m.FalsePositives, FalseNegatives: m.FalseNegatives, Blank: m.Blank, Source: m.Source})
	}
	var ivWarn results.IntervalWarnings
	res.Combined = e.group("", "", e.combined, &ivWarn)
	for g, m := range e.groups {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			res.Groups = append(res.Groups, e.group(e.lay.byNames[g], k, m[k], &ivWarn))
		}
	}
	for p, pr := range e.pairs {
		a := results.Agreement{First: e.metrics[pr[0]].ID, Second: e.metrics[pr[1]].ID, Examples: map[string][]results.Example{}}
		c := e.combined.agree[p]
		a.Both, a.Neither, a.OnlyFirst, a.OnlySecond = c[0], c[1], c[2], c[3]
		for k, b := range results.Buckets {
			a.Examples[b.Name] = append([]results.Example{}, e.examples[p][k]...)
		}
		if len(e.groups) > 0 {
			m := e.groups[0]
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				c := m[k].agree[p]
				a.Groups = append(a.Groups, results.AgreementGroup{Group: k, Both: c[0], Neither: c[1], OnlyFirst: c[2], OnlySecond: c[3]})
			}
		}
		res.Agreement = append(res.Agreement, a)
	}
	if e.vw != nil && e.vw.cells > 0 {
		e.warn[CodeFormulaCells] = &results.Warning{Code: CodeFormulaCells, Count: e.vw.cells, Lines: e.vw.lines}
	}
	for _, code := range warningOrder {
		w := e.warn[code]
		if w == nil || w.Count == 0 {
			continue
		}
		w.Message = WarningMessage(code, w.Count, e.metrics, o.Advice)
		res.Warnings = append(res.Warnings, *w)
	}
	if w := e.dups.warning(); w != nil {
		res.Warnings = append(res.Warnings, *w)
	}
	if w := e.warn[results.CodeBidiControls]; w != nil && w.Count > 0 {
		res.Warnings = append(res.Warnings, results.BidiRowsWarning(w.Count, w.Lines, "the response"))
	}
	res.Warnings = append(res.Warnings, ivWarn.Warnings("", "")...)
	return res, nil
}

// group computes the figures of one group; the warnings of its intervals
// go to ivWarn, by metric.
func (e *engine) group(by, name string, a *acc, ivWarn *results.IntervalWarnings) results.Group {
	o := e.opt
	g := results.Group{By: by, Group: name, N: a.n, Blank: a.blank, EmptyGolden: a.emptyGolden, Metrics: map[string]results.MetricScore{}}
	for i, m := range e.metrics {
		s := results.MetricScore{Correct: a.sum[i]}
		if a.n > 0 {
			s.Accuracy = a.sum[i] / float64(a.n)
		}
		if m.Corpus != nil {
			// A corpus-level metric reports the corpus value, computed
			// from summed statistics; the mean of sentence values is kept
			// beside it for reference.
			s.SentenceMean = s.Accuracy
			s.Accuracy = m.Corpus.Final(a.csum[i])
			s.Level = "corpus"
			var iv stats.Interval
			switch o.CI {
			case "bootstrap":
				iv = stats.BootstrapStatistic(a.crows[i], m.Corpus.NStats, m.Corpus.Final, o.Resamples, o.Confidence, o.Seed)
			case "bca":
				iv = stats.BootstrapStatisticBCa(a.crows[i], m.Corpus.NStats, m.Corpus.Final, o.Resamples, o.Confidence, o.Seed)
			default:
				iv = stats.Interval{Lo: s.Accuracy, Hi: s.Accuracy}
				if o.CI != "none" {
					iv.Warnings = []stats.Warning{{Code: CodeNoInterval,
						Message: "a corpus-level metric has no Wilson interval; " + advise(CodeNoInterval, o.Advice)}}
				}
			}
			s.CILow, s.CIHigh = iv.Lo, iv.Hi
			ivWarn.Add(m.ID, iv.Warnings)
			g.Metrics[m.ID] = s
			continue
		}
		if m.ID == "word_overlap" {
			s.MatchingWords, s.GoldenWords = a.matching[i], a.golden[i]
		}
		var iv stats.Interval
		switch {
		case o.CI == "none":
			iv = stats.Interval{Lo: s.Accuracy, Hi: s.Accuracy}
		case o.Cluster != "" && o.CI == "bootstrap":
			iv = stats.ClusterBootstrapInterval(a.values[i], a.clusters, o.Resamples, o.Confidence, o.Seed)
		case o.Cluster != "":
			est := stats.ClusterProportionEstimate(a.values[i], a.clusters, o.Confidence)
			iv, s.SE = est.Interval, est.SE
			g.Clusters = est.Clusters
		case o.CI == "bca" && m.Graded:
			iv = stats.BootstrapBCaMean(a.values[i], o.Resamples, o.Confidence, o.Seed)
		case o.CI == "bca":
			iv = stats.BootstrapBCaProportion(int(a.sum[i]+0.5), a.n, o.Resamples, o.Confidence, o.Seed)
		case o.CI == "bootstrap" && m.Graded:
			iv = stats.BootstrapMeanInterval(a.values[i], o.Resamples, o.Confidence, o.Seed)
		case o.CI == "bootstrap":
			iv = stats.BootstrapProportionInterval(int(a.sum[i]+0.5), a.n, o.Resamples, o.Confidence, o.Seed)
		case m.Graded:
			// Wilson and the exact intervals are for counts: a graded
			// mean gets the normal interval mean ∓ z·sd/√n from its sum
			// of squares.
			iv = stats.UnitMeanInterval(a.sum[i], a.sumsq[i], a.n, o.Confidence)
		default:
			iv = stats.ProportionInterval(o.CI, int(a.sum[i]), a.n, o.Confidence)
		}
		s.CILow, s.CIHigh = iv.Lo, iv.Hi
		ivWarn.Add(m.ID, iv.Warnings)
		g.Metrics[m.ID] = s
	}
	if o.Cluster != "" && g.Clusters == 0 {
		g.Clusters = countDistinct(a.clusters)
	}
	return g
}

func countDistinct(s []string) int {
	seen := map[string]bool{}
	for _, x := range s {
		seen[x] = true
	}
	return len(seen)
}

// languageSource says where the language of a row came from, when a
// grouping uses the language: the column, the file name, or the script of
// the golden answer (a guess: Devanagari is taken as Hindi, the Bengali
// script as Bengali, Latin as English).
func (e *engine) languageSource() string {
	if e.lay.language >= 0 {
		for _, cols := range e.lay.byCols {
			for _, c := range cols {
				if c == e.lay.language {
					return "column"
				}
			}
		}
		return ""
	}
	for _, cols := range e.lay.byCols {
		for _, c := range cols {
			if c == virtualLanguage {
				if e.fileLanguage != "" {
					return "file name"
				}
				return "script of the golden answer (a guess: Devanagari is read as Hindi, Bengali script as Bengali, Latin as English)"
			}
		}
	}
	return ""
}
