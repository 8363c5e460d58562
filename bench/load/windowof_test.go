package load_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/load"
)

// TestWindowOf checks that the window WindowOf gives a schedule is the one
// an attack of that schedule measures, for one runner and for a shard.
func TestWindowOf(t *testing.T) {
	srv, _ := server(t)
	tr := vegeta.NewStaticTargeter(vegeta.Target{Method: http.MethodGet, URL: srv.URL})
	for _, tc := range []struct {
		name  string
		rate  float64
		shard *load.Shard
	}{
		{"one runner", 20, nil},
		{"fractional rate", 12.5, nil},
		{"a shard", 20, &load.Shard{Index: 1, Count: 2, Start: time.Now().Add(50 * time.Millisecond)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			warmup, duration := 200*time.Millisecond, 400*time.Millisecond
			out, err := load.Attack(context.Background(), tr, load.Options{
				Rate: tc.rate, Warmup: warmup, Duration: duration, Timeout: time.Second, MaxConnections: 4, Shard: tc.shard,
			})
			if err != nil {
				t.Fatal(err)
			}
			got := load.WindowOf(out.Began, tc.rate, warmup, duration)
			w := out.Window
			if !got.Start.Equal(w.Start) || !got.End.Equal(w.End) || got.First != w.First || got.Count != w.Count {
				t.Errorf("WindowOf: %v..%v requests %d+%d; the attack's: %v..%v requests %d+%d",
					got.Start, got.End, got.First, got.Count, w.Start, w.End, w.First, w.Count)
			}
		})
	}
}
