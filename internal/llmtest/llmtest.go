// Package llmtest is a loopback OpenAI-compatible server for the tests of
// pkg/llm and of the packages that use it (pkg/judge): it answers
// /v1/chat/completions and /v1/completions, injects faults on request,
// and records what it was sent. It is internal because only tests use it.
package llmtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
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
// Faults (FaultKinds lists them): "429" (Too Many Requests with
// Retry-After: 1), "500", "slow" (no reply for SlowFor, 3 s by default),
// "drop" (hijack the connection and close it), "malformed" (status 200
// with broken JSON), "nochoices" (valid JSON, no choices), "400echo" (Bad
// Request echoing the request's URI and its headers, Authorization
// first), "401", "403", "late" (the
// headers and half the reply at once, the rest after LateBy, 1 s by
// default), "oversize" (a valid reply of OversizeBytes, 9 MiB by default),
// "truncated" (half the reply, then the connection is cut).
//
// The server keeps a ledger per prompt (the last chat message, or the
// completions prompt): the requests, the replies it began to send (what an
// API bills), the replies it sent whole, and the requests that came after
// a whole reply had been sent, which a client that pays once never makes,
// and those that came after a 200 reply had begun (AfterBilled: the reply
// was billed, whether or not it arrived whole).
//
// Set Delay, Answer, Body, Fault and the sizes before the first request.
type Server struct {
	*httptest.Server
	t      testing.TB
	Delay  time.Duration
	Answer func(prompt string) string
	// Body, when set, returns the whole reply body of a successful
	// request; body is the decoded request.
	Body func(path string, body map[string]any) []byte
	// Fault, when set, picks the fault of each request (after the list
	// given to New is used up) from its prompt and its attempt (1 for the
	// prompt's first request); "" is none.
	Fault func(prompt string, attempt int) string
	// SlowFor, LateBy and OversizeBytes shape the faults "slow", "late" and
	// "oversize" (0: 3 s, 1 s, 9 MiB).
	SlowFor, LateBy time.Duration
	OversizeBytes   int

	mu          sync.Mutex
	ledger      map[string]*Usage
	big         []byte // the "oversize" reply
	faults      []string
	requests    int
	served      int // successful replies
	inflight    int
	maxInflight int
	failAfter   int // when > 0, every request after this many successes gets a 500
	auth        []string
	bodies      []map[string]any
	paths       []string
	uris        []string
	headers     []http.Header
}

// New starts a server that injects faults in order, and closes it when
// the test ends. Its default Answer is a fixed pairwise verdict.
func New(t testing.TB, faults ...string) *Server {
	s := &Server{t: t, faults: faults, Answer: func(string) string { return `{"winner": "tie", "reason": "same facts"}` }}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(s.Close)
	return s
}

// FaultKinds are the faults the server injects.
var FaultKinds = []string{"429", "500", "slow", "drop", "malformed", "nochoices", "400echo", "401", "403", "late", "oversize", "truncated"}

// Usage is the ledger of one prompt.
type Usage struct {
	Requests int // requests received
	Billed   int // 200 replies the server began to send (an API bills these)
	Whole    int // 200 replies sent in full
	// AfterWhole counts requests received after a whole reply had been
	// sent for the prompt: calls paid twice for a reply received.
	AfterWhole int
	// AfterBilled counts requests received after a 200 reply had begun
	// for the prompt: calls paid twice, whether or not the first reply
	// arrived whole or parsed.
	AfterBilled int
}

// Ledger returns a copy of the per-prompt ledger.
func (s *Server) Ledger() map[string]Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]Usage, len(s.ledger))
	for k, u := range s.ledger {
		out[k] = *u
	}
	return out
}

// Repeated returns the number of requests received for a prompt after a
// whole reply to it had been sent, over all prompts.
func (s *Server) Repeated() int {
	n := 0
	for _, u := range s.Ledger() {
		n += u.AfterWhole
	}
	return n
}

// RepeatedBilled returns the number of requests received for a prompt
// after a 200 reply to it had begun (and was billed), over all prompts.
func (s *Server) RepeatedBilled() int {
	n := 0
	for _, u := range s.Ledger() {
		n += u.AfterBilled
	}
	return n
}

// BaseURL is the endpoint as clients take it: the server's URL and /v1.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Count returns the number of requests received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// CountLocked is Count for a Fault function, which runs with the
// server's lock held: the requests received so far, this one included.
func (s *Server) CountLocked() int { return s.requests }

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

// URIs returns the request URI (path and query) of each request, in order.
func (s *Server) URIs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.uris...)
}

// Headers returns the headers of each request, in order.
func (s *Server) Headers() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.headers...)
}

// Paths returns the URL path of each request, in order.
func (s *Server) Paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

// promptKey is the ledger's name for a completions prompt: the prompt, or
// a list of prompts (one request scoring several) joined by NUL.
func promptKey(v any) string {
	switch p := v.(type) {
	case string:
		return p
	case []any:
		parts := make([]string, len(p))
		for i, x := range p {
			parts[i], _ = x.(string)
		}
		return strings.Join(parts, "\x00")
	}
	return ""
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

// handle serves one request: it is recorded and its fault chosen
// (admit), a fault that answers instead of the model ends it (refuse),
// else the model's reply is built after Delay (reply) and sent as the
// fault says (deliver).
func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, "bad request body", http.StatusBadRequest)
		return
	}
	prompt := LastUser(body)
	if r.URL.Path == "/v1/completions" {
		prompt = promptKey(body["prompt"])
	}
	u, fault := s.admit(r, body, prompt)
	defer func() {
		s.mu.Lock()
		s.inflight--
		s.mu.Unlock()
	}()
	if s.refuse(w, r, u, fault) {
		return
	}
	if s.Delay > 0 {
		select {
		case <-time.After(s.Delay):
		case <-r.Context().Done():
			return
		}
	}
	reply := s.reply(r.URL.Path, body)
	s.mu.Lock()
	s.served++
	s.mu.Unlock()
	s.deliver(w, r, u, reply, fault)
}

// admit records a request (its prompt's ledger entry, headers, body,
// path) and counts it in flight, and returns the ledger entry and the
// fault to inject: the next of Faults, a 500 after FailAfter replies, or
// what Fault says for the prompt's attempt.
func (s *Server) admit(r *http.Request, body map[string]any, prompt string) (*Usage, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	if s.ledger == nil {
		s.ledger = map[string]*Usage{}
	}
	u := s.ledger[prompt]
	if u == nil {
		u = &Usage{}
		s.ledger[prompt] = u
	}
	u.Requests++
	if u.Whole > 0 {
		u.AfterWhole++
	}
	if u.Billed > 0 {
		u.AfterBilled++
	}
	fault := ""
	switch {
	case len(s.faults) > 0:
		fault, s.faults = s.faults[0], s.faults[1:]
	case s.failAfter > 0 && s.served >= s.failAfter:
		fault = "500"
	case s.Fault != nil:
		fault = s.Fault(prompt, u.Requests)
	}
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	s.bodies = append(s.bodies, body)
	s.paths = append(s.paths, r.URL.Path)
	s.uris = append(s.uris, r.URL.RequestURI())
	s.headers = append(s.headers, r.Header.Clone())
	s.inflight++
	s.maxInflight = max(s.maxInflight, s.inflight)
	return u, fault
}

// refuse answers a request whose fault replaces the model's reply (an
// HTTP error, a hang, a dropped connection, a malformed or empty body)
// and reports whether it did.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, u *Usage, fault string) bool {
	switch fault {
	case "429":
		w.Header().Set("Retry-After", "1")
		http.Error(w, `{"error": {"message": "slow down"}}`, http.StatusTooManyRequests)
	case "500":
		http.Error(w, `{"error": {"message": "overloaded"}}`, http.StatusInternalServerError)
	case "401", "403":
		code := http.StatusUnauthorized
		if fault == "403" {
			code = http.StatusForbidden
		}
		http.Error(w, `{"error": {"message": "invalid api key"}}`, code)
	case "slow":
		wait := s.SlowFor
		if wait <= 0 {
			wait = 3 * time.Second
		}
		select {
		case <-time.After(wait):
		case <-r.Context().Done():
		}
	case "drop":
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			s.t.Errorf("hijack: %v", err)
			return true
		}
		conn.Close()
	case "malformed":
		s.send(w, r, u, []byte(`{"choices": [{"message": {"content": "{\"winner\"`), 0, false)
	case "nochoices":
		s.send(w, r, u, []byte(`{"choices": []}`), 0, false)
	case "400echo":
		http.Error(w, echoHeaders(r), http.StatusBadRequest)
	default:
		return false
	}
	return true
}

// echoHeaders is the body of fault 400echo: a server that echoes the
// request's Authorization header, URI and other headers (sorted) in its
// error, as some proxies do.
func echoHeaders(r *http.Request) string {
	echo := "bad header: " + r.Header.Get("Authorization") + " at " + r.URL.RequestURI()
	names := make([]string, 0, len(r.Header))
	for k := range r.Header {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if k != "Authorization" {
			echo += "; " + k + ": " + strings.Join(r.Header[k], ",")
		}
	}
	return echo
}

// reply is the model's reply to a request body at path: Body's, or a
// completion or chat completion whose text is Answer's.
func (s *Server) reply(path string, body map[string]any) []byte {
	var reply []byte
	switch {
	case s.Body != nil:
		reply = s.Body(path, body)
	case path == "/v1/completions":
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
	return reply
}

// deliver sends a reply as fault says: late (half, then the rest after
// LateBy), oversize (a valid reply of OversizeBytes instead), truncated
// (half, then the connection cut), or whole.
func (s *Server) deliver(w http.ResponseWriter, r *http.Request, u *Usage, reply []byte, fault string) {
	switch fault {
	case "late":
		late := s.LateBy
		if late <= 0 {
			late = time.Second
		}
		s.send(w, r, u, reply, late, false)
	case "oversize":
		n := s.OversizeBytes
		if n <= 0 {
			n = 9 << 20
		}
		s.send(w, r, u, s.oversize(n), 0, false)
	case "truncated":
		s.send(w, r, u, reply, 0, true)
	default:
		s.send(w, r, u, reply, 0, false)
	}
}

// oversize returns a valid chat reply of about n bytes, built once.
func (s *Server) oversize(n int) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.big) < n {
		s.big = []byte(`{"choices": [{"index": 0, "message": {"role": "assistant", "content": "` + strings.Repeat("x", n) + `"}}]}`)
	}
	return s.big
}

// send writes a 200 reply and keeps the ledger: billed once it begins,
// whole when every byte was written and flushed with the client still
// there. With pause, half the body goes at once and the rest after pause;
// with cut, half goes and the connection is cut.
func (s *Server) send(w http.ResponseWriter, r *http.Request, u *Usage, reply []byte, pause time.Duration, cut bool) {
	if r.Context().Err() != nil {
		return // the client has gone: nothing is sent or billed
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(reply)))
	s.mu.Lock()
	u.Billed++
	s.mu.Unlock()
	half := len(reply) / 2
	if pause > 0 || cut {
		if _, err := w.Write(reply[:half]); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		if cut {
			panic(http.ErrAbortHandler) // net/http cuts the connection
		}
		select {
		case <-time.After(pause):
		case <-r.Context().Done():
			return
		}
		reply = reply[half:]
	}
	if _, err := w.Write(reply); err != nil {
		return
	}
	w.(http.Flusher).Flush()
	if r.Context().Err() != nil {
		return
	}
	s.mu.Lock()
	u.Whole++
	s.mu.Unlock()
}
