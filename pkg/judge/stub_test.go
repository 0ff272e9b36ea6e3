package judge

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// stub is a loopback chat-completions server for the tests. Each request
// takes the next fault from faults, if any is left, and otherwise answers
// normally after delay with answer(prompt).
//
// Faults: "429" (Too Many Requests with Retry-After: 1), "500", "slow"
// (no reply for 3 s), "drop" (hijack the connection and close it),
// "malformed" (status 200 with broken JSON), "nochoices" (valid JSON,
// no choices), "400echo" (Bad Request echoing the Authorization header).
type stub struct {
	*httptest.Server
	t      testing.TB
	delay  time.Duration
	answer func(prompt string) string

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

func newStub(t testing.TB, faults ...string) *stub {
	s := &stub{t: t, faults: faults, answer: func(string) string { return `{"winner": "tie", "reason": "same facts"}` }}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(s.Close)
	return s
}

func (s *stub) baseURL() string { return s.URL + "/v1" }

func (s *stub) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

func (s *stub) handle(w http.ResponseWriter, r *http.Request) {
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
	if s.delay > 0 {
		select {
		case <-time.After(s.delay):
		case <-r.Context().Done():
			return
		}
	}
	prompt := ""
	if msgs, ok := body["messages"].([]any); ok && len(msgs) > 0 {
		prompt, _ = msgs[len(msgs)-1].(map[string]any)["content"].(string)
	}
	reply, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-stub", "object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": s.answer(prompt)}}},
	})
	s.mu.Lock()
	s.served++
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write(reply)
}

// block returns the text of the named block of a rendered prompt.
func block(prompt, title string) string {
	i := strings.Index(prompt, "<<<"+title+" ")
	if i < 0 {
		return ""
	}
	rest := prompt[i:]
	nl := strings.Index(rest, "\n")
	end := strings.Index(rest, "\n<<<END "+title+" ")
	if nl < 0 || end < nl {
		return ""
	}
	return rest[nl+1 : end]
}

// referenceAnswer is a toy model judge for reference prompts: correct when
// the response contains the golden answer, ignoring case.
func referenceAnswer(prompt string) string {
	g, r := block(prompt, "GOLDEN ANSWER"), block(prompt, "RESPONSE")
	if g != "" && strings.Contains(strings.ToLower(r), strings.ToLower(g)) {
		return `{"verdict": "correct", "reason": "contains the golden answer"}`
	}
	return `{"verdict": "incorrect", "reason": "different answer"}`
}
