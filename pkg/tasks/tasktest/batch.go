package tasktest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// BatchServer is a loopback OpenAI-compatible server with the Batch API
// (POST /v1/files, POST /v1/batches, GET /v1/batches/{id}, GET
// /v1/files/{id}/content) and the online completions and chat
// completions, all answered by a Model. A batch reports in_progress until
// Hold is false and it has been polled once, then completed.
type BatchServer struct {
	*httptest.Server
	m *Model

	mu      sync.Mutex
	Hold    bool
	files   map[string][]byte
	batches map[string]*batch
	// Submitted counts each custom_id submitted in any batch; Online the
	// requests to the online endpoints; Created the batches created.
	Submitted map[string]int
	Online    int
	Created   int
}

type batch struct {
	input, endpoint, output string
	polls                   int
}

// Serve starts a batch server answered by m on a loopback port, for a
// program or a notebook; Close it when done.
func Serve(m *Model) *BatchServer {
	s := &BatchServer{m: m, files: map[string][]byte{}, batches: map[string]*batch{}, Submitted: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// NewBatch starts a batch server answered by m; it closes when the test
// ends.
func NewBatch(t testing.TB, m *Model) *BatchServer {
	s := Serve(m)
	t.Cleanup(s.Close)
	return s
}

// BaseURL is the endpoint as clients take it.
func (s *BatchServer) BaseURL() string { return s.URL + "/v1" }

// SetHold sets Hold.
func (s *BatchServer) SetHold(h bool) {
	s.mu.Lock()
	s.Hold = h
	s.mu.Unlock()
}

func (s *BatchServer) handle(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := r.URL.Path
	switch {
	case r.Method == http.MethodPost && (p == "/v1/completions" || p == "/v1/chat/completions"):
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		s.Online++
		w.Write(s.m.Reply(p, body))
	case r.Method == http.MethodPost && p == "/v1/files":
		if r.FormValue("purpose") != "batch" {
			http.Error(w, "purpose must be batch", http.StatusBadRequest)
			return
		}
		f, _, err := r.FormFile("file")
		if err != nil {
			http.Error(w, "no file", http.StatusBadRequest)
			return
		}
		data, _ := io.ReadAll(f)
		id := fmt.Sprintf("file-%d", len(s.files)+1)
		s.files[id] = data
		json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "file", "purpose": "batch"})
	case r.Method == http.MethodPost && p == "/v1/batches":
		var req struct {
			Input    string `json:"input_file_id"`
			Endpoint string `json:"endpoint"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || s.files[req.Input] == nil {
			http.Error(w, "bad batch", http.StatusBadRequest)
			return
		}
		s.Created++
		id := fmt.Sprintf("batch-%d", s.Created)
		s.batches[id] = &batch{input: req.Input, endpoint: req.Endpoint}
		for _, ln := range strings.Split(strings.TrimSpace(string(s.files[req.Input])), "\n") {
			var l struct {
				CustomID string `json:"custom_id"`
			}
			json.Unmarshal([]byte(ln), &l)
			s.Submitted[l.CustomID]++
		}
		json.NewEncoder(w).Encode(map[string]any{"id": id, "status": "validating"})
	case r.Method == http.MethodGet && strings.HasPrefix(p, "/v1/batches/"):
		b := s.batches[strings.TrimPrefix(p, "/v1/batches/")]
		if b == nil {
			http.Error(w, "no such batch", http.StatusNotFound)
			return
		}
		b.polls++
		status := "in_progress"
		if !s.Hold && b.polls > 1 {
			if b.output == "" {
				b.output = s.run(b)
			}
			status = "completed"
		}
		json.NewEncoder(w).Encode(map[string]any{"id": p[len("/v1/batches/"):], "status": status, "output_file_id": b.output})
	case r.Method == http.MethodGet && strings.HasPrefix(p, "/v1/files/") && strings.HasSuffix(p, "/content"):
		data, ok := s.files[strings.TrimSuffix(strings.TrimPrefix(p, "/v1/files/"), "/content")]
		if !ok {
			http.Error(w, "no such file", http.StatusNotFound)
			return
		}
		w.Write(data)
	default:
		http.Error(w, "not found", http.StatusNotFound)
	}
}

// run answers every line of a batch's input and stores the output file.
func (s *BatchServer) run(b *batch) string {
	var out strings.Builder
	for _, ln := range strings.Split(strings.TrimSpace(string(s.files[b.input])), "\n") {
		var l struct {
			CustomID string         `json:"custom_id"`
			URL      string         `json:"url"`
			Body     map[string]any `json:"body"`
		}
		json.Unmarshal([]byte(ln), &l)
		reply := json.RawMessage(s.m.Reply(l.URL, l.Body))
		line, _ := json.Marshal(map[string]any{"id": "req-" + l.CustomID[:8], "custom_id": l.CustomID,
			"response": map[string]any{"status_code": 200, "body": reply}, "error": nil})
		out.Write(line)
		out.WriteByte('\n')
	}
	id := fmt.Sprintf("file-%d", len(s.files)+1)
	s.files[id] = []byte(out.String())
	return id
}
