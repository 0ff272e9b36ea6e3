package judge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/evalbook/evalbook/pkg/llm"
)

// The errors of ParseSpec, FakeByName and ChoosePrompt.
var (
	// ErrSpec: a judge spec is neither fake:NAME nor an http(s) URL.
	ErrSpec = errors.New("judge: want fake:NAME or an http or https endpoint URL")
	// ErrNoFake: no fake judge has the name (its message lists them).
	ErrNoFake = errors.New("no fake judge")
	// ErrPromptKind: the prompt found is not of the kind asked for.
	ErrPromptKind = errors.New("judge: the prompt is of another kind")
)

// Spec is a parsed judge spec: a fake judge, or the endpoint of a model.
type Spec struct {
	Fake     Fake   // the fake judge, when Endpoint is empty
	Endpoint string // the base URL of an OpenAI-compatible endpoint
}

// ParseSpec reads a judge spec: "fake:NAME" names one of Fakes, and an
// http:// or https:// URL is the base URL of a model judge. An unknown fake
// wraps ErrNoFake, anything else ErrSpec.
func ParseSpec(spec string) (Spec, error) {
	if name, ok := strings.CutPrefix(spec, "fake:"); ok {
		f, err := FakeByName(name)
		return Spec{Fake: f}, err
	}
	if !strings.HasPrefix(spec, "http://") && !strings.HasPrefix(spec, "https://") {
		return Spec{}, fmt.Errorf("%w, not %q", ErrSpec, llm.RedactURL(spec))
	}
	return Spec{Endpoint: spec}, nil
}

// Open returns the judge a spec stands for and the name reports give it:
// the fake judge, or a ClientJudge asking client with prompt p, named
// "MODEL at ENDPOINT" (the URL with any password masked). client may be nil
// for a fake; a model spec with a nil client is ErrNilJudge.
func (s Spec) Open(client *llm.Client, p Prompt) (Judge, string, error) {
	if s.Endpoint == "" {
		return s.Fake, s.Fake.String(), nil
	}
	if client == nil {
		return nil, "", ErrNilJudge
	}
	return NewClientJudge(client, p), client.Model() + " at " + client.Endpoint(), nil
}

// ChoosePrompt finds id among prompts (as FindPrompt does: name,
// name@version or a hash prefix) and checks that it is of kind. A prompt
// of another kind is returned with an error wrapping ErrPromptKind, so
// that the caller can name it.
func ChoosePrompt(prompts []Prompt, id string, kind Kind) (Prompt, error) {
	p, err := FindPrompt(prompts, id)
	if err != nil {
		return Prompt{}, err
	}
	if p.Kind != kind {
		return p, fmt.Errorf("%w: %s is a %s prompt, not a %s prompt", ErrPromptKind, p.ID(), p.Kind, kind)
	}
	return p, nil
}
