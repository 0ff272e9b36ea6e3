package xlsxreport

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// f64 formats a JSON figure as excelize stores a float64 cell.
func f64(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func TestSampleWorkbook(t *testing.T) {
	s, verdicts := sample(t)
	f, b, info := render(t, s, Options{Verdicts: bytes.NewReader(verdicts), VerdictsName: "verdicts.csv"})

	t.Run("sheets", func(t *testing.T) {
		want := []string{"Summary", "By Domain", "By model - language", "Agreement", "Verdicts", "Disagreements", "Warnings"}
		if got := f.GetSheetList(); !slices.Equal(got, want) {
			t.Errorf("sheets %q, want %q", got, want)
		}
		if !slices.Equal(info.Sheets, want) {
			t.Errorf("Info.Sheets %q, want %q", info.Sheets, want)
		}
		if f.GetActiveSheetIndex() != 0 {
			t.Errorf("active sheet %d, want 0 (Summary)", f.GetActiveSheetIndex())
		}
	})

	t.Run("group figures equal the JSON", func(t *testing.T) {
		for _, by := range []struct{ sheet, by string }{{"By Domain", "Domain"}, {"By model - language", "model / language"}} {
			row := 6 // two header rows at 4 and 5
			var groups []results.Group
			for _, g := range s.Groups {
				if g.By == by.by {
					groups = append(groups, g)
				}
			}
			if len(groups) == 0 {
				t.Fatalf("no groups for %s", by.by)
			}
			groups = append(groups, s.Combined)
			for i, g := range groups {
				r := row + i
				name := g.Group
				if i == len(groups)-1 {
					name = "combined"
				}
				check := func(col int, want string) {
					t.Helper()
					if got := raw(t, f, by.sheet, cell(col, r)); got != want {
						t.Errorf("%s!%s = %q, want %q (group %s)", by.sheet, cell(col, r), got, want, name)
					}
				}
				check(1, name)
				check(2, strconv.Itoa(g.N))
				check(3, strconv.Itoa(g.Blank))
				check(4, strconv.Itoa(g.EmptyGolden))
				for m, id := range s.Settings.Metrics {
					ms := g.Metrics[id]
					c := 5 + 4*m
					check(c, f64(ms.Correct))
					check(c+1, f64(ms.Accuracy))
					check(c+2, f64(ms.CILow))
					check(c+3, f64(ms.CIHigh))
				}
			}
			if got := raw(t, f, by.sheet, "E4"); got != s.Settings.Metrics[0] {
				t.Errorf("%s!E4 = %q, want the metric id %q", by.sheet, got, s.Settings.Metrics[0])
			}
		}
	})

	t.Run("summary key figures equal the JSON", func(t *testing.T) {
		rows, err := f.GetRows("Summary", excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, r := range rows {
			if len(r) < 6 {
				continue
			}
			ms, ok := s.Combined.Metrics[r[0]]
			if !ok || r[1] == "" {
				continue
			}
			found++
			want := []string{f64(ms.Correct), strconv.Itoa(s.Combined.N), f64(ms.Accuracy), f64(ms.CILow), f64(ms.CIHigh)}
			if !slices.Equal(r[1:6], want) {
				t.Errorf("Summary row for %s: %q, want %q", r[0], r[1:6], want)
			}
		}
		if found != len(s.Settings.Metrics) {
			t.Errorf("found key figures for %d metrics, want %d", found, len(s.Settings.Metrics))
		}
		text := fmt.Sprint(rows)
		for _, want := range []string{s.Dataset.Hash, s.Dataset.Path, "What each metric means", s.Metrics[0].Rule} {
			if !strings.Contains(text, want) {
				t.Errorf("Summary does not contain %q", want)
			}
		}
	})

	t.Run("charts with error bars", func(t *testing.T) {
		p := parts(t, b)
		var charts []string
		for name := range p {
			if strings.HasPrefix(name, "xl/charts/chart") {
				charts = append(charts, name)
			}
		}
		if len(charts) != 2 {
			t.Fatalf("chart parts %q, want one per grouping (2)", charts)
		}
		for _, name := range charts {
			x := string(p[name])
			if !regexp.MustCompile(`<(c:)?barDir val="bar"`).MatchString(x) {
				t.Errorf("%s is not a horizontal bar chart", name)
			}
			// One series and one set of error bars per metric.
			n := len(regexp.MustCompile(`<(c:)?ser>`).FindAllString(x, -1))
			m := len(regexp.MustCompile(`<(c:)?errBars>`).FindAllString(x, -1))
			if n != 2 || m != 2 {
				t.Errorf("%s: %d series and %d error bars, want 2 and 2", name, n, m)
			}
		}
		// The error bars of exact_substring read their lengths from N and
		// O (after the table, A to L, and a spacer column): accuracy -
		// ci_low and ci_high - accuracy of each group.
		x := html.UnescapeString(string(p["xl/charts/chart1.xml"]))
		for _, ref := range []string{"'By Domain'!$N$6:$N$12", "'By Domain'!$O$6:$O$12"} {
			if !strings.Contains(x, ref) {
				t.Errorf("chart1 has no error bar reference %s", ref)
			}
		}
		for i, g := range s.Groups[:7] {
			ms := g.Metrics["exact_substring"]
			if got, want := raw(t, f, "By Domain", cell(14, 6+i)), f64(ms.Accuracy-ms.CILow); got != want {
				t.Errorf("error below %s = %s, want %s", g.Group, got, want)
			}
			if got, want := raw(t, f, "By Domain", cell(15, 6+i)), f64(ms.CIHigh-ms.Accuracy); got != want {
				t.Errorf("error above %s = %s, want %s", g.Group, got, want)
			}
		}
	})

	t.Run("verdict rows", func(t *testing.T) {
		recs := csvRecords(t, verdicts)
		rows, err := f.GetRows("Verdicts", excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(recs) {
			t.Fatalf("Verdicts has %d rows, the verdict CSV %d records", len(rows), len(recs))
		}
		for i := range recs {
			// GetRows drops trailing empty cells.
			want := recs[i]
			for len(want) > 0 && want[len(want)-1] == "" {
				want = want[:len(want)-1]
			}
			if !slices.Equal(rows[i], want) {
				t.Errorf("Verdicts row %d = %q, want %q", i+1, rows[i], want)
			}
		}
		if info.VerdictRows != s.Combined.N {
			t.Errorf("Info.VerdictRows = %d, want %d", info.VerdictRows, s.Combined.N)
		}
	})

	t.Run("disagreements", func(t *testing.T) {
		// Two binary metrics: the rows where they disagree are the
		// only_first and only_second buckets of the JSON.
		a := s.Agreement[0]
		want := a.OnlyFirst + a.OnlySecond
		rows, err := f.GetRows("Disagreements", excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows)-1 != want || info.Disagreements != want {
			t.Fatalf("Disagreements has %d rows (Info %d), want %d", len(rows)-1, info.Disagreements, want)
		}
		head := rows[0]
		ci, cw := slices.Index(head, a.First), slices.Index(head, a.Second)
		recs := csvRecords(t, verdicts)
		for _, r := range rows[1:] {
			if r[ci] == r[cw] {
				t.Errorf("row %s: %s=%s and %s=%s agree", r[0], a.First, r[ci], a.Second, r[cw])
			}
			n, err := strconv.Atoi(r[0])
			if err != nil {
				t.Fatalf("row column %q is not a number", r[0])
			}
			if !slices.Equal(r[1:], trimEmpty(recs[n])) {
				t.Errorf("Disagreements row %d differs from verdict row %d", n, n)
			}
		}
	})

	t.Run("table with filter, frozen header, print setup", func(t *testing.T) {
		tables, err := f.GetTables("Verdicts")
		if err != nil {
			t.Fatal(err)
		}
		recs := csvRecords(t, verdicts)
		wantRef := fmt.Sprintf("A1:%s%d", colName(len(recs[0])), len(recs))
		if len(tables) != 1 || tables[0].Range != wantRef {
			t.Fatalf("Verdicts tables %+v, want one over %s", tables, wantRef)
		}
		if x := string(parts(t, b)["xl/tables/table1.xml"]); !strings.Contains(x, `<autoFilter ref="`+wantRef+`"`) {
			t.Errorf("table1 has no autofilter over %s: %s", wantRef, x[:min(len(x), 300)])
		}
		panes, err := f.GetPanes("Verdicts")
		if err != nil {
			t.Fatal(err)
		}
		if !panes.Freeze || panes.YSplit != 1 {
			t.Errorf("Verdicts panes %+v, want the header row frozen", panes)
		}
		for _, sheet := range f.GetSheetList() {
			pl, err := f.GetPageLayout(sheet)
			if err != nil {
				t.Fatal(err)
			}
			// Tall: 0 (as many pages as needed) or, for a short sheet, 1
			// (TestFrozenPanesAndPageSetup says which).
			if pl.Orientation == nil || *pl.Orientation != "landscape" || pl.FitToWidth == nil || *pl.FitToWidth != 1 || pl.FitToHeight == nil || *pl.FitToHeight > 1 {
				t.Errorf("%s page layout %+v, want landscape, one page wide", sheet, pl)
			}
		}
		names := map[string]string{}
		for _, dn := range f.GetDefinedName() {
			names[dn.Name+" "+dn.Scope] = dn.RefersTo
		}
		for key, want := range map[string]string{
			"_xlnm.Print_Titles Verdicts":      "'Verdicts'!$1:$1",
			"_xlnm.Print_Titles Disagreements": "'Disagreements'!$1:$1",
			"_xlnm.Print_Titles Warnings":      "'Warnings'!$4:$4",
			// The table (A to L: 4 + 4 per metric) and the chart, not the
			// error bar lengths beside them.
			"_xlnm.Print_Area By Domain": "'By Domain'!$A$1:$L$",
		} {
			if !strings.HasPrefix(names[key], want) {
				t.Errorf("%s = %q, want %q", key, names[key], want)
			}
		}
	})

	t.Run("conditional formats on metric columns", func(t *testing.T) {
		cf, err := f.GetConditionalFormats("Verdicts")
		if err != nil {
			t.Fatal(err)
		}
		recs := csvRecords(t, verdicts)
		for _, id := range s.Settings.Metrics {
			col := colName(slices.Index(recs[0], id) + 1)
			ref := fmt.Sprintf("%s2:%s%d", col, col, len(recs))
			rules := cf[ref]
			if len(rules) != 2 || rules[0].Value != "1" || rules[1].Value != "0" {
				t.Errorf("conditional formats on %s (%s): %+v, want ==1 and ==0", id, ref, rules)
			}
		}
	})

	t.Run("warnings", func(t *testing.T) {
		rows, err := f.GetRows("Warnings", excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range s.Warnings {
			ok := false
			for _, r := range rows {
				ok = ok || (len(r) >= 4 && r[0] == w.Code && r[1] == strconv.Itoa(w.Count) && r[3] == w.Message)
			}
			if !ok {
				t.Errorf("warning %s (%d) not on the Warnings sheet", w.Code, w.Count)
			}
		}
	})
}

func trimEmpty(r []string) []string {
	for len(r) > 0 && r[len(r)-1] == "" {
		r = r[:len(r)-1]
	}
	return r
}

// TestNoFormulasFromData checks that text from the data, including the
// sample's responses that start with =, +, - and @, is stored as strings:
// no worksheet holds a formula, and such cells read back as the exact text.
func TestNoFormulasFromData(t *testing.T) {
	s, verdicts := sample(t)
	f, b, _ := render(t, s, Options{Verdicts: bytes.NewReader(verdicts)})
	formula := regexp.MustCompile(`<f[ >]`)
	for name, data := range parts(t, b) {
		if strings.HasPrefix(name, "xl/worksheets/") && formula.Match(data) {
			t.Errorf("%s contains a formula", name)
		}
	}
	recs := csvRecords(t, verdicts)
	seen := map[byte]int{}
	for i, rec := range recs[1:] {
		for c, v := range rec {
			if v == "" || !strings.ContainsRune("=+-@", rune(v[0])) {
				continue
			}
			seen[v[0]]++
			ref := cell(c+1, i+2)
			typ, err := f.GetCellType("Verdicts", ref)
			if err != nil {
				t.Fatal(err)
			}
			if typ != excelize.CellTypeInlineString {
				t.Errorf("Verdicts!%s (%q) has type %v, want an inline string", ref, v, typ)
			}
			if got := raw(t, f, "Verdicts", ref); got != v {
				t.Errorf("Verdicts!%s = %q, want %q", ref, got, v)
			}
			if fx, _ := f.GetCellFormula("Verdicts", ref); fx != "" {
				t.Errorf("Verdicts!%s has formula %q", ref, fx)
			}
		}
	}
	// The sample is meant to hold every dangerous prefix; if it stops
	// doing so this test would prove nothing.
	for _, p := range "=+-@" {
		if seen[byte(p)] == 0 {
			t.Errorf("the sample has no cell starting with %q", p)
		}
	}
}

func TestContinuationSheets(t *testing.T) {
	s, verdicts := sample(t)
	// 100 rows a sheet, header included: 99 data rows a sheet, so the
	// sample's 284 rows take 99 + 99 + 86.
	f, _, info := render(t, s, Options{Verdicts: bytes.NewReader(verdicts), RowsPerSheet: 100})
	want := []string{"Summary", "By Domain", "By model - language", "Agreement", "Verdicts", "Verdicts (2)", "Verdicts (3)", "Disagreements", "Warnings"}
	if got := f.GetSheetList(); !slices.Equal(got, want) {
		t.Fatalf("sheets %q, want %q", got, want)
	}
	recs := csvRecords(t, verdicts)
	next := 1
	for i, sheet := range []string{"Verdicts", "Verdicts (2)", "Verdicts (3)"} {
		rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		wantRows := []int{99, 99, 86}[i]
		if len(rows)-1 != wantRows {
			t.Errorf("%s has %d data rows, want %d", sheet, len(rows)-1, wantRows)
		}
		if !slices.Equal(rows[0], recs[0]) {
			t.Errorf("%s header %q", sheet, rows[0])
		}
		for _, r := range rows[1:] {
			if !slices.Equal(r, trimEmpty(recs[next])) {
				t.Errorf("%s: row out of order, want verdict row %d", sheet, next)
			}
			next++
		}
		tables, err := f.GetTables(sheet)
		if err != nil || len(tables) != 1 {
			t.Errorf("%s: tables %v (%v), want 1", sheet, tables, err)
		}
	}
	if next != len(recs) || info.VerdictRows != 284 {
		t.Errorf("wrote %d rows (Info %d), want 284", next-1, info.VerdictRows)
	}
	rows, _ := f.GetRows("Warnings")
	if !strings.Contains(fmt.Sprint(rows), "continue over 3 sheets (Verdicts, Verdicts (2), Verdicts (3))") {
		t.Errorf("Warnings sheet does not note the continuation: %q", rows)
	}
	// Print titles follow the sheets after reordering.
	for _, dn := range f.GetDefinedName() {
		if dn.Name == "_xlnm.Print_Titles" && strings.HasPrefix(dn.Scope, "Verdicts") && dn.RefersTo != "'"+dn.Scope+"'!$1:$1" {
			t.Errorf("print titles of %s refer to %s", dn.Scope, dn.RefersTo)
		}
	}
}

func TestVerdictFileErrors(t *testing.T) {
	s, verdicts := sample(t)
	recs := csvRecords(t, verdicts)
	cases := []struct {
		name, csv, want string
	}{
		{"empty", "", "empty verdict file"},
		{"missing metric column", "id,answer,response,exact_substring\n1,a,a,1\n", `no column "word_overlap"`},
		{"too few rows", strings.Join(recs[0], ",") + "\n", "v.csv: the verdict file has 0 rows, the result has 284"},
		{"ragged row", strings.Join(recs[0], ",") + "\na,b\n", "v.csv:2: 2 fields, the header has 13"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Write(&bytes.Buffer{}, s, Options{Verdicts: strings.NewReader(c.csv), VerdictsName: "v.csv"})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestWithoutVerdicts(t *testing.T) {
	s, _ := sample(t)
	f, _, _ := render(t, s, Options{})
	want := []string{"Summary", "By Domain", "By model - language", "Agreement", "Warnings"}
	if got := f.GetSheetList(); !slices.Equal(got, want) {
		t.Errorf("sheets %q, want %q", got, want)
	}
	rows, _ := f.GetRows("Summary")
	if !strings.Contains(fmt.Sprint(rows), "No verdict file was given") {
		t.Error("Summary does not say why there are no verdict sheets")
	}
}
