package db

import "time"

// PoolStats is a snapshot of the Store's connection pool, in the pool's own
// terms but without its driver's types, so that an app can export it (as
// Prometheus metrics) and see queueing for connections beside its CPU.
type PoolStats struct {
	// AcquiredConns are in use by a request right now.
	AcquiredConns int32
	// IdleConns are open and waiting for a request.
	IdleConns int32
	// TotalConns are all open connections, acquired, idle and being
	// opened.
	TotalConns int32
	// MaxConns is the pool's size (DB_MAX_CONNS).
	MaxConns int32
	// AcquireCount counts the connections handed out since the pool opened.
	AcquireCount int64
	// AcquireDuration is the time all those acquisitions spent waiting,
	// summed: divided by AcquireCount it is the mean wait for a connection.
	AcquireDuration time.Duration
}

// PoolStats returns the pool's statistics now. It is cheap (no database
// round trip), so a metrics scrape can call it every time.
func (s *Store) PoolStats() PoolStats {
	st := s.pool.Stat()
	return PoolStats{
		AcquiredConns:   st.AcquiredConns(),
		IdleConns:       st.IdleConns(),
		TotalConns:      st.TotalConns(),
		MaxConns:        st.MaxConns(),
		AcquireCount:    st.AcquireCount(),
		AcquireDuration: st.AcquireDuration(),
	}
}
