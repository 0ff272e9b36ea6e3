package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// A PromptRequest is one call of the completions API (BaseURL/completions):
// a raw prompt with no chat template, as log-probability scoring needs.
// To score a prompt's own tokens, set Echo, Logprobs to 0 or more, and
// MaxTokens to 0:
//
//	zero := 0
//	c.CompletePrompt(ctx, llm.PromptRequest{Prompt: text, Echo: true, Logprobs: &zero, MaxTokens: &zero})
type PromptRequest struct {
	PromptHash string // hash of the template the prompt came from (part of the cache key)
	Prompt     string
	// MaxTokens, when set, is sent as max_tokens, 0 included (with Echo, 0
	// asks for the prompt's log probabilities and no new text); when nil,
	// Config.MaxTokens applies (sent when positive).
	MaxTokens *int
	// Echo asks for the prompt back before the completion, in Text and in
	// the log probabilities.
	Echo bool
	// Logprobs, when set, asks for the log probability of every token and
	// of the *Logprobs most likely tokens at each position (0: the chosen
	// token's only; OpenAI allows at most 5).
	Logprobs *int
}

// A Completion is the first choice of a completions reply.
type Completion struct {
	Text         string    `json:"text"`
	FinishReason string    `json:"finish_reason,omitempty"`
	Logprobs     *Logprobs `json:"logprobs,omitempty"` // nil unless the request set Logprobs
}

// Logprobs are the per-token log probabilities of a completion, in the
// completions API's format (OpenAI's legacy completions, vLLM and the
// llama.cpp server share it). The slices run in parallel, one entry per
// token of Text.
type Logprobs struct {
	Tokens []string `json:"tokens"`
	// TokenLogprobs[i] is the natural log of the probability of Tokens[i]
	// given the tokens before it; nil where the server gives none, as for
	// the first token of an echoed prompt, which has no context.
	TokenLogprobs []*float64 `json:"token_logprobs"`
	// TopLogprobs[i] holds the most likely tokens at position i with their
	// log probabilities; nil where the server gives none.
	TopLogprobs []map[string]float64 `json:"top_logprobs"`
	// TextOffset[i] is where Tokens[i] starts in Text, as the server counts:
	// servers written in Python, such as vLLM, count characters (code
	// points), not bytes.
	TextOffset []int `json:"text_offset"`
}

// CompletePrompt sends req to BaseURL/completions and returns the first
// choice, from the cache when the same request (model, prompt hash,
// prompt, temperature, seed, max_tokens, echo, logprobs; not the endpoint)
// was answered before. It shares Complete's retries, limits, cache and counts; a reply
// without choices[0].text, or without logprobs when the request asked for
// them, is malformed (ErrMalformed) and not retried (the 200 reply was paid for).
func (c *Client) CompletePrompt(ctx context.Context, req PromptRequest) (Completion, error) {
	p := promptParams{Temperature: 0, Seed: c.params.Seed, MaxTokens: req.MaxTokens, Echo: req.Echo, Logprobs: req.Logprobs}
	if p.MaxTokens == nil && c.params.MaxTokens > 0 {
		n := c.params.MaxTokens
		p.MaxTokens = &n
	}
	if p.MaxTokens != nil && *p.MaxTokens < 0 {
		return Completion{}, fmt.Errorf("completions: max_tokens %d is negative", *p.MaxTokens)
	}
	if p.Logprobs != nil && *p.Logprobs < 0 {
		return Completion{}, fmt.Errorf("completions: logprobs %d is negative", *p.Logprobs)
	}
	key := promptKey(c.cfg.Model, req.PromptHash, req.Prompt, p)
	oldKey := func(endpoint string) string {
		return oldPromptKey(endpoint, c.cfg.Model, req.PromptHash, req.Prompt, p)
	}
	body := func() ([]byte, error) {
		return json.Marshal(struct {
			Model  string `json:"model"`
			Prompt string `json:"prompt"`
			promptParams
			Stream bool `json:"stream"`
		}{c.cfg.Model, req.Prompt, p, false})
	}
	raw, err := c.call(ctx, key, oldKey, req.PromptHash, body, "/completions", func(data []byte) (string, error) {
		return parseCompletion(data, req.Logprobs != nil)
	})
	if err != nil {
		return Completion{}, err
	}
	var out Completion
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return Completion{}, fmt.Errorf("completions: cached reply for key %s: %w", key[:12], err)
	}
	return out, nil
}

// promptParams are the sampling parameters of a completions request, in
// its body and in its cache key.
type promptParams struct {
	Temperature float64 `json:"temperature"`
	Seed        *int64  `json:"seed,omitempty"`
	MaxTokens   *int    `json:"max_tokens,omitempty"`
	Echo        bool    `json:"echo,omitempty"`
	Logprobs    *int    `json:"logprobs,omitempty"`
}

// promptKey is CacheKey for the completions API (CompletePrompt's): what
// was asked, not where. The "api" member keeps its keys apart from chat
// and sample keys in the same cache.
func promptKey(model, promptHash, prompt string, p promptParams) string {
	return hashKey(struct {
		Format int          `json:"key_format"`
		API    string       `json:"api"`
		Path   string       `json:"path"`
		Model  string       `json:"model"`
		Hash   string       `json:"prompt_hash"`
		Prompt string       `json:"prompt"`
		Params promptParams `json:"params"`
	}{KeyFormat, "completions", "/completions", model, promptHash, prompt, p})
}

// oldPromptKey is promptKey of format 1, which hashed the endpoint too.
func oldPromptKey(endpoint, model, promptHash, prompt string, p promptParams) string {
	return hashKey(struct {
		API      string       `json:"api"`
		Endpoint string       `json:"endpoint"`
		Model    string       `json:"model"`
		Hash     string       `json:"prompt_hash"`
		Prompt   string       `json:"prompt"`
		Params   promptParams `json:"params"`
	}{"completions", strings.TrimRight(endpoint, "/"), model, promptHash, prompt, p})
}

// parseCompletion checks a completions reply and returns its first choice
// as JSON (the form the cache keeps).
func parseCompletion(data []byte, wantLogprobs bool) (string, error) {
	const api = "completion"
	var reply struct {
		Choices []struct {
			Text         *string   `json:"text"`
			FinishReason string    `json:"finish_reason"`
			Logprobs     *Logprobs `json:"logprobs"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &reply); err != nil {
		return "", &malformedError{api, err.Error()}
	}
	if len(reply.Choices) == 0 || reply.Choices[0].Text == nil {
		return "", &malformedError{api, "no choices[0].text"}
	}
	ch := reply.Choices[0]
	if lp := ch.Logprobs; lp != nil {
		n := len(lp.Tokens)
		if len(lp.TokenLogprobs) != n || (lp.TopLogprobs != nil && len(lp.TopLogprobs) != n) || (lp.TextOffset != nil && len(lp.TextOffset) != n) {
			return "", &malformedError{api, fmt.Sprintf("choices[0].logprobs: %d tokens but %d token_logprobs, %d top_logprobs, %d text_offset",
				n, len(lp.TokenLogprobs), len(lp.TopLogprobs), len(lp.TextOffset))}
		}
	} else if wantLogprobs {
		return "", &malformedError{api, "no choices[0].logprobs, though the request asked for them (does the server support logprobs on /completions?)"}
	}
	b, err := json.Marshal(Completion{Text: *ch.Text, FinishReason: ch.FinishReason, Logprobs: ch.Logprobs})
	if err != nil {
		return "", &malformedError{api, err.Error()}
	}
	return string(b), nil
}
