package merge

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"crudbench/bench/load"
	"crudbench/bench/results"
)

// parts returns each shard's result of the same (profile, scenario, app)
// as shard 0's k-th, in shard order.
func parts(shards []shard, k int) ([]results.Result, error) {
	own := shards[0].run.Results[k]
	out := []results.Result{own}
	for _, s := range shards[1:] {
		found := false
		for _, r := range s.run.Results {
			if r.Profile == own.Profile && r.Scenario == own.Scenario && r.App == own.App {
				out, found = append(out, r), true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("%s has no result of %s %s %s, which %s has: merge the shards of one run", s.dir, own.Profile, own.Scenario, own.App, shards[0].dir)
		}
	}
	return out, nil
}

// unmeasured is the merged result, at the run's whole rate, when a shard
// did not measure its part: failed when any shard failed, else skipped,
// with every shard's reason.
func unmeasured(ps []results.Result, rate float64) (results.Result, bool) {
	verdict := ""
	var why []string
	for i, p := range ps {
		if p.Measured() {
			continue
		}
		if verdict != results.VerdictFailed {
			verdict = p.Verdict
		}
		why = append(why, fmt.Sprintf("shard %d %s: %s", i, p.Verdict, p.Reason))
	}
	if verdict == "" {
		return results.Result{}, false
	}
	r := ps[0]
	r.Verdict, r.Reason = verdict, strings.Join(why, "; ")
	r.TargetRate = rate
	r.AchievedRate, r.Throughput, r.Requests, r.SuccessRatio = 0, 0, 0, 0
	r.StatusCodes, r.Errors = map[string]int{}, []string{}
	r.Latency, r.BytesIn, r.BytesOut = results.Latency{}, 0, 0
	r.AppCost, r.DB, r.Timeline, r.CPUProfile = results.ProcessCost{}, results.DBCost{}, nil, nil
	r.Broker = nil
	r.RawFile, r.SamplesFile = "", ""
	return r, true
}

// measured merges the shards' measured parts of one run, the window w of
// the whole run, into the result of one runner: the window's numbers from
// every shard's raw results (written merged to dir), the costs as shard 0
// measured them per request of all shards, judged as the runner judges.
func measured(shards []shard, ps []results.Result, w *load.Window, dir string) (results.Result, error) {
	settings := shards[0].run.Settings
	files := make([]string, len(ps))
	var attackSuccesses uint64
	for i, p := range ps {
		files[i] = filepath.Join(shards[i].dir, filepath.FromSlash(p.RawFile))
		attackSuccesses += p.AttackSuccesses
	}
	rs, err := replay(files, w)
	if err != nil {
		return results.Result{}, err
	}
	own := ps[0]
	if err := writeRaw(filepath.Join(dir, filepath.FromSlash(own.RawFile)), rs); err != nil {
		return results.Result{}, err
	}
	if err := copyShardFiles(shards[0].dir, dir, own); err != nil {
		return results.Result{}, err
	}

	s := w.Summary()
	res := own
	res.TargetRate = rateOf(settings, own)
	res.Errors, res.Repeats, res.Spread = nil, nil, nil
	s.Record(&res)
	res.AttackSuccesses = attackSuccesses
	res.AppCost = appCost(own, s.Successes, s.Requests)
	res.DB = dbCost(own.DB, attackSuccesses, s.Successes)
	res.Broker = brokerCost(own.Broker, s.Successes)
	res.Judge(time.Duration(settings.SLOP99))
	return res, nil
}
