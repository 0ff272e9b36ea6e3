package design_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/design"
)

func caseLine(id, lang string) string {
	return `{"id":"` + id + `","question":"q ` + id + `?","task":"lookup","set":"golden","lang":"` + lang + `","expect":"answer","doc_ids":["d"],"facts":["x"],"why":"a made-up case for the test"}` + "\n"
}

// LoadCases validates under the plan's vocabulary, labels the input by
// its file names, and refuses an id repeated across files.
func TestLoadCases(t *testing.T) {
	a := design.File{Name: "a.jsonl", Data: []byte(caseLine("a1", "en") + caseLine("a2", "bn"))}
	hi := design.File{Name: "hi.jsonl", Data: []byte(caseLine("h1", "hi"))}

	// "hi" is not a default language: without a plan it is an error naming the file.
	if _, _, _, err := design.LoadCases([]design.File{a, hi}, nil); err == nil || !strings.Contains(err.Error(), "hi.jsonl") {
		t.Fatalf("lang hi without a plan: got %v, want an error naming hi.jsonl", err)
	}

	plan := &design.Plan{CaseValues: &design.Vocabulary{Lang: []string{"hi"}}}
	cases, voc, label, err := design.LoadCases([]design.File{a, hi}, plan)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cases {
		ids = append(ids, c.ID)
	}
	if want := []string{"a1", "a2", "h1"}; !slices.Equal(ids, want) {
		t.Errorf("ids %v, want %v", ids, want)
	}
	if want := []string{"en", "bn", "hi"}; !slices.Equal(voc.Lang, want) {
		t.Errorf("vocabulary lang %v, want %v (the defaults, then the plan's)", voc.Lang, want)
	}
	if label != "a.jsonl, hi.jsonl" {
		t.Errorf("label %q, want %q", label, "a.jsonl, hi.jsonl")
	}

	// Without a plan the vocabulary is the default.
	if _, voc, label, err := design.LoadCases([]design.File{a}, nil); err != nil || !slices.Equal(voc.Lang, design.DefaultVocabulary.Lang) || label != "a.jsonl" {
		t.Errorf("no plan: voc %v, label %q, err %v; want the default languages, a.jsonl, nil", voc.Lang, label, err)
	}

	again := design.File{Name: "b.jsonl", Data: []byte(caseLine("a2", "en"))}
	if _, _, _, err := design.LoadCases([]design.File{a, again}, nil); err == nil || !strings.Contains(err.Error(), "a2") {
		t.Errorf("id a2 in two files: got %v, want an error naming a2", err)
	}
	if _, _, _, err := design.LoadCases(nil, nil); err == nil {
		t.Error("no file: got no error")
	}
}

// What every cases command does with its FILE arguments and --plan: a
// plan that allows the language "hi" lets a Hindi case through.
func ExampleLoadCases() {
	files := []design.File{
		{Name: "en.jsonl", Data: []byte(`{"id":"e1","question":"How many days do I have to return an item?","task":"lookup","set":"golden","lang":"en","expect":"answer","doc_ids":["ir-returns"],"facts":["30 days"],"why":"The return window, asked plainly."}` + "\n")},
		{Name: "hi.jsonl", Data: []byte(`{"id":"h1","question":"क्या आप विदेश भेजते हैं?","task":"unanswerable","set":"golden","lang":"hi","expect":"abstain","why":"The pages do not cover shipping abroad."}` + "\n")},
	}
	plan := &design.Plan{CaseValues: &design.Vocabulary{Lang: []string{"hi"}}}
	cases, voc, label, err := design.LoadCases(files, plan)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(cases), "cases from", label)
	fmt.Println("languages:", voc.Lang)
	// Output:
	// 2 cases from en.jsonl, hi.jsonl
	// languages: [en bn hi]
}
