package llm

import (
	"errors"
	"fmt"
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
		Timeout: s.Timeout, Grace: grace, MaxReplyBytes: s.MaxReplyBytes, Retries: retries, Concurrency: s.Concurrency, RPM: s.RPM}, nil
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

// RedactURL returns s with any password in it masked, or "(unparseable
// URL)" when s is not a URL, for messages and reports.
func RedactURL(s string) string {
	if u, err := url.Parse(s); err == nil {
		return u.Redacted()
	}
	return "(unparseable URL)"
}

// Endpoint returns the client's base URL as reports show it: any password
// masked and no trailing slash.
func (c *Client) Endpoint() string { return strings.TrimRight(c.shown, "/") }

// Model returns the model name the client asks.
func (c *Client) Model() string { return c.cfg.Model }
