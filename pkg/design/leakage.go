package design

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
)

// Leakage methods, as named in reports.
const (
	MethodJaccard   = "jaccard"
	MethodCharNGram = "char_ngram"
)

// LeakageConfig configures the leakage check. The zero value is usable:
// each zero field takes its value from DefaultLeakageConfig. Within,
// Across and CheckLeakage return Validate's error for a configuration
// outside the documented ranges, and compare nothing.
type LeakageConfig struct {
	// Threshold is the score at which a pair is reported, for each method
	// separately (a pair is reported once per method that reaches it). A
	// score is a Jaccard similarity, so the threshold lies in (0, 1]; 0
	// takes the default, and a NaN or a value outside [0, 1] is an error.
	Threshold float64
	// NGram is the character n-gram length (DefaultNGram); at least 1, or
	// 0 for the default.
	NGram int
	// ExhaustiveLimit is the number of pairs up to which every pair is
	// compared exactly. Above it, candidate pairs come from MinHash with
	// banding (locality-sensitive hashing) and are then scored exactly.
	// A negative value always uses MinHash.
	ExhaustiveLimit int
}

// DefaultLeakageConfig is what the evalbook command uses.
var DefaultLeakageConfig = LeakageConfig{Threshold: 0.5, NGram: DefaultNGram, ExhaustiveLimit: 250_000}

// Validate returns an error for a threshold that is NaN or outside [0, 1]
// (no Jaccard score exceeds 1, so a threshold above it reports nothing; a
// negative one reports every pair with anything in common) and for a
// negative NGram; nil otherwise, including for the zero value.
func (c LeakageConfig) Validate() error {
	var errs []error
	if !(c.Threshold >= 0 && c.Threshold <= 1) {
		errs = append(errs, fmt.Errorf("leakage threshold %v is outside (0, 1] (0 takes the default %g): a similarity score lies in [0, 1]",
			c.Threshold, DefaultLeakageConfig.Threshold))
	}
	if c.NGram < 0 {
		errs = append(errs, fmt.Errorf("leakage n-gram length %d is negative (0 takes the default %d)", c.NGram, DefaultNGram))
	}
	return errors.Join(errs...)
}

func (c LeakageConfig) withDefaults() LeakageConfig {
	if c.Threshold == 0 {
		c.Threshold = DefaultLeakageConfig.Threshold
	}
	if c.NGram == 0 {
		c.NGram = DefaultLeakageConfig.NGram
	}
	if c.ExhaustiveLimit == 0 {
		c.ExhaustiveLimit = DefaultLeakageConfig.ExhaustiveLimit
	}
	return c
}

// Match is one pair of texts whose similarity under Method reaches the
// threshold: A indexes the first list, B the second (or, within one list,
// A < B).
type Match struct {
	A, B   int
	Method string
	Score  float64
}

// profile is a text prepared for comparison.
type profile struct {
	words []string // sorted content words
	wkeys []uint64 // their hashes, for MinHash
	grams []uint64 // sorted character n-gram keys
}

func (c LeakageConfig) profiles(texts []string) []profile {
	out := make([]profile, len(texts))
	for i, t := range texts {
		w := sortedSet(ContentWords(t))
		keys := make([]uint64, len(w))
		for k, s := range w {
			h := fnv.New64a()
			h.Write([]byte(s))
			keys[k] = h.Sum64()
		}
		out[i] = profile{words: w, wkeys: keys, grams: CharNGrams(t, c.NGram)}
	}
	return out
}

// Within returns the pairs i < j of texts that reach the threshold under
// either method, sorted by A, B, method; or Validate's error.
func (c LeakageConfig) Within(texts []string) ([]Match, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c.withDefaults().within(texts), nil
}

func (c LeakageConfig) within(texts []string) []Match {
	p := c.profiles(texts)
	n := len(p)
	if c.ExhaustiveLimit >= 0 && n*(n-1)/2 <= c.ExhaustiveLimit {
		var out []Match
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				out = c.score(out, p[i], p[j], i, j)
			}
		}
		return out
	}
	return c.lsh(p, nil)
}

// Across returns the pairs (i, j) with a[i] and b[j] that reach the
// threshold under either method, sorted by A, B, method; or Validate's
// error.
func (c LeakageConfig) Across(a, b []string) ([]Match, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c.withDefaults().across(a, b), nil
}

func (c LeakageConfig) across(a, b []string) []Match {
	pa, pb := c.profiles(a), c.profiles(b)
	if c.ExhaustiveLimit >= 0 && len(pa)*len(pb) <= c.ExhaustiveLimit {
		var out []Match
		for i := range pa {
			for j := range pb {
				out = c.score(out, pa[i], pb[j], i, j)
			}
		}
		return out
	}
	return c.lsh(pa, pb)
}

func (c LeakageConfig) score(out []Match, x, y profile, i, j int) []Match {
	if s := jaccardSorted(x.words, y.words); s >= c.Threshold && s > 0 {
		out = append(out, Match{i, j, MethodJaccard, s})
	}
	if s := jaccardSorted(x.grams, y.grams); s >= c.Threshold && s > 0 {
		out = append(out, Match{i, j, MethodCharNGram, s})
	}
	return out
}

// methodRank orders the methods of one pair as score emits them.
func methodRank(m string) int {
	if m == MethodJaccard {
		return 0
	}
	return 1
}

// numHashes is the MinHash signature length.
const numHashes = 128

// minhashA and minhashB are the coefficients of the hash family, fixed
// (PCG with a constant seed) so the candidate pairs, and therefore the
// report, are the same on every run. Each A is odd.
var minhashA, minhashB = func() (a, b [numHashes]uint64) {
	r := rand.New(rand.NewPCG(0x65766c626f6f6b, 0x6c65616b616765))
	for i := range a {
		a[i], b[i] = r.Uint64()|1, r.Uint64()
	}
	return a, b
}()

func mix64(x uint64) uint64 { // the splitmix64 finaliser
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// signature writes the MinHash signature of a set of keys into sig: for
// each of the numHashes hash functions
//
//	h_k(x) = A_k * mix64(x) + B_k  (mod 2^64)
//
// the smallest value over the set. Two sets agree at position k with
// probability close to their Jaccard similarity (mix64 spreads the keys;
// the multiply-add permutes them, and the comparison is led by the
// well-mixed high bits).
func signature(keys []uint64, sig []uint64) {
	for k := range sig {
		sig[k] = math.MaxUint64
	}
	for _, x := range keys {
		base := mix64(x)
		for k := range sig {
			if v := minhashA[k]*base + minhashB[k]; v < sig[k] {
				sig[k] = v
			}
		}
	}
}

// Banding returns the rows per band r and the number of bands b (r x b <=
// numHashes) used at a threshold t: the largest r for which a pair with
// similarity exactly t becomes a candidate with probability
//
//	1 - (1 - t^r)^b >= 0.99
//
// Pairs above t are found with higher probability; pairs well below t
// rarely become candidates, which is what makes the check fast.
func Banding(t float64) (rows, bands int) {
	rows = 1
	for r := 2; r <= 16; r++ {
		b := numHashes / r
		if 1-math.Pow(1-math.Pow(t, float64(r)), float64(b)) >= 0.99 {
			rows = r
		}
	}
	return rows, numHashes / rows
}

type bandEntry struct {
	key  uint64
	id   int32
	side int8
}

// lsh finds candidate pairs by MinHash banding, separately for each
// method, and scores each candidate exactly under the method that proposed
// it (a pair that reaches the threshold under the other method is, with
// the same probability, proposed by that method's own bands). With b ==
// nil it compares a with itself.
func (c LeakageConfig) lsh(a, b []profile) []Match {
	rows, bands := Banding(c.Threshold)
	other := a
	if b != nil {
		other = b
	}
	var out []Match
	for _, method := range []string{MethodJaccard, MethodCharNGram} {
		set := func(p *profile) []uint64 {
			if method == MethodJaccard {
				return p.wkeys
			}
			return p.grams
		}
		// The texts with a non-empty set: a first, then b.
		var ids []bandEntry
		var sets [][]uint64
		list := func(ps []profile, side int8) {
			for i := range ps {
				if s := set(&ps[i]); len(s) > 0 {
					ids = append(ids, bandEntry{id: int32(i), side: side})
					sets = append(sets, s)
				}
			}
		}
		list(a, 0)
		if b != nil {
			list(b, 1)
		}
		keys := bandKeys(sets, rows, bands)
		pairs := candidatePairs(keys, ids, bands, b == nil)
		scores := scorePairs(pairs, a, other, method)
		for k, pk := range pairs {
			if s := scores[k]; s >= c.Threshold && s > 0 {
				out = append(out, Match{int(pk >> 32), int(uint32(pk)), method, s})
			}
		}
	}
	slices.SortFunc(out, func(x, y Match) int {
		if x.A != y.A {
			return cmp.Compare(x.A, y.A)
		}
		if x.B != y.B {
			return cmp.Compare(x.B, y.B)
		}
		return cmp.Compare(methodRank(x.Method), methodRank(y.Method))
	})
	return out
}

// bandKeys returns the band keys of every set: keys[t*bands+band], each
// band's rows of the set's MinHash signature mixed into one key. The
// signatures are computed on every core (each text's keys have fixed
// slots, so the result does not depend on the scheduling).
func bandKeys(sets [][]uint64, rows, bands int) []uint64 {
	keys := make([]uint64, len(sets)*bands)
	workers := min(runtime.GOMAXPROCS(0), max(1, len(sets)/1024))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			sig := make([]uint64, numHashes)
			for t := w; t < len(sets); t += workers {
				signature(sets[t], sig)
				for band := 0; band < bands; band++ {
					h := uint64(band) * 0x9e3779b97f4a7c15
					for r := 0; r < rows; r++ {
						h = mix64(h ^ sig[band*rows+r])
					}
					keys[t*bands+band] = h
				}
			}
		}(w)
	}
	wg.Wait()
	return keys
}

// candidatePairs returns, sorted and once each, the pairs of texts that
// share a band key in some band, as i<<32 | j: within one list (self,
// i < j), or a text of a (side 0) with one of b (side 1).
func candidatePairs(keys []uint64, ids []bandEntry, bands int, self bool) []uint64 {
	var pairs []uint64 // with duplicates
	entries := make([]bandEntry, len(ids))
	for band := 0; band < bands; band++ {
		for k := range ids {
			entries[k] = bandEntry{keys[k*bands+band], ids[k].id, ids[k].side}
		}
		slices.SortFunc(entries, func(x, y bandEntry) int { return cmp.Compare(x.key, y.key) })
		for lo := 0; lo < len(entries); {
			hi := lo + 1
			for hi < len(entries) && entries[hi].key == entries[lo].key {
				hi++
			}
			for x := lo; x < hi; x++ {
				for y := x + 1; y < hi; y++ {
					ex, ey := entries[x], entries[y]
					var i, j int32
					switch {
					case self:
						i, j = min(ex.id, ey.id), max(ex.id, ey.id)
					case ex.side == 0 && ey.side == 1:
						i, j = ex.id, ey.id
					case ex.side == 1 && ey.side == 0:
						i, j = ey.id, ex.id
					default:
						continue
					}
					pairs = append(pairs, uint64(uint32(i))<<32|uint64(uint32(j)))
				}
			}
			lo = hi
		}
	}
	slices.Sort(pairs)
	return slices.Compact(pairs)
}

// scorePairs scores the candidate pairs exactly (Jaccard of the word sets
// or of the character n-grams), on every core; the matches are sorted
// afterwards, so the order of the work does not matter.
func scorePairs(pairs []uint64, a, other []profile, method string) []float64 {
	scores := make([]float64, len(pairs))
	pw := min(runtime.GOMAXPROCS(0), max(1, len(pairs)/4096))
	var wg sync.WaitGroup
	for w := 0; w < pw; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for k := w; k < len(pairs); k += pw {
				i, j := int(pairs[k]>>32), int(uint32(pairs[k]))
				if method == MethodJaccard {
					scores[k] = jaccardSorted(a[i].words, other[j].words)
				} else {
					scores[k] = jaccardSorted(a[i].grams, other[j].grams)
				}
			}
		}(w)
	}
	wg.Wait()
	return scores
}
