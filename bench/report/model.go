package report

import (
	"fmt"

	"crudbench/bench/results"
)

// clientsOf is how many clients run's closed loop ran, 0 for an open run.
func clientsOf(run *results.Run) int {
	if run.Settings.LoadModel() != results.ModelClosed {
		return 0
	}
	return max(run.Settings.Clients, 1)
}

// modelText says how run's load was sent, for the settings table.
func modelText(run *results.Run) string {
	if n := clientsOf(run); n > 0 {
		return fmt.Sprintf("closed loop (-model closed): %d client(s), each sending its next request when its last was answered, no think time", n)
	}
	return "open (-model open): each request on schedule at the profile's rate, whatever the app does"
}

// profileTitle names a profile's results: with the closed loop's clients
// when its runs were one, so that no reader takes them for open runs.
func profileTitle(run *results.Run, profile string) string {
	if n := clientsOf(run); n > 0 {
		return fmt.Sprintf("%s — closed loop of %d client(s)", profile, n)
	}
	return profile
}

// closedLoopMethod explains a closed loop's runs, in place of the open
// model's first paragraph of How to read this.
func closedLoopMethod(n int) []string {
	return []string{
		fmt.Sprintf("Closed loop: each run drives one app with one scenario from %d client(s), each sending its next request as soon as its last was answered, with no think time, for the measured window; a warm-up before it is discarded. "+
			"The app's speed sets the rate: there is no target. Clients is how many ran; served is the requests answered per second in the window; throughput is the successful ones per second. "+
			"This is the method of hey -c, autocannon's connections and k6's virtual users, offered so that their tables can be set beside these; it is not crudbench's default, the open model at constant rates.", n),
		"Why its latencies understate what users wait (coordinated omission): a client that waits for a slow answer sends nothing meanwhile, so the requests a real user would have sent during a stall are never made, and never measured as slow. " +
			"The slower the app, the fewer requests it is asked to serve: the loop slows down with it instead of building the queue users would meet, and the percentiles count only the requests that were sent. " +
			"An open run keeps sending on schedule, so a stall shows in every request due during it.",
		fmt.Sprintf("Why throughput at %d client(s) is not a capacity: it is what that many clients, one request in flight each, got from the app; it rises with the clients until the app or the machine is busy, and more clients then add waiting, not throughput. "+
			"It says nothing of the latency at that rate for users who do not wait for each other; the capacity search (-capacity, open model) finds the highest rate the app holds within the SLO. "+
			"A closed-loop run is saturated only when under %.0f%% of its requests succeeded: it has no rate to fall short of.", n, 100*results.MinSuccessRatio),
	}
}
