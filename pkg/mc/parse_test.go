package mc

import (
	"slices"
	"testing"
)

func TestParseK(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		err  string
	}{
		{"2", []int{2}, ""},
		{" 2, 3 ,,10", []int{2, 3, 10}, ""},
		{"", nil, ""},
		{"1", []int{1}, ""},
		{"2,0", nil, `k wants positive whole numbers, got "0"`},
		{"-1", nil, `k wants positive whole numbers, got "-1"`},
		{"2,x", nil, `k wants positive whole numbers, got "x"`},
		{"2.5", nil, `k wants positive whole numbers, got "2.5"`},
	} {
		got, err := ParseK(tc.in)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("ParseK(%q): error %v, want %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || !slices.Equal(got, tc.want)):
			t.Errorf("ParseK(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}
