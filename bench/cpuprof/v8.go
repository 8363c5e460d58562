package cpuprof

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
)

// v8Comment marks a profile FromV8 made, so that Analyze groups its
// samples by the Node layer rules (nodeLayerOf) instead of Go's.
const v8Comment = "crudbench: V8 CPU profile of a Node.js main thread (cpuprof.FromV8)"

// v8Profile is V8's CPU profile as the inspector's Profiler.stop returns
// it and a .cpuprofile file holds it: a call tree, the node each sample
// hit, and the time between samples. Times are in microseconds.
type v8Profile struct {
	Nodes      []v8Node `json:"nodes"`
	StartTime  int64    `json:"startTime"`
	EndTime    int64    `json:"endTime"`
	Samples    []int64  `json:"samples"`
	TimeDeltas []int64  `json:"timeDeltas"`
}

type v8Node struct {
	ID        int64       `json:"id"`
	CallFrame v8CallFrame `json:"callFrame"`
	Children  []int64     `json:"children"`
}

// v8CallFrame is a function of the call tree; its line and column (from
// 0) are where the function starts.
type v8CallFrame struct {
	FunctionName string `json:"functionName"`
	URL          string `json:"url"`
	LineNumber   int64  `json:"lineNumber"`
	ColumnNumber int64  `json:"columnNumber"`
}

// V8's pseudo-frames: the thread waiting in the event loop, V8's own
// native work outside JavaScript, and the garbage collector's pauses.
const (
	v8Idle    = "(idle)"
	v8Root    = "(root)"
	v8Program = "(program)"
	v8GC      = "(garbage collector)"
)

// FromV8 converts V8's CPU profile (the JSON that a Node app's
// /debug/v8/profile serves, or a .cpuprofile file) into a pprof CPU
// profile, gzipped protobuf as Go's pprof serves it, so that Analyze,
// go tool pprof and the report read a Node app's profile as they read a
// Go app's.
//
// Each sample weighs the profile's sampling interval (the median time
// between samples: V8 samples every 10 ms when the app asks for it as the
// Go apps' profiler does), as cpu nanoseconds, as each of Go's samples
// weighs one period. Samples of the thread waiting for events, V8's
// "(idle)", are dropped: waiting is not CPU. The functions are named
// "name (file:line)", the file short: the path under node_modules, or
// from the app's folder.
//
// What V8's profile does not see: it samples the main thread only, where
// all of the app's JavaScript runs, but not libuv's threadpool (where
// crypto and zlib work and DNS lookups run), V8's garbage collector
// helper threads, nor the profiler's own thread: what those threads spend
// is missing from it. And unlike Go's, V8's sampler ticks on wall-clock
// time, not on the thread's CPU time: on a machine short of cores a
// thread preempted between two ticks is sampled as soon as it runs again,
// so there a profile's CPU seconds are approximate (often more than the
// thread had), while its split between functions and layers holds.
func FromV8(data []byte) ([]byte, error) {
	var v v8Profile
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("cpuprof: not a V8 CPU profile: %w", err)
	}
	p, err := v.pprof()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return nil, fmt.Errorf("cpuprof: %w", err)
	}
	return buf.Bytes(), nil
}

// pprof builds the pprof profile of v: one location and function per V8
// function, one sample per call-tree node that samples hit.
func (v *v8Profile) pprof() (*profile.Profile, error) {
	if len(v.Nodes) == 0 {
		return nil, fmt.Errorf("cpuprof: not a V8 CPU profile: no nodes")
	}
	if len(v.Samples) != len(v.TimeDeltas) {
		return nil, fmt.Errorf("cpuprof: V8 profile with %d samples but %d time deltas", len(v.Samples), len(v.TimeDeltas))
	}
	nodes := make(map[int64]*v8Node, len(v.Nodes))
	for i := range v.Nodes {
		nodes[v.Nodes[i].ID] = &v.Nodes[i]
	}
	parent := make(map[int64]int64, len(v.Nodes))
	for _, n := range v.Nodes {
		for _, c := range n.Children {
			if nodes[c] == nil {
				return nil, fmt.Errorf("cpuprof: V8 profile: node %d has an unknown child %d", n.ID, c)
			}
			parent[c] = n.ID
		}
	}

	p := &profile.Profile{
		SampleType:        []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		DefaultSampleType: "cpu",
		PeriodType:        &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:            medianDelta(v.TimeDeltas) * 1000,
		DurationNanos:     max(v.EndTime-v.StartTime, 0) * 1000,
		Comments:          []string{v8Comment},
	}
	locations := make(map[v8CallFrame]*profile.Location)
	location := func(f v8CallFrame) *profile.Location {
		if loc := locations[f]; loc != nil {
			return loc
		}
		fn := &profile.Function{
			ID:         uint64(len(p.Function) + 1),
			Name:       frameName(f),
			SystemName: f.FunctionName,
			Filename:   f.URL,
			StartLine:  f.LineNumber + 1,
		}
		p.Function = append(p.Function, fn)
		loc := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn, Line: fn.StartLine}}}
		p.Location = append(p.Location, loc)
		locations[f] = loc
		return loc
	}

	samples := make(map[int64]*profile.Sample)
	var order []int64 // the nodes in the order first sampled, for a stable file
	for i, id := range v.Samples {
		n := nodes[id]
		if n == nil {
			return nil, fmt.Errorf("cpuprof: V8 profile: sample %d hit an unknown node %d", i, id)
		}
		if n.CallFrame.FunctionName == v8Idle && n.CallFrame.URL == "" {
			continue
		}
		s := samples[id]
		if s == nil {
			s = &profile.Sample{Value: []int64{0, 0}}
			for up, seen := id, 0; ; up = parent[up] {
				if seen++; seen > len(v.Nodes) {
					return nil, fmt.Errorf("cpuprof: V8 profile: node %d is its own ancestor", id)
				}
				f := nodes[up].CallFrame
				if _, ok := parent[up]; !ok {
					break // the root, "(root)", is no function
				}
				s.Location = append(s.Location, location(f))
			}
			samples[id] = s
			order = append(order, id)
		}
		s.Value[0]++
		s.Value[1] += p.Period
	}
	for _, id := range order {
		p.Sample = append(p.Sample, samples[id])
	}
	if err := p.CheckValid(); err != nil {
		return nil, fmt.Errorf("cpuprof: V8 profile: %w", err)
	}
	return p, nil
}

// medianDelta is the median time between samples: V8's sampling
// interval as it turned out, which a few late samples (a busy machine, a
// long garbage collection) do not move; 0 without samples.
func medianDelta(deltas []int64) int64 {
	if len(deltas) == 0 {
		return 0
	}
	d := slices.Clone(deltas)
	slices.Sort(d)
	return d[len(d)/2]
}

// frameName names a V8 function for people reading go tool pprof: its
// name (or "(anonymous)") and where it is, "name (file:line)"; a function
// without a script is native, a builtin or Node's C++ ("writev
// (native)"), and V8's pseudo-frames ("(garbage collector)") are their
// name alone.
func frameName(f v8CallFrame) string {
	name := f.FunctionName
	if f.URL == "" && strings.HasPrefix(name, "(") {
		return name
	}
	if name == "" {
		name = "(anonymous)"
	}
	if f.URL == "" {
		return name + " (native)"
	}
	return name + " (" + shortScript(f.URL) + ":" + strconv.FormatInt(f.LineNumber+1, 10) + ")"
}

// shortScript shortens a script URL: a module's path under its
// node_modules (express/lib/router/index.js), a file of the app from the
// folder above its src (express/src/routes/persons.js), Node's own as it
// is (node:_http_server).
func shortScript(u string) string {
	if !strings.HasPrefix(u, "file://") {
		return u
	}
	p := u
	if parsed, err := url.Parse(u); err == nil {
		p = parsed.Path
	}
	if i := strings.LastIndex(p, "/node_modules/"); i >= 0 {
		return p[i+len("/node_modules/"):]
	}
	if i := strings.LastIndex(p, "/src/"); i >= 0 {
		return path.Base(p[:i]) + p[i:]
	}
	return path.Base(p)
}
