package design_test

import (
	"os"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/internal/limitstest"
	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// A case-file line longer than tabular.Limit (--max-field-mib) is an
// error at its line naming the limit and the flag; shorter lines read.
func TestReadCasesLineLimit(t *testing.T) {
	limitstest.Set(t, 1024, 0)
	short := caseLine("c1", "en") // about 190 bytes
	long := strings.Replace(caseLine("c2", "en"), "a made-up case", strings.Repeat("y", 2000), 1)
	if _, err := design.ReadCases(strings.NewReader(short+caseLine("c3", "en")), "cases.jsonl", design.DefaultVocabulary); err != nil {
		t.Fatalf("lines under the limit: %v", err)
	}
	_, err := design.ReadCases(strings.NewReader(short+long+caseLine("c3", "en")), "cases.jsonl", design.DefaultVocabulary)
	limitstest.Refused(t, "ReadCases", err, tabular.ErrTooLong, "cases.jsonl:2", "1024 bytes", "--max-field-mib")
	// LoadCases (what every cases command calls) reports it the same.
	_, _, _, err = design.LoadCases([]design.File{{Name: "big.jsonl", Data: []byte(long)}}, nil)
	limitstest.Refused(t, "LoadCases", err, tabular.ErrTooLong, "big.jsonl:1", "1024 bytes", "--max-field-mib")
}

// An outside source (text or JSONL) is bounded the same way.
func TestReadSourceLineLimit(t *testing.T) {
	limitstest.Set(t, 1024, 0)
	for _, tc := range []struct{ name, in string }{
		{"text", "a question?\n" + strings.Repeat("q", 3000) + "\n"},
		{"jsonl", `{"question":"a?"}` + "\n" + `{"question":"` + strings.Repeat("q", 3000) + `"}` + "\n"},
	} {
		_, err := design.ReadSource(strings.NewReader(tc.in), "old", "old.txt")
		limitstest.Refused(t, tc.name, err, tabular.ErrTooLong, "old.txt:2", "1024 bytes", "--max-field-mib")
	}
	if src, err := design.ReadSource(strings.NewReader("a question?\n"+strings.Repeat("q", 1000)+"\n"), "old", "old.txt"); err != nil || len(src.Texts) != 2 {
		t.Errorf("a source under the limit: %v", err)
	}
}

// A plan larger than tabular.MaxFile (--max-file-mib) is refused unread;
// one of exactly the limit reads.
func TestReadPlanFileLimit(t *testing.T) {
	data, err := os.ReadFile("../../datasets/helpdesk/plan_v1.json")
	if err != nil {
		t.Fatal(err)
	}
	n := int64(len(data))
	limitstest.Set(t, 0, n)
	if _, err := design.ReadPlan(strings.NewReader(string(data)), "plan.json"); err != nil {
		t.Fatalf("a plan of exactly the limit (%d bytes): %v", n, err)
	}
	tabular.MaxFile = n - 1
	_, err = design.ReadPlan(strings.NewReader(string(data)), "plan.json")
	limitstest.Refused(t, "ReadPlan", err, tabular.ErrFileTooLarge, "plan.json", "the file is larger than", "--max-file-mib")
	if !strings.Contains(err.Error(), tabular.Size(int(n-1))) {
		t.Errorf("ReadPlan: %v; want the limit %s", err, tabular.Size(int(n-1)))
	}
}
