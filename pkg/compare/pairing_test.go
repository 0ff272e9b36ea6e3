package compare

import (
	"errors"
	"slices"
	"testing"
)

// Pairing pairs by key in any order and keeps a key only for a flip;
// every way two versions fail to pair is ErrNotPaired.
func TestPairing(t *testing.T) {
	show := func(k string) func() string { return func() string { return k } }
	p := NewPairing(true)
	for _, c := range []struct {
		k string
		v byte
		g string
	}{{"a", 1, "x"}, {"b", 0, "x"}, {"c", 1, "y"}} {
		if err := p.AddNew(p.KeyString(c.k), c.v, []byte(c.g)); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Seal(); err != nil {
		t.Fatal(err)
	}
	asked := 0
	for _, c := range []struct {
		k string
		v byte
		g string
	}{{"c", 1, "y"}, {"b", 1, "x"}, {"a", 0, "x"}} { // old: another order, b and a flipped
		if err := p.AddOld(p.Key([]byte(c.k)), c.v, []byte(c.g), func() string { asked++; return c.k }); err != nil {
			t.Fatal(err)
		}
	}
	res, err := p.Compare(Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// old c=1 b=1 a=0 (2/3), new c=1 b=0 a=1 (2/3): b got worse, a better.
	if res.N != 3 || res.OldPass != 2 || res.NewPass != 2 || !slices.Equal(res.Better, []string{"a"}) || !slices.Equal(res.Worse, []string{"b"}) || asked != 2 {
		t.Errorf("n %d, pass %d/%d, better %v, worse %v, keys asked %d", res.N, res.OldPass, res.NewPass, res.Better, res.Worse, asked)
	}
	if len(res.Groups) != 2 || res.By != "group" {
		t.Errorf("groups %+v by %q", res.Groups, res.By)
	}

	refused := map[string]func() error{
		"a key twice in new": func() error {
			p := NewPairing(false)
			p.AddNew(p.KeyString("a"), 1, nil)
			p.AddNew(p.KeyString("a"), 0, nil)
			return p.Seal()
		},
		"no case": func() error { return NewPairing(false).Seal() },
		"an outcome not 0/1": func() error {
			p := NewPairing(false)
			return p.AddNew(p.KeyString("a"), 2, nil)
		},
		"a key only in old": func() error {
			p := NewPairing(false)
			p.AddNew(p.KeyString("a"), 1, nil)
			p.Seal()
			return p.AddOld(p.KeyString("b"), 1, nil, show("b"))
		},
		"a key twice in old": func() error {
			p := NewPairing(false)
			p.AddNew(p.KeyString("a"), 1, nil)
			p.Seal()
			p.AddOld(p.KeyString("a"), 1, nil, show("a"))
			return p.AddOld(p.KeyString("a"), 1, nil, show("a"))
		},
		"another group": func() error {
			p := NewPairing(true)
			p.AddNew(p.KeyString("a"), 1, []byte("x"))
			p.Seal()
			return p.AddOld(p.KeyString("a"), 1, []byte("y"), show("a"))
		},
		"a key only in new": func() error {
			p := NewPairing(false)
			p.AddNew(p.KeyString("a"), 1, nil)
			p.AddNew(p.KeyString("b"), 1, nil)
			p.Seal()
			p.AddOld(p.KeyString("a"), 1, nil, show("a"))
			_, err := p.Compare(Options{})
			return err
		},
		"new after seal": func() error {
			p := NewPairing(false)
			p.AddNew(p.KeyString("a"), 1, nil)
			p.Seal()
			return p.AddNew(p.KeyString("b"), 1, nil)
		},
	}
	for name, f := range refused {
		if err := f(); !errors.Is(err, ErrNotPaired) {
			t.Errorf("%s: %v, want ErrNotPaired", name, err)
		}
	}
	// Key and KeyString hash the same bytes alike, and the fields apart.
	if p.Key([]byte("a,b"), nil) != p.KeyString("a,b", "") || p.KeyString("a,b", "") == p.KeyString("a", ",b") {
		t.Error("Key and KeyString disagree, or fields run together")
	}
}
