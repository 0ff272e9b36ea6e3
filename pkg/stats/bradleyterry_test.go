package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// The 1987 American League East (Agresti, Categorical Data Analysis, 2nd
// ed., 2002, Table 10.10: wins of the row team over the column team,
// 13 games per pair). Agresti's Table 10.11 (column 3, also checked by the
// BradleyTerry2 R package's test of its baseball data set) gives the
// Bradley-Terry log-strengths with Baltimore at 0: Milwaukee 1.58,
// Detroit 1.44, Toronto 1.29, New York 1.25, Boston 1.11, Cleveland 0.68.
func TestBradleyTerryAgrestiBaseball(t *testing.T) {
	// Milwaukee, Detroit, Toronto, New York, Boston, Cleveland, Baltimore.
	wins := [][]float64{
		{0, 7, 9, 7, 7, 9, 11},
		{6, 0, 7, 5, 11, 9, 9},
		{4, 6, 0, 7, 7, 8, 12},
		{6, 8, 6, 0, 6, 7, 10},
		{6, 2, 6, 7, 0, 7, 12},
		{4, 4, 5, 6, 6, 0, 6},
		{2, 4, 1, 3, 1, 7, 0},
	}
	fit, err := BradleyTerry(wins)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1.58, 1.44, 1.29, 1.25, 1.11, 0.68}
	for i, w := range want {
		if got := fit.Theta[i] - fit.Theta[6]; math.Abs(got-w) > 0.005 {
			t.Errorf("team %d: %.4f, want %.2f (Agresti Table 10.11)", i, got, w)
		}
	}
	sum := 0.0
	for _, x := range fit.Theta {
		sum += x
	}
	if math.Abs(sum) > 1e-9 {
		t.Errorf("log-strengths sum to %v, want 0", sum)
	}
	// The likelihood equations hold: each team's expected wins equal its
	// observed wins (Σⱼ Nᵢⱼ πᵢⱼ = Wᵢ).
	for i := range wins {
		obs, exp := 0.0, 0.0
		for j := range wins {
			if i != j {
				obs += wins[i][j]
				exp += (wins[i][j] + wins[j][i]) / (1 + math.Exp(fit.Theta[j]-fit.Theta[i]))
			}
		}
		if math.Abs(obs-exp) > 1e-6 {
			t.Errorf("team %d: %v wins, %v expected", i, obs, exp)
		}
	}
}

// A hand-computed 3-model fit. A and B met 4 times (A won 3), B and C met
// 6 times (B won 2, C 4), A and C never met. The likelihood splits into
// the two pairs, so θA − θB = ln(3/1) and θB − θC = ln(2/4); with
// Σθ = 0:
//
//	θA = θB + ln 3,  θC = θB + ln 2,  3θB + ln 3 + ln 2 = 0
//	θB = −ln 6 / 3 = −0.597253,  θA = 0.501359,  θC = 0.095894
//
// A tie counts half a win to each side: two more A–B ties make it
// 4 to 2, θA − θB = ln 2.
func TestBradleyTerryHand(t *testing.T) {
	fit, err := BradleyTerry([][]float64{{0, 3, 0}, {1, 0, 2}, {0, 4, 0}})
	if err != nil {
		t.Fatal(err)
	}
	lb := -math.Log(6) / 3
	want := []float64{lb + math.Log(3), lb, lb + math.Log(2)}
	for i := range want {
		if math.Abs(fit.Theta[i]-want[i]) > 1e-8 {
			t.Errorf("θ = %v, want %v", fit.Theta, want)
			break
		}
	}
	fit, err = BradleyTerry([][]float64{{0, 4, 0}, {2, 0, 2}, {0, 4, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if d := fit.Theta[0] - fit.Theta[1]; math.Abs(d-math.Ln2) > 1e-8 {
		t.Errorf("with ties θA − θB = %v, want ln 2", d)
	}
}

// No MLE: a disconnected graph names its components; a model that never
// loses, or a group that never loses to the rest, names the groups best
// first.
func TestBradleyTerryNotEstimable(t *testing.T) {
	var ne *NotEstimableError
	_, err := BradleyTerry([][]float64{{0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 2}, {0, 0, 1, 0}})
	if !errors.As(err, &ne) || !ne.Disconnected || !reflect.DeepEqual(ne.Components, [][]int{{0, 1}, {2, 3}}) {
		t.Errorf("disconnected: %v %+v", err, ne)
	}
	// 2 beats 0 and 1 and never loses; 0 and 1 beat each other.
	_, err = BradleyTerry([][]float64{{0, 1, 0}, {1, 0, 0}, {3, 2, 0}})
	if !errors.As(err, &ne) || ne.Disconnected || !reflect.DeepEqual(ne.Components, [][]int{{2}, {0, 1}}) {
		t.Errorf("never loses: %v %+v", err, ne)
	}
	// 0 never wins.
	_, err = BradleyTerry([][]float64{{0, 0, 0}, {1, 0, 1}, {1, 1, 0}})
	if !errors.As(err, &ne) || !reflect.DeepEqual(ne.Components, [][]int{{1, 2}, {0}}) {
		t.Errorf("never wins: %v %+v", err, ne)
	}
}

// Issue 28 (defect d): on a sparse chain the MM iteration crawls (its
// rate approaches 1), so stopping when a sweep moves no strength by more
// than 1e-10 left θ up to 5e-8 from the MLE. A chain is a tree, so the
// likelihood splits into its pairs and the MLE is known by hand:
// θᵢ − θᵢ₊₁ = ln(wᵢ,ᵢ₊₁ / wᵢ₊₁,ᵢ), centred to sum 0 (as TestBradleyTerryHand).
// Newton steps on the full likelihood after MM now put it within 1e-12.
func TestBradleyTerrySparseChain(t *testing.T) {
	for _, k := range []int{10, 30, 60} {
		wins := make([][]float64, k)
		for i := range wins {
			wins[i] = make([]float64, k)
		}
		want := make([]float64, k)
		for i := 0; i+1 < k; i++ {
			wins[i][i+1], wins[i+1][i] = float64(2+i%3), float64(1+i%2)
			want[i+1] = want[i] - math.Log(wins[i][i+1]/wins[i+1][i])
		}
		mean := 0.0
		for _, v := range want {
			mean += v
		}
		mean /= float64(k)
		fit, err := BradleyTerry(wins)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for i := range want {
			worst = math.Max(worst, math.Abs(fit.Theta[i]-(want[i]-mean)))
		}
		if worst > 1e-12 {
			t.Errorf("chain of %d: θ is %.3g from the MLE (%d sweeps)", k, worst, fit.Iterations)
		}
	}
}

// The pattern grouping of BradleyTerryBootstrap: the wins of any count
// vector over units, summed through the patterns, are the wins summed
// unit by unit.
func TestBTPatternsSumAsUnits(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 9))
	const k = 6
	units := make([][]BTOutcome, 500)
	for u := range units {
		for range 1 + r.IntN(3) {
			i, j := r.IntN(k), r.IntN(k-1)
			if j >= i {
				j++
			}
			if r.IntN(5) == 0 {
				units[u] = append(units[u], BTOutcome{i, j, 0.5}, BTOutcome{j, i, 0.5})
			} else {
				units[u] = append(units[u], BTOutcome{i, j, 1})
			}
		}
	}
	pat := btPatternsOf(k, units)
	if len(pat.mult) >= len(units) {
		t.Fatalf("%d patterns for %d units: nothing grouped", len(pat.mult), len(units))
	}
	for range 20 {
		cu := make([]int32, len(units))
		cq := make([]int32, len(pat.mult))
		want := make([]float64, k*k)
		for u := range cu {
			cu[u] = int32(r.IntN(4))
			cq[pat.of[u]] += cu[u]
			for _, o := range units[u] {
				want[o.I*k+o.J] += float64(cu[u]) * o.W
			}
		}
		got := make([]float64, k*k)
		pat.add(got, cq)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("wins by pattern %v, by unit %v", got, want)
		}
	}
}

// When the patterns are few the replicates draw multinomial pattern
// counts; their spread must be the bootstrap's. For 3 models with
// θ = (0.5, 0, −0.5) and 1,000 verdicts per pair at the expected win
// counts, the asymptotic standard errors of θ̂ are the diagonal of the
// pseudo-inverse of the information L (Lᵢⱼ = −Nᵢⱼπᵢⱼπⱼᵢ, Lᵢᵢ = −Σⱼ Lᵢⱼ),
// L⁺ = (L + 11ᵀ/3)⁻¹ − 11ᵀ/3 (computed here by the 3×3 adjugate). At
// 4,000 replicates a bootstrap standard deviation has a Monte Carlo
// relative error of about 1/√8000 = 1.1%, and at 3,000 verdicts it
// differs from the asymptotic figure by O(1/n): 6% is four of those.
func TestBradleyTerryBootstrapGroupedSpread(t *testing.T) {
	theta := []float64{0.5, 0, -0.5}
	var units [][]BTOutcome
	var L [3][3]float64
	for i := range 3 {
		for j := i + 1; j < 3; j++ {
			p := 1 / (1 + math.Exp(theta[j]-theta[i]))
			wi := int(math.Round(1000 * p))
			for v := range 1000 {
				if v < wi {
					units = append(units, []BTOutcome{{i, j, 1}})
				} else {
					units = append(units, []BTOutcome{{j, i, 1}})
				}
			}
			L[i][j] -= 1000 * p * (1 - p)
			L[j][i] -= 1000 * p * (1 - p)
			L[i][i] += 1000 * p * (1 - p)
			L[j][j] += 1000 * p * (1 - p)
		}
	}
	var A [3][3]float64
	for i := range 3 {
		for j := range 3 {
			A[i][j] = L[i][j] + 1.0/3
		}
	}
	det := A[0][0]*(A[1][1]*A[2][2]-A[1][2]*A[2][1]) - A[0][1]*(A[1][0]*A[2][2]-A[1][2]*A[2][0]) + A[0][2]*(A[1][0]*A[2][1]-A[1][1]*A[2][0])
	inv := [3]float64{
		(A[1][1]*A[2][2] - A[1][2]*A[2][1]) / det,
		(A[0][0]*A[2][2] - A[0][2]*A[2][0]) / det,
		(A[0][0]*A[1][1] - A[0][1]*A[1][0]) / det,
	}
	reps, dropped, err := BradleyTerryBootstrap(3, units, 4000, 7)
	if err != nil || dropped != 0 {
		t.Fatalf("err %v, dropped %d", err, dropped)
	}
	for i := range 3 {
		var s, ss float64
		for _, r := range reps {
			s += r[i]
			ss += r[i] * r[i]
		}
		m := s / 4000
		sd := math.Sqrt((ss - 4000*m*m) / 3999)
		se := math.Sqrt(inv[i] - 1.0/3)
		if math.Abs(sd/se-1) > 0.06 {
			t.Errorf("model %d: bootstrap sd %.5f, asymptotic se %.5f", i, sd, se)
		}
	}
}
