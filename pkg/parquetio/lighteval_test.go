package parquetio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// The fixtures follow the layouts lighteval's EvaluationTracker saves
// (see the constants in lighteval.go): the same three samples of a
// generative task, written as each release would write them. Columns are
// in sorted order, as lighteval sorts them before saving.

type lvCase struct {
	query, instruction, prompt string
	choices                    []string
	gold                       int64
	text                       []string
	post                       []string // nil: not post-processed
	em, f1                     float64
}

var lvCases = []lvCase{
	{"Capital of India?", "Answer briefly.", "Answer briefly.\nCapital of India?", []string{"New Delhi"}, 0, []string{" New Delhi"}, []string{"New Delhi"}, 1, 1},
	{"भारत की राजधानी?", "", "भारत की राजधानी?", []string{"नई दिल्ली"}, 0, []string{"दिल्ली"}, nil, 0, 0.5},
	{"বাংলাদেশের রাজধানী?", "", "বাংলাদেশের রাজধানী?", []string{"ঢাকা", "Dhaka"}, 1, []string{"Dhaka", "ঢাকা"}, nil, 1, 1},
}

const lvName = "details_lighteval|indicqa:hi|0_2025-06-25T10-11-12.123456.parquet"

func nestedDetails(t testing.TB, drop string) []byte {
	return nestedDetailsOf(t, lvCases, "lighteval|indicqa:hi", drop)
}

// nestedDetailsOf is a details file (lighteval 0.11 and later) of cases
// for task.
func nestedDetailsOf(t testing.TB, cases []lvCase, task, drop string) []byte {
	doc := arrow.StructOf(
		arrow.Field{Name: "choices", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		arrow.Field{Name: "gold_index", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "instruction", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "query", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "task_name", Type: arrow.BinaryTypes.String, Nullable: true},
	)
	resp := arrow.StructOf(
		arrow.Field{Name: "input", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "text", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		arrow.Field{Name: "text_post_processed", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		arrow.Field{Name: "truncated_tokens_count", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	)
	metric := arrow.StructOf(
		arrow.Field{Name: "em", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		arrow.Field{Name: "f1", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	)
	fields := []arrow.Field{field("doc", doc), field("metric", metric), field("model_response", resp)}
	var rows [][]any
	for _, c := range cases {
		var post any
		if c.post != nil {
			post = c.post
		}
		var inst any
		if c.instruction != "" {
			inst = c.instruction
		}
		rows = append(rows, []any{
			map[string]any{"choices": c.choices, "gold_index": c.gold, "instruction": inst, "query": c.query, "task_name": task},
			map[string]any{"em": c.em, "f1": c.f1},
			map[string]any{"input": c.prompt, "text": c.text, "text_post_processed": post, "truncated_tokens_count": int64(0)},
		})
	}
	return dropColumn(t, fields, rows, drop)
}

// dropColumn writes the file without the named column ("" keeps all).
func dropColumn(t testing.TB, fields []arrow.Field, rows [][]any, drop string) []byte {
	k := -1
	for i, f := range fields {
		if f.Name == drop {
			k = i
		}
	}
	if k >= 0 {
		fields = append(fields[:k:k], fields[k+1:]...)
		for i := range rows {
			rows[i] = append(rows[i][:k:k], rows[i][k+1:]...)
		}
	}
	return parquetFile(t, arrow.NewSchema(fields, nil), rows, 2)
}

// response is what the flat layouts stored as predictions: the
// post-processed text when there was one.
func (c lvCase) response() []string {
	if c.post != nil {
		return c.post
	}
	return c.text
}

func flatDetails(t testing.TB, drop string) []byte {
	metrics := arrow.StructOf(
		arrow.Field{Name: "em", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		arrow.Field{Name: "f1", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	)
	strs := arrow.ListOf(arrow.BinaryTypes.String)
	fields := []arrow.Field{
		field("choices", strs), str("example"), str("full_prompt"), field("gold", strs),
		field("gold_index", arrow.ListOf(arrow.PrimitiveTypes.Int64)), str("instruction"),
		field("metrics", metrics), field("num_effective_few_shots", arrow.PrimitiveTypes.Int64),
		field("predictions", strs), field("truncated", arrow.ListOf(arrow.PrimitiveTypes.Int64)),
	}
	var rows [][]any
	for _, c := range lvCases {
		rows = append(rows, []any{
			[]string{}, c.query, c.prompt, []string{c.choices[c.gold]}, []int64{}, c.instruction,
			map[string]any{"em": c.em, "f1": c.f1}, int64(0), c.response(), []int64{0},
		})
	}
	return dropColumn(t, fields, rows, drop)
}

// pyList is Python's str() of a list of str, as lighteval < 0.8 saved it.
func pyList(xs []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		if strings.Contains(x, "'") && !strings.Contains(x, `"`) {
			b.WriteString(`"` + x + `"`)
		} else {
			b.WriteString("'" + strings.ReplaceAll(x, "'", `\'`) + "'")
		}
	}
	b.WriteByte(']')
	return b.String()
}

func textDetails(t testing.TB, metrics func(c lvCase) string) []byte {
	fields := []arrow.Field{str("choices"), str("example"), str("full_prompt"), str("gold"), str("gold_index"),
		str("instruction"), str("metrics"), str("predictions"), str("specifics")}
	var rows [][]any
	for _, c := range lvCases {
		rows = append(rows, []any{"[]", c.query, c.prompt, pyList([]string{c.choices[c.gold]}), "[]", c.instruction,
			metrics(c), pyList(c.response()), "None"})
	}
	return parquetFile(t, arrow.NewSchema(fields, nil), rows, 2)
}

func pyMetrics(c lvCase) string { return fmt.Sprintf("{'em': %.1f, 'f1': %.1f}", c.em, c.f1) }

func readAllLighteval(t *testing.T, data []byte) (LightevalInfo, []LightevalSample, error) {
	t.Helper()
	var out []LightevalSample
	info, err := ReadLighteval(context.Background(), bytes.NewReader(data), lvName, ReadOptions{}, func(s *LightevalSample) error {
		c := *s
		c.Responses = append([]string(nil), s.Responses...)
		c.Golds = append([]string(nil), s.Golds...)
		c.Metrics = append([]LightevalMetric(nil), s.Metrics...)
		out = append(out, c)
		return nil
	})
	return info, out, err
}

// Each layout gives the same samples: the query, the (post-processed)
// response, the gold answer and the per-sample metrics.
func TestLightevalLayouts(t *testing.T) {
	for _, tc := range []struct {
		layout string
		data   []byte
	}{
		{LightevalNested, nestedDetails(t, "")},
		{LightevalFlat, flatDetails(t, "")},
		{LightevalFlatText, textDetails(t, pyMetrics)},
	} {
		t.Run(tc.layout, func(t *testing.T) {
			info, got, err := readAllLighteval(t, tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if info.Layout != tc.layout || info.Task != "lighteval|indicqa:hi|0" || info.Date != "2025-06-25T10-11-12.123456" || info.Rows != 3 {
				t.Errorf("info %+v", info)
			}
			for i, c := range lvCases {
				s := got[i]
				want := fmt.Sprintf("%s|%s|%s|em=%v f1=%v|%s", c.query, c.response()[0], c.choices[c.gold], c.em, c.f1, fmt.Sprint(i))
				have := fmt.Sprintf("%s|%s|%s|%s=%v %s=%v|%s", s.Prompt, s.Response, s.Golden, s.Metrics[0].Name, s.Metrics[0].Value, s.Metrics[1].Name, s.Metrics[1].Value, s.SampleID)
				if have != want || !s.HasResponse || !s.HasGolden || s.Line != i+1 || s.Task != info.Task {
					t.Errorf("sample %d: %s (line %d), want %s", i, have, s.Line, want)
				}
				if s.FullPrompt != c.prompt || s.Instruction != c.instruction {
					t.Errorf("sample %d: prompt %q instruction %q", i, s.FullPrompt, s.Instruction)
				}
			}
			// The nested layout keeps the raw text beside the post-processed one.
			if tc.layout == LightevalNested && (len(got[0].Responses) != 1 || got[0].Responses[0] != "New Delhi") {
				t.Errorf("nested responses %q", got[0].Responses)
			}
		})
	}
}

// A log-likelihood task's predictions are numbers: no response text, but
// its metrics are read.
func TestLightevalLoglikelihood(t *testing.T) {
	metrics := arrow.StructOf(arrow.Field{Name: "acc", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	fields := []arrow.Field{field("choices", arrow.ListOf(arrow.BinaryTypes.String)), str("example"),
		field("gold_index", arrow.ListOf(arrow.PrimitiveTypes.Int64)), field("metrics", metrics),
		field("predictions", arrow.ListOf(arrow.PrimitiveTypes.Float64))}
	data := parquetFile(t, arrow.NewSchema(fields, nil), [][]any{
		{[]string{" A", " B"}, "Q1", []int64{1}, map[string]any{"acc": int64(1)}, []float64{-2.5, -0.1}},
		{[]string{" A", " B"}, "Q2", []int64{0}, map[string]any{"acc": int64(0)}, []float64{-3, -0.2}},
	}, 0)
	_, got, err := readAllLighteval(t, data)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].HasResponse || got[0].Golden != " B" || got[0].Metrics[0] != (LightevalMetric{"acc", 1}) || got[1].Golden != " A" || got[1].Metrics[0].Value != 0 {
		t.Errorf("samples %+v", got)
	}
}

func TestLightevalBrokenFiles(t *testing.T) {
	nested := nestedDetails(t, "")
	wrongType := parquetFile(t, arrow.NewSchema([]arrow.Field{
		field("doc", arrow.StructOf(arrow.Field{Name: "query", Type: arrow.PrimitiveTypes.Int64, Nullable: true})),
		field("metric", arrow.StructOf(arrow.Field{Name: "em", Type: arrow.PrimitiveTypes.Float64, Nullable: true})),
		field("model_response", arrow.StructOf(arrow.Field{Name: "text", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true})),
	}, nil), [][]any{{map[string]any{"query": int64(7)}, map[string]any{"em": 1.0}, map[string]any{"text": []string{"x"}}}}, 0)
	badGold := parquetFile(t, arrow.NewSchema([]arrow.Field{
		field("doc", arrow.StructOf(arrow.Field{Name: "choices", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
			arrow.Field{Name: "gold_index", Type: arrow.PrimitiveTypes.Int64, Nullable: true})),
		field("metric", arrow.StructOf(arrow.Field{Name: "em", Type: arrow.PrimitiveTypes.Float64, Nullable: true})),
		field("model_response", arrow.StructOf(arrow.Field{Name: "text", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true})),
	}, nil), [][]any{
		{map[string]any{"choices": []string{"a"}, "gold_index": int64(0)}, map[string]any{"em": 1.0}, map[string]any{"text": []string{"a"}}},
		{map[string]any{"choices": []string{"a"}, "gold_index": int64(3)}, map[string]any{"em": 1.0}, map[string]any{"text": []string{"a"}}},
	}, 0)
	notLighteval := parquetFile(t, arrow.NewSchema([]arrow.Field{str("question"), str("answer")}, nil), [][]any{{"q", "a"}}, 0)
	for _, tc := range []struct {
		name  string
		data  []byte
		line  int
		field string
		want  string
		is    error
	}{
		{"truncated", nested[:len(nested)/2], 0, "", "not a readable Parquet file", nil},
		{"no model_response", nestedDetails(t, "model_response"), 0, "model_response", `nested layout have a column "model_response"`, tabular.ErrMissingColumn},
		{"no metrics (flat)", flatDetails(t, "metrics"), 0, "metrics", `flat layout have a column "metrics"`, tabular.ErrMissingColumn},
		{"query is a number", wrongType, 1, "doc.query", "writes a string here; the column is int64", nil},
		{"gold index out of range", badGold, 2, "doc.gold_index", "gold index 3 is outside the 1 choices", nil},
		{"bad literal", textDetails(t, func(lvCase) string { return "{'em': 1.0" }), 1, "metrics", "Python literal", nil},
		{"not lighteval", notLighteval, 0, "", "not lighteval details: the columns are question, answer", nil},
	} {
		_, _, err := readAllLighteval(t, tc.data)
		var pe *tabular.ParseError
		if !errors.As(err, &pe) || pe.File != lvName || pe.Line != tc.line || pe.Field != tc.field ||
			!strings.Contains(err.Error(), tc.want) || tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: %v (line %d, field %q)", tc.name, err, lineOf(pe), fieldOf(pe))
		}
	}
}

func lineOf(pe *tabular.ParseError) int {
	if pe == nil {
		return -1
	}
	return pe.Line
}

func fieldOf(pe *tabular.ParseError) string {
	if pe == nil {
		return "<nil>"
	}
	return pe.Field
}

func TestPyLiteral(t *testing.T) {
	for in, want := range map[string]string{
		`['Paris', "it's", 'a\'b', '\u0928\xe9']`: `[Paris it's a'b नé]`,
		`{'em': 1.0, 'acc': True, 'x': None}`:     `[{em 1} {acc true} {x <nil>}]`,
		`[(1, -2.5e3), [], nan]`:                  `[[1 -2500] [] NaN]`,
	} {
		v, err := parsePyLiteral(in)
		if err != nil || fmt.Sprint(v) != want {
			t.Errorf("parsePyLiteral(%s) = %v, %v; want %s", in, v, err, want)
		}
	}
	for _, bad := range []string{`['a'`, `{'a' 1}`, `[1 2]`, `'open`, `{1: 2}`, `['a'] x`, strings.Repeat("[", 100)} {
		if _, err := parsePyLiteral(bad); err == nil {
			t.Errorf("parsePyLiteral(%s): want an error", bad)
		}
	}
}
