package agree

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

// analyzeCSV runs AnalyzeCSV on an in-memory table named t.csv.
func analyzeCSV(t *testing.T, in string, raters []string, id string, opt Options) (*results.RaterAgreement, error) {
	t.Helper()
	return AnalyzeCSV(strings.NewReader(in), "t.csv", raters, id, opt)
}

func TestOptionsValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		raters int
		opt    Options
		want   error // nil: valid
	}{
		{"zero value, two raters", 2, Options{}, nil},
		{"zero value, five raters", 5, Options{}, nil},
		{"one rater", 1, Options{}, ErrRaters},
		{"kappa of three", 3, Options{Metric: MetricKappa}, ErrKappaRaters},
		{"weights with fleiss", 2, Options{Metric: MetricFleiss, Weights: Linear}, ErrWeightsMetric},
		{"weights with auto for three raters (alpha)", 3, Options{Weights: Quadratic}, ErrWeightsMetric},
		{"level with kappa", 2, Options{Level: LevelOrdinal}, ErrLevelMetric},
		{"level with fleiss", 4, Options{Metric: MetricFleiss, Level: LevelInterval}, ErrLevelMetric},
		{"confidence 95", 2, Options{Confidence: 95}, ErrConfidence},
		{"confidence 1", 2, Options{Confidence: 1}, ErrConfidence},
		{"negative confidence", 2, Options{Confidence: -0.5}, ErrConfidence},
		{"negative resamples", 2, Options{Resamples: -1}, ErrResamples},
		{"order twice", 2, Options{Order: []string{"a", "b", "a"}}, ErrOrder},
		{"empty label in order", 2, Options{Order: []string{"a", ""}}, ErrOrder},
		{"unknown metric", 2, Options{Metric: Metric(7)}, ErrInvalid},
		{"unknown weights", 2, Options{Weights: Weights(7)}, ErrInvalid},
		{"unknown level", 3, Options{Level: Level(-1)}, ErrInvalid},
		{"ordinal alpha with an order", 3, Options{Metric: MetricAlpha, Level: LevelOrdinal, Order: []string{"low", "mid", "high"}, Confidence: 0.9, Resamples: 10}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.opt.Validate(tc.raters)
			if tc.want == nil {
				if err != nil {
					t.Errorf("Validate(%d) = %v, want nil", tc.raters, err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !errors.Is(err, ErrInvalid) {
				t.Errorf("Validate(%d) = %v, want an error wrapping %v and ErrInvalid", tc.raters, err, tc.want)
			}
		})
	}
}

func TestParseMetric(t *testing.T) {
	for s, want := range map[string]Metric{"": MetricAuto, "kappa": MetricKappa, "fleiss": MetricFleiss, "alpha": MetricAlpha} {
		if m, err := ParseMetric(s); err != nil || m != want || (s != "" && m.String() != s) {
			t.Errorf("ParseMetric(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := ParseMetric("Kappa"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseMetric(Kappa) = %v, want ErrInvalid", err)
	}
	if MetricAuto.For(2) != MetricKappa || MetricAuto.For(3) != MetricAlpha || MetricFleiss.For(2) != MetricFleiss {
		t.Error("Metric.For does not choose kappa for two raters, alpha for more, and keeps an explicit metric")
	}
}

// The ten yes/no items of notebook 04 (by hand there): both say yes on 4,
// rater 1 alone on 1, rater 2 alone on 2, both no on 3. Observed 7/10;
// rater 1 says yes 5 times, rater 2 6 times, so expected 0.5·0.6 + 0.5·0.4
// = 0.5 and kappa (0.7 − 0.5)/(1 − 0.5) = 0.4. Without an id column items
// are named by row number: the disagreements are rows 5, 6 and 7.
func TestAnalyzeKappaByHand(t *testing.T) {
	a := []string{"y", "y", "y", "y", "y", "n", "n", "n", "n", "n"}
	b := []string{"y", "y", "y", "y", "n", "y", "y", "n", "n", "n"}
	var in strings.Builder
	in.WriteString("r1,r2\n")
	for i := range a {
		fmt.Fprintf(&in, "%s,%s\n", a[i], b[i])
	}
	res, err := analyzeCSV(t, in.String(), []string{"r1", "r2"}, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Metric != "kappa" || res.N != 10 || !near(res.Observed, 0.7, 1e-12) || !near(res.Expected, 0.5, 1e-12) || res.Kappa == nil || !near(*res.Kappa, 0.4, 1e-12) {
		t.Errorf("got %s n %d observed %v expected %v kappa %v", res.Metric, res.N, res.Observed, res.Expected, res.Kappa)
	}
	// The defaults are recorded in the result.
	if res.Confidence != 0.95 || res.Resamples != 10000 || res.Seed != 0 {
		t.Errorf("confidence %v resamples %d seed %d, want the defaults 0.95, 10000, 0", res.Confidence, res.Resamples, res.Seed)
	}
	wantConf := &results.RaterConfusion{Labels: []string{"n", "y"}, Rows: [][]int{{3, 2}, {1, 4}}}
	if !reflect.DeepEqual(res.Confusion, wantConf) {
		t.Errorf("confusion %+v, want %+v", res.Confusion, wantConf)
	}
	var items []string
	for _, d := range res.Disagreements {
		items = append(items, fmt.Sprintf("%s:%d:%s/%s", d.Item, d.Line, d.Ratings["r1"], d.Ratings["r2"]))
	}
	if got := strings.Join(items, " "); got != "5:6:y/n 6:7:n/y 7:8:n/y" {
		t.Errorf("disagreements %s", got)
	}
	// Ten items: neither the statistic nor the bootstrap warns.
	if len(res.Warnings) != 0 {
		t.Errorf("warnings %+v, want none", res.Warnings)
	}
}

// Items missing a rating are left out of kappa with one warning that
// counts them and lists the first ten lines; each other warning carries
// its statistic's code. Here 14 of 16 items lack r1 (lines 2 to 15), the
// two left disagree (a/b, b/a): kappa over 2 items, and the small-sample
// warnings of kappa and of the bootstrap.
func TestAnalyzeWarningCodes(t *testing.T) {
	in := "r1,r2\n" + strings.Repeat(",a\n", 14) + "a,b\nb,a\n"
	res, err := analyzeCSV(t, in, []string{"r1", "r2"}, "", Options{Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	want := []results.Warning{
		{Code: CodeMissingRatings, Count: 14, Lines: []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
			Message: "14 items lack a rating from r1 or r2 and are left out (lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 4 more)"},
		{Code: CodeFewItems, Count: 2, Message: "only 2 items: kappa is very uncertain"},
		{Code: CodeSmallBootstrap, Count: 2, Message: "bootstrap over only 2 items: the interval is rough and too narrow"},
	}
	if !reflect.DeepEqual(res.Warnings, want) {
		t.Errorf("warnings\n%+v\nwant\n%+v", res.Warnings, want)
	}
	if res.N != 2 {
		t.Errorf("n %d, want 2", res.N)
	}

	// Weights on labels that are not all numbers, without an order: one
	// warning (Analyze's, naming the flags), not a second one from
	// WeightedKappa.
	res, err = analyzeCSV(t, "r1,r2\nlow,mid\nhigh,high\nmid,low\nlow,low\n", []string{"r1", "r2"}, "", Options{Weights: Linear, Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, w := range res.Warnings {
		codes = append(codes, w.Code)
	}
	if got := strings.Join(codes, " "); got != "order_guessed few_items small_bootstrap" || !strings.HasPrefix(res.Warnings[0].Message, "--weights linear needs the order of the labels") || res.Warnings[0].Count != 3 {
		t.Errorf("warnings %+v", res.Warnings)
	}
	if res.Weights != "linear" {
		t.Errorf("weights %q, want linear", res.Weights)
	}

	// Fleiss over items with 2 and 3 ratings: the one item with 2 is counted.
	res, err = analyzeCSV(t, "r1,r2,r3\na,a,a\nb,b,\na,b,b\nb,b,b\n", []string{"r1", "r2", "r3"}, "", Options{Metric: MetricFleiss, Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	if res.Warnings[0].Code != CodeUnequalRatings || res.Warnings[0].Count != 1 || res.Confusion != nil || res.FleissKappa == nil {
		t.Errorf("fleiss: warnings %+v, confusion %v", res.Warnings, res.Confusion)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		raters   []string
		opt      Options
		is       error  // errors.Is target, or nil
		msg      string // the whole message
	}{
		{"no rows", "r1,r2\n", []string{"r1", "r2"}, Options{}, ErrNoItems, "t.csv: no items after the header"},
		{"no item with both ratings", "r1,r2\na,\n,b\n", []string{"r1", "r2"}, Options{}, ErrNoItems, "t.csv: no item has both ratings"},
		{"one label for alpha", "r1,r2,r3\na,a,a\na,a,\n", []string{"r1", "r2", "r3"}, Options{}, ErrOneLabel, "t.csv: " + ErrOneLabel.Error()},
		{"options before reading", "not, a, table\n", []string{"r1", "r2", "r3"}, Options{Metric: MetricKappa}, ErrKappaRaters, ""},
		{"label outside the order", "r1,r2\nlow,mid\nhigh,high\n", []string{"r1", "r2"}, Options{Order: []string{"low", "mid"}}, nil,
			`t.csv: agree: label "high" of item 2 is not in the given order ["low" "mid"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := analyzeCSV(t, tc.in, tc.raters, "", tc.opt)
			if err == nil || tc.is != nil && !errors.Is(err, tc.is) || tc.msg != "" && err.Error() != tc.msg {
				t.Errorf("err %v, want one wrapping %v with message %q", err, tc.is, tc.msg)
			}
		})
	}
	// A rating the interval level cannot use is a *ParseError at its cell:
	// line 3, character 5 ("y,2," is four characters), column r2.
	_, err := analyzeCSV(t, "id,r1,r2\nx,1,2\ny,2,high\n", []string{"r1", "r2"}, "id", Options{Metric: MetricAlpha, Level: LevelInterval})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Column != 5 || err.Error() != `t.csv:3:5 (column "r2"): r2 rated "high", which is not a number, as the interval level needs` {
		t.Errorf("err %v, want a *ParseError at 3:5", err)
	}
}
