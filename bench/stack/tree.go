package stack

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
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
	workers, err := children(p.PID)
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

// children lists the processes pid has forked, from the children file of
// each of its threads (a child belongs to the thread that forked it).
func children(pid int) ([]int, error) {
	task := "/proc/" + strconv.Itoa(pid) + "/task/"
	tids, err := os.ReadDir(task)
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, tid := range tids {
		b, err := os.ReadFile(task + tid.Name() + "/children")
		if err != nil {
			continue // the thread ended since the listing
		}
		for _, f := range bytes.Fields(b) {
			if child, err := strconv.Atoi(string(f)); err == nil {
				pids = append(pids, child)
			}
		}
	}
	return pids, nil
}
