package llm_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/evalbook/evalbook/pkg/llm"
)

// Example asks a chat model for an answer. The server here is a stand-in
// for a local vLLM or llama.cpp server at http://127.0.0.1:8000/v1.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
			"message": {"role": "assistant", "content": "New Delhi"}}]}`)
	}))
	defer srv.Close()

	c, err := llm.NewClient(llm.Config{BaseURL: srv.URL + "/v1", Model: "qwen2.5-0.5b-instruct"})
	if err != nil {
		fmt.Println(err)
		return
	}
	reply, err := c.Complete(context.Background(), llm.Request{System: "Answer in a few words.", User: "What is the capital of India?"})
	fmt.Printf("%q %v\n", reply, err)
	// Output: "New Delhi" <nil>
}

// ExampleClient_CompletePrompt scores a prompt's own tokens: echo true,
// logprobs 0 and max_tokens 0 return the log probability of every token
// of the prompt and generate nothing. The first token has no context, so
// its log probability is null (nil).
func ExampleClient_CompletePrompt() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"object": "text_completion", "choices": [{"index": 0, "text": "Delhi is in India",
			"finish_reason": "length", "logprobs": {"tokens": ["Delhi", " is", " in", " India"],
			"token_logprobs": [null, -1.5, -0.75, -0.25], "top_logprobs": null, "text_offset": [0, 5, 8, 11]}}]}`)
	}))
	defer srv.Close()

	c, err := llm.NewClient(llm.Config{BaseURL: srv.URL + "/v1", Model: "qwen2.5-0.5b"})
	if err != nil {
		fmt.Println(err)
		return
	}
	zero := 0
	got, err := c.CompletePrompt(context.Background(), llm.PromptRequest{
		Prompt: "Delhi is in India", Echo: true, Logprobs: &zero, MaxTokens: &zero,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var sum float64
	var scored []string
	for i, lp := range got.Logprobs.TokenLogprobs {
		if lp != nil {
			sum += *lp
			scored = append(scored, got.Logprobs.Tokens[i])
		}
	}
	fmt.Printf("log P(%s | %q) = %.2f\n", strings.Join(scored, ""), got.Logprobs.Tokens[0], sum)
	// Output: log P( is in India | "Delhi") = -2.50
}

// ExampleSettings_Config turns settings as a command line gives them into a
// Config, and shows the sentinel errors a caller words its own way.
func ExampleSettings_Config() {
	s := llm.Settings{BaseURL: "http://127.0.0.1:8000/v1", Model: "qwen", Seed: "7", Concurrency: 4, Retries: 0, Timeout: 30 * time.Second}
	c, err := s.Config()
	fmt.Println(c.Model, *c.Seed, c.Retries, c.Concurrency, err)
	s.Concurrency = 0
	_, err = s.Config()
	fmt.Println(errors.Is(err, llm.ErrConcurrency), err)
	s.Concurrency, s.Seed = 4, "seven"
	_, err = s.Config()
	fmt.Println(errors.Is(err, llm.ErrSeed), err)
	// Output:
	// qwen 7 -1 4 <nil>
	// true concurrency must be at least 1, not 0
	// true the seed must be an integer, not "seven"
}

// A failed call's error names the endpoint; Cell is the line a table's
// error cell shows, and Kind what a summary counts.
func ExampleCallError() {
	err := error(&llm.CallError{Endpoint: "http://127.0.0.1:8000/v1", Status: 500, Attempts: 4, Kind: "server_error", Retried: true,
		Err: fmt.Errorf("%w: HTTP 500: overloaded", llm.ErrServer)})
	fmt.Println(err)
	fmt.Println(llm.Describe(err))
	fmt.Println(llm.Kind(err), errors.Is(err, llm.ErrServer))
	// Output:
	// http://127.0.0.1:8000/v1: giving up after 4 attempts: server error (HTTP 5xx): HTTP 500: overloaded
	// HTTP 500 after 4 attempts: server error (HTTP 5xx): HTTP 500: overloaded
	// server_error true
}
