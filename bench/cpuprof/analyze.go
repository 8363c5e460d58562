package cpuprof

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/google/pprof/profile"

	"crudbench/bench/results"
)

// topN is how many functions Analyze lists.
const topN = 10

// Analyze reads a profile as Fetch returns it and summarizes it; the
// File field is left for the caller.
//
// Every sample counts toward one layer (layerOf for a Go profile,
// nodeLayerOf for one FromV8 made), so the layer shares add
// up to 1; a profile without samples (an app that spent no CPU) has
// CPUSeconds 0 and every share 0. A function's flat CPU is what its
// samples spent in it, its cum CPU what they spent in it and below it,
// counted once per sample however often the function recurs on the stack.
func Analyze(data []byte) (results.CPUProfile, error) {
	p, err := profile.ParseData(data)
	if err != nil {
		return results.CPUProfile{}, fmt.Errorf("cpuprof: %w", err)
	}
	cpu, err := cpuIndex(p)
	if err != nil {
		return results.CPUProfile{}, err
	}

	classify := func(s *profile.Sample) string { return layerOf(framesOf(s)) }
	if slices.Contains(p.Comments, v8Comment) {
		classify = nodeLayerOf
	}

	var total int64
	byLayer := make(map[string]int64, len(results.Layers))
	flat, cum := make(map[string]int64), make(map[string]int64)
	for _, s := range p.Sample {
		v := s.Value[cpu]
		frames := framesOf(s)
		total += v
		byLayer[classify(s)] += v
		if len(frames) > 0 {
			flat[frames[0]] += v
		}
		for _, f := range distinct(frames) {
			cum[f] += v
		}
	}

	out := results.CPUProfile{
		Seconds:    float64(p.DurationNanos) / 1e9,
		CPUSeconds: float64(total) / 1e9,
		Layers:     make([]results.LayerShare, len(results.Layers)),
		Top:        top(flat, cum, total),
	}
	for i, l := range results.Layers {
		out.Layers[i] = results.LayerShare{Layer: l, Share: share(byLayer[l], total)}
	}
	return out, nil
}

// cpuIndex finds the sample value that holds CPU time in nanoseconds, as
// Go's CPU profiles have it (beside the sample count).
func cpuIndex(p *profile.Profile) (int, error) {
	for i, t := range p.SampleType {
		if t.Type == "cpu" {
			if t.Unit != "nanoseconds" {
				return 0, fmt.Errorf("cpuprof: cpu samples are in %s, want nanoseconds", t.Unit)
			}
			return i, nil
		}
	}
	return 0, fmt.Errorf("cpuprof: not a CPU profile: no cpu sample type in %v", p.SampleType)
}

// framesOf returns the function names of a sample's stack, leaf first,
// inlined calls included: a location's lines run from the innermost
// inlined function to the one it was inlined into.
func framesOf(s *profile.Sample) []string {
	var frames []string
	for _, loc := range s.Location {
		for _, l := range loc.Line {
			if l.Function != nil {
				frames = append(frames, l.Function.Name)
			}
		}
	}
	return frames
}

// distinct returns frames with every name once, so that a recursive
// function's cum counts each sample once.
func distinct(frames []string) []string {
	seen := make(map[string]bool, len(frames))
	out := frames[:0:0]
	for _, f := range frames {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// top returns the topN functions by flat CPU (ties by name, so the list
// is the same for the same profile), with their shares of total.
func top(flat, cum map[string]int64, total int64) []results.FunctionShare {
	names := make([]string, 0, len(flat))
	for f := range flat {
		names = append(names, f)
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := cmp.Compare(flat[b], flat[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	names = names[:min(len(names), topN)]
	out := make([]results.FunctionShare, len(names))
	for i, f := range names {
		out[i] = results.FunctionShare{Name: f, Flat: share(flat[f], total), Cum: share(cum[f], total)}
	}
	return out
}

// share is part/total, and 0 when total is.
func share(part, total int64) float64 {
	if total == 0 {
		return 0
	}
	return float64(part) / float64(total)
}
