package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A Request is one chat call: the messages and the hash of the prompt
// template they came from (part of the cache key, so that a changed
// template is a new request even when it renders the same text).
type Request struct {
	PromptHash string
	System     string // optional system message
	User       string // the user message
}

// A Completer answers a chat request with the model's reply text. Client
// implements it for OpenAI-compatible endpoints; tests and notebooks can
// supply their own.
type Completer interface {
	Complete(ctx context.Context, req Request) (string, error)
}

// Sentinel errors a caller can branch on with errors.Is.
var (
	ErrRateLimited = errors.New("rate limited (HTTP 429)")
	ErrServer      = errors.New("server error (HTTP 5xx)")
	ErrMalformed   = errors.New("malformed reply")
	ErrRequest     = errors.New("request refused")
	// ErrAuth is a 401 or 403: the endpoint refused the key. The client
	// sends no further request after it (see Client).
	ErrAuth = errors.New("authentication refused (HTTP 401/403)")
	// ErrTooLarge is a 200 reply whose body is over Config.MaxReplyBytes.
	// It is not retried: a retry pays again for the same answer.
	ErrTooLarge = errors.New("reply over the client's size limit")
)

// A CallError is a call that failed: after its retries (429, 5xx,
// timeouts, network errors), or at once when a retry cannot help or would
// pay again for a reply already received (401/403, other 4xx, a 200 that
// is malformed or over the size limit). errors.Is finds the sentinel of
// its last attempt (ErrServer, ErrAuth, ErrTooLarge, ...); Cell says what
// happened in one line for a table's error cell.
type CallError struct {
	Endpoint string // the endpoint as it may be shown (no password)
	// Status is the HTTP status of the last attempt, 0 when it got none
	// (a timeout, a network error).
	Status int
	// Attempts is the number of requests sent for the call (0 when the
	// client had stopped after an authentication error).
	Attempts int
	// Kind classifies the failure for tallies: "auth", "request",
	// "rate_limited", "server_error", "timeout", "network", "malformed",
	// "too_large".
	Kind string
	// Retried says whether failures of this kind are retried.
	Retried bool
	// Recorded says that the failure is one an earlier run recorded in the
	// cache (a paid 200 reply, malformed or too large): no request was
	// sent for this call (see Config.RetryFailed).
	Recorded bool
	Err      error // the last attempt's error
}

func (e *CallError) Error() string {
	if e.Retried {
		return fmt.Sprintf("%s: giving up after %s: %v", e.Endpoint, nounCount(e.Attempts, "attempt", "attempts"), e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Endpoint, e.Err)
}

func (e *CallError) Unwrap() error { return e.Err }

// Cell is the error in one line, without the endpoint, as a response
// table or verdict file shows it: "HTTP 500 after 4 attempts: server
// error (HTTP 5xx): HTTP 500: overloaded", "no reply after 4 attempts: no
// reply within 1m0s", "HTTP 200, not retried: reply over the client's
// size limit ...". The text is cut at 300 characters.
func (e *CallError) Cell() string {
	status := "no reply"
	if e.Status != 0 {
		status = fmt.Sprintf("HTTP %d", e.Status)
	}
	how := " after " + nounCount(e.Attempts, "attempt", "attempts")
	switch {
	case e.Recorded:
		how = " in an earlier run, recorded in the cache, not asked again"
	case e.Attempts == 0:
		how = ", not sent"
	case !e.Retried:
		how = ", not retried"
	}
	s := fmt.Sprintf("%s%s: %v", status, how, e.Err)
	if len(s) > 300 {
		s = strings.ToValidUTF8(s[:300], "") + "..."
	}
	return s
}

// Describe returns the one-line form of a call's error for a table cell:
// CallError.Cell for a *CallError, the error's text otherwise.
func Describe(err error) string {
	var ce *CallError
	if errors.As(err, &ce) {
		return ce.Cell()
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

// Kind returns the CallError.Kind of err, or "other".
func Kind(err error) string {
	var ce *CallError
	if errors.As(err, &ce) {
		return ce.Kind
	}
	return "other"
}

func nounCount(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// malformedError is a 200 reply that does not hold what the API
// promises; it is ErrMalformed, and its message names the API.
type malformedError struct{ api, detail string }

func (e *malformedError) Error() string { return "malformed " + e.api + " reply: " + e.detail }
func (e *malformedError) Unwrap() error { return ErrMalformed }

// Stats counts a client's work.
type Stats struct {
	Requests  int64 `json:"requests"`   // HTTP attempts sent
	Retries   int64 `json:"retries"`    // attempts after a failure
	CacheHits int64 `json:"cache_hits"` // replies served from the cache (or by an identical request in flight)
	Completed int64 `json:"completed"`  // replies obtained from the endpoint
	// Failed counts calls that failed (after their retries, at once, or
	// with the failure of an identical request).
	Failed int64 `json:"failed"`
	// Shared counts the calls among Failed that got the failure of an
	// identical request of this run, without a request of their own.
	Shared int64 `json:"shared_failures"`
	// Earlier counts the calls among Failed that got a failure an
	// earlier run recorded in the cache, without a request
	// (Config.RetryFailed asks again).
	Earlier int64 `json:"earlier_failures"`
	// Recorded counts the calls among Failed whose failure is recorded in
	// the cache (a paid 200 reply, malformed or too large; this run's or
	// an earlier one's): a rerun does not ask them again without
	// Config.RetryFailed.
	Recorded int64 `json:"recorded_failures"`
	// Paid counts the requests of this run that failed with a 200 reply
	// (paid for: malformed, too large, or cut short while arriving).
	Paid int64 `json:"paid_failures"`
}

// Client calls an OpenAI-compatible endpoint (vLLM, llama.cpp server,
// Ollama, hosted APIs): chat completions with Complete, plain completions
// (with echo and log probabilities) with CompletePrompt. Both share the
// retries, the concurrency and rate limit, the cache and the counts. It
// is safe for concurrent use.
//
// No reply is paid for twice: identical requests (one cache key) are sent
// once for all the clients sharing a Cache, their twins sharing the reply
// or the failure (see Cache); the attempt timeout covers the wait for the
// reply's headers, and a body that has started arriving may take
// Config.Grace more; a 200 reply is never asked for again, whether it
// arrives whole, is malformed, is over Config.MaxReplyBytes, or is cut
// short or too slow once it has started (a reply that has started
// arriving is billed); a complete 200 reply is parsed and cached before
// anything else is done, and a malformed or oversized one is recorded in
// the cache as a failure. After a 401 or 403 the client sends nothing
// more: every later call fails at once with that error (requests already
// in flight finish).
type Client struct {
	cfg      Config
	endpoint string   // BaseURL without trailing slash (format-1 cache keys hash it)
	base     *url.URL // BaseURL parsed: a request's path goes before its query
	shown    string   // BaseURL with its secrets masked (RedactURL), for messages
	key      string
	headers  [][2]string // Config.Headers with their values
	secrets  []string    // the key, header values, password and secret query values: scrubbed from errors
	params   Params
	http     *http.Client
	cache    *Cache
	sem      chan struct{}
	limit    *limiter

	jmu    sync.Mutex
	jitter *rand.Rand

	// fails are the requests of this client that failed without a record
	// in the cache (5xx after the retries, timeouts, ...), for their twins.
	fmu   sync.Mutex
	fails map[string]error

	requests, retries, hits, completed, failed, shared, earlier, recorded, paid atomic.Int64

	stopped atomic.Pointer[CallError] // the first 401/403
}

// NewClient checks cfg, fills its zero fields from DefaultConfig, and
// returns a client.
func NewClient(cfg Config) (*Client, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("endpoint %q: want an http or https base URL such as http://127.0.0.1:8000/v1", RedactURL(cfg.BaseURL))
	}
	if cfg.Model == "" {
		return nil, ErrNoModel
	}
	d := DefaultConfig
	if cfg.APIKeyEnv == "" {
		cfg.APIKeyEnv = d.APIKeyEnv
	}
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = d.Timeout
	}
	switch {
	case cfg.Retries == 0:
		cfg.Retries = max(d.Retries, 0)
	case cfg.Retries < 0:
		cfg.Retries = 0
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = max(d.Concurrency, 1)
	}
	if cfg.BackoffBase <= 0 {
		cfg.BackoffBase = d.BackoffBase
	}
	if cfg.BackoffMax <= 0 {
		cfg.BackoffMax = d.BackoffMax
	}
	if cfg.Grace == 0 {
		cfg.Grace = d.Grace
	}
	cfg.Grace = max(cfg.Grace, 0)
	if cfg.MaxReplyBytes <= 0 {
		cfg.MaxReplyBytes = d.MaxReplyBytes
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			MaxIdleConnsPerHost: cfg.Concurrency,
			IdleConnTimeout:     90 * time.Second,
		}}
	}
	if cfg.Cache == nil {
		cfg.Cache = NewMemoryCache()
	}
	base := *u
	base.Fragment, base.RawFragment = "", ""
	base.Path, base.RawPath = strings.TrimRight(base.Path, "/"), strings.TrimRight(base.RawPath, "/")
	c := &Client{
		cfg:      cfg,
		endpoint: strings.TrimRight(cfg.BaseURL, "/"),
		base:     &base,
		shown:    redacted(&base),
		key:      cfg.Getenv(cfg.APIKeyEnv),
		params:   Params{Temperature: 0, Seed: cfg.Seed, MaxTokens: cfg.MaxTokens},
		http:     cfg.HTTPClient,
		cache:    cfg.Cache,
		sem:      make(chan struct{}, cfg.Concurrency),
		jitter:   rand.New(rand.NewPCG(cfg.JitterSeed, 0x6a756467)),
		fails:    map[string]error{},
	}
	for _, h := range cfg.Headers {
		if _, err := ParseHeader(h.Name + "=env:" + h.Env); err != nil {
			return nil, err
		}
		v := cfg.Getenv(h.Env)
		switch {
		case v == "":
			return nil, fmt.Errorf("%w %s: the environment variable %s is unset or empty", ErrHeader, h.Name, h.Env)
		case strings.ContainsAny(v, "\r\n\x00"):
			return nil, fmt.Errorf("%w %s: the value of %s holds a line break or NUL, which no header may", ErrHeader, h.Name, h.Env)
		}
		c.headers = append(c.headers, [2]string{h.Name, v})
		c.secrets = append(c.secrets, v)
	}
	c.secrets = append(c.secrets, c.key)
	if p, ok := u.User.Password(); ok {
		c.secrets = append(c.secrets, p)
	}
	if u.User != nil {
		c.secrets = append(c.secrets, u.User.Username())
	}
	for _, part := range strings.Split(u.RawQuery, "&") {
		name, v, ok := strings.Cut(part, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if ok && SecretParam(name) {
			c.secrets = append(c.secrets, v)
			if uv, err := url.QueryUnescape(v); err == nil {
				c.secrets = append(c.secrets, uv)
			}
		}
	}
	if cfg.RPM > 0 {
		c.limit = &limiter{interval: time.Minute / time.Duration(cfg.RPM)}
	}
	c.cache.addEndpoint(c.endpoint)
	return c, nil
}

// Stats returns the client's counts so far.
func (c *Client) Stats() Stats {
	return Stats{Requests: c.requests.Load(), Retries: c.retries.Load(), CacheHits: c.hits.Load(), Completed: c.completed.Load(), Failed: c.failed.Load(),
		Shared: c.shared.Load(), Earlier: c.earlier.Load(), Recorded: c.recorded.Load(), Paid: c.paid.Load()}
}

// Stopped returns the authentication error (401/403) after which the
// client sends no more requests, or nil.
func (c *Client) Stopped() error {
	if e := c.stopped.Load(); e != nil {
		return e
	}
	return nil
}

// Complete sends req to BaseURL/chat/completions and returns the reply's
// choices[0].message.content, from the cache when the same request
// (model, prompt hash, messages, parameters; not the endpoint: see
// CacheKey) was answered before, by this endpoint or another. Identical
// requests are sent once (see Client).
func (c *Client) Complete(ctx context.Context, req Request) (string, error) {
	key := CacheKey(c.cfg.Model, req.PromptHash, req.System, req.User, c.params)
	return c.call(ctx, key, c.oldChatKey(req), req.PromptHash, func() ([]byte, error) { return c.chatBody(req) }, "/chat/completions", parseChat)
}

// oldChatKey returns the format-1 key of req on an endpoint.
func (c *Client) oldChatKey(req Request) func(string) string {
	return func(endpoint string) string {
		return oldChatKey(endpoint, c.cfg.Model, req.PromptHash, req.System, req.User, c.params)
	}
}

// cached returns the reply cached for key, or for the request's key of
// format 1 (oldKey on each endpoint of the cache's clients), which it then
// writes again under key.
func (c *Client) cached(key string, oldKey func(string) string, promptHash string) (string, bool, error) {
	if reply, ok := c.cache.Get(key); ok {
		return reply, true, nil
	}
	return c.cache.rekey(key, oldKey, c.cfg.Model, promptHash)
}

// call returns the cached reply for key (or oldKey, see cached), or the
// failure of the same request (earlier in this run, or recorded in the
// cache by an earlier one), or makes the request (once for all callers
// asking for key, see Cache.settle) and caches its outcome.
func (c *Client) call(ctx context.Context, key string, oldKey func(string) string, promptHash string, body func() ([]byte, error), path string, parse func([]byte) (string, error)) (string, error) {
	for {
		reply, ok, err := c.cached(key, oldKey, promptHash)
		if err != nil {
			return "", err
		}
		if ok {
			c.hits.Add(1)
			return reply, nil
		}
		reply, ok, fl, f, leader := c.cache.settle(key, c.cfg.RetryFailed, c.ownFailure)
		switch {
		case ok: // cached by a twin since
			c.hits.Add(1)
			return reply, nil
		case fl != nil:
			c.failed.Add(1)
			if fl.earlier {
				c.earlier.Add(1)
			} else {
				c.shared.Add(1)
			}
			if fl.rec != nil {
				c.recorded.Add(1)
			}
			return "", c.failureError(fl)
		case !leader:
			select {
			case <-f.done:
			case <-ctx.Done():
				return "", ctx.Err()
			}
			if f.err == nil {
				c.hits.Add(1)
				return f.reply, nil
			}
			// The leader's call was cancelled (nothing was settled): look
			// again, and ask when this call's context is still live.
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			continue
		}
		var rec *Failure
		f.reply, f.err = c.fetch(ctx, body, path, parse)
		cancelled := f.err != nil && ctx.Err() != nil && errors.Is(f.err, ctx.Err())
		var ce *CallError
		switch {
		case f.err == nil:
			c.completed.Add(1)
		case cancelled:
		case errors.As(f.err, &ce) && ce.Status == http.StatusOK:
			c.failed.Add(1)
			c.paid.Add(1)
			if ce.Kind == "malformed" || ce.Kind == "too_large" {
				rec = &Failure{Kind: ce.Kind, Status: ce.Status, Error: ce.Err.Error()}
				c.recorded.Add(1)
			}
		default:
			c.failed.Add(1)
		}
		if f.err != nil && rec == nil && !cancelled {
			// Kept before the flight lands, so a twin finds the flight or this.
			c.fmu.Lock()
			c.fails[key] = f.err
			c.fmu.Unlock()
		}
		// Cached first: nothing after this point can lose a paid reply.
		if err := c.cache.land(key, f, c.cfg.Model, promptHash, rec); err != nil && f.err == nil {
			return f.reply, err
		}
		return f.reply, f.err
	}
}

// ownFailure returns the failure of key kept by this client, or nil.
func (c *Client) ownFailure(key string) error {
	c.fmu.Lock()
	defer c.fmu.Unlock()
	return c.fails[key]
}

// failureError is the error of a call whose request has failed: the
// error its first call got, or, for a failure recorded in the cache, a
// CallError rebuilt from the record (Recorded when an earlier run's).
func (c *Client) failureError(fl *failure) error {
	if fl.err != nil {
		return fl.err
	}
	r := fl.rec
	return &CallError{Endpoint: c.shown, Status: r.Status, Kind: r.Kind, Recorded: fl.earlier,
		Err: &recordedError{msg: r.Error, kind: r.Kind}}
}

// recordedError is a failure read back from the cache: its text, and the
// sentinel of its kind (ErrMalformed, ErrTooLarge) for errors.Is.
type recordedError struct{ msg, kind string }

func (e *recordedError) Error() string { return e.msg }
func (e *recordedError) Unwrap() error {
	switch e.kind {
	case "malformed":
		return ErrMalformed
	case "too_large":
		return ErrTooLarge
	}
	return nil
}

// fetch sends the request, retrying transient failures. Its errors,
// other than ctx's, are *CallError.
func (c *Client) fetch(ctx context.Context, makeBody func() ([]byte, error), path string, parse func([]byte) (string, error)) (string, error) {
	if e := c.stopped.Load(); e != nil {
		return "", c.notSent(e)
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	defer func() { <-c.sem }()

	body, err := makeBody()
	if err != nil {
		return "", err
	}
	var last error
	status, kind := 0, ""
	for attempt := 0; ; attempt++ {
		if c.limit != nil {
			if err := c.limit.wait(ctx); err != nil {
				return "", err
			}
		}
		if e := c.stopped.Load(); e != nil {
			return "", c.notSent(e)
		}
		c.requests.Add(1)
		reply, a := c.attempt(ctx, path, body, parse)
		if a.err == nil {
			return reply, nil
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if a.permanent {
			ce := &CallError{Endpoint: c.shown, Status: a.status, Attempts: attempt + 1, Kind: a.kind, Err: c.scrub(a.err)}
			if a.kind == "auth" {
				c.stopped.CompareAndSwap(nil, ce)
			}
			return "", ce
		}
		last, status, kind = a.err, a.status, a.kind
		if attempt >= c.cfg.Retries {
			break
		}
		wait := a.retryAfter
		if wait <= 0 {
			wait = c.backoff(attempt)
		}
		if c.cfg.Logf != nil {
			c.cfg.Logf("%s (attempt %d of %d); retrying in %s", c.scrub(a.err), attempt+1, c.cfg.Retries+1, wait.Round(time.Millisecond))
		}
		c.retries.Add(1)
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return "", ctx.Err()
		}
	}
	return "", &CallError{Endpoint: c.shown, Status: status, Attempts: c.cfg.Retries + 1, Kind: kind, Retried: true, Err: c.scrub(last)}
}

// notSent is the error of a call the client did not send because an
// earlier one was refused as unauthorised.
func (c *Client) notSent(first *CallError) *CallError {
	return &CallError{Endpoint: first.Endpoint, Status: first.Status, Kind: "auth",
		Err: fmt.Errorf("%w: not sent, because an earlier request was refused: %v", ErrAuth, first.Err)}
}

// outcome is what one attempt gave: an error, its HTTP status (0 for
// none), its kind (CallError.Kind), whether retrying is pointless, and the
// wait the server asked for.
type outcome struct {
	err        error
	status     int
	kind       string
	permanent  bool
	retryAfter time.Duration
}

func (c *Client) chatBody(req Request) ([]byte, error) {
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
		Model       string    `json:"model"`
		Messages    []message `json:"messages"`
		Temperature float64   `json:"temperature"`
		Seed        *int64    `json:"seed,omitempty"`
		MaxTokens   int       `json:"max_tokens,omitempty"`
		Stream      bool      `json:"stream"`
	}{c.cfg.Model, msgs, 0, c.params.Seed, c.params.MaxTokens, false})
}

// attempt makes one HTTP request. Config.Timeout bounds the wait for
// the reply's headers; once they have come, the body may take until
// Timeout + Grace after the start, so that a reply already being sent
// (and paid for) is not thrown away for being a little late.
func (c *Client) attempt(ctx context.Context, path string, body []byte, parse func([]byte) (string, error)) (string, outcome) {
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	var late atomic.Bool
	timer := time.AfterFunc(c.cfg.Timeout, func() { late.Store(true); cancel() })
	defer timer.Stop()
	hr, err := c.newRequest(actx, http.MethodPost, path, bytes.NewReader(body), "application/json")
	if err != nil {
		return "", outcome{err: err, kind: "request", permanent: true}
	}
	hr.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(hr)
	if err != nil {
		if late.Load() && ctx.Err() == nil {
			return "", outcome{err: fmt.Errorf("no reply within %s", c.cfg.Timeout), kind: "timeout"}
		}
		return "", outcome{err: fmt.Errorf("network: %w", stripURL(err)), kind: "network"}
	}
	defer resp.Body.Close()
	// The headers are in: the body gets the grace period on top.
	if timer.Stop() {
		timer.Reset(time.Until(start.Add(c.cfg.Timeout + c.cfg.Grace)))
	}
	limit := c.cfg.MaxReplyBytes
	if resp.StatusCode != http.StatusOK {
		limit = min(limit, 64<<10) // an error body is only quoted
	} else if resp.ContentLength > limit {
		return "", c.tooLarge(fmt.Sprintf("%d bytes announced", resp.ContentLength))
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		// A 200 reply that has started arriving is billed: it is not asked
		// for again, whatever cut it short.
		paid, why := resp.StatusCode == http.StatusOK, ""
		if paid {
			why = " (the 200 reply had started arriving, and a retry pays again)"
		}
		if late.Load() && ctx.Err() == nil {
			return "", outcome{err: fmt.Errorf("no complete reply within %s (the attempt timeout %s and a grace of %s for a reply that had started)%s",
				c.cfg.Timeout+c.cfg.Grace, c.cfg.Timeout, c.cfg.Grace, why), status: resp.StatusCode, kind: "timeout", permanent: paid}
		}
		return "", outcome{err: fmt.Errorf("network: reading reply: %w%s", stripURL(err), why), status: resp.StatusCode, kind: "network", permanent: paid}
	}
	code := resp.StatusCode
	switch {
	case code == http.StatusTooManyRequests:
		return "", outcome{err: fmt.Errorf("%w: %s", ErrRateLimited, snippet(data)), status: code, kind: "rate_limited", retryAfter: retryAfter(resp.Header.Get("Retry-After"), time.Now())}
	case code >= 500:
		return "", outcome{err: fmt.Errorf("%w: HTTP %d: %s", ErrServer, code, snippet(data)), status: code, kind: "server_error", retryAfter: retryAfter(resp.Header.Get("Retry-After"), time.Now())}
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		env := "is empty or unset, so no key was sent"
		if c.key != "" {
			env = "holds the key that was sent"
		}
		return "", outcome{err: fmt.Errorf("%w: HTTP %d: %s (the variable %s %s); no further requests are sent", ErrAuth, code, snippet(data), c.cfg.APIKeyEnv, env),
			status: code, kind: "auth", permanent: true}
	case code != http.StatusOK:
		return "", outcome{err: fmt.Errorf("%w: HTTP %d: %s", ErrRequest, code, snippet(data)), status: code, kind: "request", permanent: true}
	case int64(len(data)) > limit:
		return "", c.tooLarge(fmt.Sprintf("more than %d bytes", limit))
	}
	reply, err := parse(data)
	if err != nil {
		return "", outcome{err: fmt.Errorf("%w (not retried: the endpoint answered, and a retry pays again)", err), status: code, kind: "malformed", permanent: true}
	}
	return reply, outcome{}
}

// tooLarge is the outcome of a 200 reply over MaxReplyBytes.
func (c *Client) tooLarge(size string) outcome {
	return outcome{err: fmt.Errorf("%w of %d bytes (%s); not retried: a retry pays again for the same oversized answer (raise the limit to accept it)",
		ErrTooLarge, c.cfg.MaxReplyBytes, size), status: http.StatusOK, kind: "too_large", permanent: true}
}

// parseChat returns choices[0].message.content of a chat completion.
func parseChat(data []byte) (string, error) {
	var reply struct {
		Choices []struct {
			Message struct {
				Content *string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &reply); err != nil {
		return "", &malformedError{"chat completion", err.Error()}
	}
	if len(reply.Choices) == 0 || reply.Choices[0].Message.Content == nil {
		return "", &malformedError{"chat completion", "no choices[0].message.content"}
	}
	return *reply.Choices[0].Message.Content, nil
}

// backoff returns the wait before retry attempt+1: exponential from
// BackoffBase, capped at BackoffMax, with equal jitter (half fixed, half
// uniform) so that clients that failed together do not retry together.
func (c *Client) backoff(attempt int) time.Duration {
	d := c.cfg.BackoffBase << min(attempt, 30)
	if d <= 0 || d > c.cfg.BackoffMax {
		d = c.cfg.BackoffMax
	}
	c.jmu.Lock()
	j := time.Duration(c.jitter.Int64N(int64(d/2) + 1))
	c.jmu.Unlock()
	return d/2 + j
}

// retryAfter parses a Retry-After header (seconds or an HTTP date); 0
// when absent or unreadable. The wait is capped at MaxRetryAfter.
func retryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.ParseFloat(h, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		d = time.Duration(secs * float64(time.Second))
	} else if t, err := http.ParseTime(h); err == nil {
		d = t.Sub(now)
	}
	return min(max(d, 0), MaxRetryAfter)
}

// newRequest is a request to the endpoint's path (before BaseURL's query
// string), with the API key and the extra headers.
func (c *Client) newRequest(ctx context.Context, method, path string, body io.Reader, ctype string) (*http.Request, error) {
	u := *c.base
	u.Path += path
	if u.RawPath != "" {
		u.RawPath += path
	}
	hr, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("request to %s%s: %w", c.shown, path, c.scrub(stripURL(err)))
	}
	if ctype != "" {
		hr.Header.Set("Content-Type", ctype)
	}
	if c.key != "" {
		hr.Header.Set("Authorization", "Bearer "+c.key)
	}
	for _, h := range c.headers {
		hr.Header.Set(h[0], h[1])
	}
	return hr, nil
}

// scrub removes the secrets (the API key, the extra headers' values, the
// URL's password and secret query values) from an error, should a server
// or a library echo one.
func (c *Client) scrub(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, s := range c.secrets {
		if len(s) >= 4 && strings.Contains(msg, s) {
			msg = strings.ReplaceAll(msg, s, "[redacted]")
		}
	}
	if msg == err.Error() {
		return err
	}
	return &scrubbed{msg: msg, err: err}
}

type scrubbed struct {
	msg string
	err error
}

func (s *scrubbed) Error() string { return s.msg }
func (s *scrubbed) Unwrap() error { return s.err }

// stripURL drops the *url.Error wrapper (its message repeats the URL,
// which may carry a password).
func stripURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// snippet returns the start of a reply body for an error message.
func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	if s == "" {
		return "(empty body)"
	}
	return strings.ReplaceAll(s, "\n", " ")
}

// limiter spaces requests at least interval apart.
type limiter struct {
	mu       sync.Mutex
	next     time.Time
	interval time.Duration
}

func (l *limiter) wait(ctx context.Context) error {
	l.mu.Lock()
	now := time.Now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.interval)
	l.mu.Unlock()
	d := time.Until(at)
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
