package interop

import (
	"strings"
	"testing"
)

func TestEachKey(t *testing.T) {
	line := []byte(`{"a": "x\"y\\", "b": [1, "]", {"c": "}"}], "k\u00e9": 2.5e-1, "d": true}`)
	var got []string
	err := eachKey(line, func(k, v []byte, off int) error {
		got = append(got, string(k)+"="+string(v))
		return nil
	})
	want := []string{`a="x\"y\\"`, `b=[1, "]", {"c": "}"}]`, `ké=2.5e-1`, `d=true`}
	if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("%v\n got %q\nwant %q", err, got, want)
	}
	for _, bad := range []string{`{"a": "x}`, `{"a" 1}`, `{"a": 1,}`, `{"a": tru}`, `[1]`, `{"a": [1, 2}`, `{"a": 1} x`} {
		if err := eachKey([]byte(bad), func(k, v []byte, off int) error { return nil }); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if l, err := stringList([]byte(`["acc", "acc_norm", "x\"y"]`), nil); err != nil || len(l) != 3 || l[2] != `x"y` {
		t.Errorf("%q %v", l, err)
	}
}
