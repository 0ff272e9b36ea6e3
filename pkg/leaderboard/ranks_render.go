package leaderboard

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/results"
)

// correctionName is how text names a tier correction.
func correctionName(c string) string {
	if c == "bh" {
		return "Benjamini-Hochberg"
	}
	return "Holm"
}

// byRank returns the cells of the board ordered by language, then rank,
// then model.
func (b *Board) byRank() []Cell {
	cs := append([]Cell(nil), b.Cells...)
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].Language != cs[j].Language {
			return cs[i].Language < cs[j].Language
		}
		if cs[i].Rank != cs[j].Rank {
			return cs[i].Rank < cs[j].Rank
		}
		return cs[i].Model < cs[j].Model
	})
	return cs
}

// tierTest returns the test that placed model in its tier (against the
// tier's best), if any.
func (b *Board) tierTest(lang, model string, tier int) (TierTest, bool) {
	for _, t := range b.TierTests {
		if t.Language == lang && t.Model == model && t.Tier == tier {
			return t, true
		}
	}
	return TierTest{}, false
}

// writeRanks writes the ranks and tiers section.
func (b *Board) writeRanks(s *strings.Builder) {
	if len(b.Cells) == 0 {
		return
	}
	one, _ := b.axisNouns()
	s.WriteString("\nRanks and tiers\n")
	if b.Settings.RankResamples > 0 {
		fmt.Fprintf(s, "rank: 1 + models with a higher value; interval: %.0f%% percentile interval of the rank over %d bootstrap\n"+
			"  replicates that resample the questions once for all models.\n", b.Settings.Confidence*100, b.Settings.RankResamples)
	} else {
		off := "the rank bootstrap is off"
		if b.Level == "corpus" {
			off += ";\n  for a corpus-level metric it runs only with resamples, as the cells' intervals do"
		}
		fmt.Fprintf(s, "rank: 1 + models with a higher value (no rank intervals: %s).\n", off)
	}
	fmt.Fprintf(s, "tier 1: the best model and every model a two-sided sign test (%s-corrected, α = %g) cannot separate\n"+
		"  from it; tier 2 the same among the rest, and so on. p: against the best of the model's tier.\n",
		correctionName(b.Settings.TierCorrection), b.Settings.Alpha)
	tw := tabwriter.NewWriter(s, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, one+"\tmodel\tvalue\trank\trank interval\ttier\tvs\tp\tp adjusted")
	for _, c := range b.byRank() {
		iv := "-"
		if c.RankLow > 0 {
			iv = fmt.Sprintf("%d-%d", c.RankLow, c.RankHigh)
		}
		vs, p, pa := "-", "-", "-"
		if t, ok := b.tierTest(c.Language, c.Model, c.Tier); ok {
			vs, p, pa = t.Best, strconv.FormatFloat(t.P, 'g', 3, 64), strconv.FormatFloat(t.PAdjusted, 'g', 3, 64)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%d\t%s\t%d\t%s\t%s\t%s\n", c.Language, c.Model, c.Value, c.Rank, iv, c.Tier, vs, p, pa)
	}
	tw.Flush()
}

// writeSNR writes the signal-to-noise section.
func (b *Board) writeSNR(s *strings.Builder) {
	if len(b.SNR) == 0 {
		return
	}
	fmt.Fprintf(s, "\nSignal-to-noise by slice (sd of the models' values over the pooled bootstrap sd of one value;\n"+
		"  below %g the slice cannot rank its models)\n", b.Settings.SNRThreshold)
	one, _ := b.axisNouns()
	tw := tabwriter.NewWriter(s, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, one+"\tdomain\tmodels\tquestions\tsignal\tnoise\tsnr")
	for _, x := range b.SNR {
		d := results.GroupLabel(x.Domain)
		if x.Whole {
			d = "(all)"
		}
		snr := "-"
		if x.SNR != nil {
			snr = fmt.Sprintf("%.2f", *x.SNR)
		}
		if x.Low {
			snr += " low"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.3f\t%.3f\t%s\n", x.Language, d, x.Models, x.Items, x.Signal, x.Noise, snr)
	}
	tw.Flush()
}

// rankTables returns the tier tests and the signal-to-noise table.
func (b *Board) rankTables() []results.Table {
	f := results.Float
	one, _ := b.axisNouns()
	tiers := results.Table{
		Title: "Tiers",
		Note: fmt.Sprintf("Each model against the best model left in its round (two-sided sign test on shared questions, %s-corrected "+
			"within the round, α = %g); separable models go to a lower tier.", correctionName(b.Settings.TierCorrection), b.Settings.Alpha),
		Columns: []results.Column{{Name: one}, {Name: "tier", Kind: results.KindNumber}, {Name: "best"}, {Name: "model"},
			{Name: "shared", Kind: results.KindNumber}, {Name: "better", Kind: results.KindNumber}, {Name: "worse", Kind: results.KindNumber},
			{Name: "p", Kind: results.KindP}, {Name: "p_adjusted", Kind: results.KindP}, {Name: "separable"}},
	}
	for _, t := range b.TierTests {
		tiers.Rows = append(tiers.Rows, []string{t.Language, strconv.Itoa(t.Tier), t.Best, t.Model, strconv.Itoa(t.Shared),
			strconv.Itoa(t.Better), strconv.Itoa(t.Worse), f(t.P), f(t.PAdjusted), results.YesNo(t.Separable)})
	}
	snr := results.Table{
		Title: "Signal to noise",
		Note: fmt.Sprintf("Per slice: the sd of the models' values over the pooled bootstrap sd of one value (%d replicates); "+
			"low = below %g.", b.Settings.RankResamples, b.Settings.SNRThreshold),
		Columns: []results.Column{{Name: one}, {Name: "domain"}, {Name: "models", Kind: results.KindNumber},
			{Name: "questions", Kind: results.KindNumber}, {Name: "signal", Kind: results.KindNumber},
			{Name: "noise", Kind: results.KindNumber}, {Name: "snr", Kind: results.KindNumber}, {Name: "low"}},
	}
	for _, x := range b.SNR {
		d := x.Domain
		if x.Whole {
			d = "(all)"
		}
		r := ""
		if x.SNR != nil {
			r = f(*x.SNR)
		}
		snr.Rows = append(snr.Rows, []string{x.Language, d, strconv.Itoa(x.Models), strconv.Itoa(x.Items), f(x.Signal), f(x.Noise),
			r, results.YesNo(x.Low)})
	}
	return []results.Table{tiers, snr}
}

// optInt formats a positive integer, or "" for 0 (absent).
func optInt(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// rankNote says, for the cells table, what the rank columns hold.
func (b *Board) rankNote() string {
	iv := "rank_low/rank_high are empty (the rank bootstrap is off)"
	if b.Settings.RankResamples > 0 {
		iv = fmt.Sprintf("rank_low/rank_high: %.0f%% percentile interval of the rank over %d bootstrap replicates paired across models",
			b.Settings.Confidence*100, b.Settings.RankResamples)
	}
	return fmt.Sprintf("rank: 1 + models with a higher value; %s; tier: see Tiers (%s-corrected sign tests).", iv, correctionName(b.Settings.TierCorrection))
}
