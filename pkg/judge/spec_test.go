package judge

import (
	"errors"
	"testing"

	"github.com/evalbook/evalbook/pkg/llm"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		spec     string
		fake     string // the fake judge's name, when it is one
		endpoint string
		want     error
	}{
		{"fake:mixed", "mixed", "", nil},
		{"fake:clean", "clean", "", nil},
		{"http://127.0.0.1:8000/v1", "", "http://127.0.0.1:8000/v1", nil},
		{"https://api.openai.com/v1", "", "https://api.openai.com/v1", nil},
		{"fake:lenient", "", "", ErrNoFake},
		{"fake:", "", "", ErrNoFake},
		{"fake:all", "", "", ErrNoFake}, // probes expands fake:all itself
		{"gpt-4o", "", "", ErrSpec},
		{"localhost:8000", "", "", ErrSpec},
		{"", "", "", ErrSpec},
	}
	for _, tt := range tests {
		s, err := ParseSpec(tt.spec)
		if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Errorf("ParseSpec(%q) error %v, want %v", tt.spec, err, tt.want)
			continue
		}
		if err == nil && (s.Fake.Name != tt.fake || s.Endpoint != tt.endpoint) {
			t.Errorf("ParseSpec(%q) = fake %q endpoint %q, want %q %q", tt.spec, s.Fake.Name, s.Endpoint, tt.fake, tt.endpoint)
		}
	}
	// The message of an unknown fake is the one FakeByName always gave.
	_, err := ParseSpec("fake:lenient")
	if want := `no fake judge "lenient" (want one of clean, position, verbosity, self, mixed)`; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

func TestSpecOpen(t *testing.T) {
	p := mustPrompt(t, "pairwise@1")
	s, _ := ParseSpec("fake:position")
	j, name, err := s.Open(nil, p)
	if err != nil || name != "fake:position" || j.(Fake).Name != "position" {
		t.Errorf("fake: %v %q %v", j, name, err)
	}
	s, _ = ParseSpec("http://user:secret@127.0.0.1:8000/v1/")
	if _, _, err := s.Open(nil, p); !errors.Is(err, ErrNilJudge) {
		t.Errorf("model spec, nil client: %v, want ErrNilJudge", err)
	}
	c, err := llm.NewClient(llm.Config{BaseURL: s.Endpoint, Model: "qwen"})
	if err != nil {
		t.Fatal(err)
	}
	j, name, err = s.Open(c, p)
	if err != nil || name != "qwen at http://xxxxx:xxxxx@127.0.0.1:8000/v1" {
		t.Errorf("model: %q %v", name, err)
	}
	if cj, ok := j.(*ClientJudge); !ok || cj.Client != c || cj.Prompt.ID() != "pairwise@1" {
		t.Errorf("model judge %T", j)
	}
}

func TestChoosePrompt(t *testing.T) {
	ps := loadPrompts(t)
	tests := []struct {
		id   string
		kind Kind
		want string // the prompt's ID, or "" on error
		err  error
	}{
		{"pairwise", KindPairwise, "pairwise@2", nil}, // the highest version
		{"pairwise@1", KindPairwise, "pairwise@1", nil},
		{"reference", KindReference, "reference@1", nil},
		{"pairwise@1", KindReference, "pairwise@1", ErrPromptKind}, // returned, so that the message can name it
		{"reference", KindPairwise, "reference@1", ErrPromptKind},
	}
	for _, tt := range tests {
		p, err := ChoosePrompt(ps, tt.id, tt.kind)
		if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) || p.ID() != tt.want {
			t.Errorf("ChoosePrompt(%q, %s) = %s, %v; want %s, %v", tt.id, tt.kind, p.ID(), err, tt.want, tt.err)
		}
	}
	// An unknown id is FindPrompt's error, of no sentinel.
	if _, err := ChoosePrompt(ps, "reference@9", KindReference); err == nil || errors.Is(err, ErrPromptKind) {
		t.Errorf("unknown prompt: %v", err)
	}
}
