package stats

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestDawidSkeneTable1 fits the Dawid-Skene model to the data of Dawid and
// Skene's Table 1 (1979: 45 patients, 5 observers, observer 1 three
// times; transcribed into ../jury/testdata/dawid_skene_table1.csv from the
// table as dallascard/dawid_skene's generate_sample_data ships it) from the
// paper's initialisation (eq. 3.1). Expected: the class marginals
// (0.3996, 0.4220, 0.1118, 0.0667) and log-likelihood -192.8909 that
// issue 28 states for this fit, to the 4 decimals given.
func TestDawidSkeneTable1(t *testing.T) {
	f, err := os.Open("../jury/testdata/dawid_skene_table1.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	items := map[string]int{}
	raters := map[string]int{}
	var counts [][][]float64
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		c := strings.Split(sc.Text(), ",")
		if _, ok := items[c[0]]; !ok {
			items[c[0]] = len(items)
			counts = append(counts, nil)
		}
		if _, ok := raters[c[1]]; !ok {
			raters[c[1]] = len(raters)
		}
		l, _ := strconv.Atoi(c[2])
		i, k := items[c[0]], raters[c[1]]
		for len(counts[i]) <= k {
			counts[i] = append(counts[i], make([]float64, 4))
		}
		counts[i][k][l-1]++
	}
	if len(items) != 45 || len(raters) != 5 {
		t.Fatalf("read %d items, %d raters; want 45, 5", len(items), len(raters))
	}
	fit := DawidSkene(counts, 4, DawidSkeneOptions{})
	if !fit.Converged {
		t.Fatalf("not converged after %d iterations", fit.Iterations)
	}
	for j, want := range []float64{0.3996, 0.4220, 0.1118, 0.0667} {
		if got := fit.Marginals[j]; math.Abs(got-want) > 5e-5 {
			t.Errorf("marginal %d = %.6f, want %.4f", j+1, got, want)
		}
	}
	if math.Abs(fit.LogLik-(-192.8909)) > 5e-5 {
		t.Errorf("log-likelihood %.6f, want -192.8909", fit.LogLik)
	}
	t.Logf("marginals %.6f, loglik %.6f, %d iterations", fit.Marginals, fit.LogLik, fit.Iterations)
}
