package ratings

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// baseball is Agresti's Table 10.10 (Categorical Data Analysis, 2nd ed.,
// 2002): wins of the row team over the column team in the 1987 American
// League East, one verdict per game, the game "g<n>" its item.
var baseballTeams = []string{"Milwaukee", "Detroit", "Toronto", "New York", "Boston", "Cleveland", "Baltimore"}

var baseballWins = [][]int{
	{0, 7, 9, 7, 7, 9, 11},
	{6, 0, 7, 5, 11, 9, 9},
	{4, 6, 0, 7, 7, 8, 12},
	{6, 8, 6, 0, 6, 7, 10},
	{6, 2, 6, 7, 0, 7, 12},
	{4, 4, 5, 6, 6, 0, 6},
	{2, 4, 1, 3, 1, 7, 0},
}

func baseballVerdicts() []Verdict {
	var vs []Verdict
	for i, row := range baseballWins {
		for j, w := range row {
			for range w {
				vs = append(vs, Verdict{ModelA: baseballTeams[i], ModelB: baseballTeams[j], Winner: WinnerA, Item: fmt.Sprintf("g%d", len(vs))})
			}
		}
	}
	return vs
}

// Agresti's Table 10.11 (column 3) gives the log-strengths with Baltimore
// at 0: Milwaukee 1.58, Detroit 1.44, Toronto 1.29, New York 1.25,
// Boston 1.11, Cleveland 0.68, each with a standard error of about 0.3
// (the text on p. 437; BradleyTerry2's test of this data set checks both).
// A bootstrap over the 273 games gives 95% intervals about ±1.96 standard
// errors wide.
func TestAnalyzeAgrestiBaseball(t *testing.T) {
	vs := baseballVerdicts()
	if len(vs) != 21*13 {
		t.Fatalf("%d games, want 273", len(vs))
	}
	res, err := Analyze(vs, "baseball", Options{Anchor: "Baltimore", Resamples: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	theta := map[string]float64{}
	for _, r := range res.Ratings {
		theta[r.Model] = r.Rating
	}
	fisher := fisherSE(theta)
	want := map[string]float64{"Milwaukee": 1.58, "Detroit": 1.44, "Toronto": 1.29, "New York": 1.25, "Boston": 1.11, "Cleveland": 0.68, "Baltimore": 0}
	for i, r := range res.Ratings {
		if math.Abs(r.Rating-want[r.Model]) > 0.005 {
			t.Errorf("%s: %.4f, want %.2f", r.Model, r.Rating, want[r.Model])
		}
		if r.Rank != i+1 || r.Model != baseballTeams[i] {
			t.Errorf("rank %d: %+v", i+1, r)
		}
		if r.Comparisons != 78 {
			t.Errorf("%s: %d games, want 78", r.Model, r.Comparisons)
		}
		if math.Abs(r.Elo-(1000+400/math.Ln10*r.Rating)) > 1e-9 {
			t.Errorf("%s: elo %v", r.Model, r.Elo)
		}
		if r.Model == "Baltimore" {
			if r.CILow != 0 || r.CIHigh != 0 {
				t.Errorf("anchor interval [%v, %v]", r.CILow, r.CIHigh)
			}
			continue
		}
		// The interval's half-width over 1.96 is near the asymptotic
		// standard error (Fisher information), which rounds to Agresti's 0.3.
		if f := fisher[r.Model]; math.Round(f*10)/10 != 0.3 {
			t.Errorf("%s: asymptotic se %.3f does not round to 0.3", r.Model, f)
		}
		if se := (r.CIHigh - r.CILow) / (2 * 1.959964); math.Abs(se-fisher[r.Model]) > 0.2*fisher[r.Model] || r.CILow > r.Rating || r.CIHigh < r.Rating {
			t.Errorf("%s: interval [%.3f, %.3f] (se %.3f), want about ±1.96·%.3f around %.2f", r.Model, r.CILow, r.CIHigh, se, fisher[r.Model], r.Rating)
		}
	}
	if res.Replicates != 1000 || len(res.Warnings) != 0 || res.Settings.ResampleUnit != "item" || res.Items != 273 {
		t.Errorf("replicates %d, warnings %v, settings %+v, items %d", res.Replicates, res.Warnings, res.Settings, res.Items)
	}
	// The same seed gives the same result whatever GOMAXPROCS.
	prev := runtime.GOMAXPROCS(1)
	again, _ := Analyze(vs, "baseball", Options{Anchor: "Baltimore", Resamples: 1000, Seed: 1})
	runtime.GOMAXPROCS(prev)
	if !reflect.DeepEqual(res, again) {
		t.Error("GOMAXPROCS changes the ratings")
	}
	// Anchored at the mean, the ratings sum to 0 and differ by the same amounts.
	mean, _ := Analyze(vs, "baseball", Options{Resamples: -1})
	sum := 0.0
	for _, r := range mean.Ratings {
		sum += r.Rating
	}
	if math.Abs(sum) > 1e-9 || math.Abs((mean.Ratings[0].Rating-mean.Ratings[6].Rating)-1.58) > 0.005 || mean.Settings.Anchor != "mean" {
		t.Errorf("mean anchor: sum %v, %+v", sum, mean.Ratings)
	}
}

// The hand-computed 3-model fit (see stats.TestBradleyTerryHand): A–B
// 3 wins to 1, B–C 2 to 4, A and C never met, so θA − θB = ln 3 and
// θC − θB = ln 2. Anchored at B: A = ln 3 = 1.0986, C = ln 2 = 0.6931.
// Two ties between A and B make it 4 to 2: θA − θB = ln 2.
func TestAnalyzeHand(t *testing.T) {
	in := "model_a,model_b,winner\nA,B,a\nA,B,a\nB,A,b\nB,A,a\nB,C,a\nC,B,b\nB,C,b\nB,C,b\nC,B,a\nC,B,a\n"
	res, err := File(strings.NewReader(in), "v.csv", Options{Anchor: "B", Resamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, r := range res.Ratings {
		got[r.Model] = r.Rating
	}
	if math.Abs(got["A"]-math.Log(3)) > 1e-8 || math.Abs(got["C"]-math.Log(2)) > 1e-8 || got["B"] != 0 {
		t.Errorf("ratings %v, want A ln 3, B 0, C ln 2", got)
	}
	res, err = File(strings.NewReader(in+"A,B,tie\nB,A,TIE\n"), "v.csv", Options{Anchor: "B", Resamples: 200, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Ratings {
		if r.Model == "A" && (math.Abs(r.Rating-math.Ln2) > 1e-8 || r.Ties != 2 || r.Wins != 3 || r.Losses != 1) {
			t.Errorf("with ties: %+v, want rating ln 2, 3 wins, 1 loss, 2 ties", r)
		}
	}
	// Resampling 12 verdicts often leaves A without a loss: those
	// replicates are counted, and the models get a few_comparisons warning.
	codes := map[string]int{}
	for _, w := range res.Warnings {
		codes[w.Code] = w.Count
	}
	if codes[CodeBootstrapNotEstimable] == 0 || codes[CodeBootstrapNotEstimable] != 200-res.Replicates || codes[CodeFewComparisons] != 2 {
		t.Errorf("warnings %+v (replicates %d)", res.Warnings, res.Replicates)
	}
}

// A disconnected graph, and a model that never loses, are reported by
// name and not fitted.
func TestAnalyzeNotEstimable(t *testing.T) {
	var ne *NotEstimableError
	_, err := File(strings.NewReader("model_a,model_b,winner\nA,B,a\nB,A,a\nC,D,tie\n"), "v.csv", Options{})
	if !errors.As(err, &ne) || !ne.Disconnected || !reflect.DeepEqual(ne.Groups, [][]string{{"A", "B"}, {"C", "D"}}) ||
		!strings.Contains(err.Error(), "{A, B} | {C, D}") {
		t.Errorf("disconnected: %v", err)
	}
	_, err = File(strings.NewReader("model_a,model_b,winner\nA,B,a\nB,A,a\nC,A,a\nB,C,b\n"), "v.csv", Options{})
	if !errors.As(err, &ne) || ne.Disconnected || !reflect.DeepEqual(ne.Groups, [][]string{{"C"}, {"A", "B"}}) ||
		!strings.Contains(err.Error(), "{C} > {A, B}") {
		t.Errorf("never loses: %v", err)
	}
	if _, err := File(strings.NewReader("model_a,model_b,winner\nA,B,a\nB,A,a\n"), "v.csv", Options{Anchor: "Z"}); err == nil || !strings.Contains(err.Error(), `"Z"`) {
		t.Errorf("unknown anchor: %v", err)
	}
}

// Reader errors are *tabular.ParseError with file, line, column and field.
func TestReadVerdictsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, field, msg string
		line, col            int
	}{
		{"v.csv", "model_a,model_b\nA,B\n", "winner", `no column "winner"`, 1, 0},
		{"v.csv", "model_a,model_b,winner\nA,B,a\nA,B,draw\n", "winner", `winner "draw": want a, b or tie`, 3, 5},
		{"v.csv", "model_a,model_b,winner\nA,A,a\n", "model_b", "compared with itself", 2, 3},
		{"v.csv", "model_a,model_b,winner\n,B,a\n", "model_a", "empty model name", 2, 1},
		{"v.jsonl", `{"model_a":"A","model_b":"B","winner":"x"}` + "\n", "winner", `winner "x"`, 1, 39},
		{"v.csv", "model_a,model_b,winner\n", "", "no verdicts", 1, 0},
	} {
		_, err := ReadVerdicts(strings.NewReader(tc.in), tc.name)
		var pe *tabular.ParseError
		if !errors.As(err, &pe) || pe.File != tc.name || pe.Line != tc.line || pe.Column != tc.col || pe.Field != tc.field || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: %v (%+v), want line %d col %d field %q: %s", tc.in, err, pe, tc.line, tc.col, tc.field, tc.msg)
		}
	}
	_, err := ReadVerdicts(strings.NewReader("model_a,model_b,winner\nA\xff,B,a\n"), "v.csv")
	if !errors.Is(err, tabular.ErrInvalidUTF8) {
		t.Errorf("invalid UTF-8: %v", err)
	}
	vs, err := ReadVerdicts(strings.NewReader(`{"item_id":"q1","model_a":"A","model_b":"B","winner":"Model_B"}`+"\n"), "v.jsonl")
	if err != nil || len(vs) != 1 || vs[0].Winner != WinnerB || vs[0].Item != "q1" || vs[0].Line != 1 {
		t.Errorf("JSONL: %+v, %v", vs, err)
	}
}

// fisherSE returns the asymptotic standard errors of the log-strengths
// against Baltimore (the last team): the square roots of the diagonal of
// the inverse Fisher information, I_ii = Σ_j n_ij p_ij (1 − p_ij),
// I_ij = −n_ij p_ij (1 − p_ij), over the six other teams.
func fisherSE(theta map[string]float64) map[string]float64 {
	const k = 6
	a := make([][]float64, k)
	for i := range a {
		a[i] = make([]float64, 2*k)
		a[i][k+i] = 1
	}
	for i := 0; i < 7; i++ {
		for j := i + 1; j < 7; j++ {
			n := float64(baseballWins[i][j] + baseballWins[j][i])
			p := 1 / (1 + math.Exp(theta[baseballTeams[j]]-theta[baseballTeams[i]]))
			v := n * p * (1 - p)
			if i < k {
				a[i][i] += v
			}
			if j < k {
				a[j][j] += v
			}
			if i < k && j < k {
				a[i][j] -= v
				a[j][i] -= v
			}
		}
	}
	// Gauss-Jordan elimination (the matrix is positive definite).
	for c := range k {
		piv := a[c][c]
		for j := range a[c] {
			a[c][j] /= piv
		}
		for r := range k {
			if r != c {
				f := a[r][c]
				for j := range a[r] {
					a[r][j] -= f * a[c][j]
				}
			}
		}
	}
	out := map[string]float64{}
	for i := range k {
		out[baseballTeams[i]] = math.Sqrt(a[i][k+i])
	}
	return out
}
