package htmlreport

import (
	"bytes"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// kappaTable has SPEC.md's figures for two annotators on 30 pairs
// (observed 26/30, expected 307/900), and a cell that must stay text.
func kappaTable() results.Table {
	return results.Table{
		Title: "Cohen's kappa", Note: "Two annotators, 30 pairs.",
		Columns: []results.Column{{Name: "measure"}, {Name: "count", Kind: results.KindNumber}, {Name: "share", Kind: results.KindRate}},
		Rows: [][]string{
			{"observed", "26", results.Float(26.0 / 30)},
			{"expected", "", results.Float(307.0 / 900)},
			{"<b>bold?</b>", "", ""},
		},
	}
}

func TestWriteTables(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTables(&buf, "Annotator agreement", []results.Table{kappaTable()}, false); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	sec := byID(doc, "table-1")
	if sec == nil {
		t.Fatal("no section table-1")
	}
	for _, id := range []string{"summary", "warnings", "verdicts"} {
		if byID(doc, id) != nil {
			t.Errorf("a page of tables has a %s section", id)
		}
	}
	rows := tableRows(sec, atom.Tbody)
	// Rates sort by their full-precision value and show as percentages.
	want := [][]string{{"observed", "26", results.Float(26.0 / 30)}, {"expected", "", results.Float(307.0 / 900)}, {"<b>bold?</b>", "", ""}}
	for i := range want {
		if strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d = %q, want %q", i, rows[i], want[i])
		}
	}
	if !strings.Contains(text(sec), "86.7%") || !strings.Contains(text(sec), "34.1%") {
		t.Errorf("rates not shown as percentages: %q", text(sec))
	}
	bold := 0
	walk(doc, func(n *html.Node) {
		if n.DataAtom == atom.B && strings.Contains(text(n), "bold?") {
			bold++
		}
	})
	if bold != 0 {
		t.Error("a cell's markup became an element")
	}
	bad := kappaTable()
	bad.Rows[0] = bad.Rows[0][:1]
	if err := WriteTables(&bytes.Buffer{}, "x", []results.Table{bad}, false); err == nil {
		t.Error("ragged table: no error")
	}
}

func TestScoreWithTables(t *testing.T) {
	s, _ := sample(t)
	doc, _ := render(t, s, Options{Tables: []results.Table{kappaTable()}})
	if byID(doc, "table-1") == nil || byID(doc, "summary") == nil {
		t.Error("score report with an extra table lacks a section")
	}
}
