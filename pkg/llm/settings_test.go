package llm

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSettingsConfig(t *testing.T) {
	ok := Settings{BaseURL: "http://127.0.0.1:8000/v1", Model: "m", APIKeyEnv: "K", Concurrency: 8, RPM: 60, Retries: 2, Timeout: time.Second}
	with := func(f func(*Settings)) Settings { s := ok; f(&s); return s }
	tests := []struct {
		name string
		s    Settings
		want error
	}{
		{"valid", ok, nil},
		{"no model", with(func(s *Settings) { s.Model = "" }), ErrNoModel},
		{"zero concurrency", with(func(s *Settings) { s.Concurrency = 0 }), ErrConcurrency},
		{"negative rpm", with(func(s *Settings) { s.RPM = -1 }), ErrLimits},
		{"negative retries", with(func(s *Settings) { s.Retries = -1 }), ErrLimits},
		{"zero timeout", with(func(s *Settings) { s.Timeout = 0 }), ErrLimits},
		{"seed not a number", with(func(s *Settings) { s.Seed = "x" }), ErrSeed},
		{"seed a fraction", with(func(s *Settings) { s.Seed = ".5" }), ErrSeed},
		// The model is checked first: a run with several mistakes names
		// the same one every time.
		{"no model and zero concurrency", with(func(s *Settings) { s.Model, s.Concurrency = "", 0 }), ErrNoModel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.s.Config()
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Errorf("Config() error %v, want %v", err, tt.want)
			}
		})
	}
}

func TestSettingsConfigValues(t *testing.T) {
	s := Settings{BaseURL: "http://h/v1", Model: "m", APIKeyEnv: "K", Seed: "42", Concurrency: 3, RPM: 10, Retries: 0, Timeout: 5 * time.Second}
	c, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	// Zero retries on the command line means none, which a Config spells
	// as a negative count (its zero means the default, 3).
	if c.BaseURL != "http://h/v1" || c.Model != "m" || c.APIKeyEnv != "K" || c.Concurrency != 3 || c.RPM != 10 || c.Retries != -1 || c.Timeout != 5*time.Second {
		t.Errorf("Config() = %+v", c)
	}
	if c.Seed == nil || *c.Seed != 42 {
		t.Errorf("seed %v, want 42", c.Seed)
	}
	s.Seed, s.Retries = "", 2
	if c, _ = s.Config(); c.Seed != nil || c.Retries != 2 {
		t.Errorf("no seed, 2 retries: seed %v retries %d", c.Seed, c.Retries)
	}
}

func TestOpenCacheFile(t *testing.T) {
	c, path, err := OpenCacheFile("none", "x/cache.jsonl")
	if err != nil || path != "none" || c.Len() != 0 {
		t.Fatalf("none: %v %q %v", c, path, err)
	}
	c.Close()

	dir := t.TempDir()
	file := filepath.Join(dir, "replies.jsonl")
	c, path, err = OpenCacheFile(file, "x/cache.jsonl")
	if err != nil || path != file {
		t.Fatalf("file: %q %v", path, err)
	}
	c.Close()
	if _, err := os.Stat(file); err != nil {
		t.Errorf("the cache file was not created: %v", err)
	}

	// "" is defaultName under the user cache directory, made when missing.
	t.Setenv("XDG_CACHE_HOME", dir)
	c, path, err = OpenCacheFile("", filepath.Join("evalbook", "judge-cache.jsonl"))
	if want := filepath.Join(dir, "evalbook", "judge-cache.jsonl"); err != nil || path != want {
		t.Fatalf("default: %q %v, want %q", path, err, want)
	}
	c.Close()

	// With neither XDG_CACHE_HOME nor HOME there is no user cache directory.
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	if _, _, err := OpenCacheFile("", "x.jsonl"); !errors.Is(err, ErrNoCacheDir) {
		t.Errorf("no cache directory: %v, want ErrNoCacheDir", err)
	}
}

func TestRedactURLAndEndpoint(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"},
		// The user name is masked too: gateways take a key there
		// (https://KEY@host) as well as in the password.
		{"https://user:secret@host/v1/", "https://xxxxx:xxxxx@host/v1/"},
		{"https://sk-live-123@host/v1", "https://xxxxx@host/v1"},
		{"http://host\x7f/", "(unparseable URL)"},
		// Secret query parameters are masked, the others kept in order.
		{"https://r.openai.azure.com/openai/deployments/gpt4o?api-version=2024-06-01&api-key=sk-AZ-9f8e7d",
			"https://r.openai.azure.com/openai/deployments/gpt4o?api-version=2024-06-01&api-key=xxxxx"},
		{"http://h/v1?key=K1&token=T2&sig=S3&X-Amz-Signature=S4&access_token=T5&code=7&model=m",
			"http://h/v1?key=xxxxx&token=xxxxx&sig=xxxxx&X-Amz-Signature=xxxxx&access_token=xxxxx&code=7&model=m"},
		{"http://h/v1?API_KEY=a%26b&flag", "http://h/v1?API_KEY=xxxxx&flag"},
	} {
		if got := RedactURL(tt.in); got != tt.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	c, err := NewClient(Config{BaseURL: "https://user:secret@host/v1/", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Endpoint() != "https://xxxxx:xxxxx@host/v1" || c.Model() != "m" {
		t.Errorf("Endpoint() %q, Model() %q", c.Endpoint(), c.Model())
	}
}
