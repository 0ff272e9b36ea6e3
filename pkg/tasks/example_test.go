package tasks_test

import (
	"context"
	"fmt"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/tasks"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// Run asks a served model for every choice's log-probability and Score
// turns the saved details into acc and acc_norm per task string. Here the
// model is tasktest's character bigram model on a loopback server; with a
// real engine, BaseURL is its OpenAI-compatible address (vLLM's
// http://localhost:8000/v1).
func ExampleRun() {
	cat, err := tasks.LoadCatalog(datasets.Tasks, datasets.TasksRoot)
	if err != nil {
		panic(err)
	}
	srv := tasktest.Serve(tasktest.NewModel("the cat sat on the mat. पानी गीला है। জল ভেজা।"))
	defer srv.Close()
	client, err := llm.NewClient(llm.Config{BaseURL: srv.BaseURL(), Model: "bigram", Concurrency: 4, Cache: llm.NewMemoryCache()})
	if err != nil {
		panic(err)
	}
	specs, err := tasks.ParseSpecs("indiceval|ARC-Easy:english|0|0,indiceval|ARC-Easy:hindi|0|0")
	if err != nil {
		panic(err)
	}
	details, err := tasks.Run(context.Background(), tasks.Options{Catalog: cat, Specs: specs, Client: client, Model: "bigram", Endpoint: srv.BaseURL(), Seed: 1})
	if err != nil {
		panic(err)
	}
	res, err := tasks.Score(details, tasks.ScoreOptions{Confidence: 0.95})
	if err != nil {
		panic(err)
	}
	for _, t := range res.Tasks {
		for _, m := range t.Metrics {
			fmt.Printf("%-30s %-8s %.3f (%d items)\n", t.Task, m.ID, m.Value, m.N)
		}
	}
	// Output:
	// indiceval|ARC-Easy:english|0|0 acc      0.333 (6 items)
	// indiceval|ARC-Easy:english|0|0 acc_norm 0.333 (6 items)
	// indiceval|ARC-Easy:hindi|0|0   acc      0.000 (6 items)
	// indiceval|ARC-Easy:hindi|0|0   acc_norm 0.500 (6 items)
}
