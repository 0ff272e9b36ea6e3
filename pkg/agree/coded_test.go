package agree

import (
	"reflect"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

// Kappa.CodedWarnings hands on each message with the code and count it
// was given: three items that both raters labelled "a" give one_label
// (kappa set to 1, count 3 items) and few_items (fewer than 10, count 3).
func TestKappaCodedWarnings(t *testing.T) {
	k, err := CohenKappa([]string{"a", "a", "a"}, []string{"a", "a", "a"})
	if err != nil {
		t.Fatal(err)
	}
	want := []results.Warning{
		{Code: CodeOneLabel, Count: 3, Message: k.Warnings[0]},
		{Code: CodeFewItems, Count: 3, Message: "only 3 items: kappa is very uncertain"},
	}
	if got := k.CodedWarnings(); len(k.Warnings) != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("coded warnings %+v, want %+v", got, want)
	}
	k, err = CohenKappa([]string{"a", "b", "a", "b", "a", "b", "a", "b", "a", "b"}, []string{"a", "b", "a", "b", "a", "b", "a", "b", "a", "a"})
	if err != nil {
		t.Fatal(err)
	}
	if got := k.CodedWarnings(); got != nil {
		t.Errorf("ten items, two labels: warnings %+v, want none", got)
	}
}
