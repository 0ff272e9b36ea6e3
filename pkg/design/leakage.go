package design

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"
)

// Leakage methods, as named in reports.
const (
	MethodJaccard   = "jaccard"
	MethodCharNGram = "char_ngram"
)

// LeakageConfig configures the leakage check. The zero value is usable:
// each zero field takes its value from DefaultLeakageConfig.
type LeakageConfig struct {
	// Threshold is the score at which a pair is reported, for each method
	// separately (a pair is reported once per method that reaches it).
	Threshold float64
	// NGram is the character n-gram length (DefaultNGram).
	NGram int
	// ExhaustiveLimit is the number of pairs up to which every pair is
	// compared exactly. Above it, candidate pairs come from MinHash with
	// banding (locality-sensitive hashing) and are then scored exactly.
	// A negative value always uses MinHash.
	ExhaustiveLimit int
}

// DefaultLeakageConfig is what the evalbook command uses.
var DefaultLeakageConfig = LeakageConfig{Threshold: 0.5, NGram: DefaultNGram, ExhaustiveLimit: 250_000}

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
// either method, sorted by A, B, method.
func (c LeakageConfig) Within(texts []string) []Match {
	c = c.withDefaults()
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
// threshold under either method, sorted by A, B, method.
func (c LeakageConfig) Across(a, b []string) []Match {
	c = c.withDefaults()
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
	if s := jaccardUint(x.grams, y.grams); s >= c.Threshold && s > 0 {
		out = append(out, Match{i, j, MethodCharNGram, s})
	}
	return out
}

// numHashes is the MinHash signature length.
const numHashes = 128

// minhashSeeds are fixed (PCG with a constant seed), so the candidate
// pairs, and therefore the report, are the same on every run.
var minhashSeeds = func() [numHashes]uint64 {
	var s [numHashes]uint64
	r := rand.New(rand.NewPCG(0x65766c626f6f6b, 0x6c65616b616765))
	for i := range s {
		s[i] = r.Uint64()
	}
	return s
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
// each of the numHashes hash functions h_k(x) = mix64(mix64(x) ^ seed_k),
// the smallest value over the set. Two sets agree at position k with
// probability close to their Jaccard similarity.
func signature(keys []uint64, sig []uint64) {
	for k := range sig {
		sig[k] = math.MaxUint64
	}
	for _, x := range keys {
		base := mix64(x)
		for k, seed := range minhashSeeds {
			if v := mix64(base ^ seed); v < sig[k] {
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

// lsh finds candidate pairs by MinHash banding, for both methods, then
// scores each candidate exactly. With b == nil it compares a with itself.
func (c LeakageConfig) lsh(a, b []profile) []Match {
	rows, bands := Banding(c.Threshold)
	type side struct {
		p    []profile
		side int8
	}
	sides := []side{{a, 0}}
	if b != nil {
		sides = append(sides, side{b, 1})
	}
	seen := map[uint64]struct{}{}
	var cands [][2]int32
	sig := make([]uint64, numHashes)
	for method := 0; method < 2; method++ {
		// One signature per text, kept as band keys only.
		total := 0
		for _, s := range sides {
			total += len(s.p)
		}
		keys := make([][]uint64, 0, total)
		ids := make([]bandEntry, 0, total)
		for _, s := range sides {
			for i, p := range s.p {
				set := p.wkeys
				if method == 1 {
					set = p.grams
				}
				if len(set) == 0 {
					continue
				}
				signature(set, sig)
				bk := make([]uint64, bands)
				for band := 0; band < bands; band++ {
					h := uint64(band) * 0x9e3779b97f4a7c15
					for r := 0; r < rows; r++ {
						h = mix64(h ^ sig[band*rows+r])
					}
					bk[band] = h
				}
				keys = append(keys, bk)
				ids = append(ids, bandEntry{id: int32(i), side: s.side})
			}
		}
		entries := make([]bandEntry, len(ids))
		for band := 0; band < bands; band++ {
			for k := range ids {
				entries[k] = bandEntry{keys[k][band], ids[k].id, ids[k].side}
			}
			sort.Slice(entries, func(i, j int) bool { return entries[i].key < entries[j].key })
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
						case b == nil:
							i, j = min(ex.id, ey.id), max(ex.id, ey.id)
						case ex.side == 0 && ey.side == 1:
							i, j = ex.id, ey.id
						case ex.side == 1 && ey.side == 0:
							i, j = ey.id, ex.id
						default:
							continue
						}
						pk := uint64(uint32(i))<<32 | uint64(uint32(j))
						if _, dup := seen[pk]; !dup {
							seen[pk] = struct{}{}
							cands = append(cands, [2]int32{i, j})
						}
					}
				}
				lo = hi
			}
		}
	}
	sort.Slice(cands, func(x, y int) bool {
		if cands[x][0] != cands[y][0] {
			return cands[x][0] < cands[y][0]
		}
		return cands[x][1] < cands[y][1]
	})
	var out []Match
	other := a
	if b != nil {
		other = b
	}
	for _, cp := range cands {
		out = c.score(out, a[cp[0]], other[cp[1]], int(cp[0]), int(cp[1]))
	}
	return out
}
