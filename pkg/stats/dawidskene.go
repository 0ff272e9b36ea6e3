package stats

import "math"

// DawidSkeneOptions configures DawidSkene. The zero value starts from
// Dawid and Skene's initialisation (their eq. 3.1) and iterates until no
// class marginal or error rate moves by more than 1e-10, at most 10,000
// times.
type DawidSkeneOptions struct {
	// MaxIter bounds the EM iterations (0: 10,000).
	MaxIter int
	// Tol stops the iterations when no parameter moves by more than Tol
	// (0: 1e-10).
	Tol float64
	// Init, when not nil, is the starting posterior: one row per item,
	// one column per class, each row summing to 1. Nil starts from the
	// share of each class among the item's labels (eq. 3.1).
	Init [][]float64
}

// DawidSkeneFit is the maximum-likelihood fit of the Dawid-Skene model.
type DawidSkeneFit struct {
	// Marginals are the class probabilities p_j.
	Marginals []float64
	// Errors[k][j][l] is rater k's probability of labelling an item of
	// true class j as class l (each Errors[k][j] sums to 1, or is all
	// zero when rater k never labelled an item of class j).
	Errors [][][]float64
	// Posterior[i][j] is the probability that item i is of class j.
	Posterior [][]float64
	// LogLik is the log-likelihood at Marginals and Errors (eq. 2.7).
	LogLik float64
	// Iterations is the number of EM iterations run; Converged is false
	// when MaxIter stopped them.
	Iterations int
	Converged  bool
}

// DawidSkene fits the model of Dawid and Skene (1979, "Maximum likelihood
// estimation of observer error-rates using the EM algorithm", Applied
// Statistics 28:20-28) by EM. counts[i][k][l] is how many times rater k
// labelled item i as class l (a rater may label an item several times, or
// not at all); classes is the number of classes. Each item's true class
// j has probability p_j; given it, each of rater k's labels is l with
// probability π_kjl, independently:
//
//	L = Π_i Σ_j p_j Π_k Π_l π_kjl^n_ikl
//
// The M-step (eqs. 2.3, 2.4) sets p_j = Σ_i T_ij / I and
// π_kjl = Σ_i T_ij n_ikl / Σ_l Σ_i T_ij n_ikl; the E-step (eq. 2.5) sets
// T_ij ∝ p_j Π_k Π_l π_kjl^n_ikl. Iterations start with an M-step from
// opt.Init (default eq. 3.1: T_ij = Σ_k n_ikj / Σ_k Σ_l n_ikl).
//
// It panics with the prefix "stats: " when counts is empty, classes < 2,
// the shapes differ, a count is negative or an item has no label.
func DawidSkene(counts [][][]float64, classes int, opt DawidSkeneOptions) DawidSkeneFit {
	n := len(counts)
	if n == 0 || classes < 2 {
		panic("stats: DawidSkene needs at least one item and two classes")
	}
	raters := len(counts[0])
	if opt.MaxIter <= 0 {
		opt.MaxIter = 10000
	}
	if opt.Tol <= 0 {
		opt.Tol = 1e-10
	}
	T := make([][]float64, n)
	for i := range counts {
		if len(counts[i]) != raters {
			panic("stats: DawidSkene: items have different numbers of raters")
		}
		T[i] = make([]float64, classes)
		tot := 0.0
		for k := range counts[i] {
			if len(counts[i][k]) != classes {
				panic("stats: DawidSkene: a count row does not have one entry per class")
			}
			for l, c := range counts[i][k] {
				if c < 0 {
					panic("stats: DawidSkene: negative count")
				}
				T[i][l] += c
				tot += c
			}
		}
		if tot == 0 {
			panic("stats: DawidSkene: an item has no label")
		}
		for l := range T[i] {
			T[i][l] /= tot
		}
		if opt.Init != nil {
			copy(T[i], opt.Init[i])
		}
	}
	fit := DawidSkeneFit{Marginals: make([]float64, classes), Errors: make([][][]float64, raters)}
	for k := range fit.Errors {
		fit.Errors[k] = make([][]float64, classes)
		for j := range fit.Errors[k] {
			fit.Errors[k][j] = make([]float64, classes)
		}
	}
	prevP := make([]float64, classes)
	prevE := make([]float64, raters*classes*classes)
	for it := 1; it <= opt.MaxIter; it++ {
		// M-step.
		for j := range fit.Marginals {
			s := 0.0
			for i := range T {
				s += T[i][j]
			}
			fit.Marginals[j] = s / float64(n)
		}
		for k := range fit.Errors {
			for j := range fit.Errors[k] {
				row := fit.Errors[k][j]
				tot := 0.0
				for l := range row {
					s := 0.0
					for i := range counts {
						s += T[i][j] * counts[i][k][l]
					}
					row[l] = s
					tot += s
				}
				if tot > 0 {
					for l := range row {
						row[l] /= tot
					}
				}
			}
		}
		// E-step, and the log-likelihood at the new parameters.
		fit.LogLik = 0
		for i := range counts {
			fit.LogLik += dsLogPost(counts[i], fit.Marginals, fit.Errors, T[i])
		}
		fit.Iterations = it
		move := 0.0
		for j, p := range fit.Marginals {
			move = math.Max(move, math.Abs(p-prevP[j]))
			prevP[j] = p
		}
		x := 0
		for k := range fit.Errors {
			for j := range fit.Errors[k] {
				for _, e := range fit.Errors[k][j] {
					move = math.Max(move, math.Abs(e-prevE[x]))
					prevE[x] = e
					x++
				}
			}
		}
		if it > 1 && move <= opt.Tol {
			fit.Converged = true
			break
		}
	}
	fit.Posterior = T
	return fit
}

// dsLogPost writes an item's posterior over the classes into post and
// returns the log of its likelihood Σ_j p_j Π_k Π_l π_kjl^n_ikl.
func dsLogPost(counts [][]float64, p []float64, errs [][][]float64, post []float64) float64 {
	mx := math.Inf(-1)
	for j := range post {
		lp := math.Log(p[j])
		for k := range counts {
			for l, c := range counts[k] {
				if c > 0 {
					lp += c * math.Log(errs[k][j][l])
				}
			}
		}
		post[j] = lp
		mx = math.Max(mx, lp)
	}
	if math.IsInf(mx, -1) { // no class can give these labels: keep the prior
		copy(post, p)
		return mx
	}
	s := 0.0
	for j := range post {
		post[j] = math.Exp(post[j] - mx)
		s += post[j]
	}
	for j := range post {
		post[j] /= s
	}
	return mx + math.Log(s)
}
