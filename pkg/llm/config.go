package llm

import (
	"net/http"
	"time"
)

// Config configures a Client. BaseURL and Model are required; every other
// field may be left zero, and a zero field takes its value from
// DefaultConfig (or the default its comment names).
type Config struct {
	// BaseURL is the endpoint as OpenAI clients take it, such as
	// http://127.0.0.1:8000/v1; chat requests go to
	// BaseURL/chat/completions, prompt requests to BaseURL/completions.
	// A query string is kept and the path goes before it, so an
	// Azure-style https://NAME.openai.azure.com/openai/deployments/D?api-version=2024-06-01
	// is asked at .../deployments/D/chat/completions?api-version=2024-06-01.
	// Wherever the URL is shown (errors, reports, stored runs) a
	// user:pass@ part and the value of a query parameter named like a
	// secret (SecretParam: api-key, key, token, sig, ...) are masked.
	BaseURL string
	Model   string
	// APIKeyEnv names the environment variable holding the API key
	// (default OPENAI_API_KEY). An unset or empty variable sends no
	// Authorization header, which local servers accept. The key is never
	// logged, cached, or put in an error.
	APIKeyEnv string
	// Headers are extra HTTP headers sent with every request, each
	// value read from an environment variable when the client is made
	// (a gateway's api-key, a subscription key); the values are never
	// logged, cached, or put in an error.
	Headers []Header
	// RetryFailed makes a call whose request an earlier run recorded in
	// the cache as failed (a 200 reply that was malformed or too large,
	// paid for and not usable) ask again. By default the call fails at
	// once with the recorded error (CallError.Recorded) and sends nothing:
	// the endpoint answered, and at temperature 0 it most likely answers
	// the same again.
	RetryFailed bool
	// Seed, when set, is sent as the request's seed. Temperature is
	// always 0.
	Seed      *int64
	MaxTokens int // sent as max_tokens when positive (a PromptRequest can override it)
	// Timeout bounds each attempt's wait for the reply's headers
	// (connection, request, and the model's work for a reply that is not
	// streamed).
	Timeout time.Duration
	// Grace is the time a reply whose headers came within Timeout may
	// take beyond it to finish its body (default 30s; negative: none), so
	// that a reply being received is not thrown away and paid again.
	Grace time.Duration
	// MaxReplyBytes bounds a reply's body (default 8 MiB). A 200 reply
	// over it fails its call with ErrTooLarge and is not retried.
	MaxReplyBytes int64
	// Retries is the number of retries after a first failed attempt, on
	// 429, 5xx, network errors and timeouts (a 200 reply that is
	// malformed or too large is not retried: it was paid for); zero
	// means DefaultConfig.Retries (3), negative means none.
	Retries int
	// Concurrency is the number of requests in flight at once.
	Concurrency int
	// RPM, when positive, spaces requests to at most RPM per minute.
	RPM         int
	BackoffBase time.Duration // first retry waits about this long
	BackoffMax  time.Duration // no backoff is longer than this
	JitterSeed  uint64        // seeds the backoff jitter
	HTTPClient  *http.Client  // default: a new client with no overall timeout
	Cache       *Cache        // default: a new memory cache for this client
	// Logf, when set, receives one line per retry, such as "server error
	// (HTTP 5xx): HTTP 500: ... (attempt 1 of 4); retrying in 412ms".
	// It never sees the key.
	Logf   func(format string, args ...any)
	Getenv func(string) string // default os.Getenv
}

// A Header is an extra request header (Config.Headers) whose value is the
// environment variable Env's: ParseHeader reads it from NAME=env:VARIABLE.
type Header struct {
	Name string
	Env  string
}

// DefaultConfig holds the values that the zero fields of a Config take in
// NewClient. BaseURL and Model have no default; a zero RPM means no rate
// limit and a zero JitterSeed is a seed like any other.
var DefaultConfig = Config{
	APIKeyEnv:   "OPENAI_API_KEY",
	Timeout:     60 * time.Second,
	Retries:     3,
	Concurrency: 4,
	BackoffBase: 500 * time.Millisecond,
	BackoffMax:  30 * time.Second,
	Grace:       30 * time.Second,
	// MaxReplyBytes is far above a chat reply (a 4,096-token reply is
	// about 16 KB of JSON) and below what a broken proxy can stream.
	MaxReplyBytes: 8 << 20,
}

// MaxRetryAfter bounds how long a Retry-After header can make the client
// wait before one retry.
const MaxRetryAfter = 5 * time.Minute
