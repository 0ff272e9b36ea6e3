// Package llmtest is a loopback OpenAI-compatible server for the tests of
// pkg/llm and of the packages that use it (pkg/judge): it answers
// /v1/chat/completions and /v1/completions, injects faults on request,
// and records what it was sent. It is internal because only tests use it.
package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Server is a chat-completions and completions server. Each request takes
// the next fault from the list given to New, if any is left, and is
// otherwise answered after Delay: a chat request with Answer(the last
// message's content), a completions request with Answer(prompt), or, when
// Body is set, with the bytes Body returns.
//
// Faults: "429" (Too Many Requests with Retry-After: 1), "500", "slow"
// (no reply for 3 s), "drop" (hijack the connection and close it),
// "malformed" (status 200 with broken JSON), "nochoices" (valid JSON,
// no choices), "400echo" (Bad Request echoing the Authorization header).
//
// Set Delay, Answer and Body before the first request.
type Server struct {
	*httptest.Server
	t      testing.TB
	Delay  time.Duration
	Answer func(prompt string) string
	// Body, when set, returns the whole reply body of a successful
	// request; body is the decoded request.
	Body func(path string, body map[string]any) []byte

	mu          sync.Mutex
	faults      []string
	requests    int
	served      int // successful replies
	inflight    int
	maxInflight int
	failAfter   int // when > 0, every request after this many successes gets a 500
	auth        []string
	bodies      []map[string]any
	paths       []string
}

// New starts a server that injects faults in order, and closes it when
// the test ends. Its default Answer is a fixed pairwise verdict.
func New(t testing.TB, faults ...string) *Server {
	s := &Server{t: t, faults: faults, Answer: func(string) string { return `{"winner": "tie", "reason": "same facts"}` }}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(s.Close)
	return s
}

// BaseURL is the endpoint as clients take it: the server's URL and /v1.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Count returns the number of requests received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// Served returns the number of successful replies.
func (s *Server) Served() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served
}

// MaxInflight returns the largest number of requests held at once.
func (s *Server) MaxInflight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxInflight
}

// FailAfter makes every request after n successful replies a 500 (0: never).
func (s *Server) FailAfter(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failAfter = n
}

// Auth returns the Authorization header of each request, in order.
func (s *Server) Auth() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auth...)
}

// Bodies returns the decoded body of each request, in order.
func (s *Server) Bodies() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.bodies...)
}

// Paths returns the URL path of each request, in order.
func (s *Server) Paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

// LastUser returns the content of the last message of a chat request body.
func LastUser(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		return ""
	}
	m, _ := msgs[len(msgs)-1].(map[string]any)
	text, _ := m["content"].(string)
	return text
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, "bad request body", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests++
	fault := ""
	if len(s.faults) > 0 {
		fault, s.faults = s.faults[0], s.faults[1:]
	} else if s.failAfter > 0 && s.served >= s.failAfter {
		fault = "500"
	}
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	s.bodies = append(s.bodies, body)
	s.paths = append(s.paths, r.URL.Path)
	s.inflight++
	s.maxInflight = max(s.maxInflight, s.inflight)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inflight--
		s.mu.Unlock()
	}()

	switch fault {
	case "429":
		w.Header().Set("Retry-After", "1")
		http.Error(w, `{"error": {"message": "slow down"}}`, http.StatusTooManyRequests)
		return
	case "500":
		http.Error(w, `{"error": {"message": "overloaded"}}`, http.StatusInternalServerError)
		return
	case "slow":
		select {
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
		}
		return
	case "drop":
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			s.t.Errorf("hijack: %v", err)
			return
		}
		conn.Close()
		return
	case "malformed":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"choices": [{"message": {"content": "{\"winner\"`)
		return
	case "nochoices":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"choices": []}`)
		return
	case "400echo":
		http.Error(w, "bad header: "+r.Header.Get("Authorization"), http.StatusBadRequest)
		return
	}
	if s.Delay > 0 {
		select {
		case <-time.After(s.Delay):
		case <-r.Context().Done():
			return
		}
	}
	var reply []byte
	switch {
	case s.Body != nil:
		reply = s.Body(r.URL.Path, body)
	case r.URL.Path == "/v1/completions":
		prompt, _ := body["prompt"].(string)
		reply, _ = json.Marshal(map[string]any{
			"id": "cmpl-stub", "object": "text_completion",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "text": s.Answer(prompt), "logprobs": nil}},
		})
	default:
		reply, _ = json.Marshal(map[string]any{
			"id": "chatcmpl-stub", "object": "chat.completion",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": s.Answer(LastUser(body))}}},
		})
	}
	s.mu.Lock()
	s.served++
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write(reply)
}
