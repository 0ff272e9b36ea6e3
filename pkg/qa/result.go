package qa

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
)

var warningOrder = []string{"empty_golden", "blank_response", "golden_whitespace", "not_nfc", "repaired_utf8"}

// WarningMessage is the sentence that explains the warning code for
// count rows (singular or plural to match), scored under metrics: the
// empty-golden warning names only those of the metrics that score an
// empty golden answer correct against any response (found by asking
// each), and says nothing about the others.
func WarningMessage(code string, count int, metrics []*score.Metric) string {
	one := count == 1
	pick := func(singular, plural string) string {
		if one {
			return singular
		}
		return plural
	}
	var text string
	switch code {
	case "empty_golden":
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
	case "blank_response":
		text = pick("row has a blank response (empty after trimming): it scores 0 under the seed protocols and is counted",
			"rows have a blank response (empty after trimming): they score 0 under the seed protocols and are counted") +
			" in the blank column, so missing output is not mistaken for a wrong answer"
	case "golden_whitespace":
		text = pick("golden answer has leading or trailing whitespace: exact_substring does not strip it",
			"golden answers have leading or trailing whitespace: exact_substring does not strip them") +
			", so a response without that whitespace can fail"
	case "not_nfc":
		text = pick("row contains", "rows contain") + " text not in Unicode NFC: the same Indic word in NFC and NFD compares unequal; " +
			"consider normalising both sides to NFC (the nfc or indic profile)"
	case "repaired_utf8":
		text = pick("row had its", "rows had their") + " invalid UTF-8 replaced by U+FFFD"
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
	if o.CI == "bootstrap" {
		res.Settings.Resamples = o.Resamples
	}
	res.Settings.LanguageSource = e.languageSource()
	for _, m := range e.metrics {
		res.Settings.Metrics = append(res.Settings.Metrics, m.ID)
		res.Metrics = append(res.Metrics, results.MetricDef{ID: m.ID, Name: m.Name, Graded: m.Graded, Rule: m.Rule,
			FalsePositives: m.FalsePositives, FalseNegatives: m.FalseNegatives, Blank: m.Blank, Source: m.Source})
	}
	ivWarn := map[string]int{}
	res.Combined = e.group("", "", e.combined, ivWarn)
	for g, m := range e.groups {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			res.Groups = append(res.Groups, e.group(e.lay.byNames[g], k, m[k], ivWarn))
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
	for _, code := range warningOrder {
		w := e.warn[code]
		if w == nil || w.Count == 0 {
			continue
		}
		w.Message = WarningMessage(code, w.Count, e.metrics)
		res.Warnings = append(res.Warnings, *w)
	}
	msgs := make([]string, 0, len(ivWarn))
	for m := range ivWarn {
		msgs = append(msgs, m)
	}
	sort.Strings(msgs)
	for _, m := range msgs {
		res.Warnings = append(res.Warnings, results.Warning{Code: "interval", Message: m, Count: ivWarn[m]})
	}
	return res, nil
}

func (e *engine) group(by, name string, a *acc, ivWarn map[string]int) results.Group {
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
			if o.CI == "bootstrap" {
				iv = corpusBootstrap(m.Corpus, a.crows[i], o.Resamples, o.Confidence, o.Seed)
			} else {
				iv = stats.Interval{Lo: s.Accuracy, Hi: s.Accuracy}
				if o.CI != "none" {
					iv.Warnings = []string{"a corpus-level metric has no Wilson interval; ask for a bootstrap interval"}
				}
			}
			s.CILow, s.CIHigh = iv.Lo, iv.Hi
			for _, w := range iv.Warnings {
				ivWarn[m.ID+": "+w]++
			}
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
		case o.CI == "bootstrap" && m.Graded:
			iv = stats.BootstrapMeanInterval(a.values[i], o.Resamples, o.Confidence, o.Seed)
		case o.CI == "bootstrap":
			iv = stats.BootstrapProportionInterval(int(a.sum[i]+0.5), a.n, o.Resamples, o.Confidence, o.Seed)
		case m.Graded:
			// Wilson is for counts: a graded mean gets the normal
			// interval mean ∓ z·sd/√n from its sum of squares.
			iv = normalInterval(a.sum[i], a.sumsq[i], a.n, o.Confidence)
		default:
			iv = stats.WilsonInterval(int(a.sum[i]), a.n, o.Confidence)
		}
		s.CILow, s.CIHigh = iv.Lo, iv.Hi
		for _, w := range iv.Warnings {
			ivWarn[m.ID+": "+w]++
		}
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

// normalInterval is the interval of a graded metric's mean, from the
// sum and sum of squares of its values in [0, 1] (stats.UnitMeanInterval):
//
//	mean ∓ z·sd/√n,  sd² = (Σx² − n·mean²)/(n − 1),
//
// clipped to [0, 1], when sd² > 0; when every value is equal (sd² = 0)
// or there is one row, the Wilson interval of the mean with n, which is
// as wide as a variance of mean·(1 − mean), the most a value in [0, 1]
// can have (Bhatia–Davis). Values that are nearly but not exactly equal
// keep the normal interval, which can then be far too narrow (four rows
// 0.667, 0.667, 0.667, 0.75 give 68.8% [64.7, 72.8]), so it warns when
// the interval rests on fewer than 30 rows or on a sample variance below
// stats.NearZeroVariance of mean·(1 − mean), and suggests a bootstrap
// interval or more rows.
func normalInterval(sum, sumsq float64, n int, confidence float64) stats.Interval {
	if n == 0 {
		return stats.Interval{Confidence: confidence, Method: "normal", Warnings: []string{"no rows: no interval"}}
	}
	iv := stats.UnitMeanInterval(sum, sumsq, n, confidence)
	if iv.Method != "normal" {
		return iv
	}
	iv.Warnings = nil
	if n < 30 {
		iv.Warnings = append(iv.Warnings, "fewer than 30 rows: the normal interval of a graded metric is rough and may be far too narrow; prefer a bootstrap interval or more rows")
	}
	m := sum / float64(n)
	if s2 := (sumsq - float64(n)*m*m) / float64(n-1); s2 < stats.NearZeroVariance*m*(1-m) {
		iv.Warnings = append(iv.Warnings, "the rows' values hardly vary (a near-zero sample variance): the interval may be far too narrow; prefer a bootstrap interval or more rows")
	}
	return iv
}

// corpusBootstrap is the percentile bootstrap of a corpus-level metric:
// each resample draws len(rows) rows with replacement, sums their
// statistics and computes the corpus value. rows holds each row's
// NStats statistics back to back, in file order.
func corpusBootstrap(def *score.CorpusDef, rows []float64, resamples int, confidence float64, seed uint64) stats.Interval {
	k := def.NStats
	n := len(rows) / k
	iv := stats.Interval{Confidence: confidence, Method: "bootstrap"}
	if n == 0 {
		iv.Warnings = []string{"no rows: no interval"}
		return iv
	}
	rng := rand.New(rand.NewPCG(seed, 0x636f72707573)) // "corpus"
	vals := make([]float64, resamples)
	sum := make([]float64, k)
	for r := range vals {
		clear(sum)
		for i := 0; i < n; i++ {
			row := rows[rng.IntN(n)*k:]
			for j := 0; j < k; j++ {
				sum[j] += row[j]
			}
		}
		vals[r] = def.Final(sum)
	}
	sort.Float64s(vals)
	alpha := (1 - confidence) / 2
	iv.Lo, iv.Hi = stats.Percentile(vals, alpha), stats.Percentile(vals, 1-alpha)
	if n < 30 {
		iv.Warnings = []string{"fewer than 30 rows: a bootstrap interval of a corpus metric is unreliable"}
	}
	return iv
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
