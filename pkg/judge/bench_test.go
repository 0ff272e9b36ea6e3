package judge

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/evalbook/evalbook/internal/llmtest"
	"github.com/evalbook/evalbook/pkg/llm"
)

// BenchmarkReference2000 is the speed target: 2,000 reference
// judgments against a stub that answers each request in 50 ms, with 32
// requests in flight (at most 5 s; one at a time it would take 100 s),
// then the same 2,000 again from the cache file, which must make no
// request at all. Run it with
//
//	go test -run '^$' -bench Reference2000 -benchtime 1x ./pkg/judge
func BenchmarkReference2000(b *testing.B) {
	p := mustPrompt(b, "reference@1")
	items := make([]RefItem, 2000)
	for i := range items {
		items[i] = RefItem{Question: fmt.Sprintf("question %d", i), Golden: fmt.Sprint(i), Response: fmt.Sprintf("it is %d", i)}
	}
	s := llmtest.New(b)
	s.Delay = 50 * time.Millisecond
	s.Answer = referenceAnswer
	path := filepath.Join(b.TempDir(), "cache.jsonl")
	run := func(b *testing.B) *llm.Client {
		cache, err := llm.OpenCache(path)
		if err != nil {
			b.Fatal(err)
		}
		defer cache.Close()
		c, err := llm.NewClient(llm.Config{BaseURL: s.BaseURL(), Model: "bench", Concurrency: 32, Cache: cache, Timeout: 10 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		v, err := JudgeReferences(context.Background(), NewClientJudge(c, p), items, 64, nil)
		if err != nil {
			b.Fatal(err)
		}
		for i, r := range v {
			if !r.Valid || !r.Correct {
				b.Fatalf("row %d: %+v", i, r)
			}
		}
		return c
	}
	b.Run("cold", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			if err := removeFile(path); err != nil {
				b.Fatal(err)
			}
			before := s.Count()
			b.StartTimer()
			run(b)
			b.ReportMetric(float64(s.Count()-before), "requests/op")
		}
	})
	b.Run("cached", func(b *testing.B) {
		run(b) // fill the cache if the cold run did not
		b.ResetTimer()
		for range b.N {
			before := s.Count()
			c := run(b)
			if n := s.Count() - before; n != 0 || c.Stats().CacheHits != 2000 {
				b.Fatalf("cached run made %d requests, %d cache hits", n, c.Stats().CacheHits)
			}
			b.ReportMetric(0, "requests/op")
		}
	})
}
