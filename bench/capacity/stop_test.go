package capacity_test

import (
	"testing"

	"crudbench/bench/capacity"
	"crudbench/bench/results"
)

// probe is a missed probe at 100 req/s that kept its schedule, with every
// CPU figure available, in cores: app, PostgreSQL, runner, machine.
func probe(app, db, runner, machine float64) results.Probe {
	return results.Probe{
		Rate: 100, AchievedRate: 100, Throughput: 90, SuccessRatio: 1, P99: 400,
		AppCPU: app, AppCPUAvailable: true,
		DBCPU: db, DBCPUAvailable: true,
		RunnerCPU:  runner,
		MachineCPU: machine, MachineCPUAvailable: true,
	}
}

// withBroker is p of an amqp app whose broker used cores.
func withBroker(p results.Probe, cores float64) results.Probe {
	p.BrokerCPU, p.BrokerCPUAvailable = cores, true
	return p
}

func withOthers(p results.Probe, others ...results.ProcessShare) results.Probe {
	p.Others = others
	return p
}

func TestStopReason(t *testing.T) {
	tests := []struct {
		name       string
		probe      results.Probe
		want       string
		wantDetail string
	}{
		{
			name:       "app at its core",
			probe:      probe(0.97, 0.31, 0.22, 1.62),
			want:       results.StopAppCPU,
			wantDetail: "the app used its CPU: app 0.97 of 1 core; PostgreSQL 0.31; load generator 0.22; machine 1.62 of 2; other processes 0.12",
		},
		{
			name:       "app just at the threshold",
			probe:      probe(0.85, 0.1, 0.1, 1.1),
			want:       results.StopAppCPU,
			wantDetail: "the app used its CPU: app 0.85 of 1 core; PostgreSQL 0.10; load generator 0.10; machine 1.10 of 2",
		},
		{
			name: "load generator behind its schedule",
			probe: func() results.Probe {
				p := probe(0.97, 0.31, 0.6, 1.95)
				p.AchievedRate = 97.3
				return p
			}(),
			want:       results.StopLoadGenerator,
			wantDetail: "the load generator sent 97.3 of 100 req/s: it fell behind its schedule; app 0.97 of 1 core; PostgreSQL 0.31; load generator 0.60; machine 1.95 of 2",
		},
		{
			name:       "busy machine, PostgreSQL the most",
			probe:      probe(0.6, 0.9, 0.3, 1.8),
			want:       results.StopPostgresCPU,
			wantDetail: "the machine was CPU-bound and PostgreSQL used the most: app 0.60 of 1 core; PostgreSQL 0.90; load generator 0.30; machine 1.80 of 2",
		},
		{
			name:       "busy machine, runner the most",
			probe:      probe(0.5, 0.4, 0.8, 1.75),
			want:       results.StopLoadGenerator,
			wantDetail: "the machine was CPU-bound and the load generator used the most: app 0.50 of 1 core; PostgreSQL 0.40; load generator 0.80; machine 1.75 of 2",
		},
		{
			name:       "busy machine, app the most, others named",
			probe:      probe(0.7, 0.3, 0.2, 1.9),
			want:       results.StopAppCPU,
			wantDetail: "the machine was CPU-bound and the app used the most: app 0.70 of 1 core; PostgreSQL 0.30; load generator 0.20; machine 1.90 of 2; other processes 0.70",
		},
		{
			name: "busy machine, other processes the most, and who they were",
			probe: withOthers(probe(0.5, 0.2, 0.2, 1.9),
				results.ProcessShare{PID: 40, Name: "sha256sum", Cores: 0.81}, results.ProcessShare{PID: 41, Name: "kworker/1:2", Cores: 0.12}),
			want:       results.StopOtherLoad,
			wantDetail: "the machine was CPU-bound and other processes used the most: app 0.50 of 1 core; PostgreSQL 0.20; load generator 0.20; machine 1.90 of 2; other processes 1.00 (sha256sum 0.81, kworker/1:2 0.12)",
		},
		{
			name:       "busy machine, other processes the most",
			probe:      probe(0.5, 0.2, 0.2, 1.9),
			want:       results.StopOtherLoad,
			wantDetail: "the machine was CPU-bound and other processes used the most: app 0.50 of 1 core; PostgreSQL 0.20; load generator 0.20; machine 1.90 of 2; other processes 1.00",
		},
		{
			// An amqp app's broker is of its stack, as PostgreSQL is: its
			// CPU is not other processes' load, and when it is the most
			// the stop reason names it.
			name: "busy machine, an amqp app's broker the most",
			probe: func() results.Probe {
				p := probe(0.5, 0.2, 0.2, 1.9)
				p.BrokerCPU, p.BrokerCPUAvailable = 0.9, true
				return p
			}(),
			want:       results.StopBrokerCPU,
			wantDetail: "the machine was CPU-bound and RabbitMQ used the most: app 0.50 of 1 core; PostgreSQL 0.20; RabbitMQ 0.90; load generator 0.20; machine 1.90 of 2",
		},
		{
			name: "busy machine, an amqp app's broker busy, the app the most",
			probe: func() results.Probe {
				p := probe(0.8, 0.2, 0.2, 1.9)
				p.BrokerCPU, p.BrokerCPUAvailable = 0.6, true
				return p
			}(),
			want:       results.StopAppCPU,
			wantDetail: "the machine was CPU-bound and the app used the most: app 0.80 of 1 core; PostgreSQL 0.20; RabbitMQ 0.60; load generator 0.20; machine 1.90 of 2",
		},
		{
			// Without the app's figure the broker is the busiest of those
			// seen, the rest of the machine stated beside it.
			name: "busy machine, an amqp app's broker the most of those seen",
			probe: func() results.Probe {
				p := probe(0.8, 0.2, 0.2, 1.9)
				p.AppCPUAvailable = false
				p.BrokerCPU, p.BrokerCPUAvailable = 0.6, true
				return p
			}(),
			want:       results.StopBrokerCPU,
			wantDetail: "the machine was CPU-bound and RabbitMQ (of those seen) used the most: app not available; PostgreSQL 0.20; RabbitMQ 0.60; load generator 0.20; machine 1.90 of 2; the rest, unavailable figures included 0.90",
		},
		{
			name:       "CPU to spare",
			probe:      probe(0.4, 0.2, 0.1, 0.8),
			want:       results.StopQueueing,
			wantDetail: "latency grew with CPU to spare (a pool, lock or connection limit): app 0.40 of 1 core; PostgreSQL 0.20; load generator 0.10; machine 0.80 of 2",
		},
		{
			name: "app CPU not available",
			probe: func() results.Probe {
				p := probe(0.97, 0.2, 0.1, 1.3)
				p.AppCPUAvailable = false
				return p
			}(),
			want:       results.StopQueueing,
			wantDetail: "latency grew with CPU to spare (a pool, lock or connection limit): app not available; PostgreSQL 0.20; load generator 0.10; machine 1.30 of 2; the rest, unavailable figures included 1.00",
		},
		{
			name: "busy machine, app and PostgreSQL not available",
			probe: func() results.Probe {
				p := probe(1, 1, 0.2, 1.9)
				p.AppCPUAvailable, p.DBCPUAvailable = false, false
				return p
			}(),
			want:       results.StopLoadGenerator,
			wantDetail: "the machine was CPU-bound and the load generator (of those seen) used the most: app not available; PostgreSQL not available; load generator 0.20; machine 1.90 of 2; the rest, unavailable figures included 1.70",
		},
		{
			name: "busy machine, PostgreSQL not available",
			probe: func() results.Probe {
				p := probe(0.8, 0.9, 0.1, 1.8)
				p.DBCPUAvailable = false
				return p
			}(),
			want:       results.StopAppCPU,
			wantDetail: "the machine was CPU-bound and the app (of those seen) used the most: app 0.80 of 1 core; PostgreSQL not available; load generator 0.10; machine 1.80 of 2; the rest, unavailable figures included 0.90",
		},
		{
			name: "nothing but the runner available",
			probe: func() results.Probe {
				p := probe(1, 1, 0.2, 2)
				p.AppCPUAvailable, p.DBCPUAvailable, p.MachineCPUAvailable = false, false, false
				return p
			}(),
			want:       results.StopQueueing,
			wantDetail: "latency grew with CPU to spare (a pool, lock or connection limit): app not available; PostgreSQL not available; load generator 0.20; machine not available",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, detail := capacity.StopReason(config(), tt.probe)
			if got != tt.want {
				t.Errorf("reason %q, want %q", got, tt.want)
			}
			if detail != tt.wantDetail {
				t.Errorf("detail\n%q\nwant\n%q", detail, tt.wantDetail)
			}
		})
	}
}

// pooled is a missed probe with CPU to spare whose requests waited poolMs
// on average for a connection, at a p50 of 40 ms.
func pooled(poolMs float64) results.Probe {
	p := probe(0.4, 0.2, 0.1, 0.8)
	p.P50, p.PoolWaitMs, p.PoolAvailable = 40, poolMs, true
	return p
}

func TestStopReasonPool(t *testing.T) {
	tests := []struct {
		name       string
		probe      results.Probe
		want       string
		wantDetail string
	}{
		{
			name:       "the wait is a quarter of the p50",
			probe:      pooled(10),
			want:       results.StopPool,
			wantDetail: "requests waited 10 ms on average for a connection from the app's pool, 25% of the p50 latency of 40 ms, with CPU to spare: app 0.40 of 1 core; PostgreSQL 0.20; load generator 0.10; machine 0.80 of 2",
		},
		{
			name:       "the wait is most of the p50",
			probe:      pooled(31.5),
			want:       results.StopPool,
			wantDetail: "requests waited 31.5 ms on average for a connection from the app's pool, 78.75% of the p50 latency of 40 ms, with CPU to spare: app 0.40 of 1 core; PostgreSQL 0.20; load generator 0.10; machine 0.80 of 2",
		},
		{
			name:       "the wait is under a quarter",
			probe:      pooled(9.99),
			want:       results.StopQueueing,
			wantDetail: "latency grew with CPU to spare (a pool, lock or connection limit): app 0.40 of 1 core; PostgreSQL 0.20; load generator 0.10; machine 0.80 of 2; pool wait 9.99 ms per request",
		},
		{
			name: "the app used its CPU: that comes first",
			probe: func() results.Probe {
				p := pooled(30)
				p.AppCPU, p.MachineCPU = 0.95, 1.35
				return p
			}(),
			want:       results.StopAppCPU,
			wantDetail: "the app used its CPU: app 0.95 of 1 core; PostgreSQL 0.20; load generator 0.10; machine 1.35 of 2",
		},
		{
			name: "the machine was busy: that comes first",
			probe: func() results.Probe {
				p := pooled(30)
				p.DBCPU, p.MachineCPU = 0.9, 1.8
				return p
			}(),
			want:       results.StopPostgresCPU,
			wantDetail: "the machine was CPU-bound and PostgreSQL used the most: app 0.40 of 1 core; PostgreSQL 0.90; load generator 0.10; machine 1.80 of 2; other processes 0.40",
		},
		{
			name: "no pool figure",
			probe: func() results.Probe {
				p := pooled(30)
				p.PoolAvailable = false
				return p
			}(),
			want:       results.StopQueueing,
			wantDetail: "latency grew with CPU to spare (a pool, lock or connection limit): app 0.40 of 1 core; PostgreSQL 0.20; load generator 0.10; machine 0.80 of 2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, detail := capacity.StopReason(config(), tt.probe)
			if got != tt.want {
				t.Errorf("reason %q, want %q", got, tt.want)
			}
			if detail != tt.wantDetail {
				t.Errorf("detail\n%q\nwant\n%q", detail, tt.wantDetail)
			}
		})
	}
}

// A probe that held its rate with a quick p50 and a slow tail has met no
// queue; when neither CPU nor the pool explains the tail, it is a spike.
// The figures are those of the htmx probe at 400 req/s that once stopped
// a search at 383: a p99 of 89.6 ms with 1.21 of 2 cores busy, blamed on
// a pool wait of 0.68 ms.
func TestStopReasonSpike(t *testing.T) {
	spike := results.Probe{
		Rate: 400, AchievedRate: 400, Throughput: 399.6, SuccessRatio: 1, P50: 2.9, P99: 89.6,
		AppCPU: 0.61, AppCPUAvailable: true, DBCPU: 0.34, DBCPUAvailable: true, RunnerCPU: 0.2,
		MachineCPU: 1.21, MachineCPUAvailable: true, PoolWaitMs: 0.68, PoolAvailable: true,
	}
	tests := []struct {
		name       string
		probe      func(results.Probe) results.Probe
		want       string
		wantDetail string
	}{
		{
			name:       "the pool's wait is a quarter of the p50 but too small for the tail",
			probe:      func(p results.Probe) results.Probe { return p },
			want:       results.StopSpike,
			wantDetail: "latency spike with CPU to spare: the rate was held and the p50 was 2.9 ms, but the p99 was 89.6 ms, and neither CPU, the runtime's pauses nor the pool explains it: app 0.61 of 1 core; PostgreSQL 0.34; load generator 0.20; machine 1.21 of 2; pool wait 0.68 ms per request",
		},
		{
			name:  "a pool wait that could make the tail",
			probe: func(p results.Probe) results.Probe { p.PoolWaitMs = 0.9; return p },
			want:  results.StopPool,
		},
		{
			name:  "a p50 that queued too",
			probe: func(p results.Probe) results.Probe { p.P50 = 20; return p },
			want:  results.StopQueueing,
		},
		{
			name:  "a rate not held",
			probe: func(p results.Probe) results.Probe { p.Throughput = 380; return p },
			want:  results.StopQueueing,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, detail := capacity.StopReason(config(), tt.probe(spike))
			if got != tt.want || tt.wantDetail != "" && detail != tt.wantDetail {
				t.Errorf("reason %q (%s), want %q (%s)", got, detail, tt.want, tt.wantDetail)
			}
		})
	}
}

// A probe that missed with CPU to spare names the runtime's pauses when
// they made most of its excess latency (p99 − p50): long pauses at least
// half of it, the runtime paused at least 1% of the time. The base is
// yoga's probe that a latency spike once stopped (p99 89.6 ms, p50 2.9 ms:
// an excess of 86.7 ms) with V8's scavenger at 17 pauses a second of about
// 5 ms, which cannot have made it.
func TestStopReasonPauses(t *testing.T) {
	base := results.Probe{
		Rate: 130, AchievedRate: 130, Throughput: 129.8, SuccessRatio: 1, P50: 2.9, P99: 89.6,
		AppCPU: 0.7, AppCPUAvailable: true, DBCPU: 0.2, DBCPUAvailable: true, RunnerCPU: 0.1,
		MachineCPU: 1.0, MachineCPUAvailable: true, PoolWaitMs: 0.5, PoolAvailable: true,
	}
	gc := func(p99, msPerSecond float64) *results.GCPauses {
		return &results.GCPauses{P99Ms: p99, MsPerSecond: msPerSecond, PerSecond: 17}
	}
	loop := func(longest, msPerSecond float64) *results.LoopDelay {
		return &results.LoopDelay{MaxMs: longest, P99Ms: 1.5, MsPerSecond: msPerSecond}
	}
	tests := []struct {
		name       string
		pauses     *results.Pauses
		app        float64 // the app's CPU, when not base's
		want       string
		wantDetail string
	}{
		{
			name:       "the scavenger's short pauses: a spike",
			pauses:     &results.Pauses{GC: gc(5.2, 85), EventLoop: loop(20, 150)},
			want:       results.StopSpike,
			wantDetail: "latency spike with CPU to spare: the rate was held and the p50 was 2.9 ms, but the p99 was 89.6 ms, and neither CPU, the runtime's pauses nor the pool explains it: app 0.70 of 1 core; PostgreSQL 0.20; load generator 0.10; machine 1.00 of 2; pool wait 0.5 ms per request; GC p99 5.2 ms, 85 ms a second (17 a second); event loop held up to 20 ms, 150 ms a second (worst second's p99 1.5 ms)",
		},
		{
			name:       "the loop held for half the excess",
			pauses:     &results.Pauses{GC: gc(5.2, 85), EventLoop: loop(43.35, 150)},
			want:       results.StopEventLoopLag,
			wantDetail: "the event loop was held for most of the excess latency, with CPU to spare: a p99 of 89.6 ms over a p50 of 2.9 ms; GC p99 5.2 ms, 85 ms a second (17 a second); event loop held up to 43.4 ms, 150 ms a second (worst second's p99 1.5 ms); app 0.70 of 1 core; PostgreSQL 0.20; load generator 0.10; machine 1.00 of 2",
		},
		{
			name:   "the loop held long but rarely",
			pauses: &results.Pauses{EventLoop: loop(300, 9.9)},
			want:   results.StopSpike,
		},
		{
			name:   "a collection as long as the excess comes before the loop it held",
			pauses: &results.Pauses{GC: gc(88, 40), EventLoop: loop(300, 300)},
			want:   results.StopGCPause,
		},
		{
			name:   "long collections too rare to reach the tail",
			pauses: &results.Pauses{GC: gc(88, 9)},
			want:   results.StopSpike,
		},
		{
			name:   "a busy app's core comes first",
			pauses: &results.Pauses{EventLoop: loop(300, 300)},
			app:    0.9,
			want:   results.StopAppCPU,
		},
		{
			name: "no figures",
			want: results.StopSpike,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := base
			p.Pauses = tt.pauses
			if tt.app > 0 {
				p.AppCPU = tt.app
			}
			got, detail := capacity.StopReason(config(), p)
			if got != tt.want || tt.wantDetail != "" && detail != tt.wantDetail {
				t.Errorf("reason %q, want %q; detail\n%s\nwant\n%s", got, tt.want, detail, tt.wantDetail)
			}
		})
	}
}

// The app's limit is its own cores, not the machine's: an app with two
// cores at one core's use has CPU to spare.
func TestStopReasonJudgesTheAppByItsCores(t *testing.T) {
	cfg := config()
	cfg.AppCores = 2
	got, detail := capacity.StopReason(cfg, probe(0.97, 0.1, 0.1, 1.2))
	if got != results.StopQueueing {
		t.Errorf("reason %q (%s), want %q", got, detail, results.StopQueueing)
	}
	const want = "latency grew with CPU to spare (a pool, lock or connection limit): app 0.97 of 2 cores; PostgreSQL 0.10; load generator 0.10; machine 1.20 of 2"
	if detail != want {
		t.Errorf("detail\n%q\nwant\n%q", detail, want)
	}
}

// An app with replicas has its CPU summed over cores the runner does not
// know, perhaps on other machines: it is stated, never judged, and not
// taken off this machine's CPU.
func TestStopReasonWithReplicas(t *testing.T) {
	cfg := config()
	cfg.AppReplicas = 2
	for _, tt := range []struct {
		name       string
		probe      results.Probe
		want       string
		wantDetail string
	}{
		{
			name:       "replicas on other machines, busier than this one's cores",
			probe:      probe(3.5, 0.2, 0.1, 0.5),
			want:       results.StopQueueing,
			wantDetail: "latency grew with CPU to spare (a pool, lock or connection limit): app 3.50 over 2 replicas (their cores unknown: not judged); PostgreSQL 0.20; load generator 0.10; machine 0.50 of 2; the rest, unavailable figures included 0.20",
		},
		{
			name:       "this machine busy",
			probe:      probe(1.5, 0.2, 0.1, 1.9),
			want:       results.StopPostgresCPU,
			wantDetail: "the machine was CPU-bound and PostgreSQL (of those seen) used the most: app 1.50 over 2 replicas (their cores unknown: not judged); PostgreSQL 0.20; load generator 0.10; machine 1.90 of 2; the rest, unavailable figures included 1.60",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, detail := capacity.StopReason(cfg, tt.probe)
			if got != tt.want || detail != tt.wantDetail {
				t.Errorf("reason %q, detail\n%q\nwant %q,\n%q", got, detail, tt.want, tt.wantDetail)
			}
		})
	}
}

// With CPUs of their own, PostgreSQL and the runner limit the app when
// they fill those, though the machine as a whole has CPU to spare.
func TestStopReasonJudgesTheRestByItsCores(t *testing.T) {
	cfg := config()
	cfg.RestCores = 1
	tests := []struct {
		name, want, wantDetail string
		probe                  results.Probe
	}{
		{"PostgreSQL the busier", results.StopPostgresCPU,
			"PostgreSQL and the load generator used their 1 core and PostgreSQL used the most: app 0.50 of 1 core; PostgreSQL 0.55; load generator 0.35; machine 1.40 of 2",
			probe(0.5, 0.55, 0.35, 1.4)},
		{"the runner the busier", results.StopLoadGenerator,
			"PostgreSQL and the load generator used their 1 core and the load generator used the most: app 0.50 of 1 core; PostgreSQL 0.30; load generator 0.60; machine 1.40 of 2",
			probe(0.5, 0.3, 0.6, 1.4)},
		{"room on their core", results.StopQueueing, "", probe(0.5, 0.4, 0.3, 1.2)},
		// An amqp app's broker runs on their CPUs, beside PostgreSQL: it
		// fills them with the other two, and is named when the busiest.
		{"an amqp app's broker the busiest", results.StopBrokerCPU,
			"PostgreSQL, RabbitMQ and the load generator used their 1 core and RabbitMQ used the most: app 0.50 of 1 core; PostgreSQL 0.20; RabbitMQ 0.45; load generator 0.25; machine 1.40 of 2",
			withBroker(probe(0.5, 0.2, 0.25, 1.4), 0.45)},
		{"an amqp app's broker filling their core, PostgreSQL the busiest", results.StopPostgresCPU,
			"PostgreSQL, RabbitMQ and the load generator used their 1 core and PostgreSQL used the most: app 0.50 of 1 core; PostgreSQL 0.40; RabbitMQ 0.25; load generator 0.30; machine 1.45 of 2",
			withBroker(probe(0.5, 0.4, 0.3, 1.45), 0.25)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, detail := capacity.StopReason(cfg, tt.probe)
			if got != tt.want || tt.wantDetail != "" && detail != tt.wantDetail {
				t.Errorf("reason %q (%s), want %q (%s)", got, detail, tt.want, tt.wantDetail)
			}
		})
	}
	cfg.RestCores = 0
	if got, detail := capacity.StopReason(cfg, probe(0.5, 0.55, 0.35, 1.4)); got != results.StopQueueing {
		t.Errorf("sharing the machine: reason %q (%s), want %q: the machine has CPU to spare", got, detail, results.StopQueueing)
	}
}
