package main

import (
	"errors"
	"fmt"
	"github.com/evalbook/evalbook/pkg/chart"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/agree"
)

func init() {
	register(&command{name: "agree", summary: "agreement between raters (kappa, Fleiss, Krippendorff's alpha) and the items to adjudicate", run: runAgree})
}

const agreeHelp = `
Usage: evalbook agree --labels FILE --raters COL1,COL2[,COL3...] [--id COL]
                      [--metric kappa|fleiss|alpha] [--weights linear|quadratic]
                      [--level nominal|ordinal|interval|ratio] [--order L1,L2,...]
                      [--confidence 0.95] [--resamples N] [--seed N] [--json]

Measures how well raters agree on a CSV label table (a header row, one row per item, one
column per rater; an empty cell, NA, N/A, "." or "-" is a missing rating). It prints the
number of items, the observed agreement, the agreement expected by chance, the statistic
with a percentile bootstrap interval over items, the confusion matrix (two raters), and
every item on which the raters disagree: the list to send to adjudication, named by the
--id column or else by row number (1 = the first row after the header).

Metrics:
  kappa   Cohen's kappa, two raters (the default for two). --weights linear or quadratic
          gives weighted kappa for ordered labels. Items missing either rating are left
          out, with a warning.
  fleiss  Fleiss' kappa, any number of raters; observed is the mean share of agreeing
          rater pairs per item.
  alpha   Krippendorff's alpha (the default for three or more raters), built for missing
          ratings; --level nominal, ordinal, interval or ratio. Observed and expected are
          then the nominal agreement and chance agreement over pairable ratings; the
          disagreements alpha is made of are in the JSON.

Labels are ordered numerically when they are all numbers, else alphabetically; --order
gives the order instead (needed for scales like low,mid,high with weights or the ordinal
level, and to show unused scale points in the confusion matrix). Every label in the file
must then be in it.

Kappa has no universal "good enough" threshold and depends on how often each label is
used; 30 items give a wide interval. When chance agreement is 1 (one label throughout)
kappa is reported as 1 with a warning.

Example:
	evalbook agree --labels datasets/agreement/pairs.csv --raters ann1,ann2 --id id
	evalbook agree --labels datasets/agreement/ratings.csv --raters r1,r2,r3,r4 --metric alpha --level ordinal
`

// agreeReport is the JSON document of evalbook agree.
type agreeReport struct {
	Metric               string          `json:"metric"`
	Raters               []string        `json:"raters"`
	Weights              string          `json:"weights,omitempty"`
	Level                string          `json:"level,omitempty"`
	N                    int             `json:"n"`
	Observed             float64         `json:"observed"`
	Expected             float64         `json:"expected"`
	Kappa                *float64        `json:"kappa,omitempty"`
	FleissKappa          *float64        `json:"fleiss_kappa,omitempty"`
	Alpha                *float64        `json:"alpha,omitempty"`
	ObservedDisagreement *float64        `json:"observed_disagreement,omitempty"`
	ExpectedDisagreement *float64        `json:"expected_disagreement,omitempty"`
	CILow                float64         `json:"ci_low"`
	CIHigh               float64         `json:"ci_high"`
	Confidence           float64         `json:"confidence"`
	Resamples            int             `json:"resamples"`
	Seed                 uint64          `json:"seed"`
	Confusion            *confusionJSON  `json:"confusion"`
	Disagreements        []disagreeEntry `json:"disagreements"`
	Warnings             []string        `json:"warnings"`

	agreeing int      // items on which all raters agree (text output only)
	order    []string // --order, nil for the default order
}

type confusionJSON struct {
	Labels []string `json:"labels"`
	Rows   [][]int  `json:"rows"`
}

type disagreeEntry struct {
	Item    string            `json:"item"`
	Line    int               `json:"line"`
	Ratings map[string]string `json:"ratings"`
}

func runAgree(e *env) error {
	fs := newFlags(e, "agree", agreeHelp)
	labels := fs.String("labels", "", "label table `FILE` (CSV with a header row)")
	ratersFlag := fs.String("raters", "", "comma-separated rater `columns`, at least two")
	idCol := fs.String("id", "", "`column` naming each item (default: row numbers)")
	metric := fs.String("metric", "", "`statistic`: kappa, fleiss or alpha (default kappa for two raters, alpha for more)")
	weightsFlag := fs.String("weights", "", "kappa `weights` for ordered labels: linear or quadratic")
	levelFlag := fs.String("level", "", "alpha `level`: nominal (default), ordinal, interval or ratio")
	orderFlag := fs.String("order", "", "comma-separated label `order` (default: numeric or alphabetical)")
	confidence := fs.Float64("confidence", 0.95, "confidence `level` of the interval")
	resamples := fs.Int("resamples", 2000, "bootstrap `resamples`")
	seed := fs.Uint64("seed", 1, "bootstrap `seed`")
	asJSON := fs.Bool("json", false, "print one JSON document")
	charts := fs.String("charts", "", "write the confusion heat map (two raters; PNG and SVG) to `DIR`")
	export := addTableExportFlags(fs)
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("agree: unexpected argument %q", args[0])
	}
	if *labels == "" || *ratersFlag == "" {
		return usagef("agree: --labels and --raters are required (see evalbook agree --help)")
	}
	raters := splitRaters(*ratersFlag)
	if len(raters) < 2 {
		return usagef("agree: --raters needs at least two columns, got %q", *ratersFlag)
	}
	if *metric == "" {
		*metric = "kappa"
		if len(raters) > 2 {
			*metric = "alpha"
		}
	}
	switch *metric {
	case "kappa":
		if len(raters) != 2 {
			return usagef("agree: Cohen's kappa is for two raters, got %d; use --metric fleiss or alpha", len(raters))
		}
	case "fleiss", "alpha":
	default:
		return usagef("agree: unknown --metric %q (want kappa, fleiss or alpha)", *metric)
	}
	weights, err := agree.ParseWeights(*weightsFlag)
	if err != nil {
		return usagef("agree: --weights %q: want linear or quadratic", *weightsFlag)
	}
	if *weightsFlag != "" && *metric != "kappa" {
		return usagef("agree: --weights applies to --metric kappa only")
	}
	level, err := agree.ParseLevel(*levelFlag)
	if err != nil {
		return usagef("agree: --level %q: want nominal, ordinal, interval or ratio", *levelFlag)
	}
	if *levelFlag != "" && *metric != "alpha" {
		return usagef("agree: --level applies to --metric alpha only")
	}
	if !(*confidence > 0 && *confidence < 1) {
		return usagef("agree: --confidence must be between 0 and 1, got %v", *confidence)
	}
	if *resamples < 1 {
		return usagef("agree: --resamples must be at least 1, got %d", *resamples)
	}

	var order []string
	if *orderFlag != "" {
		order = splitRaters(*orderFlag)
		for i, l := range order {
			if slices.Contains(order[:i], l) {
				return usagef("agree: --order lists %q twice", l)
			}
		}
	}

	f, err := os.Open(*labels)
	if err != nil {
		return err
	}
	defer f.Close()
	tab, err := agree.ReadLabels(f, *labels, raters, *idCol)
	if err != nil {
		return err
	}
	if len(tab.Rows) == 0 {
		return fmt.Errorf("%s: no items after the header", *labels)
	}
	rep := &agreeReport{
		Metric: *metric, Raters: raters, Confidence: *confidence, Resamples: *resamples, Seed: *seed,
		Disagreements: []disagreeEntry{}, Warnings: []string{}, order: order,
	}
	switch *metric {
	case "kappa":
		flag := ""
		if weights != agree.Unweighted {
			flag = "--weights " + *weightsFlag
		}
		err = agreeKappa(rep, tab, weights, flag)
	case "fleiss":
		err = agreeFleiss(rep, tab)
	case "alpha":
		flag := ""
		if level == agree.LevelOrdinal {
			flag = "--level " + *levelFlag
		}
		err = agreeAlpha(rep, tab, level, flag)
	}
	if err != nil {
		return err
	}
	for _, i := range agree.Disagreements(tab.Items()) {
		row := tab.Rows[i]
		d := disagreeEntry{Item: tab.ItemName(i), Line: row.Line, Ratings: map[string]string{}}
		for j, r := range raters {
			d.Ratings[r] = row.Ratings[j]
		}
		rep.Disagreements = append(rep.Disagreements, d)
	}
	if err := export.write(e, "evalbook agree", agreeTables(rep)); err != nil {
		return err
	}
	if *charts != "" {
		if rep.Confusion == nil {
			return usagef("agree: --charts draws the confusion of two raters; %d were given", len(rep.Raters))
		}
		fig, err := chart.Confusion("Agreement of "+rep.Raters[0]+" and "+rep.Raters[1], rep.Raters[0], rep.Raters[1], rep.Confusion.Labels, rep.Confusion.Rows)
		if err != nil {
			return err
		}
		if err := writeFigures(e, *charts, []chart.Named{{Name: "agree-confusion", Figure: fig}}); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(e.stdout, rep)
	}
	return writeAgreeText(e.stdout, rep)
}

// statOrder returns the label order to hand the library for a statistic
// that uses the order of the labels (weighted kappa, ordinal alpha): the
// --order, or else the default order of labels, made explicit so that the
// library does not add its own warning about it. When that default is the
// alphabetical order of labels that are not all numbers (for a scale such
// as low, mid, high it is wrong, and the statistic with it), the report
// warns, naming the flags. flag is "" for a statistic that ignores order.
func statOrder(rep *agreeReport, flag string, cols ...[]string) []string {
	if rep.order != nil || flag == "" {
		return rep.order
	}
	labels := agree.LabelOrder(cols...)
	for _, l := range labels {
		if _, err := strconv.ParseFloat(l, 64); err != nil {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf(
				"%s needs the order of the labels, and without --order the labels (not all numbers) were taken alphabetically: %s; if that is not the order of the scale, pass it with --order (e.g. --order low,mid,high)",
				flag, strings.Join(labels, ", ")))
			break
		}
	}
	return labels
}

func splitRaters(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func agreeKappa(rep *agreeReport, tab *agree.LabelTable, w agree.Weights, orderFlag string) error {
	var a, b []string
	var skipped []string
	for _, row := range tab.Rows {
		if row.Ratings[0] == "" || row.Ratings[1] == "" {
			skipped = append(skipped, strconv.Itoa(row.Line))
			continue
		}
		a = append(a, row.Ratings[0])
		b = append(b, row.Ratings[1])
	}
	if len(skipped) > 0 {
		msg := fmt.Sprintf("%d items lack a rating from %s or %s and are left out (lines %s)", len(skipped), tab.Raters[0], tab.Raters[1], firstFewItems(skipped, 10))
		if len(skipped) == 1 {
			msg = fmt.Sprintf("1 item lacks a rating from %s or %s and is left out (line %s)", tab.Raters[0], tab.Raters[1], skipped[0])
		}
		rep.Warnings = append(rep.Warnings, msg)
	}
	if len(a) == 0 {
		return fmt.Errorf("%s: no item has both ratings", tab.File)
	}
	order := statOrder(rep, orderFlag, a, b)
	k, err := agree.WeightedKappa(a, b, order, w)
	if err != nil {
		return fmt.Errorf("%s: %w", tab.File, err)
	}
	iv, err := agree.BootstrapKappa(a, b, order, w, rep.Resamples, rep.Confidence, rep.Seed)
	if err != nil {
		return fmt.Errorf("%s: %w", tab.File, err)
	}
	if w != agree.Unweighted {
		rep.Weights = w.String()
	}
	rep.N, rep.Observed, rep.Expected = k.N, k.Observed, k.Expected
	rep.Kappa = &k.Kappa
	rep.CILow, rep.CIHigh = iv.Lo, iv.Hi
	rep.Confusion = &confusionJSON{Labels: k.Confusion.Labels, Rows: k.Confusion.Counts}
	for i := range k.Confusion.Labels {
		rep.agreeing += k.Confusion.Counts[i][i]
	}
	rep.Warnings = append(rep.Warnings, k.Warnings...)
	rep.Warnings = append(rep.Warnings, iv.Warnings...)
	return nil
}

func agreeFleiss(rep *agreeReport, tab *agree.LabelTable) error {
	items := tab.Items()
	f, err := agree.FleissKappa(items)
	if err != nil {
		return fmt.Errorf("%s: %w", tab.File, err)
	}
	iv, err := agree.BootstrapFleiss(items, rep.Resamples, rep.Confidence, rep.Seed)
	if err != nil {
		return fmt.Errorf("%s: %w", tab.File, err)
	}
	rep.N, rep.Observed, rep.Expected = f.Items, f.Observed, f.Expected
	rep.FleissKappa = &f.Kappa
	rep.CILow, rep.CIHigh = iv.Lo, iv.Hi
	rep.Warnings = append(rep.Warnings, f.Warnings...)
	rep.Warnings = append(rep.Warnings, iv.Warnings...)
	rep.agreeing = -1
	if len(tab.Raters) == 2 {
		setConfusion(rep, tab)
	}
	return nil
}

func agreeAlpha(rep *agreeReport, tab *agree.LabelTable, level agree.Level, orderFlag string) error {
	items := tab.Items()
	order := statOrder(rep, orderFlag, items...)
	a, err := agree.KrippendorffAlpha(items, level, order)
	var ve *agree.ValueError
	if errors.As(err, &ve) {
		return &agree.ParseError{File: tab.File, Line: tab.Rows[ve.Unit].Line, Column: tab.RaterFields[ve.Rater],
			Err: fmt.Errorf("%s rated %q, which is %s", tab.Raters[ve.Rater], ve.Value, ve.Problem())}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", tab.File, err)
	}
	iv, err := agree.BootstrapAlpha(items, level, order, rep.Resamples, rep.Confidence, rep.Seed)
	if err != nil {
		return fmt.Errorf("%s: %w", tab.File, err)
	}
	rep.Level = level.String()
	rep.N, rep.Observed, rep.Expected = a.Units, a.Agreement, a.ChanceAgreement
	rep.Alpha = &a.Alpha
	rep.ObservedDisagreement, rep.ExpectedDisagreement = &a.Observed, &a.Expected
	rep.CILow, rep.CIHigh = iv.Lo, iv.Hi
	rep.Warnings = append(rep.Warnings, a.Warnings...)
	rep.Warnings = append(rep.Warnings, iv.Warnings...)
	rep.agreeing = -1
	if len(tab.Raters) == 2 {
		setConfusion(rep, tab)
	}
	return nil
}

// setConfusion adds the two-rater confusion over complete items.
func setConfusion(rep *agreeReport, tab *agree.LabelTable) {
	var a, b []string
	for _, row := range tab.Rows {
		if row.Ratings[0] != "" && row.Ratings[1] != "" {
			a = append(a, row.Ratings[0])
			b = append(b, row.Ratings[1])
		}
	}
	if c, err := agree.NewConfusion(a, b, rep.order); err == nil {
		rep.Confusion = &confusionJSON{Labels: c.Labels, Rows: c.Counts}
	}
}

func firstFewItems(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}

func fixed3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

func writeAgreeText(w io.Writer, r *agreeReport) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	name, value := "kappa", 0.0
	switch {
	case r.Kappa != nil:
		value = *r.Kappa
		if r.Weights != "" {
			name = r.Weights + "-weighted kappa"
		}
	case r.FleissKappa != nil:
		name, value = "Fleiss' kappa", *r.FleissKappa
	case r.Alpha != nil:
		name, value = "alpha ("+r.Level+")", *r.Alpha
	}
	unit := kitPlural(r.N, "item", "items")
	if r.Alpha != nil {
		unit = "pairable " + unit
	}
	fmt.Fprintf(tw, "raters\t%s\n", strings.Join(r.Raters, ", "))
	fmt.Fprintf(tw, "n\t%d %s\n", r.N, unit)
	what := "agreement"
	switch {
	case r.Weights != "":
		what = "weighted agreement"
	case r.agreeing >= 0:
		what = fmt.Sprintf("%d of %d %s", r.agreeing, r.N, kitPlural(r.N, "item agrees", "items agree"))
	case r.FleissKappa != nil:
		what = "mean share of agreeing rater pairs per item"
	case r.Alpha != nil:
		what = "share of agreeing pairs of ratings"
	}
	fmt.Fprintf(tw, "observed\t%s\t%s\n", fixed3(r.Observed), what)
	fmt.Fprintf(tw, "expected\t%s\tby chance\n", fixed3(r.Expected))
	fmt.Fprintf(tw, "%s\t%s\t%g%% interval %s to %s (bootstrap over items, %d resamples, seed %d)\n",
		name, fixed3(value), 100*r.Confidence, fixed3(r.CILow), fixed3(r.CIHigh), r.Resamples, r.Seed)
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.Confusion != nil {
		fmt.Fprintf(w, "\nconfusion: %s in rows, %s in columns\n", r.Raters[0], r.Raters[1])
		tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "\t")
		for _, l := range r.Confusion.Labels {
			fmt.Fprintf(tw, "%s\t", l)
		}
		fmt.Fprintln(tw)
		for i, row := range r.Confusion.Rows {
			fmt.Fprintf(tw, "%s\t", r.Confusion.Labels[i])
			for _, v := range row {
				fmt.Fprintf(tw, "%d\t", v)
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(r.Disagreements) == 0 {
		fmt.Fprintln(w, "\nno disagreements")
	} else {
		fmt.Fprintf(w, "\ndisagreements, to adjudicate (%d)\n", len(r.Disagreements))
		tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
		fmt.Fprintf(tw, "item\tline\t%s\n", strings.Join(r.Raters, "\t"))
		for _, d := range r.Disagreements {
			fmt.Fprintf(tw, "%s\t%d", d.Item, d.Line)
			for _, rater := range r.Raters {
				v := d.Ratings[rater]
				if v == "" {
					v = "-"
				}
				fmt.Fprintf(tw, "\t%s", v)
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintln(w, "\nwarnings:")
		for _, msg := range r.Warnings {
			fmt.Fprintf(w, "  %s\n", msg)
		}
	}
	return nil
}
