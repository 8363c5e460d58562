package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"crudbench/bench/results"
)

// Columns of the samples CSV, as bench/sampler's Series.WriteCSV names them.
const (
	csvTime = "t_seconds"
	csvRSS  = "rss_bytes"
	csvCPU  = "cpu_fraction_over_last_second"
)

// samples is one process's readings over a run, for the over-time charts.
type samples struct {
	// cpu holds (seconds, fraction of one core); the first second has no
	// CPU rate and is absent.
	cpu []point
	// rss holds (seconds, MB).
	rss []point
}

type point struct{ x, y float64 }

// readSamples reads a samples CSV, finding its columns by header name.
func readSamples(path string) (samples, error) {
	f, err := os.Open(path)
	if err != nil {
		return samples{}, err
	}
	defer f.Close()
	cr := csv.NewReader(f)
	header, err := cr.Read()
	if err != nil {
		return samples{}, fmt.Errorf("%s: header: %w", filepath.Base(path), err)
	}
	ti, ci, ri := slices.Index(header, csvTime), slices.Index(header, csvCPU), slices.Index(header, csvRSS)
	if ti < 0 || ci < 0 || ri < 0 {
		return samples{}, fmt.Errorf("%s: want columns %s, %s and %s, have %v", filepath.Base(path), csvTime, csvCPU, csvRSS, header)
	}
	var s samples
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return s, nil
		}
		if err != nil {
			return samples{}, fmt.Errorf("%s: %w", filepath.Base(path), err)
		}
		t, err := strconv.ParseFloat(rec[ti], 64)
		if err != nil {
			return samples{}, fmt.Errorf("%s line %d: %s: %w", filepath.Base(path), line, csvTime, err)
		}
		if rec[ri] != "" {
			rss, err := strconv.ParseFloat(rec[ri], 64)
			if err != nil {
				return samples{}, fmt.Errorf("%s line %d: %s: %w", filepath.Base(path), line, csvRSS, err)
			}
			s.rss = append(s.rss, point{t, rss / results.BytesPerMB})
		}
		if rec[ci] != "" {
			cpu, err := strconv.ParseFloat(rec[ci], 64)
			if err != nil {
				return samples{}, fmt.Errorf("%s line %d: %s: %w", filepath.Base(path), line, csvCPU, err)
			}
			s.cpu = append(s.cpu, point{t, cpu})
		}
	}
}
