package leaderboard_test

import (
	"context"
	"fmt"
	"os"

	"github.com/evalbook/evalbook/pkg/leaderboard"
)

// `evalbook leaderboard` over its built-in sample, read from an fs.FS (the
// command passes the embedded datasets.Leaderboard; here the same files
// on disk) with no temporary copy.
func ExampleDiscoverFS() {
	inputs, err := leaderboard.DiscoverFS(os.DirFS("../../datasets"), "leaderboard")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(inputs), "files; first:", inputs[0].Path, inputs[0].Model, inputs[0].Language)
	b, err := leaderboard.Build(context.Background(), inputs, leaderboard.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.Models, b.Languages)
	// Output:
	// 15 files; first: leaderboard/heron-3b_bengali.csv heron-3b bengali
	// [heron-3b kestrel-7b tern-13b] [bengali english hindi tamil telugu]
}
