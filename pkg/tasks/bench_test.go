package tasks

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// BenchmarkLoglik10k runs 10,000 four-choice log-likelihood items against
// the loopback server answering after 20 ms, at concurrency 32, then again
// from the cache (which must send nothing):
//
//	go test ./pkg/tasks -run '^$' -bench Loglik10k -benchtime 1x
func BenchmarkLoglik10k(b *testing.B) {
	var sb strings.Builder
	for i := range 10000 {
		row, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("q%05d", i), "split": "test", "q": fmt.Sprintf("question %d: which?", i),
			"choices": []string{"alpha", "beta b", "gamma gg", "delta"}, "gold": i % 4})
		sb.Write(row)
		sb.WriteByte('\n')
	}
	sb.WriteString(`{"id":"t1","split":"train","q":"a","choices":["a","b","c","d"],"gold":0}` + "\n")
	cat, err := LoadCatalog(fstest.MapFS{"t/toy/task.json": {Data: []byte(toyTask)}, "t/toy/en.jsonl": {Data: []byte(sb.String())}}, "t")
	if err != nil {
		b.Fatal(err)
	}
	for _, perChoice := range []bool{false, true} {
		b.Run(fmt.Sprintf("per_choice=%v", perChoice), func(b *testing.B) {
			for range b.N {
				s := tasktest.New(b, tasktest.NewModel("the quick brown fox jumps over the lazy dog"))
				s.Delay = 20 * time.Millisecond
				cache := llm.NewMemoryCache()
				cl, _ := llm.NewClient(llm.Config{BaseURL: s.BaseURL(), Model: "bigram", Concurrency: 32, Cache: cache})
				opt := Options{Catalog: cat, Specs: []Spec{{Suite: "toy", Task: "bigram", Language: "english"}}, Client: cl, PerChoice: perChoice, Workers: 64}
				start := time.Now()
				d, err := Run(context.Background(), opt)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Score(d, ScoreOptions{}); err != nil {
					b.Fatal(err)
				}
				online := time.Since(start)
				sent := s.Count()
				opt.Client, _ = llm.NewClient(llm.Config{BaseURL: s.BaseURL(), Model: "bigram", Concurrency: 32, Cache: cache})
				start = time.Now()
				if _, err := Run(context.Background(), opt); err != nil {
					b.Fatal(err)
				}
				cached := time.Since(start)
				if s.Count() != sent {
					b.Fatalf("the rerun sent %d requests", s.Count()-sent)
				}
				b.ReportMetric(online.Seconds(), "s_online")
				b.ReportMetric(cached.Seconds(), "s_cached")
				b.ReportMetric(float64(sent), "requests")
			}
		})
	}
}
