package judge

import (
	"context"
	"errors"
	"testing"
)

// firstFailJudge fails at once on the questions in fail, and on every
// other question waits until the run is cancelled.
type firstFailJudge struct{ fail map[string]bool }

var errJudgeDown = errors.New("judge down")

func (f firstFailJudge) Compare(ctx context.Context, q Query) (Winner, error) {
	if f.fail[q.Question] {
		return "", errJudgeDown
	}
	<-ctx.Done()
	return "", ctx.Err()
}

// TestAskAllReportsTheFailure: a failing pair cancels the others, and its
// error is the one returned, not the context.Canceled of an earlier pair
// that was waiting (which made a network failure read as "interrupted" on
// some runs); of two failures, the first in pair order.
func TestAskAllReportsTheFailure(t *testing.T) {
	pairs := []Pair{{ID: "p1", Question: "q1"}, {ID: "p2", Question: "q2"}, {ID: "p3", Question: "q3"}}
	for _, tt := range []struct {
		fail map[string]bool
		want string
	}{
		{map[string]bool{"q3": true}, "pair p3 (a first): judge down"},
		{map[string]bool{"q2": true, "q3": true}, "pair p2 (a first): judge down"},
	} {
		for range 20 {
			_, err := askAll(context.Background(), firstFailJudge{fail: tt.fail}, pairs, false, 3, nil)
			if !errors.Is(err, errJudgeDown) || err.Error() != tt.want {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		}
	}
	// Cancelled from outside, the error is context.Canceled.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := askAll(ctx, firstFailJudge{}, pairs, false, 3, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v", err)
	}
}
