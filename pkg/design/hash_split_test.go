package design

import (
	"fmt"
	"reflect"
	"regexp"
	"testing"
)

func TestHashOrderIndependent(t *testing.T) {
	cases := readSampleCases(t)
	h := Hash(cases)
	if !regexp.MustCompile(`^[0-9a-f]{12}$`).MatchString(h) {
		t.Fatalf("Hash = %q, want 12 lower-case hex characters", h)
	}
	rev := make([]Case, len(cases))
	for i := range cases {
		rev[len(cases)-1-i] = cases[i]
	}
	rot := append(append([]Case(nil), cases[7:]...), cases[:7]...)
	for name, c := range map[string][]Case{"reversed": rev, "rotated": rot} {
		if got := Hash(c); got != h {
			t.Errorf("%s: Hash = %s, want %s", name, got, h)
		}
	}
	// nil and empty lists are the same record.
	a := Case{ID: "x", Why: "some reason"}
	b := a
	b.DocIDs, b.Facts = []string{}, []string{}
	if Hash([]Case{a}) != Hash([]Case{b}) {
		t.Error("nil and empty doc_ids/facts hash differently")
	}
}

func TestHashEditSensitive(t *testing.T) {
	base := readSampleCases(t)
	h := Hash(base)
	edits := map[string]func(c *Case){
		"id":             func(c *Case) { c.ID += "x" },
		"question space": func(c *Case) { c.Question += " " },
		"task":           func(c *Case) { c.Task = "paraphrase" },
		"set":            func(c *Case) { c.Set = "adversarial" },
		"lang":           func(c *Case) { c.Lang = "bn" },
		"expect":         func(c *Case) { c.Expect = "abstain" },
		"doc_ids":        func(c *Case) { c.DocIDs = append(c.DocIDs, "ir-extra") },
		"facts order":    func(c *Case) { c.Facts = []string{c.Facts[1], c.Facts[0]} },
		"why":            func(c *Case) { c.Why = "Changed." + c.Why },
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			c := append([]Case(nil), base...)
			i := 9 // g10, a multi_fact case with two facts
			c[i].DocIDs = append([]string(nil), c[i].DocIDs...)
			edit(&c[i])
			if got := Hash(c); got == h {
				t.Errorf("edit %s left the hash at %s", name, h)
			}
		})
	}
	if got := Hash(base[:30]); got == h {
		t.Error("dropping a case left the hash unchanged")
	}
	if got := Hash(append(append([]Case(nil), base...), base[0])); got == h {
		t.Error("a duplicated record left the hash unchanged")
	}
}

func TestSplitStableUnderAdditions(t *testing.T) {
	cases := readSampleCases(t)
	dev, hold, err := Split(cases, DefaultHoldout, DefaultSalt)
	if err != nil {
		t.Fatal(err)
	}
	if len(dev)+len(hold) != len(cases) {
		t.Fatalf("split lost cases: %d + %d != %d", len(dev), len(hold), len(cases))
	}
	side := map[string]bool{}
	for _, c := range hold {
		side[c.ID] = true
	}
	more := append([]Case(nil), cases...)
	for i := 0; i < 500; i++ {
		more = append(more, Case{ID: fmt.Sprintf("new%03d", i)})
	}
	// Reordered as well: the side must depend on the id alone.
	for i, j := 0, len(more)-1; i < j; i, j = i+1, j-1 {
		more[i], more[j] = more[j], more[i]
	}
	_, hold2, err := Split(more, DefaultHoldout, DefaultSalt)
	if err != nil {
		t.Fatal(err)
	}
	inHold2 := map[string]bool{}
	for _, c := range hold2 {
		inHold2[c.ID] = true
	}
	for _, c := range cases {
		if side[c.ID] != inHold2[c.ID] {
			t.Errorf("case %s moved across the split when cases were added", c.ID)
		}
	}
	// Reproducible, and a different salt draws a different split.
	_, again, _ := Split(cases, DefaultHoldout, DefaultSalt)
	if !reflect.DeepEqual(hold, again) {
		t.Error("same salt, different holdout")
	}
	_, other, _ := Split(cases, DefaultHoldout, "another salt")
	if reflect.DeepEqual(hold, other) {
		t.Error("a different salt gave the same holdout")
	}
}

func TestSplitShare(t *testing.T) {
	var cases []Case
	for i := 0; i < 10000; i++ {
		cases = append(cases, Case{ID: fmt.Sprintf("c%05d", i)})
	}
	_, hold, err := Split(cases, 0.35, DefaultSalt)
	if err != nil {
		t.Fatal(err)
	}
	// Binomial(10000, 0.35): mean 3500, sd sqrt(10000 x 0.35 x 0.65) = 47.7;
	// a hash that behaves like a fair draw stays within 5 sd (3261..3739).
	if n := len(hold); n < 3261 || n > 3739 {
		t.Errorf("holdout %d of 10000 at share 0.35, want 3261..3739", n)
	}
	for _, share := range []float64{0, 1} {
		dev, hold, _ := Split(cases[:100], share, "s")
		if share == 0 && len(hold) != 0 || share == 1 && len(dev) != 0 {
			t.Errorf("share %v: dev %d holdout %d", share, len(dev), len(hold))
		}
	}
	for _, bad := range []float64{-0.1, 1.5} {
		if _, _, err := Split(cases, bad, "s"); err == nil {
			t.Errorf("share %v accepted", bad)
		}
	}
	// Larger shares only add cases to the holdout.
	_, h1, _ := Split(cases[:1000], 0.2, "s")
	_, h2, _ := Split(cases[:1000], 0.4, "s")
	in2 := map[string]bool{}
	for _, c := range h2 {
		in2[c.ID] = true
	}
	for _, c := range h1 {
		if !in2[c.ID] {
			t.Fatalf("%s is in the 0.2 holdout but not in the 0.4 holdout", c.ID)
		}
	}
}
