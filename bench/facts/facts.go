// Package facts measures what an app costs besides CPU and time: its lines
// of code, the modules linked into it and the size of its binary, from the
// source tree and the built binary.
package facts

import (
	"context"
	"errors"

	"crudbench/bench/results"
)

// Measure returns the facts of app (./apps/<app> of the module at root)
// whose binary is bin. StartMs and IdleRSSMB are left for the caller, who
// started the process.
func Measure(ctx context.Context, root, app, bin string) (results.StackFacts, error) {
	return results.StackFacts{}, errors.New("facts.Measure: not implemented yet")
}
