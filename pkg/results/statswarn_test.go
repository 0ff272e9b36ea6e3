package results

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/evalbook/evalbook/pkg/stats"
)

func TestFromStats(t *testing.T) {
	ws := []stats.Warning{{Code: stats.CodeFewResampled, Message: "bootstrap over only 4 cases: the interval is rough and too narrow"}}
	want := []Warning{{Code: stats.CodeFewResampled, Message: "mrr: bootstrap over only 4 cases: the interval is rough and too narrow", Count: 1}}
	if got := FromStats("mrr", ws); !reflect.DeepEqual(got, want) {
		t.Errorf("FromStats(mrr) = %+v, want %+v", got, want)
	}
	if got := FromStats("", ws); got[0].Message != ws[0].Message {
		t.Errorf("FromStats without subject: %q, want %q", got[0].Message, ws[0].Message)
	}
	if got := FromStats("x", nil); got == nil || len(got) != 0 {
		t.Errorf("FromStats(nil) = %#v, want an empty non-nil slice (JSON [])", got)
	}
}

func TestIntervalWarnings(t *testing.T) {
	few := stats.Warning{Code: stats.CodeFewValues, Message: "fewer than 30 values"}
	flat := stats.Warning{Code: stats.CodeNearZeroVariance, Message: "the values hardly vary"}
	var iw IntervalWarnings
	iw.Add("squad_f1", []stats.Warning{few, flat})
	iw.Add("squad_f1", []stats.Warning{few})
	iw.Add("chrf", []stats.Warning{few})
	iw.Add("squad_f1", nil)
	// Sorted by subject and message; counts are the intervals that gave each.
	want := []Warning{
		{Code: stats.CodeFewValues, Message: "chrf: fewer than 30 values (1 group)", Count: 1},
		{Code: stats.CodeFewValues, Message: "squad_f1: fewer than 30 values (2 groups)", Count: 2},
		{Code: stats.CodeNearZeroVariance, Message: "squad_f1: the values hardly vary (1 group)", Count: 1},
	}
	if got := iw.Warnings("group", "groups"); !reflect.DeepEqual(got, want) {
		t.Errorf("Warnings(group, groups) =\n%+v\nwant\n%+v", got, want)
	}
	if got := iw.Warnings("", ""); got[1].Message != "squad_f1: fewer than 30 values" {
		t.Errorf("Warnings without a noun: %q", got[1].Message)
	}
	var empty IntervalWarnings
	if got := empty.Warnings("cell", "cells"); got == nil || len(got) != 0 {
		t.Errorf("zero IntervalWarnings gives %#v, want an empty slice", got)
	}
}

func ExampleIntervalWarnings() {
	// Three cells' intervals, two of them over few rows.
	var iw IntervalWarnings
	for _, n := range []int{4, 4, 40} {
		iw.Add("", stats.BootstrapProportionInterval(n/2, n, 200, 0.95, 1).Warnings)
	}
	for _, w := range iw.Warnings("cell", "cells") {
		fmt.Printf("%s (count %d): %s\n", w.Code, w.Count, w.Message)
	}
	// Output:
	// few_resampled (count 2): bootstrap over only 4 cases: the interval is rough and too narrow (2 cells)
}
