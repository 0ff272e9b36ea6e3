package stats

import (
	"fmt"
	"testing"
)

// go test -run '^$' -bench 'ProportionInterval|MajAtK|PassAtK|BCa' ./pkg/stats
func BenchmarkProportionInterval(b *testing.B) {
	for _, m := range ProportionMethods() {
		b.Run(m, func(b *testing.B) {
			for i := range b.N {
				ProportionInterval(m, 37+i%50, 200, 0.95)
			}
		})
	}
}

func BenchmarkCoverageN500(b *testing.B) {
	ps := make([]float64, 99)
	for i := range ps {
		ps[i] = float64(i+1) / 100
	}
	for range b.N {
		Coverages(MethodClopperPearson, 500, ps, 0.95)
	}
}

func BenchmarkPassAtK(b *testing.B) {
	for range b.N {
		PassAtK(200, 10, 10)
	}
}

func BenchmarkMajAtK(b *testing.B) {
	for _, n := range []int{16, 64} {
		answers := make([]string, n)
		for i := range answers {
			answers[i] = fmt.Sprint(i % 5)
		}
		for _, k := range []int{5, n / 2} {
			b.Run(fmt.Sprintf("n=%d/k=%d", n, k), func(b *testing.B) {
				for range b.N {
					MajAtK(answers, "0", k)
				}
			})
		}
	}
}

func BenchmarkBootstrapBCaGeneric1000(b *testing.B) {
	x := make([]float64, 1000)
	for i := range x {
		x[i] = float64(i*i%97) / 97
	}
	for range b.N {
		BootstrapBCa(x, bcaMean, 2000, 0.95, 1)
	}
}

func BenchmarkBootstrapBCaMeanMillion(b *testing.B) {
	x := make([]float64, 1000000)
	for i := range x {
		x[i] = float64(i%3) / 2 // 0, 0.5, 1: the multinomial path
	}
	for range b.N {
		BootstrapBCaMean(x, 10000, 0.95, 1)
	}
}
