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
)

// malformedError is a 200 reply that does not hold what the API
// promises; it is ErrMalformed, and its message names the API.
type malformedError struct{ api, detail string }

func (e *malformedError) Error() string { return "malformed " + e.api + " reply: " + e.detail }
func (e *malformedError) Unwrap() error { return ErrMalformed }

// Stats counts a client's work.
type Stats struct {
	Requests  int64 `json:"requests"`   // HTTP attempts sent
	Retries   int64 `json:"retries"`    // attempts after a failure
	CacheHits int64 `json:"cache_hits"` // replies served from the cache
	Completed int64 `json:"completed"`  // replies obtained from the endpoint
}

// Client calls an OpenAI-compatible endpoint (vLLM, llama.cpp server,
// Ollama, hosted APIs): chat completions with Complete, plain completions
// (with echo and log probabilities) with CompletePrompt. Both share the
// retries, the concurrency and rate limit, the cache and the counts. It
// is safe for concurrent use.
type Client struct {
	cfg      Config
	endpoint string // BaseURL without trailing slash
	shown    string // BaseURL with any password redacted, for messages
	key      string
	params   Params
	http     *http.Client
	cache    *Cache
	sem      chan struct{}
	limit    *limiter

	jmu    sync.Mutex
	jitter *rand.Rand

	fmu      sync.Mutex
	inflight map[string]*flight

	requests, retries, hits, completed atomic.Int64
}

type flight struct {
	done  chan struct{}
	reply string
	err   error
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
	c := &Client{
		cfg:      cfg,
		endpoint: strings.TrimRight(cfg.BaseURL, "/"),
		shown:    u.Redacted(),
		key:      cfg.Getenv(cfg.APIKeyEnv),
		params:   Params{Temperature: 0, Seed: cfg.Seed, MaxTokens: cfg.MaxTokens},
		http:     cfg.HTTPClient,
		cache:    cfg.Cache,
		sem:      make(chan struct{}, cfg.Concurrency),
		jitter:   rand.New(rand.NewPCG(cfg.JitterSeed, 0x6a756467)),
		inflight: map[string]*flight{},
	}
	if cfg.RPM > 0 {
		c.limit = &limiter{interval: time.Minute / time.Duration(cfg.RPM)}
	}
	return c, nil
}

// Stats returns the client's counts so far.
func (c *Client) Stats() Stats {
	return Stats{Requests: c.requests.Load(), Retries: c.retries.Load(), CacheHits: c.hits.Load(), Completed: c.completed.Load()}
}

// Complete sends req to BaseURL/chat/completions and returns the reply's
// choices[0].message.content, from the cache when the same request
// (endpoint, model, prompt hash, messages, parameters; see CacheKey) was
// answered before. Identical requests in flight at once are sent once.
func (c *Client) Complete(ctx context.Context, req Request) (string, error) {
	key := CacheKey(c.endpoint, c.cfg.Model, req.PromptHash, req.System, req.User, c.params)
	return c.call(ctx, key, req.PromptHash, func() ([]byte, error) { return c.chatBody(req) }, "/chat/completions", parseChat)
}

// call returns the cached reply for key, or makes the request (once for
// all callers asking for key at the same time) and caches its reply.
func (c *Client) call(ctx context.Context, key, promptHash string, body func() ([]byte, error), path string, parse func([]byte) (string, error)) (string, error) {
	if reply, ok := c.cache.Get(key); ok {
		c.hits.Add(1)
		return reply, nil
	}
	c.fmu.Lock()
	if f, ok := c.inflight[key]; ok {
		c.fmu.Unlock()
		select {
		case <-f.done:
			if f.err == nil {
				c.hits.Add(1)
			}
			return f.reply, f.err
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	f := &flight{done: make(chan struct{})}
	c.inflight[key] = f
	c.fmu.Unlock()

	f.reply, f.err = c.fetch(ctx, body, path, parse)
	if f.err == nil {
		c.completed.Add(1)
		if err := c.cache.Put(key, c.cfg.Model, promptHash, f.reply); err != nil {
			f.err = err
		}
	}
	c.fmu.Lock()
	delete(c.inflight, key)
	c.fmu.Unlock()
	close(f.done)
	return f.reply, f.err
}

// fetch sends the request, retrying transient failures.
func (c *Client) fetch(ctx context.Context, makeBody func() ([]byte, error), path string, parse func([]byte) (string, error)) (string, error) {
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
	for attempt := 0; ; attempt++ {
		if c.limit != nil {
			if err := c.limit.wait(ctx); err != nil {
				return "", err
			}
		}
		c.requests.Add(1)
		reply, retryAfter, err := c.attempt(ctx, path, body, parse)
		if err == nil {
			return reply, nil
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		var perm *permanentError
		if errors.As(err, &perm) {
			return "", c.scrub(perm.err)
		}
		last = err
		if attempt >= c.cfg.Retries {
			break
		}
		wait := retryAfter
		if wait <= 0 {
			wait = c.backoff(attempt)
		}
		if c.cfg.Logf != nil {
			c.cfg.Logf("%s (attempt %d of %d); retrying in %s", c.scrub(err), attempt+1, c.cfg.Retries+1, wait.Round(time.Millisecond))
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
	attempts := "attempts"
	if c.cfg.Retries == 0 {
		attempts = "attempt"
	}
	return "", c.scrub(fmt.Errorf("%s: giving up after %d %s: %w", c.shown, c.cfg.Retries+1, attempts, last))
}

// permanentError marks a failure that retrying cannot fix.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }

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

// attempt makes one HTTP request under the per-attempt timeout. It
// returns the reply, or an error and the wait the server asked for.
func (c *Client) attempt(ctx context.Context, path string, body []byte, parse func([]byte) (string, error)) (string, time.Duration, error) {
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(actx, http.MethodPost, c.endpoint+path, bytes.NewReader(body))
	if err != nil {
		return "", 0, &permanentError{err}
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json")
	if c.key != "" {
		hr.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.http.Do(hr)
	if err != nil {
		if actx.Err() != nil && ctx.Err() == nil {
			return "", 0, fmt.Errorf("no reply within %s", c.cfg.Timeout)
		}
		return "", 0, fmt.Errorf("network: %w", stripURL(err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		if actx.Err() != nil && ctx.Err() == nil {
			return "", 0, fmt.Errorf("no complete reply within %s", c.cfg.Timeout)
		}
		return "", 0, fmt.Errorf("network: reading reply: %w", stripURL(err))
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return "", retryAfter(resp.Header.Get("Retry-After"), time.Now()), fmt.Errorf("%w: %s", ErrRateLimited, snippet(data))
	case resp.StatusCode >= 500:
		return "", retryAfter(resp.Header.Get("Retry-After"), time.Now()), fmt.Errorf("%w: HTTP %d: %s", ErrServer, resp.StatusCode, snippet(data))
	case resp.StatusCode != http.StatusOK:
		return "", 0, &permanentError{fmt.Errorf("%s: %w: HTTP %d: %s", c.shown, ErrRequest, resp.StatusCode, snippet(data))}
	}
	reply, err := parse(data)
	if err != nil {
		return "", 0, err
	}
	return reply, 0, nil
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

// scrub removes the API key from an error, should a server echo it.
func (c *Client) scrub(err error) error {
	if err == nil || c.key == "" || !strings.Contains(err.Error(), c.key) {
		return err
	}
	return &scrubbed{msg: strings.ReplaceAll(err.Error(), c.key, "[redacted]"), err: err}
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
