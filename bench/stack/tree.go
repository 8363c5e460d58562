package stack

import (
	"fmt"
	"time"

	"crudbench/bench/sampler"
)

// measureIdle records the app's memory once it is ready: its VmRSS, or,
// when it runs as a tree, its processes' Pss summed as the sampler sums
// them during a run, and how many workers the primary forked.
func (p *Process) measureIdle(tree bool) error {
	if !tree {
		rss, err := sampler.ResidentBytes(p.PID)
		p.IdleRSSBytes = rss
		return err
	}
	workers, err := sampler.ChildrenOf(p.PID)
	if err != nil {
		return err
	}
	p.Workers = len(workers)
	// One sample, taken at Start, and a full last one at Stop: the
	// interval never passes.
	s := sampler.New(time.Hour, sampler.Target{Name: p.Name, PID: p.PID, Tree: true})
	s.Start()
	ser := s.Stop()[p.Name]
	if len(ser.Samples) == 0 {
		return fmt.Errorf("process %d is not visible", p.PID)
	}
	p.IdleRSSBytes = ser.Samples[len(ser.Samples)-1].RSSBytes
	return nil
}
