package results_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/results"
)

func TestWriteCreatesFolderAndSetsSchemaVersion(t *testing.T) {
	run := &results.Run{
		StartedAt: time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC),
		Settings:  results.Settings{Apps: []string{"rest"}, SLOP99: results.Duration(results.DefaultSLOP99)},
		Results:   []results.Result{{Profile: "light", Scenario: "read-one", App: "rest", Verdict: results.VerdictOK}},
	}
	dir := filepath.Join(t.TempDir(), "results", "20260314-093000")
	if err := results.Write(dir, run); err != nil {
		t.Fatalf("Write: %v", err)
	}
	got, err := results.Read(filepath.Join(dir, results.JSONFile))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if got.SchemaVersion != results.SchemaVersion {
		t.Errorf("SchemaVersion = %d, want %d", got.SchemaVersion, results.SchemaVersion)
	}
	if run.SchemaVersion != 0 {
		t.Errorf("Write changed the caller's run: SchemaVersion = %d", run.SchemaVersion)
	}
	got.SchemaVersion = 0
	if d := cmp.Diff(run, got); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}

func TestReadRejectsOtherSchemaVersions(t *testing.T) {
	for _, v := range []int{results.OldestReadable - 1, results.SchemaVersion + 1, 99} {
		t.Run(fmt.Sprint(v), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), results.JSONFile)
			if err := os.WriteFile(path, fmt.Appendf(nil, `{"schemaVersion": %d}`, v), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := results.Read(path)
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("schema version %d,", v)) {
				t.Errorf("Read of schema version %d: err = %v, want an error naming the version", v, err)
			}
		})
	}
}

// TestFolderLayout checks the names the runner writes and bench merge
// copies by: a shard's folder names the shard, and a result's files are
// its samples, PostgreSQL's and each replica's beside them, and its
// profile.
func TestFolderLayout(t *testing.T) {
	started := time.Date(2026, 3, 14, 9, 30, 5, 0, time.UTC)
	if got, want := results.Folder("out", started, nil), filepath.Join("out", "20260314-093005"); got != want {
		t.Errorf("Folder = %s, want %s", got, want)
	}
	if got, want := results.Folder("out", started, &results.Shard{Index: 1, Count: 3}), filepath.Join("out", "20260314-093005-shard1of3"); got != want {
		t.Errorf("Folder of a shard = %s, want %s", got, want)
	}
	r := results.Result{
		RawFile: results.RawFile("light-read-one-rest"), SamplesFile: results.SamplesFile("light-read-one-rest"),
		AppCost:    results.ProcessCost{Replicas: 2},
		CPUProfile: &results.CPUProfile{File: results.ProfileFile("light-read-one-rest")},
	}
	if r.RawFile != "raw/light-read-one-rest.bin" {
		t.Errorf("RawFile = %s", r.RawFile)
	}
	want := []string{
		"samples/light-read-one-rest.csv", "samples/light-read-one-rest.postgres.csv",
		"samples/light-read-one-rest.replica1.csv", "samples/light-read-one-rest.replica2.csv",
		"profiles/light-read-one-rest.pb.gz",
	}
	if d := cmp.Diff(want, r.Files()); d != "" {
		t.Errorf("Files (-want +got):\n%s", d)
	}
}
