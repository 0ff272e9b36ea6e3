package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/store"
)

// Two versions scored by pkg/qa are recorded, then compared and gated:
// version 2 answers q3 but loses q1 and q2.
func Example() {
	dir, _ := os.MkdirTemp("", "store-example")
	defer os.RemoveAll(dir)
	st, err := store.Open(filepath.Join(dir, "evalbook.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	ctx := context.Background()
	for _, responses := range [][]string{{"Paris", "Tagore", "x", "Delhi"}, {"Rome", "x", "100", "Delhi"}} {
		in := "id,question,answer,Domain,response\n" +
			"q1,Capital of France?,Paris,geo," + responses[0] + "\n" +
			"q2,Who wrote Gitanjali?,Tagore,lit," + responses[1] + "\n" +
			"q3,Boiling point of water in C?,100,sci," + responses[2] + "\n" +
			"q4,Capital of India?,Delhi,geo," + responses[3] + "\n"
		var rows results.RowTable
		res, err := qa.Score(ctx, strings.NewReader(in), "v.csv", qa.Options{Rows: rows.Add})
		if err != nil {
			fmt.Println(err)
			return
		}
		run, _ := store.FromScore("score", res, &rows)
		id, err := st.Record(ctx, run)
		fmt.Println("recorded run", id, err)
	}
	d, _ := st.Diff(ctx, "1", "2", store.DiffOptions{Metrics: []string{"exact_substring"}})
	m := d.Metrics[0]
	fmt.Printf("better %d, worse %d, delta %+.2f, sign test p %.3f\n", m.Better, m.Worse, m.Delta, m.SignP)
	for _, f := range m.WorseRows {
		fmt.Println("worse:", f.ID)
	}
	g, _ := st.Gate(ctx, "1", "2", store.GateOptions{Metric: "exact_substring", Margin: 0.05})
	fmt.Println("regression:", g.Regression, "n", g.N)
	// Output:
	// recorded run 1 <nil>
	// recorded run 2 <nil>
	// better 1, worse 2, delta -0.25, sign test p 1.000
	// worse: q1
	// worse: q2
	// regression: false n 4
}
