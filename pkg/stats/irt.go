package stats

import (
	"math"
)

// IRTOptions configures Fit2PL. The zero value integrates over 41
// Gauss-Hermite points and runs EM until the log-likelihood moves by less
// than 1e-10 and no parameter by more than 1e-7, at most 5,000 times.
type IRTOptions struct {
	Points  int     // quadrature points (0: 41)
	MaxIter int     // EM iterations (0: 5,000)
	Tol     float64 // parameter tolerance (0: 1e-7)
	// Emulate "ltm" reproduces R's ltm(X ~ z1) with its default control
	// step for step (see fit2PLLTM) instead of the maximum likelihood:
	// its 21-point quadrature, start values, 40 EM iterations and BFGS,
	// which stops a little short of the maximum. Points, MaxIter and Tol
	// are then not used.
	Emulate string
}

// IRTFit is a two-parameter logistic (2PL) model fitted by marginal
// maximum likelihood: respondent ability θ ~ N(0, 1) and
//
//	P(item j right | θ) = 1 / (1 + exp(−(c_j + a_j θ))) = logistic(a_j (θ − b_j))
//
// with discrimination a_j, intercept c_j and difficulty b_j = −c_j / a_j.
type IRTFit struct {
	Intercept      []float64 // c_j
	Discrimination []float64 // a_j
	Difficulty     []float64 // b_j = −c_j / a_j
	// Standard errors from the observed information (the Hessian of the
	// marginal log-likelihood by central differences of its exact
	// gradient); DifficultySE by the delta method. With more than
	// IRTFullHessianItems items the Hessian is taken item by item (its
	// 2×2 blocks), which ignores the covariance between items.
	InterceptSE, DiscriminationSE, DifficultySE []float64
	BlockDiagonal                               bool
	LogLik                                      float64
	Iterations                                  int
	Converged                                   bool
	// Nodes and Weights are the quadrature over N(0, 1).
	Nodes, Weights []float64
}

// IRTFullHessianItems is the number of items up to which Fit2PL inverts
// the full observed information; above it, item by item.
const IRTFullHessianItems = 100

// GaussHermiteNormal returns n Gauss-Hermite nodes and weights for the
// standard normal: Σ w_q f(x_q) ≈ E f(X), X ~ N(0, 1), exact for
// polynomials of degree up to 2n−1 (the physicists' rule for e^(−x²),
// found by Newton's method on the Hermite recurrence, scaled by √2 and
// 1/√π). It panics with the prefix "stats: " when n < 1.
func GaussHermiteNormal(n int) (nodes, weights []float64) {
	if n < 1 {
		panic("stats: GaussHermiteNormal needs n >= 1")
	}
	x := make([]float64, n)
	w := make([]float64, n)
	pim4 := math.Pow(math.Pi, -0.25)
	var z float64
	m := (n + 1) / 2
	for i := 0; i < m; i++ {
		switch i {
		case 0:
			z = math.Sqrt(float64(2*n+1)) - 1.85575*math.Pow(float64(2*n+1), -1.0/6)
		case 1:
			z -= 1.14 * math.Pow(float64(n), 0.426) / z
		case 2:
			z = 1.86*z - 0.86*x[0]
		case 3:
			z = 1.91*z - 0.91*x[1]
		default:
			z = 2*z - x[i-2]
		}
		var pp float64
		for it := 0; it < 100; it++ {
			p1, p2 := pim4, 0.0
			for j := 1; j <= n; j++ {
				p3 := p2
				p2 = p1
				p1 = z*math.Sqrt(2/float64(j))*p2 - math.Sqrt(float64(j-1)/float64(j))*p3
			}
			pp = math.Sqrt(2*float64(n)) * p2
			z1 := z
			z = z1 - p1/pp
			if math.Abs(z-z1) <= 1e-15 {
				break
			}
		}
		x[i], x[n-1-i] = z, -z
		w[i] = 2 / (pp * pp)
		w[n-1-i] = w[i]
	}
	nodes = make([]float64, n)
	weights = make([]float64, n)
	for i := range x { // ascending
		nodes[i] = -x[i] * math.Sqrt2
		weights[i] = w[i] / math.SqrtPi
	}
	return nodes, weights
}

// Fit2PL fits the 2PL model by marginal maximum likelihood, integrating θ
// over Gauss-Hermite quadrature with the EM algorithm of Bock and Aitkin
// (1981): the E-step gives each response pattern's posterior over the
// nodes, the M-step a weighted logistic regression per item on the
// expected counts at the nodes (Newton's method). resp[p][j] is 1 (right),
// 0 (wrong) or −1 (not answered: left out of the item's likelihood);
// weights[p] is how many respondents gave pattern p (nil: one each).
// Starting values: c_j the logit of item j's pass rate, a_j = 1.
//
// It panics with the prefix "stats: " when resp is empty, the rows have
// different lengths, a value is other than −1, 0, 1, or weights has
// another length than resp.
func Fit2PL(resp [][]int8, weights []float64, opt IRTOptions) IRTFit {
	if len(resp) == 0 || len(resp[0]) == 0 {
		panic("stats: Fit2PL needs at least one respondent and one item")
	}
	if weights != nil && len(weights) != len(resp) {
		panic("stats: Fit2PL: weights and responses differ in length")
	}
	J := len(resp[0])
	for _, r := range resp {
		if len(r) != J {
			panic("stats: Fit2PL: rows of different lengths")
		}
		for _, x := range r {
			if x < -1 || x > 1 {
				panic("stats: Fit2PL: a response other than -1, 0, 1")
			}
		}
	}
	if weights == nil {
		weights = make([]float64, len(resp))
		for i := range weights {
			weights[i] = 1
		}
	}
	if opt.Emulate == EmulateLTM {
		return fit2PLLTM(resp, weights)
	}
	if opt.Points <= 0 {
		opt.Points = 41
	}
	if opt.MaxIter <= 0 {
		opt.MaxIter = 5000
	}
	if opt.Tol <= 0 {
		opt.Tol = 1e-7
	}
	f := IRTFit{Intercept: make([]float64, J), Discrimination: make([]float64, J)}
	f.Nodes, f.Weights = GaussHermiteNormal(opt.Points)
	for j := 0; j < J; j++ {
		right, n := 0.0, 0.0
		for p, r := range resp {
			if r[j] >= 0 {
				n += weights[p]
				right += weights[p] * float64(r[j])
			}
		}
		pr := (right + 0.5) / (n + 1)
		f.Intercept[j] = math.Log(pr / (1 - pr))
		f.Discrimination[j] = 1
	}
	Q := len(f.Nodes)
	post := newMatrix(len(resp), Q)
	nq := newMatrix(J, Q) // expected respondents answering j at node q
	rq := newMatrix(J, Q) // expected right answers
	prevLL := math.Inf(-1)
	for it := 1; it <= opt.MaxIter; it++ {
		ll := f.posterior(resp, weights, post)
		for j := 0; j < J; j++ {
			clear(nq[j])
			clear(rq[j])
		}
		for p, r := range resp {
			for j, x := range r {
				if x < 0 {
					continue
				}
				for q := 0; q < Q; q++ {
					e := weights[p] * post[p][q]
					nq[j][q] += e
					if x == 1 {
						rq[j][q] += e
					}
				}
			}
		}
		move := 0.0
		for j := 0; j < J; j++ {
			c, a := logisticNewton(f.Nodes, nq[j], rq[j], f.Intercept[j], f.Discrimination[j])
			move = math.Max(move, math.Max(math.Abs(c-f.Intercept[j]), math.Abs(a-f.Discrimination[j])))
			f.Intercept[j], f.Discrimination[j] = c, a
		}
		f.Iterations = it
		if move < opt.Tol && math.Abs(ll-prevLL) < 1e-10 {
			f.Converged = true
			break
		}
		prevLL = ll
	}
	f.LogLik = f.posterior(resp, weights, post)
	f.Difficulty = make([]float64, J)
	for j := range f.Difficulty {
		f.Difficulty[j] = -f.Intercept[j] / f.Discrimination[j]
	}
	f.standardErrors(resp, weights)
	return f
}

func newMatrix(r, c int) [][]float64 {
	m := make([][]float64, r)
	for i := range m {
		m[i] = make([]float64, c)
	}
	return m
}

// logisticNewton maximises Σ_q r_q log P_q + (n_q − r_q) log(1 − P_q),
// P_q = logistic(c + a θ_q), by Newton's method with step halving.
func logisticNewton(theta, n, r []float64, c, a float64) (float64, float64) {
	obj := func(c, a float64) float64 {
		s := 0.0
		for q, t := range theta {
			z := c + a*t
			// r log σ(z) + (n−r) log σ(−z)
			s -= r[q]*softplus(-z) + (n[q]-r[q])*softplus(z)
		}
		return s
	}
	cur := obj(c, a)
	for it := 0; it < 50; it++ {
		var g0, g1, h00, h01, h11 float64
		for q, t := range theta {
			p := logistic(c + a*t)
			d := r[q] - n[q]*p
			w := n[q] * p * (1 - p)
			g0 += d
			g1 += d * t
			h00 += w
			h01 += w * t
			h11 += w * t * t
		}
		det := h00*h11 - h01*h01
		if det <= 1e-300 {
			break
		}
		dc := (h11*g0 - h01*g1) / det
		da := (h00*g1 - h01*g0) / det
		step := 1.0
		for k := 0; k < 30; k++ {
			nc, na := c+step*dc, a+step*da
			if v := obj(nc, na); v >= cur-1e-12 {
				c, a, cur = nc, na, v
				break
			}
			step /= 2
		}
		if math.Abs(dc)+math.Abs(da) < 1e-12 {
			break
		}
	}
	return c, a
}

func logistic(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// softplus is log(1 + e^z) without overflow.
func softplus(z float64) float64 {
	if z > 30 {
		return z
	}
	return math.Log1p(math.Exp(z))
}

// logLikAt is log P(pattern | θ_q) for every pattern and node.
func (f *IRTFit) logLikAt(resp [][]int8, L [][]float64) {
	for p, r := range resp {
		for q, t := range f.Nodes {
			s := 0.0
			for j, x := range r {
				s += itemLogLik(x, f.Intercept[j]+f.Discrimination[j]*t)
			}
			L[p][q] = s
		}
	}
}

func itemLogLik(x int8, z float64) float64 {
	switch x {
	case 1:
		return -softplus(-z)
	case 0:
		return -softplus(z)
	}
	return 0
}

// posterior fills post[p][q] with each pattern's posterior over the nodes
// and returns the marginal log-likelihood Σ_p w_p log Σ_q w_q P(x_p | θ_q).
func (f *IRTFit) posterior(resp [][]int8, weights []float64, post [][]float64) float64 {
	f.logLikAt(resp, post)
	ll := 0.0
	for p := range resp {
		ll += weights[p] * normalisePost(post[p], f.Weights)
	}
	return ll
}

// normalisePost turns log-likelihoods at the nodes into the posterior in
// place and returns the log of the marginal likelihood.
func normalisePost(row, w []float64) float64 {
	mx := math.Inf(-1)
	for _, v := range row {
		mx = math.Max(mx, v)
	}
	s := 0.0
	for q, v := range row {
		row[q] = w[q] * math.Exp(v-mx)
		s += row[q]
	}
	for q := range row {
		row[q] /= s
	}
	return mx + math.Log(s)
}

// gradient adds, for the items in js, ∂ℓ/∂c_j and ∂ℓ/∂a_j into g[2j],
// g[2j+1], given the patterns' log-likelihoods at the nodes L (left
// unchanged): ∂ℓ/∂c_j = Σ_p w_p Σ_q post_pq (x_pj − P_j(θ_q)), and the
// same times θ_q for a_j.
func (f *IRTFit) gradient(resp [][]int8, weights []float64, L [][]float64, js []int, g []float64) {
	row := make([]float64, len(f.Nodes))
	for p, r := range resp {
		copy(row, L[p])
		normalisePost(row, f.Weights)
		for _, j := range js {
			if r[j] < 0 {
				continue
			}
			for q, t := range f.Nodes {
				d := weights[p] * row[q] * (float64(r[j]) - logistic(f.Intercept[j]+f.Discrimination[j]*t))
				g[2*j] += d
				g[2*j+1] += d * t
			}
		}
	}
}

// standardErrors sets the standard errors from the observed information,
// the Hessian by central differences of the exact gradient.
func (f *IRTFit) standardErrors(resp [][]int8, weights []float64) {
	J := len(f.Intercept)
	f.InterceptSE = make([]float64, J)
	f.DiscriminationSE = make([]float64, J)
	f.DifficultySE = make([]float64, J)
	f.BlockDiagonal = J > IRTFullHessianItems
	L := newMatrix(len(resp), len(f.Nodes))
	f.logLikAt(resp, L)
	all := make([]int, J)
	for j := range all {
		all[j] = j
	}
	const h = 1e-5
	H := newMatrix(2*J, 2*J)
	gp := make([]float64, 2*J)
	gm := make([]float64, 2*J)
	// shift moves parameter m by d, updating L for its item's term.
	shift := func(m int, d float64) {
		j := m / 2
		oc, oa := f.Intercept[j], f.Discrimination[j]
		nc, na := oc, oa
		if m%2 == 0 {
			nc += d
		} else {
			na += d
		}
		for p, r := range resp {
			if r[j] < 0 {
				continue
			}
			for q, t := range f.Nodes {
				L[p][q] += itemLogLik(r[j], nc+na*t) - itemLogLik(r[j], oc+oa*t)
			}
		}
		f.Intercept[j], f.Discrimination[j] = nc, na
	}
	for m := 0; m < 2*J; m++ {
		js := all
		if f.BlockDiagonal {
			js = []int{m / 2}
		}
		clear(gp)
		clear(gm)
		shift(m, h)
		f.gradient(resp, weights, L, js, gp)
		shift(m, -2*h)
		f.gradient(resp, weights, L, js, gm)
		shift(m, h)
		for _, j := range js {
			for _, k := range []int{2 * j, 2*j + 1} {
				H[k][m] = (gp[k] - gm[k]) / (2 * h)
			}
		}
	}
	nan := func(j int) {
		f.InterceptSE[j], f.DiscriminationSE[j], f.DifficultySE[j] = math.NaN(), math.NaN(), math.NaN()
	}
	setSE := func(j int, vcc, vca, vaa float64) {
		if vcc < 0 || vaa < 0 {
			nan(j)
			return
		}
		c, a := f.Intercept[j], f.Discrimination[j]
		f.InterceptSE[j] = math.Sqrt(vcc)
		f.DiscriminationSE[j] = math.Sqrt(vaa)
		// b = −c/a: ∂b/∂c = −1/a, ∂b/∂a = c/a².
		gc, ga := -1/a, c/(a*a)
		f.DifficultySE[j] = math.Sqrt(math.Max(gc*gc*vcc+2*gc*ga*vca+ga*ga*vaa, 0))
	}
	if !f.BlockDiagonal {
		info := newMatrix(2*J, 2*J)
		for i := range info {
			for k := range info[i] {
				info[i][k] = -(H[i][k] + H[k][i]) / 2
			}
		}
		cov, ok := invert(info)
		for j := 0; j < J; j++ {
			if !ok {
				nan(j)
				continue
			}
			setSE(j, cov[2*j][2*j], cov[2*j][2*j+1], cov[2*j+1][2*j+1])
		}
		return
	}
	for j := 0; j < J; j++ {
		i00, i11 := -H[2*j][2*j], -H[2*j+1][2*j+1]
		i01 := -(H[2*j][2*j+1] + H[2*j+1][2*j]) / 2
		det := i00*i11 - i01*i01
		if det <= 0 {
			nan(j)
			continue
		}
		setSE(j, i11/det, -i01/det, i00/det)
	}
}

// invert returns the inverse of a square matrix by Gauss-Jordan
// elimination with partial pivoting; ok is false when it is singular.
func invert(a [][]float64) (inv [][]float64, ok bool) {
	n := len(a)
	m := newMatrix(n, 2*n)
	for i := range a {
		copy(m[i], a[i])
		m[i][n+i] = 1
	}
	for c := 0; c < n; c++ {
		piv := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[piv][c]) {
				piv = r
			}
		}
		if math.Abs(m[piv][c]) < 1e-300 {
			return nil, false
		}
		m[c], m[piv] = m[piv], m[c]
		d := m[c][c]
		for k := range m[c] {
			m[c][k] /= d
		}
		for r := 0; r < n; r++ {
			if r == c || m[r][c] == 0 {
				continue
			}
			x := m[r][c]
			for k := range m[r] {
				m[r][k] -= x * m[c][k]
			}
		}
	}
	inv = newMatrix(n, n)
	for i := range inv {
		copy(inv[i], m[i][n:])
	}
	return inv, true
}

// Ability is the expected a posteriori (EAP) ability of a respondent with
// responses resp (1, 0, or −1 for an item not answered) and its posterior
// standard deviation.
func (f *IRTFit) Ability(resp []int8) (eap, sd float64) {
	post := f.abilityPosterior(resp)
	for q, t := range f.Nodes {
		eap += post[q] * t
	}
	for q, t := range f.Nodes {
		sd += post[q] * (t - eap) * (t - eap)
	}
	return eap, math.Sqrt(sd)
}

func (f *IRTFit) abilityPosterior(resp []int8) []float64 {
	if len(resp) != len(f.Intercept) {
		panic("stats: IRTFit: responses do not have one entry per item")
	}
	row := make([]float64, len(f.Nodes))
	for q, t := range f.Nodes {
		for j, x := range resp {
			row[q] += itemLogLik(x, f.Intercept[j]+f.Discrimination[j]*t)
		}
	}
	normalisePost(row, f.Weights)
	return row
}

// PredictScore estimates the share of all items a respondent would get
// right from the items it answered (resp[j] −1 for an item not
// answered), as tinyBenchmarks' p-IRT does (Polo et al. 2024): the
// answered items count as they are, each other item j by its probability
// P_j(θ). Unlike p-IRT's plug-in θ̂, θ is integrated over its posterior,
// which also gives the posterior predictive standard deviation of the
// score:
//
//	S(θ)   = (Σ_answered x_j + Σ_unanswered P_j(θ)) / J
//	mean   = E[S(θ)]
//	sd²    = E[Σ_unanswered P_j(θ)(1 − P_j(θ))] / J² + Var[S(θ)]
//
// the expectations over θ's posterior given the answered items.
func (f *IRTFit) PredictScore(resp []int8) (mean, sd float64) {
	post := f.abilityPosterior(resp)
	J := float64(len(resp))
	seen := 0.0
	for _, x := range resp {
		if x == 1 {
			seen++
		}
	}
	score := make([]float64, len(f.Nodes))
	var binom float64
	for q, t := range f.Nodes {
		s, v := seen, 0.0
		for j, x := range resp {
			if x < 0 {
				p := logistic(f.Intercept[j] + f.Discrimination[j]*t)
				s += p
				v += p * (1 - p)
			}
		}
		score[q] = s / J
		mean += post[q] * score[q]
		binom += post[q] * v / (J * J)
	}
	spread := 0.0
	for q, s := range score {
		spread += post[q] * (s - mean) * (s - mean)
	}
	return mean, math.Sqrt(spread + binom)
}

// CronbachAlpha is the internal consistency of items scored on the rows
// of x (one row per respondent, weights[p] respondents each; nil: one):
//
//	α = J/(J−1) · (1 − Σ_j Var(x_j) / Var(Σ_j x_j))
//
// with population variances. AlphaIfDeleted[j] is α without item j. It
// panics with the prefix "stats: " when there are fewer than 2 items.
func CronbachAlpha(x [][]float64, weights []float64) (alpha float64, ifDeleted []float64) {
	if len(x) == 0 || len(x[0]) < 2 {
		panic("stats: CronbachAlpha needs at least two items")
	}
	J := len(x[0])
	calc := func(skip int) float64 {
		var W, st, st2 float64
		s := make([]float64, J)
		s2 := make([]float64, J)
		k := 0
		for j := 0; j < J; j++ {
			if j != skip {
				k++
			}
		}
		for p, r := range x {
			w := 1.0
			if weights != nil {
				w = weights[p]
			}
			W += w
			t := 0.0
			for j, v := range r {
				if j == skip {
					continue
				}
				s[j] += w * v
				s2[j] += w * v * v
				t += v
			}
			st += w * t
			st2 += w * t * t
		}
		sum := 0.0
		for j := 0; j < J; j++ {
			if j != skip {
				m := s[j] / W
				sum += s2[j]/W - m*m
			}
		}
		mt := st / W
		vt := st2/W - mt*mt
		if k < 2 || vt <= 0 {
			return math.NaN()
		}
		return float64(k) / float64(k-1) * (1 - sum/vt)
	}
	alpha = calc(-1)
	ifDeleted = make([]float64, J)
	for j := range ifDeleted {
		ifDeleted[j] = calc(j)
	}
	return alpha, ifDeleted
}
