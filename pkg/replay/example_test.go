package replay_test

import (
	"fmt"
	"os"

	"github.com/evalbook/evalbook/pkg/replay"
)

// A saved result (here the JSON `evalbook power --baseline 0.7 --target
// 0.75 --json` prints) read back by its kind and rendered again.
func ExampleDecode() {
	saved := []byte(`{"kind": "power", "mode": "sample_size", "baseline": 0.7, "target": 0.75, "paired": false,
  "alpha": 0.05, "power": 0.8, "discordance": "", "p_better": 0, "p_worse": 0, "n_per_group": 1251,
  "mde": 0.050000000000000044, "detectable_rate": 0.75, "achieved_power": 0.8000889003777305, "warnings": []}`)
	kind, err := replay.Kind("power.json", saved)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := replay.Decode("power.json", kind, saved)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s, saved by evalbook %s:\n", kind, replay.Command(kind))
	r.WriteText(os.Stdout)
	// Output:
	// power, saved by evalbook power:
	// design          unpaired: two-sample test of proportions (normal approximation, as R's power.prop.test)
	// baseline        0.7
	// target          0.75
	// alpha           0.05 (two-sided)
	// power           0.8
	// needed          1251 cases per group
	// achieved power  0.800089
}
