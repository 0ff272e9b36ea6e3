package stats

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// BradleyTerryTolerance and BradleyTerryMaxIter bound the MM iteration
// of BradleyTerry: it stops when no log-strength moves by more than the
// tolerance in a sweep (as a relative change of its strength eᶿ), and fails after the maximum number of sweeps.
const (
	BradleyTerryTolerance = 1e-10
	BradleyTerryMaxIter   = 100000
)

// BradleyTerryFit is a Bradley-Terry fit: the log-strengths θ, anchored
// so that they sum to 0, under which i beats j with probability
// 1/(1 + exp(θⱼ − θᵢ)).
type BradleyTerryFit struct {
	Theta      []float64
	Iterations int // MM sweeps until convergence
}

// NotEstimableError says why a Bradley-Terry MLE does not exist.
// Components are sets of model indices: with Disconnected, the connected
// components of the comparison graph (no comparison joins two of them);
// otherwise the strongly connected components of the "beat" graph, best
// first: no model of a later component ever beat (or tied) a model of an
// earlier one, so the first component's strengths would go to infinity
// against the rest.
type NotEstimableError struct {
	Disconnected bool
	Components   [][]int
}

func (e *NotEstimableError) Error() string {
	if e.Disconnected {
		return fmt.Sprintf("the comparison graph falls into %d components that no comparison joins; the Bradley-Terry strengths of one against another are not defined", len(e.Components))
	}
	return fmt.Sprintf("the models fall into %d groups where no model of a later group ever beat or tied one of an earlier group; the Bradley-Terry maximum-likelihood estimate does not exist", len(e.Components))
}

// BradleyTerry fits the Bradley-Terry model to a matrix of wins:
// wins[i][j] is the number of comparisons model i won against model j
// (a tie counts as half a win to each side; no separate tie parameter
// as in Davidson's or Rao and Kupper's models). It maximises the likelihood
//
//	Σᵢⱼ wᵢⱼ log(γᵢ / (γᵢ + γⱼ))
//
// by the MM algorithm of Hunter (2004, Ann. Statist. 32:384, eq. 3),
// applied cyclically,
//
//	γᵢ ← Wᵢ / Σⱼ Nᵢⱼ / (γᵢ + γⱼ),   Wᵢ = Σⱼ wᵢⱼ,  Nᵢⱼ = wᵢⱼ + wⱼᵢ,
//
// and returns θ = log γ centred to sum 0. MM stops when a sweep moves no
// strength by more than BradleyTerryTolerance; on a sparse graph (a long
// chain) its rate approaches 1 and that point can lie 5e-8 from the
// maximum, so up to btNewtonSteps Newton steps on the likelihood follow
// (each solves the k − 1 free equations of the information matrix by
// Cholesky, k³/3 operations; a step is kept only when it shrinks the
// score), which bring θ to the MLE within rounding. The MLE exists only when the
// directed graph with an edge i → j whenever wᵢⱼ > 0 is strongly
// connected (Ford 1957; Hunter 2004, Assumption 1); otherwise it returns
// a *NotEstimableError naming the components. It panics on a matrix that
// is not square or has a negative or non-finite entry.
func BradleyTerry(wins [][]float64) (BradleyTerryFit, error) {
	k := len(wins)
	for i, row := range wins {
		if len(row) != k {
			panic(fmt.Sprintf("stats: BradleyTerry: row %d has %d entries, want %d", i, len(row), k))
		}
		for _, x := range row {
			if !(x >= 0) || math.IsInf(x, 0) {
				panic(fmt.Sprintf("stats: BradleyTerry: entry %v", x))
			}
		}
	}
	if k == 0 {
		return BradleyTerryFit{Theta: []float64{}}, nil
	}
	if err := btEstimable(wins); err != nil {
		return BradleyTerryFit{}, err
	}
	return bradleyTerryMM(wins, nil)
}

// bradleyTerryMM runs the MM iteration from the log-strengths start (nil:
// all 0) on a matrix that passed btEstimable.
func bradleyTerryMM(wins [][]float64, start []float64) (BradleyTerryFit, error) {
	k := len(wins)
	W := make([]float64, k)
	for i := range k {
		for j := range k {
			if i != j {
				W[i] += wins[i][j]
			}
		}
	}
	g := make([]float64, k)
	theta := make([]float64, k)
	for i := range g {
		if start != nil {
			theta[i] = start[i]
		}
		g[i] = math.Exp(theta[i])
	}
	// N[i*k+j] = wᵢⱼ + wⱼᵢ; prev holds g at the start of the sweep. The
	// strengths are rescaled to sum to k after each sweep (the model is
	// unchanged by a common factor), and the move is measured as the
	// largest relative change of a strength, ≈ the change of its θ.
	N := make([]float64, k*k)
	for i := range k {
		for j := range k {
			if i != j {
				N[i*k+j] = wins[i][j] + wins[j][i]
			}
		}
	}
	prev := make([]float64, k)
	for it := 1; it <= BradleyTerryMaxIter; it++ {
		copy(prev, g)
		for i := range k {
			d, gi := 0.0, g[i]
			for j, n := range N[i*k : (i+1)*k] {
				if n > 0 {
					d += n / (gi + g[j])
				}
			}
			g[i] = W[i] / d
		}
		sum := 0.0
		for _, x := range g {
			sum += x
		}
		sc := float64(k) / sum
		move := 0.0
		for i := range g {
			g[i] *= sc
			move = math.Max(move, math.Abs(g[i]/prev[i]-1))
		}
		if move < BradleyTerryTolerance {
			mean := 0.0
			for i := range g {
				theta[i] = math.Log(g[i])
				mean += theta[i]
			}
			mean /= float64(k)
			for i := range theta {
				theta[i] -= mean
			}
			btNewton(W, N, theta)
			return BradleyTerryFit{Theta: theta, Iterations: it}, nil
		}
	}
	return BradleyTerryFit{}, fmt.Errorf("stats: the Bradley-Terry MM iteration did not converge in %d sweeps", BradleyTerryMaxIter)
}

// btNewtonSteps bounds the Newton steps that finish an MM fit.
const btNewtonSteps = 5

// btNewton polishes θ (summing to 0) towards the maximum of the
// Bradley-Terry likelihood with wins W[i] and comparison counts N (k×k,
// flat) by Newton's method: with πᵢⱼ = 1/(1 + exp(θⱼ − θᵢ)) the score is
// uᵢ = Wᵢ − Σⱼ Nᵢⱼπᵢⱼ and the information a weighted graph Laplacian,
// Lᵢⱼ = −Nᵢⱼπᵢⱼπⱼᵢ, Lᵢᵢ = Σⱼ Nᵢⱼπᵢⱼπⱼᵢ, singular along (1, …, 1); θₖ₋₁ is
// held and L δ = u solved on the other k − 1 (positive definite on a
// connected graph), then θ + δ re-centred. A step that does not shrink
// the largest |uᵢ| is undone and the polishing stops, so θ never moves
// away from the MM fit's accuracy.
func btNewton(W, N, theta []float64) {
	k := len(theta)
	if k < 2 {
		return
	}
	m := k - 1
	L := make([]float64, m*m)
	u := make([]float64, k)
	next := make([]float64, k)
	score := func(th []float64) float64 {
		worst := 0.0
		for i := range k {
			e := W[i]
			for j, n := range N[i*k : (i+1)*k] {
				if n > 0 {
					e -= n / (1 + math.Exp(th[j]-th[i]))
				}
			}
			u[i] = e
			worst = math.Max(worst, math.Abs(e))
		}
		return worst
	}
	cur := score(theta)
	for range btNewtonSteps {
		if cur == 0 {
			return
		}
		clear(L)
		for i := range m {
			for j, n := range N[i*k : (i+1)*k] {
				if n > 0 {
					p := 1 / (1 + math.Exp(theta[j]-theta[i]))
					v := n * p * (1 - p)
					L[i*m+i] += v
					if j < m {
						L[i*m+j] -= v
					}
				}
			}
		}
		delta := next[:m]
		copy(delta, u[:m])
		if !choleskySolve(L, delta, m) {
			return
		}
		mean := 0.0
		for i := range k {
			d := 0.0
			if i < m {
				d = delta[i]
			}
			next[i] = theta[i] + d
			mean += next[i]
		}
		mean /= float64(k)
		for i := range next {
			next[i] -= mean
		}
		saved := append([]float64(nil), u...)
		if s := score(next); s < cur {
			copy(theta, next)
			cur = s
			continue
		}
		copy(u, saved)
		return
	}
}

// choleskySolve solves A x = b in place (b becomes x) for the m×m
// symmetric positive definite A (flat, row-major; overwritten by its
// Cholesky factor). It reports false when A is not numerically positive
// definite.
func choleskySolve(A, b []float64, m int) bool {
	for j := range m {
		d := A[j*m+j]
		for k := range j {
			d -= A[j*m+k] * A[j*m+k]
		}
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		A[j*m+j] = d
		for i := j + 1; i < m; i++ {
			s := A[i*m+j]
			for k := range j {
				s -= A[i*m+k] * A[j*m+k]
			}
			A[i*m+j] = s / d
		}
	}
	for i := range m {
		s := b[i]
		for k := range i {
			s -= A[i*m+k] * b[k]
		}
		b[i] = s / A[i*m+i]
	}
	for i := m - 1; i >= 0; i-- {
		s := b[i]
		for k := i + 1; k < m; k++ {
			s -= A[k*m+i] * b[k]
		}
		b[i] = s / A[i*m+i]
	}
	return true
}

// btEstimable checks the existence condition of BradleyTerry.
func btEstimable(wins [][]float64) error {
	k := len(wins)
	// Connected components of the comparison graph.
	comp := make([]int, k)
	for i := range comp {
		comp[i] = -1
	}
	var comps [][]int
	for s := range k {
		if comp[s] >= 0 {
			continue
		}
		c := len(comps)
		comp[s] = c
		stack, members := []int{s}, []int{}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			members = append(members, i)
			for j := range k {
				if comp[j] < 0 && wins[i][j]+wins[j][i] > 0 {
					comp[j] = c
					stack = append(stack, j)
				}
			}
		}
		sort.Ints(members)
		comps = append(comps, members)
	}
	if len(comps) > 1 {
		return &NotEstimableError{Disconnected: true, Components: comps}
	}
	if sccs := strongComponents(wins); len(sccs) > 1 {
		return &NotEstimableError{Components: sccs}
	}
	return nil
}

// strongComponents returns the strongly connected components of the
// graph i → j when wins[i][j] > 0, sources (components nothing outside
// beats) first, each sorted.
func strongComponents(wins [][]float64) [][]int {
	k := len(wins)
	// Kosaraju: order by finish time on the graph, then collect on the
	// reverse graph in decreasing finish time; components come out in
	// topological order of the condensation (sources first).
	seen := make([]bool, k)
	var order []int
	var visit func(i int)
	visit = func(i int) {
		seen[i] = true
		for j := range k {
			if j != i && !seen[j] && wins[i][j] > 0 {
				visit(j)
			}
		}
		order = append(order, i)
	}
	for i := range k {
		if !seen[i] {
			visit(i)
		}
	}
	comp := make([]int, k)
	for i := range comp {
		comp[i] = -1
	}
	var out [][]int
	var collect func(i, c int)
	collect = func(i, c int) {
		comp[i] = c
		out[c] = append(out[c], i)
		for j := range k {
			if j != i && comp[j] < 0 && wins[j][i] > 0 {
				collect(j, c)
			}
		}
	}
	for x := k - 1; x >= 0; x-- {
		if i := order[x]; comp[i] < 0 {
			out = append(out, nil)
			collect(i, len(out)-1)
		}
	}
	for _, c := range out {
		sort.Ints(c)
	}
	return out
}

// BTOutcome is W wins of model I over model J (a tie is 0.5 each way).
type BTOutcome struct {
	I, J int
	W    float64
}

// BradleyTerryBootstrap refits the Bradley-Terry model of k models on
// resamples bootstrap replicates of units: each replicate draws
// len(units) units with replacement (a unit is the outcomes of one item,
// or one comparison, which stay together) and fits BradleyTerry to the
// wins they hold. theta[b] is replicate b's log-strengths (summing to 0),
// or nil when its MLE does not exist (a resample that leaves a model
// without a win, a loss or a link to the rest); dropped counts those.
//
// A replicate's wins depend only on how many times each distinct pattern
// of outcomes was drawn (a unit of one verdict "A beat B" is one of at
// most 3k(k−1)/2 patterns), so the units are grouped by pattern once, each
// pattern's outcomes flattened into (cell, wins) pairs of one k×k array.
// When the patterns are few (32 per pattern or more units each on
// average), replicate b draws the pattern counts as a multinomial, one
// binomial per pattern from the stream (seed, b+1), as RankBootstrap's
// groups; otherwise it draws len(units) unit indices from the PCG stream
// (seed, b+1) as before and counts their patterns. Either way a replicate
// costs the patterns it drew, not the verdicts, and the result does not
// depend on GOMAXPROCS. It panics on misuse (no units, resamples < 1, an
// index outside [0, k)).
func BradleyTerryBootstrap(k int, units [][]BTOutcome, resamples int, seed uint64) (theta [][]float64, dropped int, err error) {
	if len(units) == 0 || resamples < 1 {
		panic(fmt.Sprintf("stats: BradleyTerryBootstrap over %d units with %d resamples", len(units), resamples))
	}
	for _, u := range units {
		for _, o := range u {
			if o.I < 0 || o.I >= k || o.J < 0 || o.J >= k {
				panic(fmt.Sprintf("stats: BradleyTerryBootstrap: outcome %+v outside %d models", o, k))
			}
		}
	}
	pat := btPatternsOf(k, units)
	// Every replicate starts from the fit on all units (when it exists),
	// which it is near: a few sweeps instead of hundreds.
	var start []float64
	{
		flat := make([]float64, k*k)
		pat.add(flat, pat.mult)
		if fit, err := BradleyTerry(btRows(flat, k)); err == nil {
			start = fit.Theta
		}
	}
	n := len(units)
	grouped := 32*len(pat.mult) <= n
	total := 0
	mult := make([]int, len(pat.mult))
	for q, c := range pat.mult {
		mult[q] = int(c)
		total += int(c)
	}
	theta = make([][]float64, resamples)
	errs := make([]error, resamples)
	workers := min(runtime.GOMAXPROCS(0), resamples)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var p pcg
			var wu []int32
			if !grouped {
				wu = make([]int32, n)
			}
			w := make([]int32, len(mult))
			flat := make([]float64, k*k)
			wins := btRows(flat, k)
			for {
				b := next.Add(1) - 1
				if b >= int64(resamples) {
					return
				}
				if grouped {
					drawGroups(newRand(seed, uint64(b)+1), mult, total, w)
				} else {
					p.seed(seed, uint64(b)+1)
					drawCounts(&p, wu)
					clear(w)
					for u, c := range wu {
						w[pat.of[u]] += c
					}
				}
				clear(flat)
				pat.add(flat, w)
				if btEstimable(wins) != nil {
					continue // theta[b] stays nil
				}
				fit, err := bradleyTerryMM(wins, start)
				if err != nil {
					errs[b] = err
					continue
				}
				theta[b] = fit.Theta
			}
		})
	}
	wg.Wait()
	for b, t := range theta {
		if errs[b] != nil {
			return nil, 0, errs[b]
		}
		if t == nil {
			dropped++
		}
	}
	return theta, dropped, nil
}

// btPatterns are the distinct outcome patterns of bootstrap units
// (mult[q] units have pattern q; unit u has pattern of[u]), stored by
// cell for the replicate's sums: segment g adds weight[g] times the
// summed counts of the patterns pq[off[g]:off[g+1]] to wins cell[g]. A
// segment holds the patterns with one weight in one cell, so a replicate
// sums integer counts (no chain of floating-point additions, and exact)
// and multiplies once per segment.
type btPatterns struct {
	mult   []int32
	of     []int32
	cell   []int32
	weight []float64
	off    []int32
	pq     []int32
}

func btPatternsOf(k int, units [][]BTOutcome) btPatterns {
	p := btPatterns{of: make([]int32, len(units))}
	index := map[string]int32{}
	var key []byte
	var cells []int32
	var ws []float64
	type entry struct {
		cell, q int32
		w       float64
	}
	var entries []entry
	for u, unit := range units {
		// The unit's outcomes merged by cell, in cell order.
		cells, ws = cells[:0], ws[:0]
		for _, o := range unit {
			c := int32(o.I*k + o.J)
			at := len(cells)
			for x, y := range cells {
				if y >= c {
					at = x
					break
				}
			}
			if at < len(cells) && cells[at] == c {
				ws[at] += o.W
				continue
			}
			cells = append(cells, 0)
			ws = append(ws, 0)
			copy(cells[at+1:], cells[at:])
			copy(ws[at+1:], ws[at:])
			cells[at], ws[at] = c, o.W
		}
		key = key[:0]
		for x, c := range cells {
			key = binary.LittleEndian.AppendUint32(key, uint32(c))
			key = binary.LittleEndian.AppendUint64(key, math.Float64bits(ws[x]))
		}
		q, ok := index[string(key)]
		if !ok {
			q = int32(len(p.mult))
			index[string(key)] = q
			p.mult = append(p.mult, 0)
			for x, c := range cells {
				if ws[x] != 0 {
					entries = append(entries, entry{c, q, ws[x]})
				}
			}
		}
		p.mult[q]++
		p.of[u] = q
	}
	// Entries by cell (a counting sort, patterns in order within a cell),
	// then by weight within a cell.
	start := make([]int32, k*k+1)
	for _, e := range entries {
		start[e.cell+1]++
	}
	for c := range k * k {
		start[c+1] += start[c]
	}
	sorted := make([]entry, len(entries))
	fill := slices.Clone(start[:k*k])
	for _, e := range entries {
		sorted[fill[e.cell]] = e
		fill[e.cell]++
	}
	p.pq = make([]int32, len(sorted))
	p.off = []int32{0}
	for c := range k * k {
		es := sorted[start[c]:start[c+1]]
		slices.SortStableFunc(es, func(a, b entry) int { return cmp.Compare(a.w, b.w) })
		for x, e := range es {
			if x == 0 || e.w != es[x-1].w {
				if x > 0 {
					p.off = append(p.off, start[c]+int32(x))
				}
				p.cell = append(p.cell, int32(c))
				p.weight = append(p.weight, e.w)
			}
			p.pq[int(start[c])+x] = e.q
		}
		if len(es) > 0 {
			p.off = append(p.off, start[c+1])
		}
	}
	return p
}

// add adds count[q] times pattern q to the flat k×k wins.
func (p *btPatterns) add(flat []float64, count []int32) {
	for g, c := range p.cell {
		var sum int64
		for _, q := range p.pq[p.off[g]:p.off[g+1]] {
			sum += int64(count[q])
		}
		flat[c] += p.weight[g] * float64(sum)
	}
}

// btRows views a flat k×k array as rows.
func btRows(flat []float64, k int) [][]float64 {
	rows := make([][]float64, k)
	for i := range rows {
		rows[i] = flat[i*k : (i+1)*k : (i+1)*k]
	}
	return rows
}
