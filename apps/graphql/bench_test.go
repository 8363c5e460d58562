package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// BenchmarkReads measures the bench's read-one and read-small queries
// through the real handler over HTTP and PostgreSQL. Run it beside the REST
// app's BenchmarkReads in one invocation (go test -run ^$ -bench Reads
// ./apps/rest ./apps/graphql) and compare the ratio; -cpuprofile shows where
// a request's time goes. The client only drains the body, as in the REST
// benchmark, so both pay the same client cost. Beside the wall time, which
// PostgreSQL's round trips dominate, it reports cpu-ms/op: the process's
// CPU (server and client) per request, the figure the GC setting of the
// tuned variant moves (GOGC=400 go test -bench Reads, see the README).
func BenchmarkReads(b *testing.B) {
	app := startApp(b)
	token := app.login(b, "viewer")
	for _, bc := range []struct {
		name, doc string
		vars      map[string]any
	}{
		{"read-one", "showcase", map[string]any{"id": "1"}},
		{"read-small", "open_vacancies", nil},
	} {
		body, err := json.Marshal(map[string]any{"query": loadQuery(b, bc.doc), "variables": bc.vars})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			start := processCPU(b)
			for b.Loop() {
				req, _ := http.NewRequest(http.MethodPost, app.URL+"/graphql", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+token)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || n < 1000 {
					b.Fatalf("status %d, %d bytes", resp.StatusCode, n)
				}
			}
			cpu := processCPU(b) - start
			b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}

// processCPU is the CPU time this process has used so far, user and system.
func processCPU(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
