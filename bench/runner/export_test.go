package runner

import (
	"context"
	"time"

	"crudbench/bench/load"
)

// WaitSlot exposes how a shard waits for a run's slot.
func WaitSlot(ctx context.Context, shard load.Shard, start time.Time) string {
	return waitSlot(ctx, shard, start)
}

// SourceCommit exposes how the report names the measured commit.
var SourceCommit = sourceCommit

// OtherLoad exposes how the runner finds other work on the machine during
// a capacity search.
var OtherLoad = otherLoad

// FileBase exposes how the runner names a run's files.
var FileBase = fileBase

// BarrierNote exposes the note on how a shard met the others at the start
// barrier.
var BarrierNote = barrierNote

// CPUsAllowed and QoSClass expose how a shard reads its CPUs and QoS class.
var (
	CPUsAllowed = cpusAllowed
	QoSClass    = qosClass
)
