package stats

import "math"

// EmulateLTM is the IRTOptions.Emulate value that reproduces R's ltm
// (Rizopoulos 2006, package ltm, ltm(X ~ z1) with its default control).
const EmulateLTM = "ltm"

// The defaults of ltm's control list for one factor (R/ltm.R of the
// current ltm: iter.em = 40, iter.qN = 150, GHk = if (factors == 1) 21
// else 15, method = "BFGS", parscale 1; older versions had GHk = 15) and
// of R's optim (reltol = sqrt(.Machine$double.eps), abstol = -Inf).
const (
	ltmGHk    = 21
	ltmIterEM = 40
	ltmIterQN = 150
)

var ltmRelTol = math.Sqrt(0x1p-52)

// fit2PLLTM fits the 2PL model the way ltm does, step for step, so that
// its estimates agree with ltm's to their printed digits:
//
//   - quadrature (R/GHpoints.R, R/gauher.R): the GHk = 21 roots x_q of
//     the physicists' Hermite polynomial, not scaled by √2, with weights
//     w_q·exp(x_q²)·φ(x_q) (so Σ_q GHw_q f(x_q) ≈ ∫ f φ);
//   - start values (R/start.val.ltm.R): for each item, the logistic
//     regression (glm, binomial) of the item on z1 = seq(−3, 3, length
//     = the number of distinct raw scores)[the respondent's rank among
//     them];
//   - 40 EM iterations (R/EM.R), each one Newton step per item with the
//     expected information;
//   - then R's optim BFGS (vmmin, src/appl/optim.c) on −log-likelihood
//     with ltm's analytic score (R/loglikltm.R, R/scoreltm.R), at most
//     150 iterations, stopping when an accepted step changes the value by
//     at most reltol·(|value| + reltol).
//
// Probabilities are clamped to [√ε, 1 − √ε] as ltm's probs() does. The
// estimates are where ltm stops, not the maximum likelihood of even its
// own quadrature: on LSAT the EM leaves a_2 moving by 1e-4 an iteration
// and BFGS stops after two steps, when a step gains less than
// reltol·|value| = 3.7e-5 in log-likelihood. weights are pattern counts; resp −1 is a missing answer (ltm's
// NA: out of the item's likelihood and score).
func fit2PLLTM(resp [][]int8, weights []float64) IRTFit {
	J := len(resp[0])
	x, w := ltmGauher(ltmGHk)
	Q := len(x)
	ghw := make([]float64, Q)
	for q := range x {
		ghw[q] = w[q] * math.Exp(x[q]*x[q]) * math.Exp(-x[q]*x[q]/2) / math.Sqrt(2*math.Pi)
	}
	m := &ltmModel{resp: resp, obs: weights, z: x, ghw: ghw, J: J}
	par := ltmStart(resp, weights)
	par = m.em(par, ltmIterEM)
	val, it := vmmin(par, m.negLogLik, m.negScore, ltmIterQN, ltmRelTol)
	f := IRTFit{Intercept: append([]float64(nil), par[:J]...), Discrimination: append([]float64(nil), par[J:]...),
		LogLik: -val, Iterations: ltmIterEM + it, Converged: it < ltmIterQN, Nodes: x, Weights: ghw}
	if f.Discrimination[0] < 0 { // ltm.fit: the sign of the first item's loading is fixed positive
		for j := range f.Discrimination {
			f.Discrimination[j] = -f.Discrimination[j]
		}
	}
	f.Difficulty = make([]float64, J)
	for j := range f.Difficulty {
		f.Difficulty[j] = -f.Intercept[j] / f.Discrimination[j]
	}
	f.standardErrors(resp, weights)
	return f
}

// ltmGauher is ltm's gauher(n): Gauss-Hermite roots and weights for
// e^(−x²) by Newton's method from the Numerical Recipes starting guesses,
// with ltm's constants (the exponent −0.16667, PIM4, EPS 3e-14, 10
// iterations at most), roots in descending order.
func ltmGauher(n int) (x, w []float64) {
	const eps, pim4, maxit = 3e-14, 0.751125544464943, 10
	x, w = make([]float64, n), make([]float64, n)
	var z, pp float64
	for i := 0; i < (n+1)/2; i++ {
		switch i {
		case 0:
			z = math.Sqrt(float64(2*n+1)) - 1.85575*math.Pow(float64(2*n+1), -0.16667)
		case 1:
			z -= 1.14 * math.Pow(float64(n), 0.426) / z
		case 2:
			z = 1.86*z - 0.86*x[0]
		case 3:
			z = 1.91*z - 0.91*x[1]
		default:
			z = 2*z - x[i-2]
		}
		for range maxit {
			p1, p2 := pim4, 0.0
			for j := 1; j <= n; j++ {
				p3 := p2
				p2 = p1
				p1 = z*math.Sqrt(2/float64(j))*p2 - math.Sqrt(float64(j-1)/float64(j))*p3
			}
			pp = math.Sqrt(2*float64(n)) * p2
			z1 := z
			z = z1 - p1/pp
			if math.Abs(z-z1) <= eps {
				break
			}
		}
		x[i], x[n-1-i] = z, -z
		w[i] = 2 / (pp * pp)
		w[n-1-i] = w[i]
	}
	return x, w
}

// ltmStart is start.val.ltm: per item, the binomial glm of the item on
// z1, the respondent's raw score mapped to seq(−3, 3) over the distinct
// scores; par is the intercepts then the slopes (ltm's column-major
// betas). A glm that does not fit (separation) starts at (0, 1).
func ltmStart(resp [][]int8, weights []float64) []float64 {
	J := len(resp[0])
	score := make([]int, len(resp))
	seen := map[int]bool{}
	for p, r := range resp {
		for _, v := range r {
			if v == 1 {
				score[p]++
			}
		}
		if weights[p] > 0 {
			seen[score[p]] = true
		}
	}
	var distinct []int
	for s := 0; s <= J; s++ {
		if seen[s] {
			distinct = append(distinct, s)
		}
	}
	z1 := map[int]float64{}
	for k, s := range distinct {
		z1[s] = -3
		if len(distinct) > 1 {
			z1[s] = -3 + 6*float64(k)/float64(len(distinct)-1)
		}
	}
	par := make([]float64, 2*J)
	for j := 0; j < J; j++ {
		var xs, ys, ws []float64
		for p, r := range resp {
			if r[j] >= 0 && weights[p] > 0 {
				xs, ys, ws = append(xs, z1[score[p]]), append(ys, float64(r[j])), append(ws, weights[p])
			}
		}
		c, a, ok := logitMLE(xs, ys, ws)
		if !ok {
			c, a = 0, 1
		}
		par[j], par[J+j] = c, a
	}
	return par
}

// logitMLE is R's glm.fit for a binomial logit model of y on x with
// prior weights w, as start.val.ltm calls it: mustart (w·y + 0.5)/(w + 1),
// then iteratively reweighted least squares until the deviance moves by
// less than 1e-8 relative (|dev − devold|/(|dev| + 0.1) < epsilon, at
// most 25 iterations). It stops where glm stops, not at the exact
// maximum: ltm's 40 EM iterations do not wash out the difference on flat
// likelihoods. ok is false when it does not converge.
func logitMLE(x, y, w []float64) (c, a float64, ok bool) {
	const epsilon, maxit = 1e-8, 25
	eta := make([]float64, len(x))
	dev := func() float64 {
		d := 0.0
		for i := range x {
			mu := logistic(eta[i])
			if y[i] == 1 {
				d -= 2 * w[i] * math.Log(mu)
			} else {
				d -= 2 * w[i] * math.Log(1-mu)
			}
		}
		return d
	}
	for i := range x {
		mu := (w[i]*y[i] + 0.5) / (w[i] + 1)
		eta[i] = math.Log(mu / (1 - mu))
	}
	devold := dev()
	for range maxit {
		var h00, h01, h11, r0, r1 float64
		for i := range x {
			mu := logistic(eta[i])
			v := w[i] * mu * (1 - mu)
			z := eta[i] + (y[i]-mu)/(mu*(1-mu))
			h00, h01, h11 = h00+v, h01+v*x[i], h11+v*x[i]*x[i]
			r0, r1 = r0+v*z, r1+v*z*x[i]
		}
		det := h00*h11 - h01*h01
		if !(det > 1e-300) {
			return 0, 0, false
		}
		c, a = (h11*r0-h01*r1)/det, (h00*r1-h01*r0)/det
		for i := range x {
			eta[i] = c + a*x[i]
		}
		d := dev()
		if math.Abs(d-devold)/(math.Abs(d)+0.1) < epsilon {
			return c, a, !math.IsNaN(c + a)
		}
		devold = d
	}
	return c, a, false
}

// ltmModel is the data and quadrature ltm's EM, loglikltm and scoreltm
// work on.
type ltmModel struct {
	resp    [][]int8
	obs     []float64
	z, ghw  []float64
	J       int
	pr, pxz [][]float64 // scratch: pr[q][j], p.xz[p][q]
	px      []float64
}

// ltmProb is ltm's probs(): plogis clamped away from 0 and 1.
func ltmProb(v float64) float64 {
	p := 1 / (1 + math.Exp(-v))
	const s = 1.4901161193847656e-08 // sqrt(.Machine$double.eps)
	if p == 1 {
		return 1 - s
	}
	if p == 0 {
		return s
	}
	return p
}

// eval fills pr, p.xz and p.x at par and returns the log-likelihood
// Σ_p obs_p log p.x_p.
func (m *ltmModel) eval(par []float64) float64 {
	J, Q := m.J, len(m.z)
	if m.pr == nil {
		m.pr = newMatrix(Q, J)
		m.pxz = newMatrix(len(m.resp), Q)
		m.px = make([]float64, len(m.resp))
	}
	for q, t := range m.z {
		for j := 0; j < J; j++ {
			m.pr[q][j] = ltmProb(par[j] + par[J+j]*t)
		}
	}
	ll := 0.0
	for p, r := range m.resp {
		s := 0.0
		for q := 0; q < Q; q++ {
			e := 0.0
			for j, v := range r {
				switch v {
				case 1:
					e += math.Log(m.pr[q][j])
				case 0:
					e += math.Log(1 - m.pr[q][j])
				}
			}
			m.pxz[p][q] = math.Exp(e)
			s += m.pxz[p][q] * m.ghw[q]
		}
		m.px[p] = s
		ll += m.obs[p] * math.Log(s)
	}
	return ll
}

// score returns ∂ log-likelihood/∂par at the par eval was last called
// with: for item j, Σ_p Σ_q p.zx_pq (x_pj − pr_qj) GHw_q (1, z_q), with
// p.zx = p.xz / p.x · obs (ltm's scoreltm without its minus sign).
func (m *ltmModel) score() []float64 {
	J := m.J
	g := make([]float64, 2*J)
	for p, r := range m.resp {
		for q, t := range m.z {
			pzx := m.pxz[p][q] / m.px[p] * m.obs[p] * m.ghw[q]
			for j, v := range r {
				if v < 0 {
					continue
				}
				d := pzx * (float64(v) - m.pr[q][j])
				g[j] += d
				g[J+j] += d * t
			}
		}
	}
	return g
}

func (m *ltmModel) negLogLik(par []float64) float64 { return -m.eval(par) }

func (m *ltmModel) negScore(par []float64) []float64 {
	m.eval(par)
	g := m.score()
	for i := range g {
		g[i] = -g[i]
	}
	return g
}

// em runs ltm's EM: iter times, for every item, one Newton step
// β_j += H_j⁻¹ s_j with s_j the score above and H_j = Σ_q (1, z_q)ᵀ(1,
// z_q) pr_qj (1 − pr_qj) N_q, N_q = GHw_q Σ_p p.zx_pq the expected
// respondents at node q (all items from the same E-step).
func (m *ltmModel) em(par []float64, iter int) []float64 {
	J, Q := m.J, len(m.z)
	par = append([]float64(nil), par...)
	nt := make([]float64, Q)
	for range iter {
		m.eval(par)
		clear(nt)
		for p := range m.resp {
			for q := 0; q < Q; q++ {
				nt[q] += m.pxz[p][q] / m.px[p] * m.obs[p]
			}
		}
		for q := range nt {
			nt[q] *= m.ghw[q]
		}
		g := m.score()
		next := make([]float64, 2*J)
		for j := 0; j < J; j++ {
			var h00, h01, h11 float64
			for q, t := range m.z {
				v := m.pr[q][j] * (1 - m.pr[q][j]) * nt[q]
				h00, h01, h11 = h00+v, h01+v*t, h11+v*t*t
			}
			det := h00*h11 - h01*h01
			s0, s1 := g[j], g[J+j]
			next[j] = par[j] + (h11*s0-h01*s1)/det
			next[J+j] = par[J+j] + (h00*s1-h01*s0)/det
		}
		par = next
	}
	return par
}

// vmmin is R's optim BFGS (Nash's variable metric method, vmmin in R's
// src/appl/optim.c) with abstol −Inf: it minimises fn from b (updated in
// place) with gradient gr, and returns the final value and the number
// of iterations (gradient evaluations). Constants as R's: step
// reduction 0.2, acceptance tolerance 1e-4, "no change" test 10 +
// x == 10 + x'.
func vmmin(b []float64, fn func([]float64) float64, gr func([]float64) []float64, maxit int, reltol float64) (float64, int) {
	const stepredn, acctol, reltest = 0.2, 0.0001, 10.0
	n := len(b)
	t, X, c := make([]float64, n), make([]float64, n), make([]float64, n)
	B := newMatrix(n, n) // lower triangle used
	f := fn(b)
	fmin := f
	g := gr(b)
	gradcount, iter := 1, 1
	ilast := gradcount
	count := 0
	for {
		if ilast == gradcount {
			for i := 0; i < n; i++ {
				for j := 0; j < i; j++ {
					B[i][j] = 0
				}
				B[i][i] = 1
			}
		}
		copy(X, b)
		copy(c, g)
		gradproj := 0.0
		for i := 0; i < n; i++ {
			s := 0.0
			for j := 0; j <= i; j++ {
				s -= B[i][j] * g[j]
			}
			for j := i + 1; j < n; j++ {
				s -= B[j][i] * g[j]
			}
			t[i] = s
			gradproj += s * g[i]
		}
		if gradproj < 0 {
			steplength := 1.0
			accpoint := false
			for {
				count = 0
				for i := 0; i < n; i++ {
					b[i] = X[i] + steplength*t[i]
					if reltest+X[i] == reltest+b[i] {
						count++
					}
				}
				if count < n {
					f = fn(b)
					accpoint = !math.IsInf(f, 0) && !math.IsNaN(f) && f <= fmin+gradproj*steplength*acctol
					if !accpoint {
						steplength *= stepredn
					}
				}
				if count == n || accpoint {
					break
				}
			}
			enough := math.Abs(f-fmin) > reltol*(math.Abs(fmin)+reltol) // f > abstol = −Inf always
			if !enough {
				count = n
				fmin = f
			}
			if count < n {
				fmin = f
				g = gr(b)
				gradcount++
				iter++
				D1 := 0.0
				for i := 0; i < n; i++ {
					t[i] *= steplength
					c[i] = g[i] - c[i]
					D1 += t[i] * c[i]
				}
				if D1 > 0 {
					D2 := 0.0
					for i := 0; i < n; i++ {
						s := 0.0
						for j := 0; j <= i; j++ {
							s += B[i][j] * c[j]
						}
						for j := i + 1; j < n; j++ {
							s += B[j][i] * c[j]
						}
						X[i] = s
						D2 += s * c[i]
					}
					D2 = 1 + D2/D1
					for i := 0; i < n; i++ {
						for j := 0; j <= i; j++ {
							B[i][j] += (D2*t[i]*t[j] - X[i]*t[j] - t[i]*X[j]) / D1
						}
					}
				} else {
					ilast = gradcount
				}
			} else if ilast < gradcount {
				count = 0
				ilast = gradcount
			}
		} else {
			count = 0
			if ilast == gradcount {
				count = n
			} else {
				ilast = gradcount
			}
		}
		if iter >= maxit {
			break
		}
		if gradcount-ilast > 2*n {
			ilast = gradcount
		}
		if count == n && ilast == gradcount {
			break
		}
	}
	return fmin, iter
}
