// Package tasktest is a tiny deterministic language model behind a
// loopback OpenAI-compatible server, so that tests, examples and notebooks
// of task runs know which choice the model prefers and what every
// log-probability is: a character bigram model with add-one smoothing,
// one token per character (code point). Serve starts it on 127.0.0.1
// (completions with echo and logprobs, chat completions, the Batch API)
// for a program or notebook; New puts it behind internal/llmtest's server
// (fault injection, request ledger) for tests.
//
// Model: with V the number of distinct characters of the training text
// plus one (any unseen character), n(a) the times a is followed by any
// character and n(a, b) the times a is followed by b,
//
//	log P(b | a) = ln((n(a, b) + 1) / (n(a) + V))
//
// The first token of a prompt has no context and no log-probability
// (null, as vLLM gives it). Greedy generation picks the most likely next
// character (ties: the smallest code point); with a temperature above 0
// and n samples, sample j draws from the bigram distribution with a
// generator seeded by the prompt, the request's seed and j.
package tasktest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/llmtest"
)

// Model is the bigram model. Its zero value is not usable; call NewModel.
type Model struct {
	pair  map[[2]rune]int
	from  map[rune]int
	vocab []rune // distinct characters, sorted
	V     int    // len(vocab) + 1
	// Generate, when set, replaces greedy generation for the text of a
	// completion or chat reply (sample j of n); the text is cut at the
	// request's stop sequences and max_tokens as the model's own would be.
	Generate func(prompt string, j int) string
	// Chat, when set, answers a chat completion (sample j) with its text
	// as it is, without max_tokens or stop: a judge's JSON verdict, say.
	Chat func(user string, j int) string
	// NoUsage leaves the usage member out of replies (a server that gives
	// none, whose tokens are unknown).
	NoUsage bool

	mu    sync.Mutex
	calls int
}

// NewModel trains the model on text.
func NewModel(text string) *Model {
	m := &Model{pair: map[[2]rune]int{}, from: map[rune]int{}}
	rs := []rune(text)
	seen := map[rune]bool{}
	for i, r := range rs {
		if !seen[r] {
			seen[r] = true
			m.vocab = append(m.vocab, r)
		}
		if i > 0 {
			m.pair[[2]rune{rs[i-1], r}]++
			m.from[rs[i-1]]++
		}
	}
	slices.Sort(m.vocab)
	m.V = len(m.vocab) + 1
	return m
}

// LogProb is log P(b | a).
func (m *Model) LogProb(a, b rune) float64 {
	return math.Log(float64(m.pair[[2]rune{a, b}]+1) / float64(m.from[a]+m.V))
}

// Score is the log-likelihood of continuation after context: the sum of
// LogProb over the continuation's characters, the first one conditioned on
// the last character of context (which must not be empty).
func (m *Model) Score(context, continuation string) float64 {
	prev, _ := utf8.DecodeLastRuneInString(context)
	sum := 0.0
	for _, r := range continuation {
		sum += m.LogProb(prev, r)
		prev = r
	}
	return sum
}

// next is the greedy next character after a.
func (m *Model) next(a rune) rune {
	best, bestN := rune(0), -1
	for _, b := range m.vocab {
		if n := m.pair[[2]rune{a, b}]; n > bestN {
			best, bestN = b, n
		}
	}
	return best
}

// draw samples the next character after a.
func (m *Model) draw(a rune, rng *rand.Rand) rune {
	u := rng.Float64() * float64(m.from[a]+m.V)
	acc := 0.0
	for _, b := range m.vocab {
		acc += float64(m.pair[[2]rune{a, b}] + 1)
		if u < acc {
			return b
		}
	}
	return m.vocab[len(m.vocab)-1]
}

// Calls returns the number of replies the model has made.
func (m *Model) Calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls
}

// generate continues prompt: max tokens characters at most, stopping
// before the first stop sequence (finish "stop") or at max (finish
// "length").
func (m *Model) generate(prompt string, max int, stop []string, temp float64, seed int64, j int) (string, string) {
	var out []rune
	if m.Generate != nil {
		out = []rune(m.Generate(prompt, j))
	} else {
		prev, _ := utf8.DecodeLastRuneInString(prompt)
		var rng *rand.Rand
		if temp > 0 {
			h := sha256.Sum256([]byte(prompt))
			rng = rand.New(rand.NewPCG(binary.LittleEndian.Uint64(h[:8])^uint64(seed), uint64(j)))
		}
		for len(out) < max {
			var r rune
			if rng != nil {
				r = m.draw(prev, rng)
			} else {
				r = m.next(prev)
			}
			out = append(out, r)
			prev = r
			if len(out) >= max {
				break
			}
		}
	}
	if max >= 0 && len(out) > max {
		out = out[:max]
	}
	text := string(out)
	finish := "stop"
	if m.Generate == nil || len(out) == max {
		finish = "length"
	}
	cut := len(text)
	for _, s := range stop {
		if i := strings.Index(text, s); s != "" && i >= 0 && i < cut {
			cut, finish = i, "stop"
		}
	}
	text = text[:cut]
	return text, finish
}

// Reply is an llmtest Body function: completions (a prompt or a list of
// prompts; echo; logprobs; max_tokens; n; stop; temperature; seed) and
// chat completions, answered by the model, with usage (prompt and
// completion tokens, one per character) unless NoUsage.
func (m *Model) Reply(path string, body map[string]any) []byte {
	m.mu.Lock()
	m.calls++
	m.mu.Unlock()
	maxTok := 16
	if v, ok := body["max_tokens"].(float64); ok {
		maxTok = int(v)
	}
	n := 1
	if v, ok := body["n"].(float64); ok && v > 1 {
		n = int(v)
	}
	temp, _ := body["temperature"].(float64)
	seed := int64(0)
	if v, ok := body["seed"].(float64); ok {
		seed = int64(v)
	}
	var stop []string
	switch s := body["stop"].(type) {
	case string:
		stop = []string{s}
	case []any:
		for _, x := range s {
			if t, ok := x.(string); ok {
				stop = append(stop, t)
			}
		}
	}
	var promptTok, complTok int64
	var choices []any
	if strings.HasSuffix(path, "/chat/completions") {
		user := llmtest.LastUser(body)
		promptTok = int64(utf8.RuneCountInString(user))
		for j := range n {
			text, finish := "", "stop"
			if m.Chat != nil {
				text = m.Chat(user, j)
			} else {
				text, finish = m.generate(user, maxTok, stop, temp, seed, j)
			}
			complTok += int64(utf8.RuneCountInString(text))
			choices = append(choices, map[string]any{"index": j, "finish_reason": finish,
				"message": map[string]any{"role": "assistant", "content": text}})
		}
	} else {
		var prompts []string
		switch p := body["prompt"].(type) {
		case string:
			prompts = []string{p}
		case []any:
			for _, x := range p {
				s, _ := x.(string)
				prompts = append(prompts, s)
			}
		}
		echo, _ := body["echo"].(bool)
		_, wantLP := body["logprobs"].(float64)
		for i, p := range prompts {
			promptTok += int64(utf8.RuneCountInString(p))
			for j := range n {
				text := ""
				finish := "length"
				if maxTok > 0 {
					text, finish = m.generate(p, maxTok, stop, temp, seed, j)
				}
				complTok += int64(utf8.RuneCountInString(text))
				full := text
				if echo {
					full = p + text
				}
				ch := map[string]any{"index": i*n + j, "finish_reason": finish, "text": full, "logprobs": nil}
				if wantLP {
					ch["logprobs"] = m.logprobs(p, text, echo)
				}
				choices = append(choices, ch)
			}
		}
	}
	reply := map[string]any{"id": "cmpl-bigram", "object": "text_completion", "choices": choices}
	if !m.NoUsage {
		reply["usage"] = map[string]any{"prompt_tokens": promptTok, "completion_tokens": complTok, "total_tokens": promptTok + complTok}
	}
	b, _ := json.Marshal(reply)
	return b
}

// logprobs gives one token per character of the echoed prompt (when
// echo) and of the generated text, with text offsets in characters.
func (m *Model) logprobs(prompt, text string, echo bool) map[string]any {
	var toks []string
	var lps []any
	var offs []int
	off := 0
	prev, started := rune(0), false
	if !echo {
		prev, _ = utf8.DecodeLastRuneInString(prompt)
		started = prompt != ""
	}
	add := func(s string) {
		for _, r := range s {
			toks = append(toks, string(r))
			offs = append(offs, off)
			if started {
				lps = append(lps, m.LogProb(prev, r))
			} else {
				lps = append(lps, nil)
			}
			started, prev = true, r
			off++
		}
	}
	if echo {
		add(prompt)
	}
	add(text)
	return map[string]any{"tokens": toks, "token_logprobs": lps, "top_logprobs": nil, "text_offset": offs}
}

// New starts a loopback server (llmtest.New, faults and all) answered by
// m; it closes when the test ends.
func New(t testing.TB, m *Model, faults ...string) *llmtest.Server {
	s := llmtest.New(t, faults...)
	s.Body = m.Reply
	return s
}
