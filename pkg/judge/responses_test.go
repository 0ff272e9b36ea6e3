package judge

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/evalbook/evalbook/pkg/llm"
)

// A count of one reads as one in the run summary's warning.
func TestInvalidMessageSingular(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{1, "1 judge reply broke the reply contract (not_json 1): its llm_judge cell is empty, it counts as not correct and is left out of the llm_judge agreement buckets"},
		{2, "2 judge replies broke the reply contract (not_json 1): their llm_judge cell is empty, they count as not correct and are left out of the llm_judge agreement buckets"},
	} {
		if got := invalidMessage(tc.n, "not_json 1"); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// constCompleter replies the same text to every request.
type constCompleter string

func (c constCompleter) Complete(context.Context, llm.Request) (string, error) { return string(c), nil }

// JudgeResponses leaves the table's own score as ReadResponses made it
// (two metrics), so a second run over the same table gives the same
// summary instead of a second llm_judge column.
func TestJudgeResponsesKeepsTableScore(t *testing.T) {
	ctx := context.Background()
	data := []byte("question,answer,Domain,response\nq1,Calcutta,History,Calcutta\nq2,Hooghly,Geography,Hugli\n")
	tbl, err := ReadResponses(ctx, data, "r.csv", ResponseOptions{By: "Domain"})
	if err != nil {
		t.Fatal(err)
	}
	j := NewClientJudge(constCompleter(`{"verdict": "incorrect", "reason": "no"}`), mustPrompt(t, "reference"))
	first, err := JudgeResponses(ctx, j, tbl, RunOptions{Model: "m", Endpoint: "e", Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := JudgeResponses(ctx, j, tbl, RunOptions{Model: "m", Endpoint: "e", Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if got := tbl.Score.Settings.Metrics; !reflect.DeepEqual(got, []string{"exact_substring", "word_overlap"}) {
		t.Errorf("table's metrics %v after two runs", got)
	}
	if _, ok := tbl.Score.Combined.Metrics["llm_judge"]; ok || len(tbl.Score.Agreement) != 1 {
		t.Errorf("table's score changed: %+v", tbl.Score.Combined.Metrics)
	}
	if !reflect.DeepEqual(first, second) {
		t.Errorf("the second run differs:\n%+v\n%+v", first.Score, second.Score)
	}
	// By hand: the judge says incorrect twice, so 0 of 2 in each group;
	// exact_substring passes q1 only.
	c := second.Score.Combined
	if c.Metrics["llm_judge"].Correct != 0 || c.Metrics["exact_substring"].Correct != 1 || len(second.Score.Settings.Metrics) != 3 {
		t.Errorf("combined %+v", c.Metrics)
	}
}

func TestJudgeResponsesErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := ReadResponses(ctx, []byte("question,answer,Domain,response\n"), "r.csv", ResponseOptions{Limit: -1}); err == nil {
		t.Error("a negative limit was accepted")
	}
	tbl, err := ReadResponses(ctx, []byte("question,answer,Domain,response\nq,a,d,r\n"), "r.csv", ResponseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := JudgeResponses(ctx, nil, tbl, RunOptions{}); !errors.Is(err, ErrNilJudge) {
		t.Errorf("nil judge: %v", err)
	}
}

func TestCalibrationOptions(t *testing.T) {
	ctx := context.Background()
	pairs := loadPairs(t)
	p := mustPrompt(t, "pairwise@1")
	clean, _ := FakeByName("clean")
	for _, tc := range []struct {
		name string
		opt  CalibrationOptions
		want error
	}{
		{"kappa above 1", CalibrationOptions{MinKappa: 1.5}, ErrMinKappa},
		{"kappa NaN", CalibrationOptions{MinKappa: math.NaN()}, ErrMinKappa},
		{"slice a count", CalibrationOptions{MinSlice: 3}, ErrMinSlice},
		{"slice negative", CalibrationOptions{MinKappa: -1, MinSlice: -0.1}, ErrMinSlice},
		{"versus a fake", CalibrationOptions{Versus: &p}, ErrVersusFake},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := CalibrateJudge(ctx, clean, p, pairs, tc.opt); !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
	// The bounds themselves are valid: the clean judge agrees on every
	// pair (every slice 1), so it is usable with no reasons, an empty
	// list rather than null in JSON.
	c, err := CalibrateJudge(ctx, clean, p, pairs, CalibrationOptions{MinKappa: -1, MinSlice: 1, CalibrateOptions: CalibrateOptions{Resamples: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Usable || c.Reasons == nil || len(c.Reasons) != 0 || c.ModelJudge || c.Kind != "calibration" {
		t.Errorf("clean judge: usable %v reasons %#v model %v kind %q", c.Usable, c.Reasons, c.ModelJudge, c.Kind)
	}
}

// Sendable counts the rows JudgeResponses sends, which is the summary's
// "sent": of three rows, q2's response is blank (white space only), so
// two are sent.
func TestResponsesSendable(t *testing.T) {
	ctx := context.Background()
	data := []byte("question,answer,Domain,response\nq1,a,D,a\nq2,b,D,\"  \"\nq3,c,D,x\n")
	tbl, err := ReadResponses(ctx, data, "r.csv", ResponseOptions{By: "Domain"})
	if err != nil {
		t.Fatal(err)
	}
	if got := tbl.Sendable(); got != 2 {
		t.Errorf("Sendable() = %d, want 2", got)
	}
	j := NewClientJudge(constCompleter(`{"verdict": "correct", "reason": "ok"}`), mustPrompt(t, "reference"))
	run, err := JudgeResponses(ctx, j, tbl, RunOptions{Model: "m", Endpoint: "e", Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if run.Judge.Sent != 2 || run.Judge.Rows != 3 {
		t.Errorf("summary sent %d of %d rows, want 2 of 3", run.Judge.Sent, run.Judge.Rows)
	}
}
