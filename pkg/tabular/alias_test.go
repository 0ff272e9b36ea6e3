package tabular_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/evalbook/evalbook/pkg/agree"
	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/harness"
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/mc"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// TestPackageAliases: every reader of the module returns the one
// *tabular.ParseError, so errors.As finds it under the package's own name
// and under tabular's, and the package's ErrInvalidUTF8 is tabular's.
// Each input has a bad byte after Indic text, so the column (counted by
// hand in each case) is a character column, not a byte column.
func TestPackageAliases(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name      string
		read      func() error
		line, col int
		sentinel  error // the package's ErrInvalidUTF8
	}{
		// q (1) , (2) ক খ (3-4) , (5) a (6), the bad byte 7.
		{"qa Score", func() error {
			_, err := qa.Score(ctx, strings.NewReader("question,answer,Domain,response\nq,কখ,a\xff,r\n"), "t.csv", qa.Options{})
			return err
		}, 2, 7, qa.ErrInvalidUTF8},
		{"qa Open", func() error {
			src, err := qa.Open(strings.NewReader("question,answer,Domain,response\nq,কখ,a\xff,r\n"), "t.csv", "")
			if err == nil {
				if _, err = src.Header(); err == nil {
					_, _, err = src.Next()
				}
			}
			return err
		}, 2, 7, qa.ErrInvalidUTF8},
		// { " t a s k " : space " (1-10) হ (11), the bad byte 12.
		{"design ReadPlan", func() error {
			_, err := design.ReadPlan(strings.NewReader("{\"task\": \"হ\xff\"}"), "p.json")
			return err
		}, 1, 12, design.ErrInvalidUTF8},
		// x (1) , (2) ভ া ল (3-5), the bad byte 6.
		{"agree ReadLabels", func() error {
			_, err := agree.ReadLabels(strings.NewReader("id,r1\nx,ভাল\xff\n"), "l.csv", []string{"r1"}, "id")
			return err
		}, 2, 6, agree.ErrInvalidUTF8},
		// q 1 , (1-3) क (4) , (5) -1 , (6-8) क (9), the bad byte 10.
		{"mc Read", func() error {
			_, err := mc.Read(strings.NewReader("id,choice,loglik,gold\nq1,क,-1,क\xff\n"), "m.csv", mc.Columns{})
			return err
		}, 2, 10, mc.ErrInvalidUTF8},
		// { " i d " : " x " , (1-10) " q u e s t i o n " : " (11-22)
		// প ্ র (23-25), the bad byte 26 (byte column 32).
		{"judge ReadPairs", func() error {
			_, err := judge.ReadPairs(strings.NewReader("{\"id\":\"x\",\"question\":\"প্র\xff\"}\n"), "p.jsonl")
			return err
		}, 1, 26, judge.ErrInvalidUTF8},
		// { " i d " : " E (1-8) ক (9), the bad byte 10.
		{"harness ReadDataset", func() error {
			_, err := harness.ReadDataset(strings.NewReader("{\"id\":\"Eক\xff\",\"slice\":\"s\",\"expected\":\"abstain\"}"), "d.jsonl")
			return err
		}, 1, 10, design.ErrInvalidUTF8},
		// Line 2: অ (1), the bad byte 2.
		{"harness ReadCorpus", func() error {
			_, err := harness.ReadCorpus(fstest.MapFS{"a.md": {Data: []byte("# T\nঅ\xff\n")}})
			return err
		}, 2, 2, design.ErrInvalidUTF8},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.read()
			var pe *tabular.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *tabular.ParseError", err, err)
			}
			if pe.Line != c.line || pe.Column != c.col {
				t.Errorf("at %d:%d, want %d:%d (%v)", pe.Line, pe.Column, c.line, c.col, err)
			}
			if c.sentinel != tabular.ErrInvalidUTF8 || !errors.Is(err, c.sentinel) {
				t.Errorf("error %v: the package's ErrInvalidUTF8 is not tabular's, or does not match", err)
			}
			// The aliases name the same type.
			var qpe *qa.ParseError
			var dpe *design.ParseError
			var ape *agree.ParseError
			var mpe *mc.ParseError
			var jpe *judge.ParseError
			var hpe *harness.ParseError
			if !errors.As(err, &qpe) || !errors.As(err, &dpe) || !errors.As(err, &ape) || !errors.As(err, &mpe) || !errors.As(err, &jpe) || !errors.As(err, &hpe) {
				t.Errorf("errors.As through a package alias failed for %v", err)
			}
		})
	}
}
