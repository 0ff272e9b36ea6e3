package nbkit

import (
	"bytes"
	"fmt"
	"io/fs"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/harness"
)

// HelpdeskFile returns one file of the embedded help-desk sample of
// Inkwell Row (datasets/helpdesk/NAME, e.g. "cases.jsonl" or
// "sources/faq.jsonl").
func HelpdeskFile(name string) ([]byte, error) {
	b, err := fs.ReadFile(datasets.Helpdesk, "helpdesk/"+name)
	if err != nil {
		return nil, fmt.Errorf("help-desk sample: %w", err)
	}
	return b, nil
}

// HelpdeskCases reads the sample's 31 case records (cases.jsonl) with
// the default vocabulary, as `evalbook cases check` does.
func HelpdeskCases() ([]design.Case, error) {
	b, err := HelpdeskFile("cases.jsonl")
	if err != nil {
		return nil, err
	}
	return design.ReadCases(bytes.NewReader(b), "cases.jsonl", design.DefaultVocabulary)
}

// HelpdeskDocs reads the sample corpus (datasets/helpdesk/corpus).
func HelpdeskDocs() ([]harness.Document, error) {
	corpus, err := fs.Sub(datasets.Helpdesk, "helpdesk/corpus")
	if err != nil {
		return nil, fmt.Errorf("help-desk sample: %w", err)
	}
	return harness.ReadCorpus(corpus)
}

// HelpdeskSystem builds the sample system under test over the sample
// corpus: a retriever with chunking ch, which abstains when the best
// chunk scores below minScore or beats the second by less than minMargin.
func HelpdeskSystem(ch harness.Chunking, minScore, minMargin float64) (*harness.System, error) {
	docs, err := HelpdeskDocs()
	if err != nil {
		return nil, err
	}
	retriever, err := harness.NewRetriever(docs, ch)
	if err != nil {
		return nil, err
	}
	return &harness.System{Retriever: retriever, MinScore: minScore, MinMargin: minMargin}, nil
}
