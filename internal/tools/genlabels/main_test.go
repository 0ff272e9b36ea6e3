package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// The table has the header, one row per item with an id and a rating
// (or an empty cell) per rater, from labels l1..lK only, and the same
// flags give the same bytes.
func TestWrite(t *testing.T) {
	var a, b bytes.Buffer
	if err := run([]string{"-rows", "500", "-raters", "3", "-labels", "4", "-missing", "0.1", "-seed", "7"}, &a, &b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(a.String(), "\n"), "\n")
	if len(lines) != 501 || lines[0] != "id,r1,r2,r3" {
		t.Fatalf("%d lines, header %q", len(lines), lines[0])
	}
	empty := 0
	for i, l := range lines[1:] {
		f := strings.Split(l, ",")
		if len(f) != 4 || f[0] != "item"+strconv.Itoa(i+1) {
			t.Fatalf("line %d: %q", i+2, l)
		}
		for _, v := range f[1:] {
			switch v {
			case "":
				empty++
			case "l1", "l2", "l3", "l4":
			default:
				t.Fatalf("line %d: label %q", i+2, v)
			}
		}
	}
	if empty < 100 || empty > 200 { // 10% of 1,500 ratings
		t.Errorf("%d empty ratings of 1500", empty)
	}
	var again bytes.Buffer
	run([]string{"-rows", "500", "-raters", "3", "-labels", "4", "-missing", "0.1", "-seed", "7"}, &again, &b)
	if !bytes.Equal(a.Bytes(), again.Bytes()) {
		t.Error("same flags, different output")
	}
	if err := run([]string{"-agree", "2"}, &again, &b); err == nil {
		t.Error("-agree 2 was accepted")
	}
}

// -big pads the first row's field of -big-column to that many bytes and
// changes nothing else.
func TestBigField(t *testing.T) {
	var plain, errs bytes.Buffer
	if err := run([]string{"-rows", "50", "-raters", "3"}, &plain, &errs); err != nil {
		t.Fatal(err)
	}
	want := strings.Split(plain.String(), "\n")
	for col, field := range map[string]int{"id": 0, "r1": 1, "r3": 3} {
		var big bytes.Buffer
		if err := run([]string{"-rows", "50", "-raters", "3", "-big", "1000", "-big-column", col}, &big, &errs); err != nil {
			t.Fatal(err)
		}
		got := strings.Split(big.String(), "\n")
		if len(got) != len(want) || got[0] != want[0] || strings.Join(got[2:], "\n") != strings.Join(want[2:], "\n") {
			t.Fatalf("-big-column %s: rows other than the first changed", col)
		}
		g, w := strings.Split(got[1], ","), strings.Split(want[1], ",")
		for i := range w {
			switch {
			case i == field && (len(g[i]) != 1000 || g[i] != w[i]+strings.Repeat("x", 1000-len(w[i]))):
				t.Errorf("-big-column %s: field %d is %d bytes %.20q…", col, i, len(g[i]), g[i])
			case i != field && g[i] != w[i]:
				t.Errorf("-big-column %s: field %d is %q, want %q", col, i, g[i], w[i])
			}
		}
	}
	if err := run([]string{"-big", "10", "-big-column", "r3"}, &plain, &errs); err == nil {
		t.Error("-big-column r3 of two raters was accepted")
	}
}
