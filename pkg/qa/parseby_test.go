package qa

import (
	"reflect"
	"testing"
)

func TestParseBy(t *testing.T) {
	for _, tc := range []struct {
		specs []string
		want  [][]string
		err   string
	}{
		{nil, nil, ""},
		{[]string{""}, [][]string{}, ""}, // --by "": no groups, only the combined figures
		{[]string{"language", " model , Domain "}, [][]string{{"language"}, {"model", "Domain"}}, ""},
		{[]string{"a,,b"}, nil, `"a,,b": a column name is empty`},
		{[]string{"a,a"}, nil, `"a,a" names the column "a" twice`},
		{[]string{"a,b", "a, b"}, nil, "a,b is given twice"},
	} {
		got, err := ParseBy(tc.specs)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseBy(%q) error %v, want %q", tc.specs, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseBy(%q) = %#v, %v; want %#v", tc.specs, got, err, tc.want)
		}
	}
}
