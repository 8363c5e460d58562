package sampler_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"crudbench/bench/sampler"
)

var t0 = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// at returns t0 plus ms milliseconds.
func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

// ticks is n hundredths of a second of CPU time.
func ticks(n int) time.Duration { return time.Duration(n) * 10 * time.Millisecond }

// steadySeries has a sample every 100 ms for 3 s: 5 ticks per sample
// (half a core) for the first 2 s, then 10 (a full core); RSS grows by
// 1 MiB per sample from 100 MiB, and CPUBehind by 1 ms per sample from 0.
func steadySeries() sampler.Series {
	ser := sampler.Series{Target: sampler.Target{Name: "app", PID: 1}, Start: t0}
	var cpu time.Duration
	for i := 0; i <= 30; i++ {
		if i > 0 {
			cpu += ticks(5)
			if i > 20 {
				cpu += ticks(5)
			}
		}
		ser.Samples = append(ser.Samples, sampler.Sample{At: at(100 * i), CPU: cpu, CPUBehind: time.Duration(i) * time.Millisecond, RSSBytes: uint64(100+i) << 20})
	}
	return ser
}

func TestWindow(t *testing.T) {
	ser := steadySeries()
	approx := cmpopts.EquateApprox(0, 1e-9)
	for _, tc := range []struct {
		name     string
		from, to time.Time
		want     sampler.Stats
	}{
		{"all", time.Time{}, time.Time{}, sampler.Stats{
			CPUMean: 2.0 / 3, CPUMax: 1, CPUSeconds: 2, CPUResolution: 30 * time.Millisecond,
			RSSMeanBytes: 115 << 20, RSSMaxBytes: 130 << 20, RSSStartBytes: 100 << 20, RSSEndBytes: 130 << 20,
			Samples: 31,
		}},
		{"half core", at(0), at(2000), sampler.Stats{
			CPUMean: 0.5, CPUMax: 0.5, CPUSeconds: 1, CPUResolution: 20 * time.Millisecond,
			RSSMeanBytes: 110 << 20, RSSMaxBytes: 120 << 20, RSSStartBytes: 100 << 20, RSSEndBytes: 120 << 20,
			Samples: 21,
		}},
		{"shorter than a second", at(2100), at(2500), sampler.Stats{
			CPUMean: 1, CPUMax: 1, CPUSeconds: 0.4, CPUResolution: 25 * time.Millisecond,
			RSSMeanBytes: 123 << 20, RSSMaxBytes: 125 << 20, RSSStartBytes: 121 << 20, RSSEndBytes: 125 << 20,
			Samples: 5,
		}},
		{"no samples", at(5000), at(6000), sampler.Stats{Missing: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ser.Window(tc.from, tc.to), approx); diff != "" {
				t.Errorf("Window (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAround(t *testing.T) {
	// Samples once a second, at 0 to 3 s.
	var ser sampler.Series
	for i := range 4 {
		ser.Samples = append(ser.Samples, sampler.Sample{At: at(1000 * i), CPU: ticks(10 * i)})
	}
	for _, tc := range []struct {
		name             string
		from, to         time.Time
		wantFrom, wantTo time.Time
	}{
		{"between samples", at(1050), at(1950), at(1000), at(2000)},
		{"on samples", at(1000), at(2000), at(1000), at(2000)},
		{"across samples", at(500), at(2500), at(0), at(3000)},
		{"past the ends", at(-500), at(3500), at(0), at(3000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from, to := ser.Around(tc.from, tc.to)
			if !from.Equal(tc.wantFrom) || !to.Equal(tc.wantTo) {
				t.Errorf("Around = %v, %v; want %v, %v", from.Sub(t0), to.Sub(t0), tc.wantFrom.Sub(t0), tc.wantTo.Sub(t0))
			}
			if st := ser.Window(from, to); st.Samples < 2 {
				t.Errorf("Window(Around) holds %d samples, want 2 or more", st.Samples)
			}
		})
	}
}

func TestWindowMissing(t *testing.T) {
	ser := steadySeries()
	ser.Misses = []time.Time{at(3100), at(3200)}
	if st := ser.Window(time.Time{}, at(3000)); st.Missing {
		t.Errorf("window before the misses: Missing = true, want false")
	}
	st := ser.Window(time.Time{}, time.Time{})
	if !st.Missing || st.Samples != 31 {
		t.Errorf("whole series: Missing, Samples = %v, %d; want true, 31", st.Missing, st.Samples)
	}
}

func TestWindowTreeShrinks(t *testing.T) {
	// A process left the tree between the samples at 1 s and 1.1 s: the
	// drop must not count as negative CPU time.
	ser := sampler.Series{Samples: []sampler.Sample{
		{At: at(0), CPU: ticks(100)}, {At: at(1000), CPU: ticks(150)}, {At: at(1100), CPU: ticks(120)}, {At: at(2100), CPU: ticks(170)},
	}}
	st := ser.Window(time.Time{}, time.Time{})
	if st.CPUSeconds != 0.7 || math.Abs(st.CPUMean-0.7/2.1) > 1e-9 || st.CPUMax != 0.5 {
		t.Errorf("CPUSeconds, CPUMean, CPUMax = %v, %v, %v; want 0.7, %v, 0.5", st.CPUSeconds, st.CPUMean, st.CPUMax, 0.7/2.1)
	}
}

func TestWriteCSV(t *testing.T) {
	ser := sampler.Series{Start: at(-500), Samples: []sampler.Sample{
		{At: at(0), CPU: ticks(10), RSSBytes: 1000},
		{At: at(500), CPU: ticks(30), RSSBytes: 2000},
		{At: at(1000), CPU: ticks(60), RSSBytes: 3000},
		{At: at(1600), CPU: ticks(70), RSSBytes: 3000},
	}}
	var b strings.Builder
	if err := ser.WriteCSV(&b); err != nil {
		t.Fatalf("WriteCSV: %v", err)
	}
	want := `t_seconds,cpu_seconds,rss_bytes,cpu_fraction_over_last_second
0.500,0.100000000,1000,
1.000,0.300000000,2000,
1.500,0.600000000,3000,0.5000
2.100,0.700000000,3000,0.3636
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("WriteCSV (-want +got):\n%s", diff)
	}
}
