package interop

// Comparing two harness outputs in bounded memory. Compare reads each run
// a sample at a time, without its texts: once to learn what pairs the
// documents (the metric when none is named, whether every sample has a
// doc_hash, whether a run holds several models), once more for the new
// run, kept in compare.Pairing as a hash of each document's key, its
// outcome and its task, and once for the old run, paired against it in
// its own order. Memory so grows by some tens of bytes a document,
// whatever the samples hold and in whatever order the runs list them.
// Anything the pairing refuses (a document in one run only or twice, an
// outcome not 0 or 1, no shared 0/1 metric) sends Compare to PairedFiles,
// which reads both runs whole and says what and where: the errors, like
// the figures, are those of reading them whole.

import (
	"context"
	"errors"
	"math"
	"sort"

	"github.com/evalbook/evalbook/pkg/compare"
	"github.com/evalbook/evalbook/pkg/results"
)

// errWhole says the runs must be read whole to say what is wrong.
var errWhole = errors.New("interop: read the runs whole for the error")

// runProfile is what pairing needs to know of a run before pairing it:
// the metric names of its samples and those with a value not 0 or 1
// (DefaultMetric), the metrics some sample carries without a doc_hash
// (allHashed), and whether its samples name more than one model
// (multiModel).
type runProfile struct {
	source    string
	names     map[string]bool
	notBinary map[string]bool
	unhashed  map[string]bool
	model     string
	samples   int
	models    bool
}

func profileRun(ctx context.Context, path string, ropt Options) (*runProfile, error) {
	p := &runProfile{names: map[string]bool{}, notBinary: map[string]bool{}, unhashed: map[string]bool{}}
	ropt.NoText, ropt.Hashes = true, true
	ropt.Each = func(s *Sample) error {
		if p.samples == 0 {
			p.model = s.Model
		} else if s.Model != p.model {
			p.models = true
		}
		p.samples++
		for _, m := range s.Metrics {
			p.names[m.Name] = true
			if m.Value != 0 && m.Value != 1 {
				p.notBinary[m.Name] = true
			}
			if s.DocHash == "" {
				p.unhashed[m.Name] = true
			}
		}
		return nil
	}
	run, err := Read(ctx, path, ropt)
	if err != nil {
		return nil, err
	}
	p.source = run.Source
	return p, nil
}

// defaultMetric is DefaultMetric's choice from two profiles, or errWhole
// where DefaultMetric gives an error.
func defaultMetric(a, b *runProfile) (string, error) {
	var both []string
	for k := range a.names {
		if !a.notBinary[k] && b.names[k] && !b.notBinary[k] {
			both = append(both, k)
		}
	}
	sort.Strings(both)
	if m, ok := chooseMetric(both); ok {
		return m, nil
	}
	return "", errWhole
}

// readOutcomes reads path a sample at a time without its texts and hands
// add each sample's 0/1 outcome on metric. A sample without the metric is
// skipped; a value that is not 0 or 1, or any read error, gives errWhole
// (the caller reads the runs whole for Read's own error), a cancelled
// context its error.
func readOutcomes(ctx context.Context, path string, ropt Options, metric string, add func(s *Sample, o byte) error) error {
	read := ropt
	read.NoText, read.Hashes = true, true
	read.Each = func(s *Sample) error {
		v, ok := s.Value(metric)
		if !ok {
			return nil
		}
		switch {
		case v == 1:
			return add(s, 1)
		case v == 0 && !math.Signbit(v):
			return add(s, 0)
		}
		return errWhole
	}
	if _, err := Read(ctx, path, read); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errWhole
	}
	return nil
}

// compareStream is Compare in bounded memory, or errWhole (or the
// context's error).
func compareStream(ctx context.Context, oldPath, newPath string, opt compare.Options, ropt Options) (*results.Comparison, error) {
	if ropt.Each != nil {
		return nil, errWhole
	}
	var prof [2]*runProfile
	for i, path := range []string{oldPath, newPath} {
		p, err := profileRun(ctx, path, ropt)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, errWhole
		}
		prof[i] = p
	}
	metric := opt.Metric
	if metric == "" {
		var err error
		if metric, err = defaultMetric(prof[0], prof[1]); err != nil {
			return nil, err
		}
	}
	// As paired: the doc_hash pairs when every sample of both runs with
	// the metric has one; the model leads the key when a run holds several.
	useHash := !prof[0].unhashed[metric] && !prof[1].unhashed[metric]
	models := prof[0].models || prof[1].models
	how := "task/sample id"
	if useHash {
		how = "task/doc_hash (shown as task/doc_id)"
	}
	if models {
		how = "model/" + how
	}
	key := func(s *Sample) string {
		k := s.Task + "/" + s.SampleID
		if useHash {
			k = pairKey(s)
		}
		if models {
			k = s.Model + "/" + k
		}
		return k
	}
	p := compare.NewPairing(true)
	if err := readOutcomes(ctx, newPath, ropt, metric, func(s *Sample, o byte) error {
		return p.AddNew(p.KeyString(key(s)), o, []byte(s.Task))
	}); err != nil {
		return nil, err
	}
	if p.Seal() != nil {
		return nil, errWhole
	}
	if err := readOutcomes(ctx, oldPath, ropt, metric, func(s *Sample, o byte) error {
		return p.AddOld(p.KeyString(key(s)), o, []byte(s.Task), func() string {
			k := s.Task + "/" + s.SampleID
			if models {
				k = s.Model + "/" + k
			}
			return k
		})
	}); err != nil {
		return nil, err
	}
	opt.Metric, opt.OldName, opt.NewName = metric, results.DisplayName(oldPath), results.DisplayName(newPath)
	if opt.OldName == opt.NewName {
		opt.OldName, opt.NewName = oldPath, newPath
	}
	if opt.By == "" {
		opt.By = "task"
	}
	res, err := p.Compare(opt)
	if err != nil {
		if errors.Is(err, compare.ErrNotPaired) {
			return nil, errWhole
		}
		return nil, err
	}
	res.Key = how
	return res, nil
}
