package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// The OpenAI Batch API takes a JSONL request file, a line per request
// {custom_id, method, url, body} (body as for /v1/chat/completions,
// /v1/responses or /v1/completions), and returns an output JSONL, a line
// per request in any order: {id, custom_id, response: {status_code,
// request_id, body}, error}. The two are joined by custom_id: the prompt
// and any golden answer come from the request (body.metadata may carry
// "answer", "golden" or "expected", and "language"), the response text
// and token usage from the output.

func init() {
	Register(Format{Name: "openai-batch", Detect: detectBatch, Read: readBatch})
}

func detectBatch(path string) bool {
	if !strings.HasSuffix(path, ".jsonl") {
		return false
	}
	h := headOf(path, 1<<14)
	line, _, _ := bytes.Cut(h, []byte("\n"))
	return bytes.Contains(line, []byte(`"custom_id"`)) && (bytes.Contains(line, []byte(`"response"`)) || bytes.Contains(line, []byte(`"error"`)))
}

type batchRequest struct {
	CustomID string `json:"custom_id"`
	URL      string `json:"url"`
	Body     struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Input    json.RawMessage            `json:"input"`
		Prompt   json.RawMessage            `json:"prompt"`
		Metadata map[string]json.RawMessage `json:"metadata"`
	} `json:"body"`
	line int
}

type batchOutput struct {
	CustomID *string `json:"custom_id"`
	Response *struct {
		StatusCode int               `json:"status_code"`
		Body       batchResponseBody `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// batchResponseBody is a response body of the Chat Completions,
// Completions or Responses API.
type batchResponseBody struct {
	Model   string `json:"model"`
	Choices []struct {
		Message *struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
		Text string `json:"text"`
	} `json:"choices"`
	Output []struct {
		Type    string `json:"type"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"output"`
	Usage *struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
		InputTokens      int64 `json:"input_tokens"`
		OutputTokens     int64 `json:"output_tokens"`
	} `json:"usage"`
}

// batchResponseText is the answer's text: the first choice's message or
// text, or the Responses API's output texts joined by newlines.
func batchResponseText(b batchResponseBody) string {
	switch {
	case len(b.Choices) > 0 && b.Choices[0].Message != nil:
		return contentText(b.Choices[0].Message.Content)
	case len(b.Choices) > 0:
		return b.Choices[0].Text
	}
	var parts []string
	for _, item := range b.Output {
		for _, c := range item.Content {
			if c.Text != "" {
				parts = append(parts, c.Text)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// requestsFileFor guesses the request file beside an output file:
// "output" in the name replaced by "input" or "requests", or the one
// other JSONL beside it whose first line is a request.
func requestsFileFor(out string) string {
	dir, base := filepath.Split(out)
	for _, r := range []string{"input", "requests", "request", "batch"} {
		if c := strings.Replace(base, "output", r, 1); c != base {
			if _, err := os.Stat(filepath.Join(dir, c)); err == nil {
				return filepath.Join(dir, c)
			}
		}
	}
	m, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	sort.Strings(m)
	var found []string
	for _, c := range m {
		if c == out {
			continue
		}
		line, _, _ := bytes.Cut(headOf(c, 1<<14), []byte("\n"))
		if bytes.Contains(line, []byte(`"custom_id"`)) && bytes.Contains(line, []byte(`"body"`)) && bytes.Contains(line, []byte(`"url"`)) {
			found = append(found, c)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return ""
}

func readBatch(ctx context.Context, path string, opt Options) (*Run, error) {
	run := &Run{Format: "openai-batch", Source: path}
	reqPath := opt.Requests
	if reqPath == "" {
		reqPath = requestsFileFor(path)
	}
	if reqPath == "" {
		return nil, perr(path, 0, "", fmt.Errorf("%w: no request file to join the batch output with: give it (--requests FILE), or put it beside the output named with \"input\" for \"output\"", ErrMissing))
	}
	reqs, err := readBatchRequests(reqPath, opt)
	if err != nil {
		return nil, err
	}
	run.Files = []string{path, reqPath}
	out, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	task := strings.TrimSuffix(filepath.Base(reqPath), ".jsonl")
	seen := map[string]int{} // custom_id -> line
	models := map[string]bool{}
	ln := tabular.NewLines(out, path, opt.Limits.Line)
	for ln.Scan() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var o batchOutput
		if err := json.Unmarshal(ln.Bytes(), &o); err != nil {
			return nil, ln.Errorf(-1, "not a batch output line: %v", err)
		}
		if o.CustomID == nil {
			return nil, &tabular.ParseError{File: path, Line: ln.Line(), Field: "custom_id", Err: fmt.Errorf("%w \"custom_id\"", ErrMissing)}
		}
		id := *o.CustomID
		req := reqs[id]
		if req == nil {
			return nil, &tabular.ParseError{File: path, Line: ln.Line(), Field: "custom_id", Err: fmt.Errorf("custom_id %q has no request in %s: is it the request file of this batch?", id, reqPath)}
		}
		if first, dup := seen[id]; dup {
			if opt.DropDuplicates {
				run.Dropped++
				continue // the first is kept
			}
			return nil, &tabular.ParseError{File: path, Line: ln.Line(), Field: "custom_id", Err: fmt.Errorf("%w: custom_id %q is also on line %d: the Batch API answers each request once, and the request would be counted twice; remove one, or give --drop-duplicates to keep the first", ErrDuplicate, id, first)}
		}
		seen[id] = ln.Line()
		s := Sample{Task: task, SampleID: id, File: path, Line: ln.Line()}
		if err := batchSample(&s, req, &o, opt.NoText); err != nil {
			return nil, err
		}
		models[s.Model] = true
		if err := run.add(&opt, &s); err != nil {
			return nil, err
		}
	}
	if err := ln.Err(); err != nil {
		return nil, err
	}
	if missing := len(reqs) - len(seen); missing > 0 {
		run.warn(CodeRequestsWithoutOutput, missing, "%d request(s) of %s have no line in the output (the batch expired or was cancelled before them)", missing, filepath.Base(reqPath))
	}
	if len(models) == 1 {
		for m := range models {
			run.Model = m
		}
	}
	return run, nil
}

// readBatchRequests reads the batch's request file, keyed by custom_id
// (each once).
func readBatchRequests(reqPath string, opt Options) (map[string]*batchRequest, error) {
	reqs := map[string]*batchRequest{}
	f, err := os.Open(reqPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ln := tabular.NewLines(f, reqPath, opt.Limits.Line)
	for ln.Scan() {
		r := &batchRequest{line: ln.Line()}
		if err := json.Unmarshal(ln.Bytes(), r); err != nil {
			return nil, ln.Errorf(-1, "not a batch request: %v", err)
		}
		if r.CustomID == "" {
			return nil, &tabular.ParseError{File: reqPath, Line: ln.Line(), Field: "custom_id", Err: fmt.Errorf("%w \"custom_id\": every batch request has one", ErrMissing)}
		}
		if prev, dup := reqs[r.CustomID]; dup {
			return nil, &tabular.ParseError{File: reqPath, Line: ln.Line(), Field: "custom_id", Err: fmt.Errorf("custom_id %q is also on line %d: the Batch API needs each once", r.CustomID, prev.line)}
		}
		reqs[r.CustomID] = r
	}
	return reqs, ln.Err()
}

// batchSample fills s from a request and its output line: the model (the
// response's, else the request's), prompt and golden answer (metadata
// answer, golden or expected) unless noText, language, and the response
// text and token usage, or the error.
func batchSample(s *Sample, req *batchRequest, o *batchOutput, noText bool) error {
	s.Model = req.Body.Model
	if o.Response != nil && o.Response.Body.Model != "" {
		s.Model = o.Response.Body.Model
	}
	if !noText {
		s.Prompt, s.HasPrompt = batchPrompt(req)
		for _, k := range []string{"answer", "golden", "expected"} {
			if v, ok := req.Body.Metadata[k]; ok {
				s.Golden, s.HasGolden = text(v), true
				break
			}
		}
	}
	for _, k := range []string{"language", "lang"} {
		if v, ok := req.Body.Metadata[k]; ok {
			s.Language = text(v)
		}
	}
	switch {
	case o.Error != nil:
		s.Metadata = append(s.Metadata, KV{Key: "error", Value: o.Error.Code + ": " + o.Error.Message})
	case o.Response == nil:
		return &tabular.ParseError{File: s.File, Line: s.Line, Field: "response", Err: fmt.Errorf("%w: neither \"response\" nor \"error\"", ErrMissing)}
	case o.Response.StatusCode != 200:
		s.Metadata = append(s.Metadata, KV{Key: "error", Value: fmt.Sprintf("status %d", o.Response.StatusCode)})
	default:
		b := o.Response.Body
		if !noText {
			s.Response, s.HasResponse = batchResponseText(b), true
		}
		if u := b.Usage; u != nil {
			s.InputTokens, s.OutputTokens = u.PromptTokens+u.InputTokens, u.CompletionTokens+u.OutputTokens
		}
	}
	return nil
}

func batchPrompt(r *batchRequest) (string, bool) {
	for i := len(r.Body.Messages) - 1; i >= 0; i-- {
		if r.Body.Messages[i].Role == "user" {
			return contentText(r.Body.Messages[i].Content), true
		}
	}
	if len(r.Body.Input) > 0 {
		if s, ok := inspectInput(r.Body.Input); ok {
			return s, true
		}
	}
	if len(r.Body.Prompt) > 0 {
		return text(r.Body.Prompt), true
	}
	return "", false
}
