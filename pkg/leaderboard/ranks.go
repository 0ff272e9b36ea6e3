package leaderboard

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
)

// Codes of the warnings a Board carries (with qa's, for the rows of its
// files, and stats', for its intervals).
const (
	// CodeLowSNR names the slices whose signal-to-noise ratio is below
	// stats.LowSNR.
	CodeLowSNR = "low_snr_slice"
	// CodeManyTests: several languages are each tested for a leader at α,
	// so some false leaders are expected (Count: the languages).
	CodeManyTests = "many_tests"
	// CodeMerged: a model and language came from more than one file and
	// their rows were pooled (Count: the files).
	CodeMerged = "merged"
	// CodeLanguageDisagrees: rows whose language column differs from the
	// language of their file name.
	CodeLanguageDisagrees = "language_disagrees"
	// CodeLanguageGuessed: rows with no language, placed by their golden
	// answer's script.
	CodeLanguageGuessed = "language_guessed"
	// CodeLanguageUnknown: rows with no language and a golden answer in no
	// recognised script.
	CodeLanguageUnknown = "language_unknown"
	// CodeDuplicateQuestion: a question id repeated within one model and
	// language.
	CodeDuplicateQuestion = "duplicate_question"
)

// TierTest is one paired test of the tiers: a model against the best
// model left in its round, on the questions both answered.
type TierTest struct {
	Language string `json:"language"`
	Tier     int    `json:"tier"` // the round: the tier of Best
	Best     string `json:"best"`
	Model    string `json:"model"`
	Shared   int    `json:"shared"`
	Better   int    `json:"better"` // questions where Best scored higher
	Worse    int    `json:"worse"`
	// P is the two-sided sign test's p-value; PAdjusted corrects it over
	// the round's tests (Settings.TierCorrection).
	P         float64 `json:"p"`
	PAdjusted float64 `json:"p_adjusted"`
	// Separable: PAdjusted < α and Best ahead; Model is placed in a lower
	// tier.
	Separable bool `json:"separable"`
}

// SliceSNR is the signal-to-noise ratio of one slice: a language, or a
// domain within a language.
type SliceSNR struct {
	Language string `json:"language"`
	// Domain is the domain, or empty with Whole set for the whole
	// language.
	Domain string `json:"domain"`
	Whole  bool   `json:"whole_language"`
	Models int    `json:"models"`
	Items  int    `json:"questions"` // distinct questions any model answered
	// Signal is the standard deviation of the models' values, Noise the
	// pooled bootstrap standard deviation of one model's value (root mean
	// square over the models), SNR their ratio (null when Noise is 0).
	Signal float64  `json:"signal"`
	Noise  float64  `json:"noise"`
	SNR    *float64 `json:"snr"`
	Low    bool     `json:"low"`
}

// label is how text and warnings name the slice.
func (s SliceSNR) label() string {
	if s.Whole {
		return s.Language
	}
	return s.Language + "/" + results.GroupLabel(s.Domain)
}

// rankResamples is the number of replicates of the rank bootstrap, 0
// when it is off (Options.RankResamples): by default Resamples, else
// stats.DefaultRankResamples for a row-level metric, and off for a
// corpus-level one, whose replicates recompute the corpus statistic and
// cost as much as the cells' own bootstrap, which is off by default too.
func rankResamples(opt Options, m *score.Metric) int {
	switch {
	case opt.RankResamples < 0:
		return 0
	case opt.RankResamples > 0:
		return opt.RankResamples
	case opt.Resamples > 0:
		return opt.Resamples
	case m.Corpus != nil:
		return 0
	}
	return stats.DefaultRankResamples
}

// sliceBoot is a slice's items as the rank bootstrap resamples them:
// the distinct question keys any model answered, and for every model
// its value sum and row count per item (rows sharing a key are one
// item), or its summed corpus statistics per item.
type sliceBoot struct {
	keys  []string
	sums  [][]float64 // [model][item]
	cnts  [][]float64 // [model][item]; nil for a model of a row-level metric with one row on every item (full)
	stats [][]float64 // [model][item*k + s], corpus metrics
	def   *score.CorpusDef
	full  []bool // the model has exactly one row on every item
	// mult, when set, groups the items: column i of sums and cnts stands
	// for mult[i] items with those figures for every model (row-level
	// metrics, whose few models' verdicts repeat); total is the number of
	// items.
	mult  []int
	total int
}

func (b *Board) newSliceBoot(rows []*rowSet, def *score.CorpusDef) *sliceBoot {
	idx := map[uint32]int{}
	for _, rs := range rows {
		for _, k := range rs.keys {
			idx[k] = 0
		}
	}
	sb := &sliceBoot{def: def}
	ids := make([]uint32, 0, len(idx))
	for k := range idx {
		ids = append(ids, k)
	}
	sort.Slice(ids, func(i, j int) bool { return b.name(ids[i]) < b.name(ids[j]) }) // the items in the order of their keys
	for i, k := range ids {
		sb.keys = append(sb.keys, b.name(k))
		idx[k] = i
	}
	n := len(sb.keys)
	for _, rs := range rows {
		s, c := make([]float64, n), make([]float64, n)
		var st []float64
		if def != nil {
			st = make([]float64, n*def.NStats)
		}
		for x := range rs.len() {
			r := rs.at(x)
			i := idx[r.key]
			s[i] += r.value
			c[i]++
			for j, v := range b.rowStats(&r) {
				st[i*def.NStats+j] += v
			}
		}
		full := true
		for _, x := range c {
			if x != 1 {
				full = false
				break
			}
		}
		if full && def == nil {
			c = nil // every count is 1
		}
		sb.sums, sb.cnts, sb.stats, sb.full = append(sb.sums, s), append(sb.cnts, c), append(sb.stats, st), append(sb.full, full)
	}
	sb.total = n
	if def == nil {
		sb.group()
	}
	return sb
}

// cnt is model m's row count on item i.
func (sb *sliceBoot) cnt(m, i int) float64 {
	if sb.cnts[m] == nil {
		return 1
	}
	return sb.cnts[m][i]
}

// group merges the items whose sum and count agree for every model, when
// that at least halves their number (stats.RankOptions.Multiplicity).
// Items are found alike through a hash of their figures and then
// compared figure by figure, so two items are merged only when equal.
func (sb *sliceBoot) group() {
	n := sb.total
	models := len(sb.sums)
	same := func(i, j int) bool {
		for m := range models {
			if math.Float64bits(sb.sums[m][i]) != math.Float64bits(sb.sums[m][j]) ||
				math.Float64bits(sb.cnt(m, i)) != math.Float64bits(sb.cnt(m, j)) {
				return false
			}
		}
		return true
	}
	var h maphash.Hash
	h.SetSeed(groupSeed)
	var buf [16]byte
	head := map[uint64]int32{} // hash -> 1 + the newest group with it
	var first, mult []int
	var next []int32 // group -> 1 + the previous group with its hash
	for i := range n {
		h.Reset()
		for m := range models {
			binary.LittleEndian.PutUint64(buf[:8], math.Float64bits(sb.sums[m][i]))
			binary.LittleEndian.PutUint64(buf[8:], math.Float64bits(sb.cnt(m, i)))
			h.Write(buf[:])
		}
		k := h.Sum64()
		g := -1
		for at := head[k]; at != 0; at = next[at-1] {
			if same(first[at-1], i) {
				g = int(at - 1)
				break
			}
		}
		if g < 0 {
			if len(first) >= n/2 {
				return
			}
			g = len(first)
			next = append(next, head[k])
			head[k] = int32(g + 1)
			first = append(first, i)
			mult = append(mult, 0)
		}
		mult[g]++
	}
	for m := range sb.sums {
		s, c := make([]float64, len(first)), make([]float64, len(first))
		for g, i := range first {
			s[g], c[g] = sb.sums[m][i], sb.cnt(m, i)
		}
		sb.sums[m], sb.cnts[m] = s, c
		if sb.full[m] {
			sb.cnts[m] = nil
		}
	}
	sb.mult = mult
}

// groupSeed seeds the hash group uses: any seed groups alike.
var groupSeed = maphash.MakeSeed()

// score is the model's value on a replicate (stats.ItemScorer).
func (sb *sliceBoot) score(m int, w []int32) float64 {
	if sb.def != nil {
		k := sb.def.NStats
		sums := make([]float64, k)
		st, c := sb.stats[m], sb.cnts[m]
		any := false
		for i, wi := range w {
			if wi == 0 || c[i] == 0 {
				continue
			}
			any = true
			f := float64(wi)
			for j, v := range st[i*k : (i+1)*k] {
				sums[j] += f * v
			}
		}
		if !any {
			return math.NaN()
		}
		return sb.def.Final(sums)
	}
	s := sb.sums[m]
	if sb.full[m] {
		t := 0.0
		for i, wi := range w {
			t += float64(wi) * s[i]
		}
		return t / float64(sb.total)
	}
	c := sb.cnts[m]
	t, d := 0.0, 0.0
	for i, wi := range w {
		if wi != 0 && c[i] != 0 {
			t += float64(wi) * s[i]
			d += float64(wi) * c[i]
		}
	}
	return t / d
}

// bootstrap runs the paired rank bootstrap of the slice's models.
func (sb *sliceBoot) bootstrap(point []float64, opt Options, m *score.Metric) stats.RankResult {
	return stats.RankBootstrap(point, len(sb.sums[0]), sb.score, stats.RankOptions{Resamples: rankResamples(opt, m),
		Confidence: opt.Confidence, Seed: opt.Seed, Multiplicity: sb.mult})
}

// rankLanguage gives the cells of one language (cs, in model order)
// their rank, rank interval and tier, and the language its tier tests
// and signal-to-noise ratio.
func (b *Board) rankLanguage(lang string, cs []Cell, cells map[string]map[string]*rowSet, m *score.Metric, opt Options) {
	point := make([]float64, len(cs))
	rows := make([]*rowSet, len(cs))
	for i, c := range cs {
		point[i] = c.Value
		rows[i] = cells[c.Model][lang]
	}
	ranks := make([]int, len(cs))
	competition(point, ranks)
	for i := range cs {
		cs[i].Rank = ranks[i]
	}
	// Tiers from the paired sign test, as the leader's.
	type pair struct{ better, worse, shared int }
	done := map[[2]int]pair{}
	test := func(best, other int) (float64, bool) {
		a, c := byKey(rows[best]), byKey(rows[other])
		var p pair
		for k, va := range a {
			vc, ok := c[k]
			if !ok {
				continue
			}
			p.shared++
			switch {
			case va > vc:
				p.better++
			case va < vc:
				p.worse++
			}
		}
		done[[2]int{best, other}] = p
		return stats.SignTest(p.better, p.worse), p.better > p.worse
	}
	tier, tests := stats.Tiers(point, test, opt.Alpha, b.Settings.TierCorrection)
	for i := range cs {
		cs[i].Tier = tier[i]
	}
	for _, t := range tests {
		p := done[[2]int{t.Best, t.Other}]
		b.TierTests = append(b.TierTests, TierTest{Language: lang, Tier: t.Tier, Best: cs[t.Best].Model, Model: cs[t.Other].Model,
			Shared: p.shared, Better: p.better, Worse: p.worse, P: t.P, PAdjusted: t.PAdjusted, Separable: t.Separable})
	}
	if rankResamples(opt, m) == 0 {
		return
	}
	if len(cs) == 1 {
		cs[0].RankLow, cs[0].RankHigh = 1, 1 // nothing to rank against
		return
	}
	sb := b.newSliceBoot(rows, m.Corpus)
	res := sb.bootstrap(point, opt, m)
	se := make([]float64, len(cs))
	for i, r := range res.Ranks {
		cs[i].RankLow, cs[i].RankHigh = r.Lo, r.Hi
		se[i] = r.SE
	}
	b.rankWarn.Add("", res.Warnings)
	b.addSNR(SliceSNR{Language: lang, Whole: true, Items: len(sb.keys)}, point, se)
}

// domainSNR adds the signal-to-noise ratio of every domain of every
// language with two or more models.
func (b *Board) domainSNR(cells map[string]map[string]*rowSet, m *score.Metric, opt Options) {
	if rankResamples(opt, m) == 0 {
		return
	}
	type dl struct{ lang, domain string }
	var order []dl
	seen := map[dl]bool{}
	for _, d := range b.Domains {
		k := dl{d.Language, d.Domain}
		if !seen[k] {
			seen[k] = true
			order = append(order, k)
		}
	}
	sort.Slice(order, func(i, j int) bool {
		if order[i].lang != order[j].lang {
			return order[i].lang < order[j].lang
		}
		return order[i].domain < order[j].domain
	})
	for _, k := range order {
		var rows []*rowSet
		var point []float64
		for _, model := range b.Models {
			rs := &rowSet{}
			all := cells[model][k.lang]
			for i := range all.len() {
				if b.name(all.domains[i]) == k.domain {
					rs.add(all.at(i))
				}
			}
			if rs.len() == 0 {
				continue
			}
			rows = append(rows, rs)
			v, _ := b.aggregate(rs, m, Options{Confidence: opt.Confidence})
			point = append(point, v)
		}
		if len(rows) < 2 {
			continue
		}
		sb := b.newSliceBoot(rows, m.Corpus)
		res := sb.bootstrap(point, opt, m)
		se := make([]float64, len(rows))
		for i, r := range res.Ranks {
			se[i] = r.SE
		}
		b.addSNR(SliceSNR{Language: k.lang, Domain: k.domain, Items: len(sb.keys)}, point, se)
	}
}

// addSNR fills s from the models' values and standard errors and adds
// it, when the slice has two or more models.
func (b *Board) addSNR(s SliceSNR, point, se []float64) {
	if len(point) < 2 {
		return
	}
	r := stats.SignalToNoise(point, se)
	s.Models, s.Signal, s.Noise, s.Low = len(point), r.Signal, r.Noise, r.Low
	if r.Defined {
		v := r.Ratio
		s.SNR = &v
	}
	b.SNR = append(b.SNR, s)
}

// snrWarning names the low signal-to-noise slices in one warning.
func (b *Board) snrWarning() {
	var low []string
	for _, s := range b.SNR {
		if s.Low {
			low = append(low, s.label())
		}
	}
	if len(low) == 0 {
		return
	}
	b.warn(CodeLowSNR, len(low), fmt.Sprintf("%s of %d %s a signal-to-noise ratio below %g (the spread of the models' values is "+
		"smaller than the noise of one value), so they cannot rank these models: %s", plural(len(low), "slice", "slices"), len(b.SNR),
		map[bool]string{true: "has", false: "have"}[len(low) == 1], stats.LowSNR, strings.Join(low, ", ")))
}

// competition ranks values by stats.RankTieRule.
func competition(v []float64, ranks []int) {
	for i, x := range v {
		r := 1
		for j, y := range v {
			if j != i && y > x {
				r++
			}
		}
		ranks[i] = r
	}
}
