// Package cpuprof takes a CPU profile of a running Go app over its pprof
// endpoint and says where the CPU went: shares of a few named layers (HTTP
// and router, encoding, database driver, the app's code, runtime) and the
// functions that spent the most.
package cpuprof

import (
	"context"
	"errors"
	"net/http"
	"time"

	"crudbench/bench/results"
)

// Fetch takes a CPU profile of d (whole seconds, at least one) from the
// pprof endpoint under debugURL (e.g. http://127.0.0.1:6060) and returns
// it as served: pprof's gzipped protobuf.
func Fetch(ctx context.Context, client *http.Client, debugURL string, d time.Duration) ([]byte, error) {
	return nil, errors.New("cpuprof.Fetch: not implemented yet")
}

// Analyze reads a profile as Fetch returns it and summarizes it; the
// File field is left for the caller.
func Analyze(data []byte) (results.CPUProfile, error) {
	return results.CPUProfile{}, errors.New("cpuprof.Analyze: not implemented yet")
}
