package cpuprof_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/pprof/profile"

	"crudbench/bench/cpuprof"
	"crudbench/bench/results"
)

// TestAnalyzeTotals: the profile's duration and CPU, shares of the layers
// in results.Layers order, adding up to 1.
func TestAnalyzeTotals(t *testing.T) {
	ms := time.Millisecond
	prof, err := cpuprof.Analyze(synthetic(t, 2*time.Second,
		sample{[]string{"encoding/json.Marshal", "main.handler"}, 300 * ms},
		sample{[]string{"net/http.(*conn).serve"}, 100 * ms},
		sample{[]string{"runtime.scanobject", "runtime.gcBgMarkWorker"}, 50 * ms},
		sample{[]string{"main.handler"}, 50 * ms},
	))
	if err != nil {
		t.Fatal(err)
	}
	if prof.Seconds != 2 || math.Abs(prof.CPUSeconds-0.5) > 1e-9 {
		t.Errorf("Seconds, CPUSeconds = %v, %v; want 2, 0.5", prof.Seconds, prof.CPUSeconds)
	}
	want := []results.LayerShare{
		{Layer: results.LayerHTTP, Share: 0.2},
		{Layer: results.LayerEncoding, Share: 0.6},
		{Layer: results.LayerDriver, Share: 0},
		{Layer: results.LayerApp, Share: 0.1},
		{Layer: results.LayerRuntime, Share: 0.1},
		{Layer: results.LayerOther, Share: 0},
	}
	if d := cmp.Diff(want, prof.Layers, cmpopts.EquateApprox(0, 1e-9)); d != "" {
		t.Errorf("layers (-want +got):\n%s", d)
	}
}

// TestAnalyzeTop: ten functions by flat CPU, most first; cum counts a
// recursive function once per sample.
func TestAnalyzeTop(t *testing.T) {
	var samples []sample
	for i := 1; i <= 12; i++ {
		// f01 spends 10 ms, f12 120 ms, each called by a recursive walk.
		samples = append(samples, sample{[]string{fmt.Sprintf("main.f%02d", i), "main.walk", "main.walk", "main.walk"}, time.Duration(i) * 10 * time.Millisecond})
	}
	samples = append(samples, sample{[]string{"main.walk", "main.walk"}, 2 * time.Millisecond}) // total 782 ms
	prof, err := cpuprof.Analyze(synthetic(t, time.Second, samples...))
	if err != nil {
		t.Fatal(err)
	}
	var want []results.FunctionShare
	for i := 12; i >= 3; i-- {
		f := float64(i*10) / 782
		want = append(want, results.FunctionShare{Name: fmt.Sprintf("main.f%02d", i), Flat: f, Cum: f})
	}
	if d := cmp.Diff(want, prof.Top, cmpopts.EquateApprox(0, 1e-9)); d != "" {
		t.Errorf("top (-want +got):\n%s", d)
	}

	// With main.walk in the top ten, its cum is every sample once: 1.
	prof, err = cpuprof.Analyze(synthetic(t, time.Second, sample{[]string{"main.walk", "main.walk", "main.walk"}, 40 * time.Millisecond}, sample{[]string{"main.f01", "main.walk"}, 10 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	want = []results.FunctionShare{{Name: "main.walk", Flat: 0.8, Cum: 1}, {Name: "main.f01", Flat: 0.2, Cum: 0.2}}
	if d := cmp.Diff(want, prof.Top, cmpopts.EquateApprox(0, 1e-9)); d != "" {
		t.Errorf("recursive top (-want +got):\n%s", d)
	}
}

func TestAnalyzeNoSamples(t *testing.T) {
	prof, err := cpuprof.Analyze(synthetic(t, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if prof.CPUSeconds != 0 || len(prof.Top) != 0 || len(prof.Layers) != len(results.Layers) {
		t.Errorf("empty profile: %+v", prof)
	}
	for _, l := range prof.Layers {
		if l.Share != 0 {
			t.Errorf("empty profile: %s share %v, want 0", l.Layer, l.Share)
		}
	}
}

func TestAnalyzeRefuses(t *testing.T) {
	heap := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}},
	}
	var heapData bytes.Buffer
	if err := heap.Write(&heapData); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		data    []byte
		wantErr string
	}{
		{"heap profile", heapData.Bytes(), "not a CPU profile"},
		{"not a profile", []byte("<html>404 page not found</html>"), "cpuprof"},
		{"truncated gzip", synthetic(t, time.Second)[:10], "cpuprof"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := cpuprof.Analyze(tt.data); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Analyze = %v, want an error with %q", err, tt.wantErr)
			}
		})
	}
}
