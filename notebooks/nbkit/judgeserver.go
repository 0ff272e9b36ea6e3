// Package nbkit holds the plumbing the teaching notebooks need but do not
// teach: a loopback model server that plays a judge (one model, or several
// behind one endpoint, one of which can be swapped), and table loaders.
// Notebooks import it as github.com/evalbook/evalbook/notebooks/nbkit, so
// that their cells show the ideas and not the plumbing.
package nbkit

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evalbook/evalbook/pkg/judge"
)

// JudgeServer is a loopback OpenAI-compatible chat-completions endpoint
// (httptest) that plays a judge on labelled pairs, for notebooks that
// show pkg/llm and pkg/judge against a served model without a network.
type JudgeServer struct {
	*httptest.Server
	hits   atomic.Int64
	mu     sync.Mutex
	first  []byte
	models map[string]judge.Judge // NewModelServer's judges by model name, guarded by mu
}

// Hits is the number of requests the server has answered.
func (s *JudgeServer) Hits() int64 { return s.hits.Load() }

// FirstBody is the body of the first request, as sent.
func (s *JudgeServer) FirstBody() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.first
}

// NewJudgeServer starts the server. For each request it finds the pair of
// ps whose two answers appear in the last message (each answer alone in a
// ">>>\n<answer>\n<<<END" block, as pkg/judge's prompts put them), asks the
// judge pick chooses from that prompt which answer wins, and replies with
// {"winner": ..., "reason": ...}. On pairs of kind "tie" it replies in
// prose, breaking the reply contract, so that a notebook can show how
// pkg/judge counts rejected replies. Close it when done.
func NewJudgeServer(pick func(prompt string) judge.Judge, ps []judge.Pair) *JudgeServer {
	return newServer(&JudgeServer{}, func(_, prompt string) judge.Judge { return pick(prompt) }, ps)
}

// NewModelServer starts a server that serves several judge models behind
// one endpoint: a request naming model m is answered by models[m] (copied;
// Replace changes it), as NewJudgeServer answers; a request naming any other
// model gets a 404 with an OpenAI-style "model not found" error. Close it
// when done.
func NewModelServer(models map[string]judge.Judge, ps []judge.Pair) *JudgeServer {
	s := &JudgeServer{models: map[string]judge.Judge{}}
	for m, j := range models {
		s.models[m] = j
	}
	return newServer(s, func(model, _ string) judge.Judge {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.models[model]
	}, ps)
}

// Replace makes a NewModelServer answer requests naming model as j from
// now on, under the same name: what a provider does when it updates the
// weights behind a model name without telling its users. It has no effect
// on a NewJudgeServer, whose pick function chooses the judge.
func (s *JudgeServer) Replace(model string, j judge.Judge) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.models == nil {
		s.models = map[string]judge.Judge{}
	}
	s.models[model] = j
}

// newServer starts s, answering each request as the judge pick chooses
// from the request's model name and rendered prompt (nil: model not found).
func newServer(s *JudgeServer, pick func(model, prompt string) judge.Judge, ps []judge.Pair) *JudgeServer {
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		if s.first == nil {
			s.first = body
		}
		s.mu.Unlock()
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		user := req.Messages[len(req.Messages)-1].Content
		j := pick(req.Model, user)
		if j == nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{
				"message": fmt.Sprintf("model %q not found", req.Model), "type": "invalid_request_error", "code": "model_not_found"}})
			return
		}
		reply := `{"winner": "tie", "reason": "I do not know this pair"}`
		for _, p := range ps {
			ia := strings.Index(user, ">>>\n"+p.A+"\n<<<END")
			ib := strings.Index(user, ">>>\n"+p.B+"\n<<<END")
			if ia < 0 || ib < 0 {
				continue
			}
			q := judge.Query{Question: p.Question, Facts: p.Facts, First: p.A, Second: p.B}
			if ib < ia {
				q.First, q.Second = p.B, p.A
			}
			win, _ := j.Compare(r.Context(), q)
			reply = fmt.Sprintf(`{"winner": %q, "reason": "compared the facts"}`, win)
			if p.Kind == "tie" {
				reply = "Both answers look equally good to me."
			}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "stub-1", "object": "chat.completion", "model": req.Model,
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
				"message": map[string]string{"role": "assistant", "content": reply}}},
		})
	}))
	return s
}
