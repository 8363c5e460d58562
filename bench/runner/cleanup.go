package runner

import (
	"context"
	"errors"
	"fmt"

	"crudbench/bench/scenario"
)

// writesRows reports whether a scenario creates rows that a run must clean
// up after.
func writesRows(sc string) bool {
	return sc == scenario.Write || sc == scenario.Mixed
}

// CleanupWrites deletes every row a write run left alive, including rows
// whose create answer never arrived (found by title in the database), and
// checks the vacancy count is back where it was.
func (r *runner) CleanupWrites(ctx context.Context, wl *scenario.Workload, tag string, before int64) error {
	var extra []int64
	if r.probe != nil {
		ids, err := r.probe.VacanciesTitled(ctx, tag+" ")
		if err != nil {
			return fmt.Errorf("find rows left by the run: %w", err)
		}
		extra = ids
	}
	if _, err := wl.Cleanup(ctx, r.client, extra...); err != nil {
		return fmt.Errorf("delete rows left by the run: %w", err)
	}
	if r.probe != nil && before >= 0 {
		after, err := r.probe.CountVacancies(ctx)
		if err != nil {
			return err
		}
		if after != before {
			return fmt.Errorf("%d vacancies before the run, %d after cleanup: rows left behind", before, after)
		}
	}
	return nil
}

// VacancyCount is the number of vacancies before a write run, for
// CleanupWrites to compare against; -1 when it cannot be read, and when
// the run is sharded: the other shards write and clean up at the same
// time, so the count says nothing about this shard's rows.
func (r *runner) VacancyCount(ctx context.Context) int64 {
	if r.probe != nil && r.cfg.Shard == nil {
		if n, err := r.probe.CountVacancies(ctx); err == nil {
			return n
		}
	}
	return -1
}

// errNoStatements stands for a statement count that cannot be read, so a
// run without pg_stat_statements reports no statements per request.
var errNoStatements = errors.New("pg_stat_statements unavailable")

// Statements reads PostgreSQL's running count of statements executed.
func (r *runner) Statements(ctx context.Context) (uint64, error) {
	if !r.statementsOK {
		return 0, errNoStatements
	}
	return r.probe.Statements(ctx)
}
