package tasks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// Prices is a dated price file: what a million prompt and completion
// tokens cost per model, on the day the file names.
//
//	{"date": "2026-12-01", "currency": "USD",
//	 "models": {"gpt-4o-mini": {"prompt_per_million": 0.15, "completion_per_million": 0.6}}}
type Prices struct {
	Date     string           `json:"date"`
	Currency string           `json:"currency"`
	Models   map[string]Price `json:"models"`
}

// Price is one model's price per million tokens.
type Price struct {
	PromptPerMillion     float64 `json:"prompt_per_million"`
	CompletionPerMillion float64 `json:"completion_per_million"`
}

// Cost is a run's price: nil Amount when a token count is unknown or the
// model is not in the file (unknown, never 0).
type Cost struct {
	Amount   *float64 `json:"amount"`
	Currency string   `json:"currency"`
	Date     string   `json:"price_date"`
}

// ParsePrices reads a price file (unknown keys refused, date YYYY-MM-DD,
// prices not negative).
func ParsePrices(data []byte, name string) (*Prices, error) {
	var p Prices
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if _, err := time.Parse("2006-01-02", p.Date); err != nil {
		return nil, fmt.Errorf("%s: date %q: want YYYY-MM-DD (prices change; the file says when they held)", name, p.Date)
	}
	if p.Currency == "" {
		return nil, fmt.Errorf("%s: no currency", name)
	}
	for m, pr := range p.Models {
		if pr.PromptPerMillion < 0 || pr.CompletionPerMillion < 0 {
			return nil, fmt.Errorf("%s: model %s: a negative price", name, m)
		}
	}
	return &p, nil
}

// Of prices tokens of model.
func (p *Prices) Of(model string, t Tokens) Cost {
	c := Cost{Currency: p.Currency, Date: p.Date}
	pr, ok := p.Models[model]
	if !ok || t.Prompt == nil || t.Completion == nil {
		return c
	}
	v := float64(*t.Prompt)/1e6*pr.PromptPerMillion + float64(*t.Completion)/1e6*pr.CompletionPerMillion
	c.Amount = &v
	return c
}

// ReadPricesFile reads and parses the price file at path ("" for none:
// nil prices), refusing one larger than tabular.FileLimit() (1 GiB unless
// --max-file-mib or tabular.MaxFile changed it) with an error naming the
// file, the limit and the flag.
func ReadPricesFile(path string) (*Prices, error) {
	if path == "" {
		return nil, nil
	}
	data, err := tabular.ReadFile(path, 0)
	if err != nil {
		return nil, err
	}
	return ParsePrices(data, path)
}
