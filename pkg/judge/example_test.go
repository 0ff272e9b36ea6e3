package judge_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/evalbook/evalbook/pkg/judge"
)

// Example calibrates the mixed fake judge on the shipped pairs, with and
// without asking in both orders, and says whether it is usable. The
// figures are seed 003's: agreement 0.633 and kappa 0.456 in one order,
// 0.6 and 0.416 with the swap, rejected for its kappa, its self slice and
// its Bangla slice (0 of 2: the mixed judge is blind to Bangla).
func Example() {
	f, err := os.Open("../../datasets/judge/pairs.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	pairs, err := judge.ReadPairs(f, "pairs.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	mixed, _ := judge.FakeByName("mixed")
	prompt := judge.Prompt{Name: "pairwise", Version: 1, Kind: judge.KindPairwise, Criteria: []string{"correctness"},
		Text: "Compare on correctness.\n{{question}}\n{{first}}\n{{second}}"}
	for _, swap := range []bool{false, true} {
		r, err := judge.Calibrate(context.Background(), mixed, prompt, pairs, judge.CalibrateOptions{Judge: mixed.String(), Swap: swap})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("swap=%v agreement %d/%d = %.3f kappa %.3f order disagreements %d\n",
			swap, r.Agree, r.N, r.Agreement, r.Kappa, r.OrderDisagreements)
		if !swap {
			for _, why := range judge.Usable(r, 0.6, 0.6) {
				fmt.Println("  rejected:", why)
			}
		}
	}
	// Output:
	// swap=false agreement 19/30 = 0.633 kappa 0.456 order disagreements 0
	//   rejected: kappa 0.456 below 0.6
	//   rejected: kind self agrees on 0/5, below 0.6
	//   rejected: lang bn agrees on 0/2, below 0.6
	// swap=true agreement 18/30 = 0.600 kappa 0.416 order disagreements 17
}

func ExampleDimensions() {
	p := judge.Pair{
		Facts: []string{"7 days"},
		A:     "We keep holds for 3 days, and we hope you enjoy your visit to the library very much!",
		B:     "Holds wait 7 days.",
	}
	fmt.Printf("%+v\n", judge.Dimensions(p))
	// Output: {Correctness:b Evidence:tie Concision:b}
}

// ExampleParseSpec reads the --judge values of evalbook calibrate and
// probes: a fake judge opens with no client, a model judge with one.
func ExampleParseSpec() {
	for _, spec := range []string{"fake:mixed", "http://127.0.0.1:8000/v1", "fake:lenient", "gpt-4o"} {
		s, err := judge.ParseSpec(spec)
		switch {
		case errors.Is(err, judge.ErrNoFake):
			fmt.Println("unknown fake:", err)
		case errors.Is(err, judge.ErrSpec):
			fmt.Println("not a spec:", err)
		case s.Endpoint == "":
			_, name, _ := s.Open(nil, judge.Prompt{})
			fmt.Println("fake judge", name)
		default:
			fmt.Println("model judge at", s.Endpoint)
		}
	}
	// Output:
	// fake judge fake:mixed
	// model judge at http://127.0.0.1:8000/v1
	// unknown fake: no fake judge "lenient" (want one of clean, position, verbosity, self, mixed)
	// not a spec: judge: want fake:NAME or an http or https endpoint URL, not "gpt-4o"
}
