package llm

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/internal/llmtest"
)

// vllmEcho is a reply in the shape vLLM's OpenAI server gives to
// /v1/completions with echo true, logprobs 1 and max_tokens 0: the prompt
// comes back as the text, scored token by token; the first token has no
// context, so its log probabilities are null; top_logprobs holds the most
// likely token and, when it differs, the chosen one. Written by hand for
// this test (the numbers are made up, the field names and nulls are
// vLLM's), with vLLM's extra members (stop_reason, prompt_logprobs, usage
// details) that a client must ignore.
const vllmEcho = `{
  "id": "cmpl-8f2c4a1e9b7d4c3a9e6f0b1d2c3a4b5e",
  "object": "text_completion",
  "created": 1764633600,
  "model": "Qwen/Qwen2.5-0.5B-Instruct",
  "choices": [
    {
      "index": 0,
      "text": "The capital of India is New Delhi",
      "logprobs": {
        "text_offset": [0, 3, 11, 14, 20, 23, 27],
        "token_logprobs": [null, -5.23, -0.41, -0.02, -1.87, -0.35, -0.001],
        "tokens": ["The", " capital", " of", " India", " is", " New", " Delhi"],
        "top_logprobs": [
          null,
          {" first": -2.1, " capital": -5.23},
          {" of": -0.41},
          {" India": -0.02},
          {" is": -1.87, ",": -0.9},
          {" New": -0.35},
          {" Delhi": -0.001}
        ]
      },
      "finish_reason": "length",
      "stop_reason": null,
      "prompt_logprobs": null
    }
  ],
  "usage": {"prompt_tokens": 7, "total_tokens": 7, "completion_tokens": 0, "prompt_tokens_details": null},
  "system_fingerprint": null
}`

func TestCompletePromptLogprobs(t *testing.T) {
	s := llmtest.New(t)
	s.Body = func(path string, body map[string]any) []byte { return []byte(vllmEcho) }
	cfg := quickConfig(s)
	cfg.MaxTokens = 256 // the request's explicit 0 overrides it
	c, _ := NewClient(cfg)
	zero, one := 0, 1
	req := PromptRequest{PromptHash: "ph", Prompt: "The capital of India is New Delhi", Echo: true, Logprobs: &one, MaxTokens: &zero}
	got, err := c.CompletePrompt(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}

	// What was sent: the completions API, the prompt, and the three
	// scoring fields, max_tokens 0 included (not dropped as empty).
	b := s.Bodies()[0]
	if s.Paths()[0] != "/v1/completions" || s.Auth()[0] != "Bearer "+testKey {
		t.Errorf("path %q auth %q", s.Paths()[0], s.Auth()[0])
	}
	mt, hasMT := b["max_tokens"]
	if b["model"] != "judge-small" || b["prompt"] != req.Prompt || b["echo"] != true || b["logprobs"] != 1.0 ||
		!hasMT || mt != 0.0 || b["temperature"] != 0.0 || b["stream"] != false || b["messages"] != nil {
		t.Errorf("body %v: want model, prompt, echo true, logprobs 1, max_tokens 0, temperature 0, no streaming, no messages", b)
	}

	// What was read.
	lp := got.Logprobs
	if got.Text != req.Prompt || got.FinishReason != "length" || lp == nil {
		t.Fatalf("completion %+v", got)
	}
	wantTokens := []string{"The", " capital", " of", " India", " is", " New", " Delhi"}
	if !reflect.DeepEqual(lp.Tokens, wantTokens) || !reflect.DeepEqual(lp.TextOffset, []int{0, 3, 11, 14, 20, 23, 27}) {
		t.Errorf("tokens %q offsets %v", lp.Tokens, lp.TextOffset)
	}
	for i, tok := range lp.Tokens {
		if got.Text[lp.TextOffset[i]:][:len(tok)] != tok {
			t.Errorf("token %d %q is not at offset %d", i, tok, lp.TextOffset[i])
		}
	}
	if lp.TokenLogprobs[0] != nil || lp.TopLogprobs[0] != nil {
		t.Errorf("first token: logprob %v, top %v; want both null", lp.TokenLogprobs[0], lp.TopLogprobs[0])
	}
	// The log probability of the prompt after its first token, by hand:
	// -(5.23 + 0.41 + 0.02 + 1.87 + 0.35 + 0.001) = -7.881.
	var sum float64
	for _, x := range lp.TokenLogprobs[1:] {
		sum += *x
	}
	if math.Abs(sum-(-7.881)) > 1e-12 {
		t.Errorf("sum of token logprobs %v, want -7.881", sum)
	}
	if top := lp.TopLogprobs[1]; len(top) != 2 || top[" first"] != -2.1 || top[" capital"] != -5.23 {
		t.Errorf("top_logprobs[1] %v", top)
	}

	// The same request again is served from the cache, identical.
	again, err := c.CompletePrompt(context.Background(), req)
	if err != nil || !reflect.DeepEqual(again, got) || s.Count() != 1 || c.Stats().CacheHits != 1 {
		t.Errorf("second call: %v, %d requests, stats %+v, equal %v", err, s.Count(), c.Stats(), reflect.DeepEqual(again, got))
	}
	// Without echo it is another request.
	req.Echo = false
	if _, err := c.CompletePrompt(context.Background(), req); err != nil || s.Count() != 2 {
		t.Errorf("without echo: %v, %d requests", err, s.Count())
	}
}

// TestCompletePromptBody: without an explicit MaxTokens the config's
// applies, when positive; echo and logprobs are left out unless asked for.
func TestCompletePromptBody(t *testing.T) {
	s := llmtest.New(t)
	s.Answer = func(prompt string) string { return " Delhi" }
	seed := int64(3)
	for _, tc := range []struct {
		name      string
		cfgTokens int
		want      map[string]any // members that must be present with these values
		absent    []string
	}{
		{"config max tokens", 16, map[string]any{"max_tokens": 16.0, "seed": 3.0}, []string{"echo", "logprobs"}},
		{"no max tokens", 0, map[string]any{"seed": 3.0}, []string{"max_tokens", "echo", "logprobs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := quickConfig(s)
			cfg.MaxTokens, cfg.Seed = tc.cfgTokens, &seed
			c, _ := NewClient(cfg)
			got, err := c.CompletePrompt(context.Background(), PromptRequest{Prompt: "The capital of India is" + tc.name})
			if err != nil || got.Text != " Delhi" || got.Logprobs != nil {
				t.Fatalf("completion %+v, %v", got, err)
			}
			bodies := s.Bodies()
			b := bodies[len(bodies)-1]
			for k, v := range tc.want {
				if b[k] != v {
					t.Errorf("%s = %v, want %v", k, b[k], v)
				}
			}
			for _, k := range tc.absent {
				if _, ok := b[k]; ok {
					t.Errorf("%s sent: %v", k, b[k])
				}
			}
		})
	}
	c, _ := NewClient(quickConfig(s))
	neg := -1
	before := s.Count()
	if _, err := c.CompletePrompt(context.Background(), PromptRequest{Prompt: "p", MaxTokens: &neg}); err == nil || !strings.Contains(err.Error(), "max_tokens -1 is negative") {
		t.Errorf("negative max_tokens: %v", err)
	}
	if _, err := c.CompletePrompt(context.Background(), PromptRequest{Prompt: "p", Logprobs: &neg}); err == nil || !strings.Contains(err.Error(), "logprobs -1 is negative") {
		t.Errorf("negative logprobs: %v", err)
	}
	if s.Count() != before {
		t.Errorf("%d requests for refused parameters", s.Count()-before)
	}
}

// TestCompletePromptMalformed: replies that break the completions
// format are ErrMalformed, named in the error, and not retried (the 200
// reply was paid for; a retry would buy it again).
func TestCompletePromptMalformed(t *testing.T) {
	one := 1
	for _, tc := range []struct {
		name, body, want string
	}{
		{"no text", `{"choices": [{"index": 0, "message": {"content": "chat shape"}}]}`, "malformed completion reply: no choices[0].text"},
		{"no logprobs though asked", `{"choices": [{"index": 0, "text": "x", "logprobs": null}]}`, "malformed completion reply: no choices[0].logprobs"},
		{"lengths differ", `{"choices": [{"text": "ab", "logprobs": {"tokens": ["a", "b"], "token_logprobs": [null], "top_logprobs": null, "text_offset": [0, 1]}}]}`,
			"malformed completion reply: choices[0].logprobs: 2 tokens but 1 token_logprobs"},
		{"not JSON", `{"choices": [`, "malformed completion reply: unexpected end of JSON input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.Body = func(string, map[string]any) []byte { return []byte(tc.body) }
			cfg := quickConfig(s)
			cfg.Retries = 1
			c, _ := NewClient(cfg)
			_, err := c.CompletePrompt(context.Background(), PromptRequest{Prompt: "p", Logprobs: &one})
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.want) || s.Count() != 1 {
				t.Errorf("error %v after %d requests; want ErrMalformed containing %q after 1", err, s.Count(), tc.want)
			}
		})
	}
}

// TestChatAndPromptShareCache: one cache holds both APIs' replies apart.
func TestChatAndPromptShareCache(t *testing.T) {
	s := llmtest.New(t)
	s.Answer = func(p string) string { return "reply to " + p }
	cfg := quickConfig(s)
	cfg.Cache = NewMemoryCache()
	c, _ := NewClient(cfg)
	chat, err1 := c.Complete(context.Background(), Request{PromptHash: "h", User: "same text"})
	comp, err2 := c.CompletePrompt(context.Background(), PromptRequest{PromptHash: "h", Prompt: "same text"})
	if err1 != nil || err2 != nil || chat != "reply to same text" || comp.Text != "reply to same text" || s.Count() != 2 || cfg.Cache.Len() != 2 {
		t.Errorf("chat %q %v, completion %+v %v, %d requests, %d cached", chat, err1, comp, err2, s.Count(), cfg.Cache.Len())
	}
}
