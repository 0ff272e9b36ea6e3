package qa_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
)

// Scored rows as values, in file order: each row's line, its input
// fields, every metric's verdict, word_overlap's counts, the flags and
// its group.
func ExampleRows() {
	in := `question,answer,Domain,response
Capital of France?,Paris,geo,It is Paris.
Who wrote Gitanjali?,Rabindranath Tagore,lit,Tagore
Boiling point of water?,100 °C,sci,
`
	metrics, _ := score.ParseList("exact_substring,word_overlap")
	for r, err := range qa.Rows(context.Background(), strings.NewReader(in), "in.csv", qa.Options{Metrics: metrics}) {
		if err != nil {
			fmt.Println(err) // a *qa.ParseError names file, line and column
			break
		}
		q, _ := r.Field("question")
		fmt.Printf("line %d %-24q %v words %d/%d blank %v group %s\n", r.Line, q, r.Values, r.Matching, r.TotalGolden, r.Blank, r.Groups[0])
	}
	// Output:
	// line 2 "Capital of France?"     [1 1] words 1/1 blank false group geo
	// line 3 "Who wrote Gitanjali?"   [0 0] words 1/2 blank false group lit
	// line 4 "Boiling point of water?" [0 0] words 0/2 blank true group sci
}

// Options.Rows hands the rows to a callback while Score computes the
// figures; a results.RowTable keeps them (cloned) for a renderer.
func ExampleOptions_rows() {
	in := "question,answer,Domain,response\nq1,Paris,geo,Paris\nq2,Delhi,geo,Mumbai\n"
	var rows results.RowTable
	res, err := qa.Score(context.Background(), strings.NewReader(in), "in.csv", qa.Options{Rows: rows.Add})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Combined.N, "rows scored,", rows.Len(), "kept")
	s := rows.Schema()
	fmt.Println(strings.Join(s.Header, ","))
	for r := range rows.All() {
		fmt.Println(strings.Join(s.AppendCells(nil, r), ","))
	}
	// Output:
	// 2 rows scored, 2 kept
	// question,answer,Domain,response,exact_substring,word_overlap,matching_words,total_golden_words,blank_response,empty_golden
	// q1,Paris,geo,Paris,1,1,1,1,0,0
	// q2,Delhi,geo,Mumbai,0,0,0,1,0,0
}
