package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/agree"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/report/internal/cli"
)

// The golden files hold the commands' full output; runCLI, golden and the
// -update flag are shared with score_test.go.
func TestAgreeGolden(t *testing.T) {
	pairs := filepath.Join("..", "datasets", "agreement", "pairs.csv")
	ratings := filepath.Join("..", "datasets", "agreement", "ratings.csv")
	cases := []struct {
		name string
		args []string
	}{
		{"agree_pairs.stdout", []string{"agree", "--labels", pairs, "--raters", "ann1,ann2", "--id", "id"}},
		{"agree_pairs.json", []string{"agree", "--labels", pairs, "--raters", "ann1,ann2", "--id", "id", "--json"}},
		{"agree_pairs_rownumbers.stdout", []string{"agree", "--labels", pairs, "--raters", "ann2,ann1", "--confidence", "0.9", "--resamples", "500", "--seed", "3"}},
		{"agree_ratings_weighted.stdout", []string{"agree", "--labels", ratings, "--raters", "r1,r2", "--id", "id", "--weights", "quadratic"}},
		{"agree_ratings_alpha.stdout", []string{"agree", "--labels", ratings, "--raters", "r1,r2,r3,r4", "--id", "id", "--level", "ordinal"}},
		{"agree_ratings_alpha.json", []string{"agree", "--labels", ratings, "--raters", "r1,r2,r3,r4", "--id", "id", "--metric", "alpha", "--level", "interval", "--json"}},
		{"agree_ratings_fleiss.json", []string{"agree", "--labels", ratings, "--raters", "r1,r2,r3,r4", "--id", "id", "--metric", "fleiss", "--json"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, c.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			golden(t, c.name, out)
		})
	}
}

// The sample pairs reproduce the seed's figures (SPEC.md section 3):
// observed 26/30, expected 307/900, kappa 0.798, the confusion
// a {a 10}, b {b 11}, tie {a 3, b 1, tie 5}, and four items to adjudicate.
func TestAgreeSeedFigures(t *testing.T) {
	out, _, code := runCLI(t, "agree", "--labels", filepath.Join("..", "datasets", "agreement", "pairs.csv"), "--raters", "ann1,ann2", "--id", "id", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var r struct {
		N         int     `json:"n"`
		Observed  float64 `json:"observed"`
		Expected  float64 `json:"expected"`
		Kappa     float64 `json:"kappa"`
		CILow     float64 `json:"ci_low"`
		CIHigh    float64 `json:"ci_high"`
		Confusion struct {
			Labels []string `json:"labels"`
			Rows   [][]int  `json:"rows"`
		} `json:"confusion"`
		Disagreements []struct {
			Item string `json:"item"`
		} `json:"disagreements"`
		Warnings []results.Warning `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.N != 30 || fmt.Sprintf("%.3f %.3f %.3f", r.Observed, r.Expected, r.Kappa) != "0.867 0.341 0.798" {
		t.Errorf("n %d observed %v expected %v kappa %v", r.N, r.Observed, r.Expected, r.Kappa)
	}
	if fmt.Sprint(r.Confusion.Labels, r.Confusion.Rows) != "[a b tie] [[10 0 0] [0 11 0] [3 1 5]]" {
		t.Errorf("confusion %v %v", r.Confusion.Labels, r.Confusion.Rows)
	}
	if len(r.Disagreements) != 4 || !(r.CILow < r.Kappa && r.Kappa < r.CIHigh) || r.Warnings == nil {
		t.Errorf("disagreements %v, interval (%v, %v), warnings %v", r.Disagreements, r.CILow, r.CIHigh, r.Warnings)
	}
}

func TestAgreeErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.csv", "id,r1,r2,r3\nx,1,2,2\ny,2,2,3\n")
	dup := write("dup.csv", "id,r1,r2\nx,a,b\nx,b,b\n")
	// The bad ratings' places are character columns: "y,2,high" puts
	// "high" at 5, and "y,-1,2" puts "-1" at 3.
	word := write("word.csv", "id,r1,r2\nx,1,2\ny,2,high\n")
	negative := write("negative.csv", "id,r1,r2\nx,1,2\ny,-1,2\n")
	same := write("same.csv", "id,r1,r2,r3\nx,a,a,a\ny,a,a,\n")
	empty := write("empty.csv", "id,r1,r2\n")
	scale := write("scale.csv", "id,r1,r2\nx,low,mid\ny,high,high\nz,mid,low\n")
	badUTF8 := write("bad.csv", "id,ann1,ann2\nx,a\xff,b\ny,a,a\n")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no flags", []string{"agree"}, 2, "evalbook: agree: --labels and --raters are required (see evalbook agree --help)\n"},
		{"one rater", []string{"agree", "--labels", good, "--raters", "r1"}, 2, "evalbook: agree: --raters needs at least two columns, got \"r1\"\n"},
		{"kappa of three", []string{"agree", "--labels", good, "--raters", "r1,r2,r3", "--metric", "kappa"}, 2, "evalbook: agree: Cohen's kappa is for two raters, got 3; use --metric fleiss or alpha\n"},
		{"bad weights", []string{"agree", "--labels", good, "--raters", "r1,r2", "--weights", "cubic"}, 2, "evalbook: agree: --weights \"cubic\": want linear or quadratic\n"},
		{"weights with alpha", []string{"agree", "--labels", good, "--raters", "r1,r2", "--metric", "alpha", "--weights", "linear"}, 2, "evalbook: agree: --weights applies to --metric kappa only\n"},
		{"level with kappa", []string{"agree", "--labels", good, "--raters", "r1,r2", "--level", "ordinal"}, 2, "evalbook: agree: --level applies to --metric alpha only\n"},
		// The library takes Unweighted and LevelNominal with any statistic;
		// the flags, even with those values, still belong to one.
		{"weights none with alpha", []string{"agree", "--labels", good, "--raters", "r1,r2", "--metric", "alpha", "--weights", "none"}, 2, "evalbook: agree: --weights applies to --metric kappa only\n"},
		{"level nominal with kappa", []string{"agree", "--labels", good, "--raters", "r1,r2", "--level", "nominal"}, 2, "evalbook: agree: --level applies to --metric alpha only\n"},
		{"resamples 0", []string{"agree", "--labels", good, "--raters", "r1,r2", "--resamples", "0"}, 2, "evalbook: agree: invalid value \"0\" for flag -resamples: want a whole number of at least 1 (see evalbook agree --help)\n"},
		{"confidence", []string{"agree", "--labels", good, "--raters", "r1,r2", "--confidence", "95"}, 2, "evalbook: agree: invalid value \"95\" for flag -confidence: want a level between 0 and 1, such as 0.95 (see evalbook agree --help)\n"},
		{"missing column", []string{"agree", "--labels", good, "--raters", "r1,r9"}, 1, "evalbook: " + good + ":1: no column \"r9\"; the header has \"id\", \"r1\", \"r2\", \"r3\"\n"},
		{"duplicate id", []string{"agree", "--labels", dup, "--raters", "r1,r2", "--id", "id"}, 1, "evalbook: " + dup + ":3:1 (column \"id\"): duplicate id \"x\" (first on line 2)\n"},
		{"word at interval level", []string{"agree", "--labels", word, "--raters", "r1,r2", "--metric", "alpha", "--level", "interval"}, 1, "evalbook: " + word + ":3:5 (column \"r2\"): r2 rated \"high\", which is not a number, as the interval level needs\n"},
		// The audit: -1 at the ratio level was reported as "not a number".
		{"negative at ratio level", []string{"agree", "--labels", negative, "--raters", "r1,r2", "--metric", "alpha", "--level", "ratio"}, 1, "evalbook: " + negative + ":3:3 (column \"r1\"): r1 rated \"-1\", which is negative, and the ratio level needs numbers of 0 or more\n"},
		{"one label for alpha", []string{"agree", "--labels", same, "--raters", "r1,r2,r3"}, 1, "evalbook: " + same + ": agree: every rating is the same label, so chance agreement is 1 and the statistic is undefined\n"},
		{"label outside --order", []string{"agree", "--labels", scale, "--raters", "r1,r2", "--order", "low,mid"}, 1, "evalbook: " + scale + ": agree: label \"high\" of item 2 is not in the given order [\"low\" \"mid\"]\n"},
		{"order twice", []string{"agree", "--labels", scale, "--raters", "r1,r2", "--order", "low,mid,low"}, 2, "evalbook: agree: --order lists \"low\" twice\n"},
		{"no items", []string{"agree", "--labels", empty, "--raters", "r1,r2"}, 1, "evalbook: " + empty + ": no items after the header\n"},
		{"invalid UTF-8", []string{"agree", "--labels", badUTF8, "--raters", "ann1,ann2"}, 1, "evalbook: " + badUTF8 +
			":2:4 (column \"ann1\"): invalid UTF-8: first bad byte 0xFF at character 2 of the field; re-save the file as UTF-8\n"},
		{"no file", []string{"agree", "--labels", filepath.Join(dir, "none.csv"), "--raters", "r1,r2"}, 1, "evalbook: open " + filepath.Join(dir, "none.csv") + ": no such file or directory\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			if code != tc.code || errOut != tc.stderr || out != "" {
				t.Errorf("exit %d, stderr %q, stdout %q\nwant exit %d, stderr %q", code, errOut, out, tc.code, tc.stderr)
			}
		})
	}
}

// A named scale: without --order, high < low < mid alphabetically and
// linear weights would count low against high as a near miss.
func TestAgreeOrder(t *testing.T) {
	p := filepath.Join(t.TempDir(), "scale.csv")
	os.WriteFile(p, []byte("id,r1,r2\n1,low,mid\n2,high,high\n3,mid,mid\n4,low,low\n5,high,mid\n6,mid,low\n7,low,low\n8,high,high\n9,mid,high\n10,low,high\n"), 0o644)
	out, errOut, code := runCLI(t, "agree", "--labels", p, "--raters", "r1,r2", "--weights", "linear", "--order", "low,mid,high", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Kappa     float64 `json:"kappa"`
		Confusion struct {
			Labels []string `json:"labels"`
			Rows   [][]int  `json:"rows"`
		} `json:"confusion"`
	}
	json.Unmarshal([]byte(out), &r)
	// Hand computation, positions low 0, mid 1, high 2, weights 1, 0.5, 0.
	// Table (r1 rows): low {low 2, mid 1, high 1}, mid {low 1, mid 1,
	// high 1}, high {mid 1, high 2}. pₒ = (5 + 0.5·4 + 0·1)/10 = 0.7.
	// Rows (4, 3, 3)/10, columns (3, 3, 4)/10; pₑ = Σ wᵢⱼ rᵢ cⱼ =
	// (4·3 + 0.5·4·3 + 0 + 0.5·3·3 + 3·3 + 0.5·3·4 + 0 + 0.5·3·3 + 3·4)/100
	// = (12 + 6 + 4.5 + 9 + 6 + 4.5 + 12)/100 = 0.54; κ = 0.16/0.46.
	if fmt.Sprint(r.Confusion.Labels, r.Confusion.Rows) != "[low mid high] [[2 1 1] [1 1 1] [0 1 2]]" || !nearly(r.Kappa, 0.16/0.46) {
		t.Errorf("kappa %v, confusion %v %v", r.Kappa, r.Confusion.Labels, r.Confusion.Rows)
	}
}

// Weighted kappa and ordinal alpha use the order of the labels; without
// --order, labels that are not all numbers go alphabetically (a < b < tie,
// high < low < mid), which is rarely the scale. The audit's case: linear
// weights on a, b, tie gave kappa 0.724 with no word of it.
func TestAgreeOrderWarning(t *testing.T) {
	dir := t.TempDir()
	words := filepath.Join(dir, "words.csv")
	os.WriteFile(words, []byte("id,r1,r2,r3\n1,low,mid,mid\n2,high,high,mid\n3,mid,mid,low\n4,low,low,low\n"), 0o644)
	nums := filepath.Join(dir, "nums.csv")
	os.WriteFile(nums, []byte("id,r1,r2,r3\n1,1,2,2\n2,3,3,2\n3,2,2,1\n4,1,1,1\n"), 0o644)
	const warn = "needs the order of the labels, and without --order the labels (not all numbers) were taken alphabetically: high, low, mid"
	for _, tc := range []struct {
		name string
		args []string
		want string // "" for no such warning
	}{
		{"linear weights on words", []string{"--labels", words, "--raters", "r1,r2", "--weights", "linear"}, "--weights linear " + warn},
		{"quadratic weights on words", []string{"--labels", words, "--raters", "r1,r2", "--weights", "quadratic"}, "--weights quadratic " + warn},
		{"ordinal alpha on words", []string{"--labels", words, "--raters", "r1,r2,r3", "--level", "ordinal"}, "--level ordinal " + warn},
		{"weights with --order", []string{"--labels", words, "--raters", "r1,r2", "--weights", "linear", "--order", "low,mid,high"}, ""},
		{"weights on numbers", []string{"--labels", nums, "--raters", "r1,r2", "--weights", "linear"}, ""},
		{"unweighted kappa on words", []string{"--labels", words, "--raters", "r1,r2"}, ""},
		{"nominal alpha on words", []string{"--labels", words, "--raters", "r1,r2,r3"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, append([]string{"agree", "--json"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var r struct {
				Warnings []results.Warning `json:"warnings"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			found, count := "", 0
			for _, w := range r.Warnings {
				if strings.Contains(w.Message, "without --order") {
					found = w.Message
				}
				// The statistic warns too when it is not given the
				// order; Analyze hands it one, so the warning is
				// printed once, and its code says which it is.
				if w.Code == agree.CodeOrderGuessed {
					count++
				}
			}
			if tc.want == "" && found != "" || tc.want != "" && !strings.HasPrefix(found, tc.want) {
				t.Errorf("warnings %+v, want one starting %q", r.Warnings, tc.want)
			}
			if found != "" && count != 1 {
				t.Errorf("%d warnings with the code %q, want 1: %+v", count, agree.CodeOrderGuessed, r.Warnings)
			}
		})
	}
}

// Perfect agreement: the bootstrap interval is 1.000 to 1.000 and says
// nothing, so a warning gives the Wilson interval of the observed
// agreement. By hand, 11/11 at 95%: lower = n/(n + z²) = 11/(11 +
// 1.959964²) = 11/14.8415 = 0.7412, upper 1; at 90% (z = 1.644854)
// 11/13.7055 = 0.8026. Fleiss over the same two raters: the same items.
func TestAgreePerfectWilson(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,a1,a2\n")
	for i := 1; i <= 11; i++ {
		l := "no"
		if i%2 == 0 {
			l = "yes"
		}
		fmt.Fprintf(&b, "i%d,%s,%s\n", i, l, l)
	}
	p := filepath.Join(t.TempDir(), "perfect.csv")
	os.WriteFile(p, []byte(b.String()), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"kappa", nil, "  all 11 items agree, so every resample gives kappa 1.000 and the bootstrap interval has zero width; the 95% Wilson interval of the observed agreement 11/11 is 0.741 to 1.000\n"},
		{"kappa 90%", []string{"--confidence", "0.9"}, "the 90% Wilson interval of the observed agreement 11/11 is 0.803 to 1.000\n"},
		{"fleiss", []string{"--metric", "fleiss"}, "every resample gives Fleiss' kappa 1.000 and the bootstrap interval has zero width; the 95% Wilson interval of the observed agreement 11/11 is 0.741 to 1.000\n"},
		{"alpha", []string{"--metric", "alpha"}, "all 11 pairable units agree, so every resample gives alpha 1.000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, append([]string{"agree", "--labels", p, "--raters", "a1,a2"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if !strings.Contains(out, "1.000 to 1.000") || !strings.Contains(out, tc.want) {
				t.Errorf("output lacks the interval 1.000 to 1.000 or %q:\n%s", tc.want, out)
			}
		})
	}
}

// One item: "1 item", not "1 items".
func TestAgreeSingular(t *testing.T) {
	p := filepath.Join(t.TempDir(), "one.csv")
	os.WriteFile(p, []byte("id,r1,r2\n1,a,a\n"), 0o644)
	out, errOut, code := runCLI(t, "agree", "--labels", p, "--raters", "r1,r2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"n         1 item\n", "1 of 1 item agrees\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func nearly(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }

func TestAgreeHelp(t *testing.T) {
	out, _, code := runCLI(t, "agree", "--help")
	if code != 0 || !strings.Contains(out, "Usage: evalbook agree") || !strings.Contains(out, "-resamples") {
		t.Errorf("exit %d, help %q", code, out)
	}
}

// Kappa leaves out items missing a rating, and says so.
func TestAgreeMissingRatings(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gaps.csv")
	os.WriteFile(p, []byte("r1,r2\na,a\nb,\na,b\nNA,b\nb,b\n"), 0o644)
	out, _, code := runCLI(t, "agree", "--labels", p, "--raters", "r1,r2", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var r struct {
		N        int               `json:"n"`
		Warnings []results.Warning `json:"warnings"`
	}
	json.Unmarshal([]byte(out), &r)
	want := results.Warning{Code: "missing_ratings", Message: "2 items lack a rating from r1 or r2 and are left out (lines 3, 5)", Count: 2, Lines: []int{3, 5}}
	if r.N != 3 || len(r.Warnings) == 0 || !reflect.DeepEqual(r.Warnings[0], want) {
		t.Errorf("n %d, warnings %+v, want first %+v", r.N, r.Warnings, want)
	}
}

// The embedded copy of the sample pairs (datasets.Agreement) is the same
// data: kappa 0.798 on 30 items.
func TestAgreeEmbeddedSample(t *testing.T) {
	f, err := datasets.Agreement.Open("agreement/pairs.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tab, err := agree.ReadLabels(f, "pairs.csv", []string{"ann1", "ann2"}, "id")
	if err != nil {
		t.Fatal(err)
	}
	k, err := agree.CohenKappa(tab.Rater(0), tab.Rater(1))
	if err != nil || k.N != 30 || fmt.Sprintf("%.3f", k.Kappa) != "0.798" {
		t.Errorf("kappa %+v, %v", k, err)
	}
	if _, err := datasets.Agreement.Open("agreement/ratings.csv"); err != nil {
		t.Error(err)
	}
}

// The command only renders: its --json output is the JSON encoding of
// what agree.AnalyzeCSV returns for the same file and options, and its
// text is that result's WriteText.
func TestAgreeJSONIsResult(t *testing.T) {
	pairs := filepath.Join("..", "datasets", "agreement", "pairs.csv")
	ratings := filepath.Join("..", "datasets", "agreement", "ratings.csv")
	for _, tc := range []struct {
		file, raters, id string
		flags            []string
		opt              agree.Options
	}{
		{pairs, "ann1,ann2", "id", nil, agree.Options{Seed: 1}},
		{pairs, "ann2,ann1", "", []string{"--confidence", "0.9", "--resamples", "500", "--seed", "3"}, agree.Options{Confidence: 0.9, Resamples: 500, Seed: 3}},
		{ratings, "r1,r2", "id", []string{"--weights", "quadratic"}, agree.Options{Weights: agree.Quadratic, Seed: 1}},
		{ratings, "r1,r2", "id", []string{"--metric", "alpha", "--level", "ordinal", "--order", "1,2,3,4,5"}, agree.Options{Metric: agree.MetricAlpha, Level: agree.LevelOrdinal, Order: []string{"1", "2", "3", "4", "5"}, Seed: 1}},
		{ratings, "r1,r2,r3,r4", "id", []string{"--metric", "fleiss"}, agree.Options{Metric: agree.MetricFleiss, Seed: 1}},
		{ratings, "r1,r2,r3,r4", "", []string{"--metric", "alpha", "--level", "interval", "--seed", "9"}, agree.Options{Metric: agree.MetricAlpha, Level: agree.LevelInterval, Seed: 9}},
	} {
		args := append([]string{"agree", "--labels", tc.file, "--raters", tc.raters, "--id", tc.id}, tc.flags...)
		t.Run(strings.Join(args[3:], " "), func(t *testing.T) {
			f, err := os.Open(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			res, err := agree.AnalyzeCSV(f, tc.file, strings.Split(tc.raters, ","), tc.id, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			var want, text strings.Builder
			if err := cli.WriteJSON(&want, res); err != nil {
				t.Fatal(err)
			}
			if err := res.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			out, errOut, code := runCLI(t, append(args, "--json")...)
			if code != 0 || out != want.String() {
				t.Errorf("exit %d (%s); --json output differs from the JSON of agree.AnalyzeCSV:\n%s\nwant\n%s", code, errOut, out, want.String())
			}
			if out, _, _ := runCLI(t, args...); out != text.String() {
				t.Errorf("text output differs from the result's WriteText:\n%s\nwant\n%s", out, text.String())
			}
		})
	}
}

// A saved --json document is the whole result: decoded into
// results.RaterAgreement it re-encodes byte for byte and prints the same
// text as the command (the goldens of TestAgreeGolden, run with the same
// arguments).
func TestAgreeJSONReplays(t *testing.T) {
	for _, tc := range []struct{ json, text string }{
		{"agree_pairs.json", "agree_pairs.stdout"},
		{"agree_ratings_fleiss.json", ""},
		{"agree_ratings_alpha.json", ""},
	} {
		t.Run(tc.json, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", tc.json))
			if err != nil {
				t.Fatal(err)
			}
			var r results.RaterAgreement
			dec := json.NewDecoder(strings.NewReader(string(b)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&r); err != nil {
				t.Fatal(err)
			}
			var again strings.Builder
			cli.WriteJSON(&again, &r)
			if again.String() != string(b) {
				t.Errorf("re-encoded JSON differs:\n%s\nwant\n%s", again.String(), b)
			}
			if tc.text == "" {
				return
			}
			want, err := os.ReadFile(filepath.Join("testdata", tc.text))
			if err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			if err := r.WriteText(&text); err != nil || text.String() != string(want) {
				t.Errorf("WriteText of the decoded JSON (err %v):\n%s\nwant\n%s", err, text.String(), want)
			}
		})
	}
}
