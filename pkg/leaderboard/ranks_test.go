package leaderboard

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
)

// rankBoard: in hindi (20 questions) a passes all, b all but q00, c only
// q01-q05; in english all three pass the same 10 of 20.
func rankBoard(t *testing.T, opt Options) *Board {
	t.Helper()
	dir := t.TempDir()
	writeRows(t, dir, "a_hindi.csv", 20, hindiAnswer, func(int) bool { return true }, "")
	writeRows(t, dir, "b_hindi.csv", 20, hindiAnswer, func(i int) bool { return i != 0 }, "")
	writeRows(t, dir, "c_hindi.csv", 20, hindiAnswer, func(i int) bool { return i >= 1 && i <= 5 }, "")
	for _, m := range []string{"a", "b", "c"} {
		writeRows(t, dir, m+"_english.csv", 20, englishAnswer, func(i int) bool { return i < 10 }, "")
	}
	in, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(context.Background(), in, opt)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func cellOf(t *testing.T, b *Board, model, lang string) Cell {
	t.Helper()
	c, ok := b.cell(model, lang)
	if !ok {
		t.Fatalf("no cell %s/%s", model, lang)
	}
	return c
}

// Ranks, intervals and tiers by hand (hindi):
//   - values a 1, b 0.95, c 0.25: ranks 1, 2, 3.
//   - a ≥ b ≥ c on every question, so no replicate puts b above a or c
//     above b: a is [1, 1]. b ties a exactly when q00 is not drawn,
//     (19/20)^20 = 0.358 of replicates, so b is [1, 2]. c is below b
//     unless none of the 14 questions where they differ is drawn
//     ((6/20)^20 ≈ 3·10⁻¹¹): [3, 3].
//   - tiers: a against b: 1 better, 0 worse, p = 1; a against c: 15
//     better, 0 worse, p = 2·2⁻¹⁵ = 6.1035e-5. Holm over two: c's p ×2 =
//     1.2207e-4 < 0.05, separable; b's max(1.2207e-4, 1) = 1. Tier 1 =
//     {a, b}; round 2 has only c: tier 2.
//
// In english all three are equal: rank 1 each, [1, 1], one tier.
func TestRanksAndTiersByHand(t *testing.T) {
	b := rankBoard(t, Options{Seed: 2})
	want := map[string][4]int{"a": {1, 1, 1, 1}, "b": {2, 1, 2, 1}, "c": {3, 3, 3, 2}}
	for m, w := range want {
		c := cellOf(t, b, m, "hindi")
		if got := [4]int{c.Rank, c.RankLow, c.RankHigh, c.Tier}; got != w {
			t.Errorf("hindi %s: rank, low, high, tier = %v, want %v", m, got, w)
		}
		e := cellOf(t, b, m, "english")
		if got := [4]int{e.Rank, e.RankLow, e.RankHigh, e.Tier}; got != [4]int{1, 1, 1, 1} {
			t.Errorf("english %s: %v, want [1 1 1 1]", m, got)
		}
	}
	var hindi []TierTest
	for _, tt := range b.TierTests {
		if tt.Language == "hindi" {
			hindi = append(hindi, tt)
		}
	}
	if len(hindi) != 2 {
		t.Fatalf("hindi tier tests %+v", hindi)
	}
	tb, tc := hindi[0], hindi[1]
	if tb.Model != "b" || tb.Better != 1 || tb.Worse != 0 || tb.P != 1 || tb.PAdjusted != 1 || tb.Separable {
		t.Errorf("a vs b: %+v", tb)
	}
	if tc.Model != "c" || tc.Better != 15 || math.Abs(tc.P-6.103515625e-5) > 1e-15 || math.Abs(tc.PAdjusted-1.220703125e-4) > 1e-15 || !tc.Separable {
		t.Errorf("a vs c: %+v", tc)
	}
	if s := b.Settings; s.RankResamples != stats.DefaultRankResamples || s.TierCorrection != "holm" || s.RankTies != stats.RankTieRule {
		t.Errorf("settings %+v", s)
	}
}

// The noise of the hindi slice is the ideal bootstrap standard error of
// each value, pooled: a 0, b √(0.95·0.05/20) = 0.048734,
// c √(0.25·0.75/20) = 0.096825; noise √((0 + 0.002375 + 0.009375)/3) =
// 0.062583. The signal is sd(1, 0.95, 0.25) = √(0.351667/2) = 0.419325.
// 2000 replicates estimate the noise to about 2%. English has no signal:
// it is named in a low_snr_slice warning.
func TestSNRByHand(t *testing.T) {
	b := rankBoard(t, Options{Seed: 4, RankResamples: 2000})
	var hindi, english *SliceSNR
	for i := range b.SNR {
		s := &b.SNR[i]
		if s.Whole && s.Language == "hindi" {
			hindi = s
		}
		if s.Whole && s.Language == "english" {
			english = s
		}
	}
	if hindi == nil || english == nil {
		t.Fatalf("no whole-language slices: %+v", b.SNR)
	}
	if math.Abs(hindi.Signal-0.419325) > 1e-6 || math.Abs(hindi.Noise-0.062583) > 0.05*0.062583 || hindi.SNR == nil || hindi.Low || hindi.Items != 20 {
		t.Errorf("hindi %+v", *hindi)
	}
	if english.Signal != 0 || !english.Low {
		t.Errorf("english %+v", *english)
	}
	var warned bool
	for _, w := range b.Warnings {
		if w.Code == CodeLowSNR {
			warned = true
			if w.Count < 1 || !strings.Contains(w.Message, "english") || strings.Contains(w.Message, "hindi,") {
				t.Errorf("warning %+v", w)
			}
		}
	}
	if !warned {
		t.Errorf("no %s warning: %+v", CodeLowSNR, b.Warnings)
	}
	// Domain slices (D1, D2) are there too.
	domains := 0
	for _, s := range b.SNR {
		if !s.Whole {
			domains++
		}
	}
	if domains != 4 {
		t.Errorf("%d domain slices, want 4 (2 languages × D1, D2)", domains)
	}
}

// With the rank bootstrap off, tiers are still formed (they need no
// resampling), and there are no rank intervals and no SNR; the BH
// correction is recorded.
func TestRanksOff(t *testing.T) {
	b := rankBoard(t, Options{RankResamples: -1, TierCorrection: stats.CorrectionBH})
	c := cellOf(t, b, "c", "hindi")
	if c.Tier != 2 || c.Rank != 3 || c.RankLow != 0 || c.RankHigh != 0 || len(b.SNR) != 0 || b.Settings.RankResamples != 0 || b.Settings.TierCorrection != "bh" {
		t.Errorf("cell %+v, %d SNR slices, settings %+v", c, len(b.SNR), b.Settings)
	}
	if _, err := Build(context.Background(), []Input{{Path: filepath.Join(t.TempDir(), "x.csv")}}, Options{TierCorrection: "bonferroni"}); err == nil || !strings.Contains(err.Error(), "bonferroni") {
		t.Errorf("unknown correction: %v", err)
	}
}

// The bootstrap's scorer on every item once gives the cell's value, for a
// row metric and a corpus metric (chrF) alike, duplicates included.
func TestSliceBootIsTheCell(t *testing.T) {
	for _, id := range []string{"exact_substring", "chrf"} {
		m, err := score.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		b := &Board{}
		q1, q2, q3 := b.id("q1"), b.id("q2"), b.id("q3")
		rows := [][]row{
			{{key: q1, value: 1}, {key: q2, value: 0}, {key: q2, value: 1}},
			{{key: q2, value: 1}, {key: q3, value: 0}},
		}
		if m.Corpus != nil {
			for _, rs := range rows {
				for i := range rs {
					cs := m.Corpus.New()
					b.corpus = append(b.corpus, cs.AppendStats(nil, "नदी किनारे", map[bool]string{true: "नदी किनारे", false: "नदी"}[rs[i].value == 1]))
					rs[i].st = int32(len(b.corpus))
				}
			}
		}
		sets := make([]*rowSet, len(rows))
		for i, rs := range rows {
			sets[i] = &rowSet{}
			for _, r := range rs {
				sets[i].add(r)
			}
		}
		sb := b.newSliceBoot(sets, m.Corpus)
		if len(sb.keys) != 3 {
			t.Fatalf("keys %v", sb.keys)
		}
		ones := []int32{1, 1, 1}
		for i, rs := range sets {
			want, _ := b.aggregate(rs, m, Options{Confidence: 0.95})
			if got := sb.score(i, ones); math.Abs(got-want) > 1e-12 {
				t.Errorf("%s model %d: scorer %v, cell %v", id, i, got, want)
			}
		}
		if got := sb.score(1, []int32{3, 0, 0}); !math.IsNaN(got) {
			t.Errorf("%s: a replicate without the model's items scores %v, want NaN", id, got)
		}
	}
}

// Tables carry the ranks and tiers (cells table), the tier tests and the
// signal-to-noise slices, so the workbook and the page show them.
func TestRankTables(t *testing.T) {
	b := rankBoard(t, Options{Seed: 2})
	ts := b.Tables()
	if len(ts) != 5 || ts[3].Title != "Tiers" || ts[4].Title != "Signal to noise" {
		t.Fatalf("%d tables", len(ts))
	}
	cells := ts[0]
	col := map[string]int{}
	for i, c := range cells.Columns {
		col[c.Name] = i
	}
	for _, name := range []string{"rank", "rank_low", "rank_high", "tier"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("cells table lacks %s: %+v", name, cells.Columns)
		}
	}
	for _, r := range cells.Rows {
		if r[col["language"]] == "hindi" && r[col["model"]] == "b" {
			if got := []string{r[col["rank"]], r[col["rank_low"]], r[col["rank_high"]], r[col["tier"]]}; strings.Join(got, ",") != "2,1,2,1" {
				t.Errorf("hindi b: %v, want 2,1,2,1", got)
			}
		}
	}
	for _, tb := range ts[3:] { // separable, low: flags as "yes"/"no"
		last := len(tb.Columns) - 1
		for _, r := range tb.Rows {
			if r[last] != "yes" && r[last] != "no" {
				t.Errorf("%s: %s %q, want yes or no", tb.Title, tb.Columns[last].Name, r[last])
			}
		}
	}
	if len(ts[3].Rows) != len(b.TierTests) || len(ts[4].Rows) != len(b.SNR) {
		t.Errorf("tier rows %d (tests %d), snr rows %d (slices %d)", len(ts[3].Rows), len(b.TierTests), len(ts[4].Rows), len(b.SNR))
	}
}
