package generate_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/evalbook/evalbook/pkg/generate"
	"github.com/evalbook/evalbook/pkg/llm"
)

// firstWord is a Completer that answers with the first word of the
// question; a program passes an *llm.Client.
type firstWord struct{}

func (firstWord) Complete(_ context.Context, req llm.Request) (string, error) {
	q := strings.TrimPrefix(req.User, "Question: ")
	return strings.Fields(q)[0], nil
}

func Example() {
	qs, err := generate.ReadQuestions(strings.NewReader("id,question,answer\nq1,Which river flows through Varanasi?,Ganga\n"), "questions_english.csv", "")
	if err != nil {
		fmt.Println(err)
		return
	}
	tpl, _ := generate.ReadTemplates([]byte(`{"version": "1", "templates": {"default": {"system": "Answer briefly.", "user": "Question: {question}"}}}`), "prompts.json")
	res, err := generate.Run(context.Background(), firstWord{}, qs, generate.Options{Model: "m", Templates: tpl})
	if err != nil {
		fmt.Println(err)
		return
	}
	res.WriteText(os.Stdout)
	fmt.Println(res.Warnings[0].Message)
	res.WriteCSV(os.Stdout)
	// Output:
	// 1 response from m
	// 1 question has no template for its language; it gets the "default" template
	// id,question,answer,Domain,language,model,response
	// q1,Which river flows through Varanasi?,Ganga,,english,m,Which
}
