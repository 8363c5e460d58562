package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"crudbench/bench/results"
)

// environmentTable describes the machine, the software and the run.
func environmentTable(run *results.Run) table {
	e := run.Environment
	cpus := na
	if e.CPUCount > 0 {
		cpus = fmt.Sprint(e.CPUCount)
	}
	var sizes []string
	for _, k := range slices.Sorted(maps.Keys(e.Dataset)) {
		sizes = append(sizes, fmt.Sprintf("%s %s", k, thousands(float64(e.Dataset[k]))))
	}
	t := table{Header: []string{"item", "value"}, Right: []bool{false, false}}
	for _, kv := range [][2]string{
		{"CPU model", orNA(e.CPUModel)},
		{"CPU count", cpus},
		{"kernel", orNA(e.Kernel)},
		{"Go", orNA(e.GoVersion)},
		{"PostgreSQL", orNA(e.PostgresVersion)},
		{"dataset (rows)", orNA(strings.Join(sizes, ", "))},
		{"mode", orNA(e.Mode)},
		{"git commit", orNA(e.GitCommit)},
		{"started", timeText(run.StartedAt)},
		{"finished", timeText(run.FinishedAt)},
	} {
		t.Rows = append(t.Rows, row{Cells: texts(kv[0], kv[1])})
	}
	if e.Broker != "" {
		t.Rows = append(t.Rows, row{Cells: texts("AMQP broker", e.Broker)})
	}
	return t
}

// settingsTable lists the knobs of the run.
func settingsTable(run *results.Run) table {
	s := run.Settings
	t := table{Header: []string{"item", "value"}, Right: []bool{false, false}}
	for _, kv := range [][2]string{
		{"profiles", orNA(strings.Join(s.Profiles, ", "))},
		{"scenarios", orNA(strings.Join(s.Scenarios, ", "))},
		{"apps", orNA(strings.Join(s.Apps, ", "))},
		{"load", modelText(run)},
		{"warm-up (discarded)", durationText(s.Warmup)},
		{"measured window", durationText(s.Duration)},
		{"cool-down", durationText(s.Cooldown)},
		{"request timeout", durationText(s.Timeout)},
		{"max connections per app", countText(s.MaxConnections)},
		{"repeats", countText(s.Repeat)},
		{"sample interval", durationText(s.SampleInterval)},
		{"DB max connections per app", countText(s.DBMaxConns)},
	} {
		t.Rows = append(t.Rows, row{Cells: texts(kv[0], kv[1])})
	}
	if s.GRPCConns > 0 {
		t.Rows = append(t.Rows, row{Cells: texts("gRPC connections per app", countText(s.GRPCConns))})
	}
	if s.AMQPConns > 0 {
		t.Rows = append(t.Rows, row{Cells: texts("AMQP connections per app", countText(s.AMQPConns))})
	}
	if v := shardText(s); v != "" {
		t.Rows = append(t.Rows, row{Cells: texts("load generators", v)})
	}
	if s.CPUs != nil {
		t.Rows = append(t.Rows, row{Cells: texts("CPUs", cpusText(*s.CPUs))})
	}
	return t
}

// cpusText says which CPUs each side had and whether the apps had theirs
// to themselves: "isolated (-cpus auto): apps 1; PostgreSQL 0; runner 0".
func cpusText(c results.CPUs) string {
	how := "shared"
	switch {
	case c.Isolated && c.Auto:
		how = "isolated (-cpus auto)"
	case c.Isolated:
		how = "isolated (-cpus app=…)"
	}
	return fmt.Sprintf("%s: %s; PostgreSQL %s; runner %s", how, appsCPUsText(c.Apps), orNA(c.Postgres), orNA(c.Runner))
}

// appsCPUsText gives the apps' CPUs once when they all had the same,
// else app by app.
func appsCPUsText(apps map[string]string) string {
	names := slices.Sorted(maps.Keys(apps))
	if len(names) == 0 {
		return "apps " + na
	}
	var each []string
	same := true
	for _, n := range names {
		each = append(each, n+" "+apps[n])
		same = same && apps[n] == apps[names[0]]
	}
	if same {
		return "apps " + apps[names[0]]
	}
	return strings.Join(each, ", ")
}

// shardText says how many runners shared the load, empty for one.
func shardText(s results.Settings) string {
	switch {
	case s.Shards > 0:
		return fmt.Sprintf("%d shards of one schedule, merged (bench merge)", s.Shards)
	case s.Shard != nil:
		return fmt.Sprintf("shard %d of %d, schedule from %s", s.Shard.Index, s.Shard.Count, s.Shard.StartAt.Format(time.RFC3339))
	}
	return ""
}

// ratesTable shows the target rates per profile and scenario; a closed
// loop has none.
func ratesTable(run *results.Run, l layout) table {
	t := table{Header: append([]string{"profile"}, l.scenarios...)}
	if clientsOf(run) > 0 {
		return t
	}
	t.Right = make([]bool, len(t.Header))
	for i := 1; i < len(t.Right); i++ {
		t.Right[i] = true
	}
	for _, p := range l.profiles {
		rates, ok := run.Settings.Rates[p]
		if !ok && run.Settings.Pages == nil {
			continue
		}
		c := []string{p}
		for _, s := range l.scenarios {
			if v, ok := rates[s]; ok {
				c = append(c, rateText(v))
			} else if v, ok := pageRate(run, p, s); ok {
				c = append(c, rateText(v)+" views/s")
			} else {
				c = append(c, "–")
			}
		}
		t.Rows = append(t.Rows, row{Cells: texts(c...)})
	}
	return t
}
