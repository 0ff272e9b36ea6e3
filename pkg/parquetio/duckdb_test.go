package parquetio

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/qa"
)

// duckdbPackage is the npm package (and version) whose engine the
// DuckDB tests run; .ci/run installs the same one.
const duckdbPackage = "@duckdb/node-api@1.5.6-r.1"

// duckdbModules returns the node_modules folder holding @duckdb/node-api
// ($EVALBOOK_DUCKDB_NODE, or the user cache's evalbook/duckdb-node; see
// npmModules).
func duckdbModules(t *testing.T) string {
	return npmModules(t, "DuckDB", "EVALBOOK_DUCKDB_NODE", "duckdb-node", duckdbPackage)
}

// duckdb runs the queries with the real DuckDB engine
// (internal/duckdbtest/query.cjs) and returns each one's rows.
func duckdb(t *testing.T, queries ...string) [][]map[string]any {
	t.Helper()
	mods := duckdbModules(t)
	script, err := filepath.Abs(filepath.Join("..", "..", "internal", "duckdbtest", "query.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", append([]string{script}, queries...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("DuckDB: %v\n%s", err, stderr.String())
	}
	var doc struct {
		DuckDB  string             `json:"duckdb"`
		Results [][]map[string]any `json:"results"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("DuckDB's output %q: %v", out, err)
	}
	t.Logf("DuckDB %s", doc.DuckDB)
	return doc.Results
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// DuckDB reads the Hive-partitioned folder, decodes the escaped model
// names, and its per-group counts and sums are evalbook's per-group
// figures (qa.Score grouped by model and language).
func TestDuckDBReadsPartitionedFolder(t *testing.T) {
	csv := responsesCSV(2000)
	res, err := qa.Score(context.Background(), strings.NewReader(csv), "r.csv", qa.Options{By: [][]string{{"model", "language"}}})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "verdicts")
	wr, err := WriteDir(dir, qa.Rows(context.Background(), strings.NewReader(csv), "r.csv", qa.Options{}),
		DirOptions{By: []string{"model", "language"}, RowGroupRows: 300})
	if err != nil {
		t.Fatal(err)
	}
	q := fmt.Sprintf(`SELECT model, coalesce(language, '') AS language, count(*) AS n,
		sum(exact_substring) AS exact_substring, sum(word_overlap) AS word_overlap,
		count_if(blank_response) AS blank, sum(matching_words) AS matching_words
	FROM read_parquet(%s, hive_partitioning = true) GROUP BY ALL ORDER BY ALL`, sqlString(dir+"/**/*.parquet"))
	// The README's query, as printed there.
	readme := fmt.Sprintf(`SELECT model, language, count(*) AS n,
       avg(exact_substring) AS accuracy, count_if(blank_response) AS blank
FROM read_parquet(%s, hive_partitioning = true)
GROUP BY ALL ORDER BY ALL;`, sqlString(dir+"/**/*.parquet"))
	got := duckdb(t, q, fmt.Sprintf("SELECT count(*) AS files FROM glob(%s)", sqlString(dir+"/**/*.parquet")), readme)
	acc := map[string]float64{}
	for _, g := range got[2] {
		l, _ := g["language"].(string) // NULL for __HIVE_DEFAULT_PARTITION__
		acc[g["model"].(string)+" / "+l] = g["accuracy"].(float64)
	}
	groups := got[0]
	if len(groups) != len(res.Groups) || len(groups) != wr.Partitions {
		t.Fatalf("DuckDB found %d groups, evalbook %d, the writer %d partitions:\n%v", len(groups), len(res.Groups), wr.Partitions, groups)
	}
	if f := got[1][0]["files"]; f != float64(wr.Files) {
		t.Errorf("DuckDB globbed %v files, the writer wrote %d", f, wr.Files)
	}
	byName := map[string]map[string]any{}
	for _, g := range groups {
		byName[g["model"].(string)+" / "+g["language"].(string)] = g
	}
	for _, g := range res.Groups {
		d, ok := byName[g.Group]
		if !ok {
			t.Errorf("evalbook's group %q is not among DuckDB's %v", g.Group, groups)
			continue
		}
		if a := g.Metrics["exact_substring"].Accuracy; math.Abs(acc[g.Group]-a) > 1e-12 {
			t.Errorf("group %s: the README query's accuracy %v, evalbook's %v", g.Group, acc[g.Group], a)
		}
		var matching float64
		if m, ok := g.Metrics["word_overlap"]; ok {
			matching = float64(m.MatchingWords)
		}
		for _, c := range []struct {
			col  string
			want float64
		}{
			{"n", float64(g.N)},
			{"blank", float64(g.Blank)},
			{"exact_substring", g.Metrics["exact_substring"].Correct},
			{"word_overlap", g.Metrics["word_overlap"].Correct},
			{"matching_words", matching},
		} {
			if d[c.col] != c.want {
				t.Errorf("group %s: DuckDB's %s = %v, evalbook's %v", g.Group, c.col, d[c.col], c.want)
			}
		}
	}
}

// DuckDB reads the single verdict file: its column types, and the same
// rows as evalbook's (Hindi text included).
func TestDuckDBReadsVerdictFile(t *testing.T) {
	csv := responsesCSV(500) + "500,राजधानी?,नई दिल्ली,d0,नई दिल्ली है,सर्वम्-1,hi\n"
	rows := scoredRows(t, csv)
	path := filepath.Join(t.TempDir(), "verdicts.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteRows(f, seqOf(rows), WriteOptions{RowGroupRows: 100}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	src := "read_parquet(" + sqlString(path) + ")"
	got := duckdb(t,
		"SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM "+src+")",
		"SELECT id, response, exact_substring, word_overlap, matching_words, blank_response FROM "+src+" ORDER BY id::INTEGER",
	)
	var types []string
	for _, c := range got[0] {
		types = append(types, fmt.Sprintf("%s %s", c["column_name"], c["column_type"]))
	}
	wantTypes := "id VARCHAR, question VARCHAR, answer VARCHAR, Domain VARCHAR, response VARCHAR, model VARCHAR, language VARCHAR, " +
		"exact_substring DOUBLE, word_overlap DOUBLE, matching_words BIGINT, total_golden_words BIGINT, blank_response BOOLEAN, empty_golden BOOLEAN"
	if strings.Join(types, ", ") != wantTypes {
		t.Errorf("DuckDB's schema:\n%s\nwant\n%s", strings.Join(types, ", "), wantTypes)
	}
	if len(got[1]) != len(rows) {
		t.Fatalf("DuckDB read %d rows, evalbook wrote %d", len(got[1]), len(rows))
	}
	for i, r := range rows {
		d := got[1][i]
		id, _ := r.Field("id")
		resp, _ := r.Field("response")
		es, _ := r.Value("exact_substring")
		wo, _ := r.Value("word_overlap")
		if d["id"] != id || d["response"] != resp || d["exact_substring"] != es || d["word_overlap"] != wo ||
			d["matching_words"] != float64(r.Matching) || d["blank_response"] != r.Blank {
			t.Fatalf("row %d: DuckDB %v, evalbook id %s response %q %v %v %d %v", i+1, d, id, resp, es, wo, r.Matching, r.Blank)
		}
	}
	if last := got[1][len(rows)-1]; last["response"] != "नई दिल्ली है" || last["exact_substring"] != 1.0 {
		t.Errorf("the Hindi row: %v", last)
	}
}

// DuckDB reads the empty value, the literal __HIVE_DEFAULT_PARTITION__
// and a value with a U+202E RIGHT-TO-LEFT OVERRIDE back from their three
// folders as three groups: NULL (the empty value's folder, as Hive
// writes it), the literal text, and the text with its U+202E (its folder
// name holds %E2%80%AE, not the control).
func TestDuckDBHiveNullAndBidi(t *testing.T) {
	csv := "question,answer,Domain,response,language\n" +
		"q1,a,d,a,\nq2,a,d,a,\nq3,a,d,a," + HiveNull + "\nq4,a,d,a,ab\u202Ecd\nq5,a,d,a,ab\u202Ecd\nq6,a,d,a,ab\u202Ecd\nq7,a,d,a,hi\n"
	dir := filepath.Join(t.TempDir(), "verdicts")
	res, err := WriteDir(dir, qa.Rows(context.Background(), strings.NewReader(csv), "r.csv", qa.Options{}), DirOptions{By: []string{"language"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Partitions != 4 {
		t.Fatalf("%d partitions, want 4", res.Partitions)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.ContainsRune(e.Name(), '\u202E') {
			t.Errorf("folder %q holds a raw U+202E", e.Name())
		}
	}
	got := duckdb(t, fmt.Sprintf(`SELECT coalesce(language, '<null>') AS language, count(*) AS n
		FROM read_parquet(%s, hive_partitioning = true) GROUP BY ALL ORDER BY ALL`, sqlString(dir+"/**/*.parquet")))
	want := map[string]float64{"<null>": 2, HiveNull: 1, "ab\u202Ecd": 3, "hi": 1}
	if len(got[0]) != len(want) {
		t.Fatalf("DuckDB's groups %v, want %v", got[0], want)
	}
	for _, g := range got[0] {
		if l := g["language"].(string); g["n"] != want[l] {
			t.Errorf("DuckDB's group %q has %v rows, want %v", l, g["n"], want[l])
		}
	}
}
