package correct

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// TestFilesIssue28 reads the worked example of issue 28 from files (20
// labelled: human 1 with judge 1 ×11 and judge 0 ×1, human 0 with judge
// 1 ×2 and judge 0 ×6; 200 judged, 150 pass; the labelled ids are among
// the judged) and checks each method against the issue's reference
// values, which are ppi_py's (classical_mean_ci, ppi_mean_ci) at alpha
// 0.05, to 1e-8. The naive figure is 150/200 with Wilson's interval, by
// hand to 1e-4: centre (0.75 + z²/400)/(1 + z²/200) = 0.745289, half-width
// z/(1 + z²/200)·√(0.1875/200 + z²/160000) = 0.059630 (z = 1.959964), so
// (0.6857, 0.8049).
func TestFilesIssue28(t *testing.T) {
	want := map[string][3]float64{
		MethodClassical: {0.60, 0.3852967028, 0.8147032972},
		MethodPPI:       {0.70, 0.5213043749, 0.8786956251},
		MethodPPIPlus:   {0.6754278334, 0.5121901440, 0.8386655228},
		MethodNaive:     {0.75, 0.6857, 0.8049},
	}
	for _, m := range []string{MethodClassical, MethodPPI, MethodPPIPlus} {
		res, err := Files("testdata/labelled.csv", "testdata/judged.csv", Options{Method: m})
		if err != nil {
			t.Fatal(err)
		}
		methods := []string{MethodNaive, MethodClassical}
		if m != MethodClassical {
			methods = append(methods, m)
		}
		if len(res.Estimates) != len(methods) {
			t.Fatalf("%s: %d estimates, want %d", m, len(res.Estimates), len(methods))
		}
		for i, e := range res.Estimates {
			w, tol := want[e.Method], 1e-8
			if e.Method == MethodNaive {
				tol = 1e-4
			}
			if e.Method != methods[i] || e.Group != "" || e.NLabelled != 20 || e.NUnlabelled != 200 ||
				math.Abs(e.Estimate-w[0]) > tol || math.Abs(e.CILow-w[1]) > tol || math.Abs(e.CIHigh-w[2]) > tol {
				t.Errorf("%s: estimate %d = %+v, want %s %v", m, i, e, methods[i], w)
			}
		}
		g := res.Groups[0]
		if *g.Sensitivity != 11.0/12 || *g.Specificity != 6.0/8 || g.UnlabelledPass != 150 {
			t.Errorf("%s: judge figures %+v", m, g)
		}
	}
}

// TestRoganGladenFiles checks the rogan-gladen method reads the judge's
// sensitivity 11/12 and specificity 6/8 from the labels and passes them,
// with m1 = 12, m0 = 8, to stats.RoganGladen (whose reference values are
// tested in pkg/stats): (0.75 + 0.75 − 1)/(0.75 + 11/12 − 1) = 0.75 by hand.
func TestRoganGladenFiles(t *testing.T) {
	res, err := Files("testdata/labelled.csv", "testdata/judged.csv", Options{Method: MethodRoganGladen})
	if err != nil {
		t.Fatal(err)
	}
	e := res.Estimates[2]
	if e.Method != MethodRoganGladen || math.Abs(e.Estimate-0.75) > 1e-12 || !(e.CILow < 0.75 && e.CIHigh > 0.75) {
		t.Errorf("rogan-gladen: %+v, want 0.75 inside its interval", e)
	}
}

func TestBy(t *testing.T) {
	res, err := Files("testdata/labelled.csv", "testdata/judged.csv", Options{By: "lang"})
	if err != nil {
		t.Fatal(err)
	}
	var groups []string
	for _, g := range res.Groups {
		groups = append(groups, g.Group)
	}
	if strings.Join(groups, ",") != ",bn,hi" || len(res.Estimates) != 9 {
		t.Fatalf("groups %q, %d estimates; want all, bn, hi with 3 each", groups, len(res.Estimates))
	}
	for _, g := range res.Groups[1:] {
		if g.NLabelled != 10 || g.NUnlabelled != 100 {
			t.Errorf("group %s: %d labelled, %d unlabelled; want 10 and 100", g.Group, g.NLabelled, g.NUnlabelled)
		}
	}
}

// TestErrors checks that bad input gets an error naming the file, line
// and column (issue 28: a non-0/1 label, an unlabelled set smaller than
// the labelled, a missing column, a single class).
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	judged := write("judged.csv", "id,judge,lang\na,1,hi\nb,0,hi\nc,1,bn\nd,1,bn\n")
	cases := []struct {
		name, lab, unl string
		opt            Options
		want           []string
	}{
		{"non-0/1 human", "id,human,judge\na,1,1\nb,yes,0\n", judged, Options{}, []string{"lab.csv:3:3", `column "human"`, `"yes" is not a verdict`}},
		{"non-0/1 judge", "id,human,judge\na,1,2\n", judged, Options{}, []string{"lab.csv:2:5", `"2" is not a verdict`}},
		{"missing column", "id,label,judge\na,1,1\n", judged, Options{}, []string{"lab.csv:1", `no column "human"`}},
		{"missing by column", "id,human,judge\na,1,1\nb,0,0\n", judged, Options{By: "language"}, []string{"lab.csv:1", `no column "language"`, "--by"}},
		{"single class", "id,human,judge\na,1,1\nb,1,0\n", judged, Options{}, []string{"lab.csv:2", "every labelled row has human 1", "single class"}},
		{"smaller unlabelled", "id,human,judge\na,1,1\nb,0,0\nc,1,1\nd,0,1\ne,1,1\n", judged, Options{}, []string{"judged.csv", "4 unlabelled rows, fewer than the 5 labelled"}},
		{"judge disagrees", "id,human,judge\na,1,0\nb,0,0\n", judged, Options{}, []string{"lab.csv:2", "judge 0 here and 1 in", "line 2"}},
		{"repeated id", "id,human,judge\na,1,1\na,0,0\n", judged, Options{}, []string{"lab.csv:3", "repeats line 2"}},
		{"group without judged rows", "id,human,judge,lang\na,1,1,hi\nb,0,0,ta\n", judged, Options{By: "lang"}, []string{"lab.csv:3", `group "ta"`}},
		{"single class group under rogan-gladen", "id,human,judge,lang\na,1,1,hi\nb,0,0,hi\nc,1,1,bn\n", judged,
			Options{By: "lang", Method: MethodRoganGladen}, []string{"lab.csv:4", `group "bn"`, "specificity"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lab := write("lab.csv", c.lab)
			_, err := Files(lab, c.unl, c.opt)
			var pe *tabular.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a *tabular.ParseError", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestSingleClassGroupWarns: under PPI a group with one human verdict is
// corrected with a warning, not refused.
func TestSingleClassGroupWarns(t *testing.T) {
	dir := t.TempDir()
	lab, unl := filepath.Join(dir, "l.csv"), filepath.Join(dir, "u.csv")
	os.WriteFile(lab, []byte("id,human,judge,lang\na,1,1,hi\nb,0,0,hi\nc,1,1,bn\n"), 0o644)
	os.WriteFile(unl, []byte("id,judge,lang\na,1,hi\nb,0,hi\nc,1,bn\nd,0,bn\n"), 0o644)
	res, err := Files(lab, unl, Options{By: "lang"})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range res.Warnings {
		found = found || (w.Code == CodeSingleClass && strings.Contains(w.Message, `"bn"`))
	}
	if !found {
		t.Errorf("warnings %+v, want %s for bn", res.Warnings, CodeSingleClass)
	}
}

func TestMethodUnknown(t *testing.T) {
	if _, err := Files("testdata/labelled.csv", "testdata/judged.csv", Options{Method: "ppi+"}); !errors.Is(err, ErrMethod) {
		t.Errorf("error %v, want ErrMethod", err)
	}
}
