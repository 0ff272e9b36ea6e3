package llm

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The errors of Settings.Config and OpenCacheFile, for a caller that words
// them its own way (a command names its flags).
var (
	ErrNoModel     = errors.New("no model name given")
	ErrConcurrency = errors.New("concurrency must be at least 1")
	ErrLimits      = errors.New("the rate limit, the retries, the grace and the reply limit must not be negative, the timeout must be positive")
	ErrSeed        = errors.New("the seed must be an integer")
	ErrNoCacheDir  = errors.New("no user cache directory")
	// ErrHeader is a --header (Config.Headers) that is not NAME=env:VARIABLE,
	// names a header the client sets itself, or whose variable is unset.
	ErrHeader = errors.New("bad extra header")
)

// Settings are a client's settings as plain values, the way a command line
// or a configuration file gives them. Unlike in a Config, every value is
// taken as given: zero retries means none, and nothing is filled from
// DefaultConfig except an empty APIKeyEnv (in NewClient).
type Settings struct {
	BaseURL, Model, APIKeyEnv string
	Seed                      string // an integer as fmt.Sscan reads it, or "" for no seed
	Concurrency, RPM, Retries int
	Timeout                   time.Duration
	// Grace is Config.Grace (0: none); MaxReplyBytes is
	// Config.MaxReplyBytes (0: DefaultConfig's).
	Grace         time.Duration
	MaxReplyBytes int64
	Headers       []Header // Config.Headers
	RetryFailed   bool     // Config.RetryFailed
}

// Config checks s and returns the Config it stands for (with no Cache and
// no Logf). The errors wrap ErrNoModel, ErrConcurrency, ErrLimits and
// ErrSeed, checked in that order; the URL is checked by NewClient.
func (s Settings) Config() (Config, error) {
	switch {
	case s.Model == "":
		return Config{}, ErrNoModel
	case s.Concurrency < 1:
		return Config{}, fmt.Errorf("%w, not %d", ErrConcurrency, s.Concurrency)
	case s.RPM < 0 || s.Retries < 0 || s.Timeout <= 0 || s.Grace < 0 || s.MaxReplyBytes < 0:
		return Config{}, fmt.Errorf("%w (rpm %d, retries %d, timeout %v, grace %v, reply limit %d bytes)", ErrLimits, s.RPM, s.Retries, s.Timeout, s.Grace, s.MaxReplyBytes)
	}
	var seed *int64
	if s.Seed != "" {
		var n int64
		if _, err := fmt.Sscan(s.Seed, &n); err != nil {
			return Config{}, fmt.Errorf("%w, not %q", ErrSeed, s.Seed)
		}
		seed = &n
	}
	retries := s.Retries
	if retries == 0 {
		retries = -1 // Config: negative means none, zero means the default
	}
	grace := s.Grace
	if grace == 0 {
		grace = -1 // Config: negative means none
	}
	return Config{BaseURL: s.BaseURL, Model: s.Model, APIKeyEnv: s.APIKeyEnv, Seed: seed,
		Timeout: s.Timeout, Grace: grace, MaxReplyBytes: s.MaxReplyBytes, Retries: retries, Concurrency: s.Concurrency, RPM: s.RPM,
		Headers: s.Headers, RetryFailed: s.RetryFailed}, nil
}

// ParseHeader reads an extra header as NAME=env:VARIABLE, such as
// api-key=env:AZURE_KEY: the header NAME is sent with every request, its
// value read from the environment variable VARIABLE (a literal value is
// refused, so that a secret is never typed on a command line, kept in a
// shell's history or shown in a process list). The client sets Host,
// Content-Type, Content-Length, Transfer-Encoding and Connection itself;
// Authorization may be given, and replaces the Bearer header of the API
// key variable. Errors wrap ErrHeader.
func ParseHeader(s string) (Header, error) {
	name, value, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	env, isEnv := strings.CutPrefix(strings.TrimSpace(value), "env:")
	switch {
	case !ok || name == "":
		return Header{}, fmt.Errorf("%w %q: want NAME=env:VARIABLE, such as api-key=env:AZURE_KEY", ErrHeader, headerShown(s))
	case !headerToken(name):
		return Header{}, fmt.Errorf("%w %q: the name is not an HTTP header name", ErrHeader, name)
	case !isEnv:
		return Header{}, fmt.Errorf("%w %s: give the value as env:VARIABLE (read from the environment, so that it appears in no command line, history or output), not as text", ErrHeader, name)
	case !envName(env):
		return Header{}, fmt.Errorf("%w %s: %q is not an environment variable name", ErrHeader, name, env)
	}
	switch http.CanonicalHeaderKey(name) {
	case "Host", "Content-Type", "Content-Length", "Transfer-Encoding", "Connection":
		return Header{}, fmt.Errorf("%w %s: the client sets this header itself", ErrHeader, name)
	}
	return Header{Name: name, Env: env}, nil
}

// headerShown is a --header value as an error may show it: the name only,
// in case a value was typed in place of env:VARIABLE.
func headerShown(s string) string {
	if name, _, ok := strings.Cut(s, "="); ok {
		return name + "=..."
	}
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// headerToken says whether s is an HTTP header name (RFC 9110 token).
func headerToken(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return s != ""
}

// envName says whether s is a portable environment variable name.
func envName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// OpenCacheFile opens the reply cache a path names: "none" is a memory
// cache, "" is defaultName (a relative path such as
// "evalbook/judge-cache.jsonl") in the user cache directory, created when
// missing, and any other path is a JSON Lines file (see OpenCache). It
// returns the cache and the path it resolved to ("none" for memory). With
// no user cache directory the error wraps ErrNoCacheDir.
func OpenCacheFile(path, defaultName string) (*Cache, string, error) {
	switch path {
	case "none":
		return NewMemoryCache(), path, nil
	case "":
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, "", fmt.Errorf("%w (%v)", ErrNoCacheDir, err) // "no user cache directory (why)"
		}
		path = filepath.Join(dir, defaultName)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, "", err
		}
	}
	c, err := OpenCache(path)
	return c, path, err
}

// RedactURL returns s as messages, reports and stored runs may show it:
// the user name and password of a user:pass@ part masked, and the value
// of every query parameter whose name looks like a secret (SecretParam:
// api-key, key, token, sig, ...) masked, the other parameters (such as
// api-version) kept; "(unparseable URL)" when s is not a URL.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparseable URL)"
	}
	return redacted(u)
}

// redactMask replaces a secret in a shown URL.
const redactMask = "xxxxx"

// redacted is RedactURL of a parsed URL.
func redacted(u *url.URL) string {
	v := *u
	if v.User != nil {
		if _, has := v.User.Password(); has {
			v.User = url.UserPassword(redactMask, redactMask)
		} else {
			v.User = url.User(redactMask)
		}
	}
	if v.RawQuery != "" {
		parts := strings.Split(v.RawQuery, "&")
		for i, p := range parts {
			name, _, hasValue := strings.Cut(p, "=")
			if n, err := url.QueryUnescape(name); err == nil {
				name = n
			}
			if hasValue && SecretParam(name) {
				parts[i] = url.QueryEscape(name) + "=" + redactMask
			}
		}
		v.RawQuery = strings.Join(parts, "&")
	}
	return v.String()
}

// SecretParam says whether a URL query parameter's name looks like it
// holds a secret, so that its value is masked wherever the URL is shown:
// a name that, lower-cased and without '-', '_' and '.', contains key,
// token, secret, sig (signature, sig of a shared access signature),
// pass, pwd, auth, cred or session (api-key, api_key, key, access_token,
// sig, X-Amz-Signature, X-Amz-Credential, client_secret, password,
// subscription-key, ...). It masks more than it must rather than less.
func SecretParam(name string) bool {
	n := strings.NewReplacer("-", "", "_", "", ".", "").Replace(strings.ToLower(name))
	for _, s := range []string{"key", "token", "secret", "sig", "pass", "pwd", "auth", "cred", "session"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// Endpoint returns the client's base URL as reports show it: any password
// masked and no trailing slash.
func (c *Client) Endpoint() string { return strings.TrimRight(c.shown, "/") }

// RetryFailed says whether the client asks again for requests an earlier
// run recorded in the cache as failed (Config.RetryFailed).
func (c *Client) RetryFailed() bool { return c.cfg.RetryFailed }

// Model returns the model name the client asks.
func (c *Client) Model() string { return c.cfg.Model }
