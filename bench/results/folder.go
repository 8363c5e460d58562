package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A results folder holds one run: results.json (beside the reports), and
// the files the results name, in these folders. The runner writes them,
// bench merge copies and rewrites them, the report links and reads them:
// all by the names below.
const (
	JSONFile = "results.json"

	RawDir     = "raw"     // vegeta's binary results of each measured window
	SamplesDir = "samples" // the sampler's CSVs
	LogsDir    = "logs"    // the logs of the processes the runner started
	// ProfilesDir holds the CPU profiles of -profile-cpu.
	ProfilesDir = "profiles"
)

// replicaSuffix names the samples of an app's replicas, numbered from 1.
const replicaSuffix = ".replica"

// RunID names a run by the second it started: its folder, and the tag of
// the rows its write runs create.
func RunID(started time.Time) string { return started.Format("20060102-150405") }

// Folder is the results folder under out of a run started at started, or
// of one shard of it: shards of one run start in the same second, on one
// machine too, so a shard's folder names the shard.
func Folder(out string, started time.Time, shard *Shard) string {
	dir := filepath.Join(out, RunID(started))
	if shard != nil {
		dir += fmt.Sprintf("-shard%dof%d", shard.Index, shard.Count)
	}
	return dir
}

// RawFile names the raw results of the run whose files are called base
// (profile-scenario-app, and -rN for a repeat), relative to the results
// folder with slashes, as a Result holds it.
func RawFile(base string) string { return RawDir + "/" + base + ".bin" }

// SamplesFile names the app's samples of the run whose files are called
// base, as RawFile names its raw results.
func SamplesFile(base string) string { return SamplesDir + "/" + base + ".csv" }

// ProfileFile names the CPU profile called name, relative to the results
// folder.
func ProfileFile(name string) string { return ProfilesDir + "/" + name + ".pb.gz" }

// PostgresSamplesFile names PostgreSQL's samples beside an app's
// samplesFile (a Result's SamplesFile).
func PostgresSamplesFile(samplesFile string) string {
	return strings.TrimSuffix(samplesFile, ".csv") + ".postgres.csv"
}

// BrokerSamplesFile names the broker's samples beside an amqp app's
// samplesFile (a Result's SamplesFile).
func BrokerSamplesFile(samplesFile string) string {
	return strings.TrimSuffix(samplesFile, ".csv") + ".broker.csv"
}

// ReplicaSamplesFiles names the samples files of an app's n replicas
// beside its run's samplesFile (a Result's SamplesFile): <run>.replica1.csv
// and on; none for an app of one process.
func ReplicaSamplesFiles(samplesFile string, n int) []string {
	if n < 2 {
		return nil
	}
	base := strings.TrimSuffix(samplesFile, ".csv")
	files := make([]string, n)
	for i := range files {
		files[i] = fmt.Sprintf("%s%s%d.csv", base, replicaSuffix, i+1)
	}
	return files
}

// Files lists what r's results folder holds of r besides its raw results:
// the app's samples (and its replicas'), PostgreSQL's beside them and the
// CPU profile, relative to the folder. A file the runner could not write
// (an app it could not see) may be missing.
func (r *Result) Files() []string {
	var names []string
	if r.SamplesFile != "" {
		names = append(names, r.SamplesFile, PostgresSamplesFile(r.SamplesFile))
		names = append(names, ReplicaSamplesFiles(r.SamplesFile, r.AppCost.Replicas)...)
		if r.Broker != nil && r.Broker.CPUAvailable {
			names = append(names, BrokerSamplesFile(r.SamplesFile))
		}
	}
	if r.CPUProfile != nil && r.CPUProfile.File != "" {
		names = append(names, r.CPUProfile.File)
	}
	return names
}

// Write writes run as results.json into dir, creating dir if needed.
// The file always carries SchemaVersion, whatever run.SchemaVersion says,
// so a writer that forgot to set it still produces a file Read accepts;
// the caller's run is not changed.
func Write(dir string, run *Run) error {
	if run == nil {
		return errors.New("results: nil run")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	r := *run
	r.SchemaVersion = SchemaVersion
	js, err := json.MarshalIndent(&r, "", "  ")
	if err != nil {
		return fmt.Errorf("results: encode %s: %w", JSONFile, err)
	}
	if err := os.WriteFile(filepath.Join(dir, JSONFile), append(js, '\n'), 0o644); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}

// Read loads a results.json written by Write, of any schema version from
// OldestReadable to SchemaVersion: an older file simply lacks the newer
// sections (a version 1 file has no SLO, so its verdicts are ok or
// saturated only). It refuses any other version, whose fields may mean
// something else.
func Read(path string) (*Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	var run Run
	if err := json.Unmarshal(b, &run); err != nil {
		return nil, fmt.Errorf("results: decode %s: %w", path, err)
	}
	if v := run.SchemaVersion; v < OldestReadable || v > SchemaVersion {
		return nil, fmt.Errorf("results: %s has schema version %d, this build reads versions %d to %d", path, v, OldestReadable, SchemaVersion)
	}
	return &run, nil
}
