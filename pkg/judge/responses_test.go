package judge

import "testing"

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
