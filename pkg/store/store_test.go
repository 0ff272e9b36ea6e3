package store

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"iter"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
)

func openTemp(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "evalbook.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// synthRows streams n rows of one binary metric "m" without holding them:
// row i has id "s<i>" (or no id column), question "q<i>", answer "a<i>",
// group "g<i%groups>", and the verdict value(i) (NaN: no verdict).
type synthRows struct {
	n, groups int
	ids       bool
	value     func(i int) float64
	onRow     func(i int) // called before row i is yielded (tests use it to stop mid-run)
	schema    *results.RowSchema
}

func newSynth(n int, ids bool, value func(int) float64) *synthRows {
	cols := []string{"question", "answer", "response"}
	if ids {
		cols = append([]string{"id"}, cols...)
	}
	return &synthRows{n: n, groups: 3, ids: ids, value: value,
		schema: results.NewRowSchema(cols, []string{"m"}, []bool{false}, false, []string{"grp"})}
}

func (s *synthRows) Schema() *results.RowSchema { return s.schema }

func (s *synthRows) All() iter.Seq2[*results.Row, error] {
	return func(yield func(*results.Row, error) bool) {
		r := &results.Row{Schema: s.schema, Values: make([]float64, 1), Groups: make([]string, 1)}
		labels := make([]string, s.groups)
		for g := range labels {
			labels[g] = "g" + strconv.Itoa(g)
		}
		for i := range s.n {
			if s.onRow != nil {
				s.onRow(i)
			}
			is := strconv.Itoa(i)
			r.Fields = r.Fields[:0]
			if s.ids {
				r.Fields = append(r.Fields, "s"+is)
			}
			r.Fields = append(r.Fields, "q"+is, "a"+is, "response "+is)
			r.Line = i + 2
			r.Values[0] = s.value(i)
			r.Groups[0] = labels[i%s.groups]
			if !yield(r, nil) {
				return
			}
		}
	}
}

func synthRun(n int, ids bool, value func(int) float64) Run {
	return Run{Tool: "evalbook test", Command: "score", Source: newSynth(n, ids, value)}
}

func record(t testing.TB, s *Store, r Run) int64 {
	t.Helper()
	id, err := s.Record(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// sampleByModel scores the embedded sample's rows of one model with pkg/qa.
func sampleByModel(t *testing.T, model string) (*results.Score, *results.RowTable) {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(datasets.Responses)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(recs[0])
	for _, r := range recs[1:] {
		if r[6] == model {
			w.Write(r)
		}
	}
	w.Flush()
	var rows results.RowTable
	res, err := qa.Score(context.Background(), &buf, model+".csv", qa.Options{Rows: rows.Add})
	if err != nil {
		t.Fatal(err)
	}
	return res, &rows
}

func TestRecordScoreFromSample(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	res, rows := sampleByModel(t, "kestrel-7b")
	run, err := FromScore("score", res, rows)
	if err != nil {
		t.Fatal(err)
	}
	run.Model = "kestrel-7b"
	id := record(t, s, run)
	got, err := s.Get(ctx, "last")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != id || got.Rows != 142 || got.KeyKind != KeyID || got.Model != "kestrel-7b" || got.Command != "score" {
		t.Fatalf("stored run %+v", got)
	}
	if got.TokensIn != nil || got.Cost != nil {
		t.Errorf("unknown tokens and cost must stay NULL, got %v %v", got.TokensIn, got.Cost)
	}
	if got.Normalizer != res.Settings.Normalize || got.DatasetFileHash != res.Dataset.Hash {
		t.Errorf("normalizer %q file hash %q, want %q %q", got.Normalizer, got.DatasetFileHash, res.Settings.Normalize, res.Dataset.Hash)
	}
	// Every group's figures are stored as the score reported them.
	want := 0
	for _, g := range append([]results.Group{res.Combined}, res.Groups...) {
		want += len(g.Metrics)
	}
	if len(got.Groups) != want {
		t.Fatalf("%d group figures stored, want %d", len(got.Groups), want)
	}
	for _, g := range got.Groups {
		if g.By == "" && g.Metric == "exact_substring" {
			m := res.Combined.Metrics["exact_substring"]
			if g.Accuracy != m.Accuracy || g.CILow != m.CILow || g.CIHigh != m.CIHigh || g.N != res.Combined.N {
				t.Errorf("combined exact_substring %+v, score has %+v", g, m)
			}
		}
	}
	// The rows' outcomes, read back, are the verdicts pkg/qa gave.
	d, err := s.load(ctx, "last", nil)
	if err != nil {
		t.Fatal(err)
	}
	mi := d.metricIndex("exact_substring")
	for i := range rows.Len() {
		r := rows.Row(i)
		id, _ := r.Field("id")
		v, _ := r.Value("exact_substring")
		if d.keys[i] != id || d.values[mi][i] != v {
			t.Fatalf("row %d: stored %q %v, scored %q %v", i, d.keys[i], d.values[mi][i], id, v)
		}
	}
	list, err := s.List(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("list %v %v", list, err)
	}
	if _, err := s.Remove(ctx, strconv.FormatInt(id, 10)); err != nil {
		t.Fatal(err)
	}
	var n int
	s.db.QueryRow(`SELECT (SELECT count(*) FROM row_chunk) + (SELECT count(*) FROM outcome_chunk) + (SELECT count(*) FROM group_score) +
		(SELECT count(*) FROM chunk) + (SELECT count(*) FROM text)`).Scan(&n)
	if n != 0 {
		t.Errorf("remove left %d rows behind", n)
	}
	if _, err := s.Get(ctx, "1"); !errors.Is(err, ErrNoRun) {
		t.Errorf("removed run: %v", err)
	}
}

// The sqlite3 shell opens the store and the documented views give each
// row's outcome by sample id.
func TestSQLiteShellReadsStore(t *testing.T) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("sqlite3 not installed")
	}
	s := openTemp(t)
	record(t, s, synthRun(5000, true, func(i int) float64 { return float64(i % 2) }))
	out, err := exec.Command("sqlite3", s.Path(),
		"PRAGMA integrity_check; SELECT version FROM schema_version; SELECT count(*), sum(value) FROM outcome WHERE run_id = 1 AND metric = 'm';"+
			"SELECT sample_id, value FROM outcome WHERE run_id = 1 AND idx = 4097; SELECT response FROM sample WHERE sample_id = 's7';").CombinedOutput()
	if err != nil {
		t.Fatalf("sqlite3: %v\n%s", err, out)
	}
	want := "ok\n3\n5000|2500\ns4097|1\nresponse 7\n"
	if string(out) != want {
		t.Errorf("sqlite3 printed %q, want %q", out, want)
	}
}

// A store written by schema version 1 (made here by SQL, from the frozen
// version-1 schema in testdata, as version 1 wrote it) opens, migrates to the current version and keeps its run.
func TestMigrateFromV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	schema, err := os.ReadFile("testdata/schema_v1.sql")
	if err != nil {
		t.Fatal(err)
	}
	v1 := string(schema) + `
INSERT INTO run (id, created, tool, command, dataset_hash, key_kind, rows) VALUES (1, '2026-11-01T10:00:00Z', 'evalbook 0.0.9', 'score', 'abc123abc123', 'id', 2);
INSERT INTO metric VALUES (1, 0, 'exact_match', 0);
INSERT INTO grouping VALUES (1, 0, 'Domain', '["geo"]');
INSERT INTO group_score VALUES (1, '', '', 'exact_match', 2, 0, 0, 1, 0.5, 0.09, 0.91);
INSERT INTO row_chunk VALUES (1, 0, 2, '["x","y"]', '[2,3]', '[0,0]', '[[0,0]]', '["q1","q2"]', '["a1","a2"]', '["r1","r2"]');
INSERT INTO outcome_chunk VALUES (1, 0, 0, '[1,0]');`
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("sqlite3 not installed")
	}
	cmd := exec.Command("sqlite3", path)
	cmd.Stdin = strings.NewReader(v1)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("sqlite3 shell: %v %s", err, out)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if v, err := s.Version(ctx); err != nil || v != SchemaVersion {
		t.Fatalf("version %d %v, want %d", v, err, SchemaVersion)
	}
	r, err := s.Get(ctx, "1")
	if err != nil {
		t.Fatal(err)
	}
	if r.Normalizer != "" || r.TokensIn != nil || r.Cost != nil || r.Rows != 2 || len(r.Groups) != 1 {
		t.Errorf("migrated run %+v", r)
	}
	d, err := s.load(ctx, "1", nil)
	if err != nil || d.keys[1] != "y" || d.values[0][0] != 1 {
		t.Fatalf("migrated rows %+v %v", d, err)
	}
	// Version 3 moved the chunk's seven texts into the table text (the
	// flags [0,0] once: nothing else is equal) and the views read them.
	var q, resp string
	var texts int
	if err := s.db.QueryRow(`SELECT question, response FROM sample WHERE run_id = 1 AND sample_id = 'y'`).Scan(&q, &resp); err != nil || q != "q2" || resp != "r2" {
		t.Errorf("sample view after the migration: %q %q %v", q, resp, err)
	}
	if err := s.db.QueryRow(`SELECT count(*) FROM text`).Scan(&texts); err != nil || texts != 7 {
		t.Errorf("%d texts after the migration (%v), want 7", texts, err)
	}
	// The migrated file takes a new run with the new columns.
	run := synthRun(2, true, func(i int) float64 { return 1 })
	tok := int64(1234)
	run.TokensIn = &tok
	id := record(t, s, run)
	got, _ := s.Get(ctx, strconv.FormatInt(id, 10))
	if got.TokensIn == nil || *got.TokensIn != 1234 || got.TokensOut != nil {
		t.Errorf("tokens %v %v", got.TokensIn, got.TokensOut)
	}
}

// A rerun of the same rows adds no text (schema 3: each text once, by
// hash): a run's chunk of ids, lines, flags, groups, questions, answers
// and responses is stored by the first run, named by the second; removing
// the first keeps the texts the second names, removing both leaves none.
func TestTextsKeptOnce(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	count := func() (texts, chunks int) {
		t.Helper()
		if err := s.db.QueryRow(`SELECT (SELECT count(*) FROM text), (SELECT count(*) FROM chunk)`).Scan(&texts, &chunks); err != nil {
			t.Fatal(err)
		}
		return
	}
	run := func() Run { return synthRun(5000, true, func(i int) float64 { return float64(i % 2) }) }
	a := record(t, s, run())
	t1, c1 := count()
	// 5000 rows are two chunks (ChunkRows 4096) of seven texts; the
	// groups and flags of both chunks differ in length, so none is shared.
	if c1 != 2 || t1 == 0 || t1 > 14 {
		t.Fatalf("one run: %d texts, %d chunks", t1, c1)
	}
	b := record(t, s, run())
	if t2, c2 := count(); t2 != t1 || c2 != 4 {
		t.Errorf("the rerun: %d texts (want %d, the first run's), %d chunks (want 4)", t2, t1, c2)
	}
	if _, err := s.Remove(ctx, strconv.FormatInt(a, 10)); err != nil {
		t.Fatal(err)
	}
	if t3, _ := count(); t3 != t1 {
		t.Errorf("after removing the first run: %d texts, want %d", t3, t1)
	}
	d, err := s.load(ctx, strconv.FormatInt(b, 10), nil)
	if err != nil || len(d.keys) != 5000 || d.keys[4097] != "s4097" {
		t.Fatalf("the second run after removing the first: %v", err)
	}
	if _, err := s.Remove(ctx, strconv.FormatInt(b, 10)); err != nil {
		t.Fatal(err)
	}
	if t4, c4 := count(); t4 != 0 || c4 != 0 {
		t.Errorf("after removing both: %d texts, %d chunks", t4, c4)
	}
}

func TestOpenRefusesNewerAndForeign(t *testing.T) {
	dir := t.TempDir()
	newer := filepath.Join(dir, "newer.db")
	if out, err := exec.Command("sqlite3", newer, "CREATE TABLE schema_version (version INTEGER); INSERT INTO schema_version VALUES (99);").CombinedOutput(); err != nil {
		t.Skipf("sqlite3: %v %s", err, out)
	}
	if _, err := Open(newer); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("newer schema: %v", err)
	}
	foreign := filepath.Join(dir, "foreign.db")
	exec.Command("sqlite3", foreign, "CREATE TABLE t (x);").Run()
	if _, err := Open(foreign); err == nil || !strings.Contains(err.Error(), "not an evalbook store") {
		t.Errorf("foreign file: %v", err)
	}
}

func TestKeyKindAndDatasetHash(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	a := record(t, s, synthRun(10, true, func(i int) float64 { return 1 }))
	b := record(t, s, synthRun(10, true, func(i int) float64 { return 0 }))
	c := record(t, s, synthRun(10, false, func(i int) float64 { return 0 }))
	ra, _ := s.Get(ctx, strconv.FormatInt(a, 10))
	rb, _ := s.Get(ctx, strconv.FormatInt(b, 10))
	rc, _ := s.Get(ctx, strconv.FormatInt(c, 10))
	if ra.DatasetHash != rb.DatasetHash || len(ra.DatasetHash) != 12 {
		t.Errorf("same questions, different responses: hashes %q %q", ra.DatasetHash, rb.DatasetHash)
	}
	if rc.KeyKind != KeyRow || len(rc.Warnings) != 1 || rc.Warnings[0].Code != CodeNoSampleID {
		t.Errorf("run without ids: key %q warnings %v", rc.KeyKind, rc.Warnings)
	}
	if why := Incomparable(ra, rc); len(why) == 0 {
		t.Error("runs keyed differently were found comparable")
	}
	if _, err := s.Diff(ctx, "1", "3", DiffOptions{}); !errors.As(err, new(*NotComparableError)) {
		t.Errorf("diff of incomparable runs: %v", err)
	}
}

// Diff over a hand-made pair: 100 rows, A passes rows 0..59, B passes
// rows 10..69 and also 0..4. Flips: better 60..69 (10), worse 5..9 (5).
// Means 0.60 and 0.65, delta +0.05; sign test over 10 vs 5 is
// 2·P(X ≤ 5), X ~ Bin(15, 1/2) = 2·(1+15+105+455+1365+3003)/32768
// = 9888/32768 = 0.30176; McNemar (Edwards) χ² = (|10−5|−1)²/15 = 16/15,
// p = P(χ²₁ > 1.0667) = 0.30169 (erfc(sqrt(1.0667/2))).
func TestDiffHandComputed(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	record(t, s, synthRun(100, true, func(i int) float64 { return b2f(i < 60) }))
	record(t, s, synthRun(100, true, func(i int) float64 { return b2f(i < 5 || i >= 10 && i < 70) }))
	d, err := s.Diff(ctx, "1", "2", DiffOptions{Flips: -1})
	if err != nil {
		t.Fatal(err)
	}
	m := d.Metrics[0]
	if m.N != 100 || m.Better != 10 || m.Worse != 5 || math.Abs(m.Delta-0.05) > 1e-12 || m.MeanA != 0.6 || m.MeanB != 0.65 {
		t.Fatalf("diff %+v", m.PairDiff)
	}
	if math.Abs(m.SignP-9888.0/32768) > 1e-9 {
		t.Errorf("sign p %v, want %v", m.SignP, 9888.0/32768)
	}
	if want := math.Erfc(math.Sqrt(16.0 / 15 / 2)); math.Abs(m.McNemarP-want) > 1e-9 {
		t.Errorf("mcnemar p %v, want %v", m.McNemarP, want)
	}
	if !(m.DeltaLow < 0.05 && m.DeltaHigh > 0.05) {
		t.Errorf("interval [%v, %v] misses the delta", m.DeltaLow, m.DeltaHigh)
	}
	if len(m.BetterRows) != 10 || m.BetterRows[0].ID != "s60" || len(m.WorseRows) != 5 || m.WorseRows[4].ID != "s9" {
		t.Errorf("flips %v / %v", m.BetterRows, m.WorseRows)
	}
	// Per group (i mod 3): group g0 holds rows 0,3,...,99 (34 rows):
	// better 60,63,66,69 (4), worse 6,9 (2).
	g0 := m.Groups[0]
	if g0.Group != "g0" || g0.N != 34 || g0.Better != 4 || g0.Worse != 2 {
		t.Errorf("group g0 %+v", g0)
	}
	var buf bytes.Buffer
	if err := d.WriteText(&buf); err != nil || !strings.Contains(buf.String(), "Change by group") {
		t.Errorf("text: %v\n%s", err, buf.String())
	}
	if _, err := json.Marshal(d); err != nil {
		t.Error(err)
	}
}

// Diff of the two models of the embedded sample, scored by pkg/qa and
// paired by question id: the flips agree with the rows' verdicts.
func TestDiffSampleModels(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	var verdicts [2]map[string]float64
	for k, model := range []string{"kestrel-7b", "tern-13b"} {
		res, rows := sampleByModel(t, model)
		run, err := FromScore("score", res, rows)
		if err != nil {
			t.Fatal(err)
		}
		run.Model = model
		record(t, s, run)
		verdicts[k] = map[string]float64{}
		for r := range rows.All() {
			id, _ := r.Field("id")
			verdicts[k][id], _ = r.Value("exact_substring")
		}
	}
	d, err := s.Diff(ctx, "1", "2", DiffOptions{Metrics: []string{"exact_substring"}, Flips: -1, Texts: true})
	if err != nil {
		t.Fatal(err)
	}
	better, worse := 0, 0
	for id, a := range verdicts[0] {
		switch b := verdicts[1][id]; {
		case b > a:
			better++
		case b < a:
			worse++
		}
	}
	m := d.Metrics[0]
	if m.Better != better || m.Worse != worse || m.N != 142 || d.Paired != 142 {
		t.Fatalf("better %d worse %d n %d, want %d %d 142", m.Better, m.Worse, m.N, better, worse)
	}
	if worse > 0 {
		f := m.WorseRows[0]
		if f.TextA == nil || f.TextB == nil || f.TextA.ID != f.ID || f.TextA.Question != f.TextB.Question || f.TextA.Response == f.TextB.Response {
			t.Errorf("flip texts %+v %+v", f.TextA, f.TextB)
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Gate on three hand-made pairs of 1000 rows (margin 0.02, 95%):
//   - clear regression: B fails 100 rows A passed (delta −0.10, sd of d
//     = √(0.1 − 0.01)·√(1000/999) ≈ 0.3002, se ≈ 0.00949; upper bound
//     −0.10 + 1.645·0.00949 ≈ −0.084 < −0.02): exit 3;
//   - clear non-regression: B gains 50 rows: ok;
//   - inside the noise: 30 rows worse, 20 better (delta −0.01, inside
//     the margin; and with margin 0 the upper bound −0.01 + 1.645·0.2235/
//     √1000 ≈ +0.0016 > 0): ok both ways.
func TestGateDecisions(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	base := func(i int) float64 { return b2f(i%2 == 0) }                                                              // 500 of 1000 pass
	record(t, s, synthRun(1000, true, base))                                                                          // 1
	record(t, s, synthRun(1000, true, func(i int) float64 { return b2f(i%2 == 0 && !(i < 200)) }))                    // 2: 100 worse
	record(t, s, synthRun(1000, true, func(i int) float64 { return b2f(i%2 == 0 || i < 100) }))                       // 3: 50 better
	record(t, s, synthRun(1000, true, func(i int) float64 { return b2f(i%2 == 0 && i >= 60 || i < 40 && i%2 == 1) })) // 4: 30 worse, 20 better
	cases := []struct {
		cand       string
		margin     float64
		regression bool
		delta      float64
	}{
		{"2", 0.02, true, -0.1},
		{"3", 0.02, false, 0.05},
		{"4", 0.02, false, -0.01},
		{"4", 0, false, -0.01},
	}
	for _, c := range cases {
		g, err := s.Gate(ctx, "1", c.cand, GateOptions{Metric: "m", Margin: c.margin})
		if err != nil {
			t.Fatal(err)
		}
		if g.Regression != c.regression || math.Abs(g.Delta-c.delta) > 1e-12 || g.N != 1000 {
			t.Errorf("candidate %s margin %v: regression %v delta %v n %d (%s)", c.cand, c.margin, g.Regression, g.Delta, g.N, g.Decision)
		}
	}
	g, _ := s.Gate(ctx, "1", "2", GateOptions{Metric: "m", Margin: 0.02})
	sd := math.Sqrt((0.1 - 0.01) * 1000 / 999)
	if want := -0.1 + 1.6448536269514722*sd/math.Sqrt(1000); math.Abs(g.Upper-want) > 1e-9 {
		t.Errorf("upper %v, want %v", g.Upper, want)
	}
	if want := 0.02 + (1.6448536269514722+0.8416212335729143)*sd/math.Sqrt(1000); math.Abs(g.MDE-want) > 1e-9 {
		t.Errorf("mde %v, want %v", g.MDE, want)
	}
	// The table beside the cards says what the cards say: the allowed
	// drop −2.0 pp (not the margin's +2.0), the smallest detectable drop
	// −(0.02 + 2.486·0.3002/√1000) = −4.4 pp, the regression as "yes",
	// and the columns named as a person reads them.
	tb := g.Tables()[0]
	got := map[string]string{}
	for j, c := range tb.Columns {
		got[c.Name] = tb.Cell(0, j)
	}
	for name, want := range map[string]string{"baseline": "50.0%", "candidate": "40.0%", "change": "−10.0 pp",
		"allowed drop (margin)": "−2.0 pp", "smallest drop detected": "−4.4 pp", "regression": "yes", "pairs": "1,000"} {
		if got[name] != want {
			t.Errorf("gate table %q = %q, want %q (columns %v)", name, got[name], want, got)
		}
	}
	for _, c := range tb.Columns {
		if strings.Contains(c.Name, "_") {
			t.Errorf("gate table column %q is an id, not a name", c.Name)
		}
	}
}

// Rows without a verdict (a failed call: NaN) are out of the gate's denominator.
func TestGateExcludesFailedRows(t *testing.T) {
	s := openTemp(t)
	record(t, s, synthRun(100, true, func(i int) float64 { return 1 }))
	record(t, s, synthRun(100, true, func(i int) float64 {
		if i < 10 {
			return math.NaN()
		}
		return 1
	}))
	g, err := s.Gate(context.Background(), "1", "2", GateOptions{Metric: "m", Margin: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if g.N != 90 || g.Excluded != 10 || g.Delta != 0 || g.Regression {
		t.Errorf("gate %+v", g)
	}
}

// A/A: 1000 rows, 40 flipped (20 each way): flip rate 0.04 with the
// Wilson interval; delta 0.
func TestAA(t *testing.T) {
	s := openTemp(t)
	record(t, s, synthRun(1000, true, func(i int) float64 { return b2f(i%2 == 0) }))
	record(t, s, synthRun(1000, true, func(i int) float64 { return b2f((i%2 == 0) != (i < 40)) }))
	r, err := s.AA(context.Background(), "1", "2", 0.95)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Metrics[0]
	// Wilson at z = 1.95996: centre (p + z²/2n)/(1 + z²/n), half-width
	// z·√(p(1−p)/n + z²/4n²)/(1 + z²/n) with p = 0.04, n = 1000.
	z := 1.959963984540054
	den := 1 + z*z/1000
	c := (0.04 + z*z/2000) / den
	h := z * math.Sqrt(0.04*0.96/1000+z*z/4e6) / den
	if m.Flips != 40 || m.FlipRate != 0.04 || math.Abs(m.FlipLow-(c-h)) > 1e-9 || math.Abs(m.FlipHigh-(c+h)) > 1e-9 || m.Delta != 0 {
		t.Errorf("aa %+v, want flip interval [%v, %v]", m, c-h, c+h)
	}
	if m.SuggestedMargin <= 0 {
		t.Errorf("suggested margin %v", m.SuggestedMargin)
	}
}

// One run given as A and B (by id twice, or as last and its id) is
// refused with ErrSameRun naming it, instead of a flip rate of 0 and a
// suggested margin of 0.
func TestAASameRun(t *testing.T) {
	s := openTemp(t)
	record(t, s, synthRun(100, true, func(i int) float64 { return b2f(i%2 == 0) }))
	record(t, s, synthRun(100, true, func(i int) float64 { return b2f(i%3 == 0) }))
	for _, ab := range [][2]string{{"1", "1"}, {"last", "2"}, {"last~1", "1"}} {
		r, err := s.AA(context.Background(), ab[0], ab[1], 0.95)
		if !errors.Is(err, ErrSameRun) || !strings.Contains(err.Error(), "both run") {
			t.Errorf("AA(%s, %s) = %+v, %v; want ErrSameRun", ab[0], ab[1], r, err)
		}
	}
	if _, err := s.AA(context.Background(), "1", "last", 0.95); err != nil {
		t.Errorf("AA(1, last): %v", err)
	}
}

func TestHistory(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	for k := range 3 {
		run := synthRun(10, true, func(i int) float64 { return b2f(i < 5+k) })
		run.Groups = []GroupScore{{Metric: "m", N: 10, Accuracy: float64(5+k) / 10, CILow: 0.1, CIHigh: 0.9},
			{By: "grp", Group: "g0", Metric: "m", N: 4, Accuracy: 0.5, CILow: 0.1, CIHigh: 0.9}}
		record(t, s, run)
	}
	h, err := s.History(ctx, HistoryOptions{Metric: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Points) != 3 || h.Points[2].Accuracy != 0.7 || !h.Points[0].Comparable {
		t.Errorf("history %+v", h.Points)
	}
	h, err = s.History(ctx, HistoryOptions{Metric: "m", By: "grp"})
	if err != nil || len(h.Points) != 3 || h.Points[0].Group != "g0" {
		t.Errorf("history by grp %+v %v", h, err)
	}
	if _, err := s.History(ctx, HistoryOptions{Metric: "nope"}); err == nil {
		t.Error("history of an unknown metric gave no error")
	}
}

func TestResolve(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	for range 3 {
		record(t, s, synthRun(1, true, func(int) float64 { return 1 }))
	}
	for ref, want := range map[string]int64{"last": 3, "last~0": 3, "last~2": 1, "2": 2} {
		if got, err := s.Resolve(ctx, ref); err != nil || got != want {
			t.Errorf("%s: %d %v, want %d", ref, got, err, want)
		}
	}
	for _, ref := range []string{"last~3", "7", "x", "last~-1"} {
		if _, err := s.Resolve(ctx, ref); err == nil {
			t.Errorf("%s resolved", ref)
		}
	}
}

func TestPathEnv(t *testing.T) {
	t.Setenv(EnvVar, "/tmp/x.db")
	if Path("") != "/tmp/x.db" || Path("y.db") != "y.db" {
		t.Error(Path(""))
	}
	os.Unsetenv(EnvVar)
	if Path("") != DefaultPath {
		t.Error(Path(""))
	}
}

func TestNewStorePageSize(t *testing.T) {
	s := openTemp(t)
	var ps int
	var jm string
	s.db.QueryRow(`PRAGMA page_size`).Scan(&ps)
	s.db.QueryRow(`PRAGMA journal_mode`).Scan(&jm)
	if ps != PageSize || jm != "wal" {
		t.Errorf("page size %d, journal mode %q", ps, jm)
	}
}

// A released migration step is never edited: migrations[0] is the frozen
// version-1 schema.
func TestMigrationsFrozen(t *testing.T) {
	schema, err := os.ReadFile("testdata/schema_v1.sql")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(schema), "\n") {
		if !strings.HasPrefix(l, "--") {
			lines = append(lines, l)
		}
	}
	if got := strings.TrimSpace(strings.Join(lines, "\n")); got != strings.TrimSpace(migrations[0]) {
		t.Error("migrations[0] differs from testdata/schema_v1.sql: append a migration instead of editing a released one")
	}
}

// The sequential gate (GateOptions.Sequential) on the runs of
// TestGateDecisions: the confidence sequence's half-width after t pairs is,
// from Howard et al.'s normal mixture with σ = 1 (differences in [−1, 1])
// and ρ = 1000/u (u − log(1 + u) = −2 log 0.05, u = 8.21197),
// √((t + ρ)·log((t + ρ)/(0.0025ρ)))/t, recomputed here. Candidate 2 loses
// every even row below 200, so the running mean is about −0.5 and the
// sequence falls below −0.02 at the first t where −⌈t/2⌉/t + h(t) < −0.02;
// candidate 3 gains every odd row below 100 and rises above −0.02 at the
// first t where ⌊t/2⌋/t − h(t) > −0.02; an identical candidate never
// leaves [−0.02 − h, h] at n = 1000 (h(1000) ≈ 0.096): continue.
func TestGateSequential(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	base := func(i int) float64 { return b2f(i%2 == 0) }
	record(t, s, synthRun(1000, true, base))                                                       // 1
	record(t, s, synthRun(1000, true, func(i int) float64 { return b2f(i%2 == 0 && !(i < 200)) })) // 2: 100 worse
	record(t, s, synthRun(1000, true, func(i int) float64 { return b2f(i%2 == 0 || i < 100) }))    // 3: 50 better
	record(t, s, synthRun(1000, true, base))                                                       // 4: the same
	const u = 8.211968062068253
	rho := 1000 / u
	h := func(t float64) float64 { return math.Sqrt((t+rho)*math.Log((t+rho)/(0.0025*rho))) / t }
	first := func(ok func(t float64) bool) int {
		for t := 1; t <= 1000; t++ {
			if ok(float64(t)) {
				return t
			}
		}
		return 0
	}
	worse := first(func(t float64) bool { return -math.Ceil(t/2)/t+h(t) < -0.02 })
	better := first(func(t float64) bool { return math.Floor(t/2)/t-h(t) > -0.02 })
	cases := []struct {
		cand     string
		decision string
		n        int
	}{
		{"2", "regression", worse},
		{"3", "no_regression", better},
		{"4", "continue", 1000},
	}
	for _, c := range cases {
		g, err := s.Gate(ctx, "1", c.cand, GateOptions{Metric: "m", Margin: 0.02, Sequential: true})
		if err != nil {
			t.Fatal(err)
		}
		q := g.Sequential
		if q == nil || q.Decision != c.decision || q.N != c.n || c.n == 0 || g.Regression != (c.decision == "regression") || q.Method != "normal-mixture-cs" {
			t.Errorf("candidate %s: %+v regression %v, want %s at %d pairs (%s)", c.cand, q, g.Regression, c.decision, c.n, g.Decision)
		}
	}
	if worse < 50 || worse > 120 {
		t.Errorf("regression found after %d pairs; by hand the bound is about 0.38 at t = 100 and 0.66 at t = 50", worse)
	}
}
