package tasks

import (
	"fmt"

	"github.com/evalbook/evalbook/pkg/repeats"
)

// ItemPasses is one generative item's samples judged right or wrong by
// its task's match rule (the rule Score's match metric and pass@k use): a
// sample passes when its extracted answer equals the golden answer after
// the rule's normalisation; a sample with no extracted answer fails.
type ItemPasses struct {
	Task   string // the task string
	ID     string
	Passes []bool
}

// SamplePasses gives every generative item's per-sample outcomes, in the
// details' order, for the repeated-samples analysis (evalbook repeats
// --details). Items whose call failed are left out and counted in
// failed. A task that is not generative is an error: its items have one
// deterministic outcome, not samples.
func SamplePasses(d *Details) (items []ItemPasses, failed int, err error) {
	plans := map[string]plan{}
	for _, ht := range d.Header.Tasks {
		if ht.Kind != KindGenerative {
			return nil, 0, fmt.Errorf("tasks: %s is a %s task: its items have one outcome each, not samples (repeats needs generative tasks run with samples > 1)", ht.Spec, ht.Kind)
		}
		pl, err := planOf(ht)
		if err != nil {
			return nil, 0, err
		}
		plans[ht.Spec] = pl
	}
	for i := range d.Samples {
		s := &d.Samples[i]
		pl, ok := plans[s.Task]
		if !ok {
			return nil, 0, fmt.Errorf("tasks: item %s: task %q is not in the header", s.ID, s.Task)
		}
		if s.Error != "" || len(s.Response) == 0 {
			failed++
			continue
		}
		gold := pl.canon(s.Golden)
		ip := ItemPasses{Task: s.Task, ID: s.ID, Passes: make([]bool, len(s.Response))}
		for k, r := range s.Response {
			ip.Passes[k] = r.Extracted != nil && pl.canon(*r.Extracted) == gold
		}
		items = append(items, ip)
	}
	return items, failed, nil
}

// Repeats is the repeated-samples analysis of generative details
// (evalbook repeats --details): each item's samples judged by
// SamplePasses, summarised by repeats.AnalyzeItems under source (the
// file's name, which starts an error). Items are named by their id, or by
// task string and id ("task id") when the details hold several tasks.
func Repeats(d *Details, source string, opt repeats.Options) (*repeats.Result, error) {
	ips, failed, err := SamplePasses(d)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	items := make([]repeats.ItemSamples, len(ips))
	for i, ip := range ips {
		items[i] = repeats.ItemSamples{Item: ip.ID, Passes: ip.Passes}
		if len(d.Header.Tasks) > 1 {
			items[i].Item = ip.Task + " " + ip.ID
		}
	}
	return repeats.AnalyzeItems(items, source, failed, opt)
}
