package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// A SampleRequest is one call with every sampling parameter a task run
// needs: several prompts in one completions request (the API takes a
// list), or one chat message; temperature, n samples, stop sequences and
// max_tokens; echo and log probabilities. Unlike Complete and
// CompletePrompt it returns every choice and the reply's usage.
type SampleRequest struct {
	PromptHash string // hash of the template the prompt came from (part of the cache key)
	// Chat sends System and User to /chat/completions; otherwise Prompts
	// go to /completions (one prompt as a string, several as a list).
	Chat         bool
	System, User string
	Prompts      []string
	// MaxTokens, when set, is sent as max_tokens, 0 included; when nil,
	// Config.MaxTokens applies (sent when positive).
	MaxTokens   *int
	Temperature float64
	// N asks for n samples per prompt (sent when above 1).
	N    int
	Stop []string
	// Echo and Logprobs as in PromptRequest (completions only).
	Echo     bool
	Logprobs *int
}

// Usage is a reply's usage member; a nil count is one the server did not
// give (unknown, never 0).
type Usage struct {
	PromptTokens     *int64 `json:"prompt_tokens"`
	CompletionTokens *int64 `json:"completion_tokens"`
}

// A Sampled is a reply to a SampleRequest: every choice ordered by
// prompt, then sample (choices[i*N+j] is sample j of prompt i, as the
// completions API numbers them), and the usage, nil when the reply had
// none.
type Sampled struct {
	Choices []Completion `json:"choices"`
	Usage   *Usage       `json:"usage,omitempty"`
}

type sampleParams struct {
	Temperature float64  `json:"temperature"`
	Seed        *int64   `json:"seed,omitempty"`
	MaxTokens   *int     `json:"max_tokens,omitempty"`
	N           int      `json:"n,omitempty"`
	Stop        []string `json:"stop,omitempty"`
	Echo        bool     `json:"echo,omitempty"`
	Logprobs    *int     `json:"logprobs,omitempty"`
}

// Sample sends req and returns every choice and the usage, from the
// cache when the same request (model, prompt hash, prompts or messages,
// every parameter; not the endpoint) was answered before. It shares the client's
// retries, limits, cache and counts; a reply whose choices do not match
// the request (count, or missing log probabilities asked for) is
// malformed and not retried.
func (c *Client) Sample(ctx context.Context, req SampleRequest) (Sampled, error) {
	pr, err := c.prepare(req)
	if err != nil {
		return Sampled{}, err
	}
	raw, err := c.call(ctx, pr.key, pr.oldKey, req.PromptHash, pr.body, pr.path, pr.parse)
	if err != nil {
		return Sampled{}, err
	}
	var out Sampled
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return Sampled{}, fmt.Errorf("sample: cached reply for key %s: %w", pr.key[:12], err)
	}
	return out, nil
}

// prepared is a SampleRequest ready to send: its cache key (and its key
// of format 1 on an endpoint), API path, body and reply parser.
type prepared struct {
	key, path string
	oldKey    func(endpoint string) string
	body      func() ([]byte, error)
	parse     func([]byte) (string, error)
}

func (c *Client) prepare(req SampleRequest) (prepared, error) {
	p := sampleParams{Temperature: req.Temperature, Seed: c.params.Seed, MaxTokens: req.MaxTokens, Stop: req.Stop, Echo: req.Echo, Logprobs: req.Logprobs}
	if req.N > 1 {
		p.N = req.N
	}
	if p.MaxTokens == nil && c.params.MaxTokens > 0 {
		n := c.params.MaxTokens
		p.MaxTokens = &n
	}
	switch {
	case p.MaxTokens != nil && *p.MaxTokens < 0:
		return prepared{}, fmt.Errorf("sample: max_tokens %d is negative", *p.MaxTokens)
	case p.Logprobs != nil && *p.Logprobs < 0:
		return prepared{}, fmt.Errorf("sample: logprobs %d is negative", *p.Logprobs)
	case req.Temperature < 0:
		return prepared{}, fmt.Errorf("sample: temperature %g is negative", req.Temperature)
	case !req.Chat && len(req.Prompts) == 0:
		return prepared{}, fmt.Errorf("sample: no prompt")
	case req.Chat && (req.Echo || req.Logprobs != nil || len(req.Prompts) > 0):
		return prepared{}, fmt.Errorf("sample: a chat request takes System and User, without echo, logprobs or prompts")
	}
	n := max(req.N, 1)
	want := n * len(req.Prompts)
	path := "/completions"
	if req.Chat {
		path, want = "/chat/completions", n
	}
	body := func() ([]byte, error) {
		if req.Chat {
			type message struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			}
			var msgs []message
			if req.System != "" {
				msgs = append(msgs, message{"system", req.System})
			}
			msgs = append(msgs, message{"user", req.User})
			return json.Marshal(struct {
				Model    string    `json:"model"`
				Messages []message `json:"messages"`
				sampleParams
				Stream bool `json:"stream"`
			}{c.cfg.Model, msgs, p, false})
		}
		var prompt any = req.Prompts
		if len(req.Prompts) == 1 {
			prompt = req.Prompts[0]
		}
		return json.Marshal(struct {
			Model  string `json:"model"`
			Prompt any    `json:"prompt"`
			sampleParams
			Stream bool `json:"stream"`
		}{c.cfg.Model, prompt, p, false})
	}
	return prepared{key: sampleKey(c.cfg.Model, req, p, path), path: path, body: body,
		oldKey: func(endpoint string) string { return oldSampleKey(endpoint, c.cfg.Model, req, p) },
		parse:  func(data []byte) (string, error) { return parseSampled(data, req.Chat, want, req.Logprobs != nil) }}, nil
}

// sampleKey is CacheKey for Sample: what was asked, not where.
func sampleKey(model string, req SampleRequest, p sampleParams, path string) string {
	return hashKey(struct {
		Format  int          `json:"key_format"`
		API     string       `json:"api"`
		Path    string       `json:"path"`
		Model   string       `json:"model"`
		Hash    string       `json:"prompt_hash"`
		Chat    bool         `json:"chat"`
		System  string       `json:"system"`
		User    string       `json:"user"`
		Prompts []string     `json:"prompts"`
		Params  sampleParams `json:"params"`
	}{KeyFormat, "sample", path, model, req.PromptHash, req.Chat, req.System, req.User, req.Prompts, p})
}

// oldSampleKey is sampleKey of format 1, which hashed the endpoint too.
func oldSampleKey(endpoint, model string, req SampleRequest, p sampleParams) string {
	return hashKey(struct {
		API      string       `json:"api"`
		Endpoint string       `json:"endpoint"`
		Model    string       `json:"model"`
		Hash     string       `json:"prompt_hash"`
		Chat     bool         `json:"chat"`
		System   string       `json:"system"`
		User     string       `json:"user"`
		Prompts  []string     `json:"prompts"`
		Params   sampleParams `json:"params"`
	}{"sample", strings.TrimRight(endpoint, "/"), model, req.PromptHash, req.Chat, req.System, req.User, req.Prompts, p})
}

// parseSampled checks a completions or chat reply holding want choices
// and returns them, ordered by index, with the usage, as JSON.
func parseSampled(data []byte, chat bool, want int, wantLogprobs bool) (string, error) {
	api := "completion"
	if chat {
		api = "chat completion"
	}
	var reply struct {
		Choices []struct {
			Index        int       `json:"index"`
			Text         *string   `json:"text"`
			FinishReason string    `json:"finish_reason"`
			Logprobs     *Logprobs `json:"logprobs"`
			Message      *struct {
				Content *string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens     *int64 `json:"prompt_tokens"`
			CompletionTokens *int64 `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(data, &reply); err != nil {
		return "", &malformedError{api, err.Error()}
	}
	if len(reply.Choices) != want {
		return "", &malformedError{api, fmt.Sprintf("%d choices, want %d", len(reply.Choices), want)}
	}
	sort.SliceStable(reply.Choices, func(i, j int) bool { return reply.Choices[i].Index < reply.Choices[j].Index })
	out := Sampled{Choices: make([]Completion, want)}
	for i, ch := range reply.Choices {
		var text *string
		if chat {
			if ch.Message != nil {
				text = ch.Message.Content
			}
		} else {
			text = ch.Text
		}
		if text == nil {
			return "", &malformedError{api, fmt.Sprintf("choice %d has no text", i)}
		}
		if lp := ch.Logprobs; !chat && lp != nil {
			n := len(lp.Tokens)
			if len(lp.TokenLogprobs) != n || (lp.TopLogprobs != nil && len(lp.TopLogprobs) != n) || (lp.TextOffset != nil && len(lp.TextOffset) != n) {
				return "", &malformedError{api, fmt.Sprintf("choices[%d].logprobs: %d tokens but %d token_logprobs", i, n, len(lp.TokenLogprobs))}
			}
		} else if wantLogprobs {
			return "", &malformedError{api, fmt.Sprintf("no choices[%d].logprobs, though the request asked for them (does the server support logprobs on /completions?)", i)}
		}
		out.Choices[i] = Completion{Text: *text, FinishReason: ch.FinishReason}
		if !chat {
			out.Choices[i].Logprobs = ch.Logprobs
		}
	}
	if u := reply.Usage; u != nil && (u.PromptTokens != nil || u.CompletionTokens != nil) {
		out.Usage = &Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return "", &malformedError{api, err.Error()}
	}
	return string(b), nil
}
