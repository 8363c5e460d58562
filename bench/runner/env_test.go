package runner_test

import (
	"context"
	"regexp"
	"testing"

	"crudbench/bench/runner"
)

// TestSourceCommit checks how a report names what it measured: the
// repository's commit when there is one, else the commit stamped into the
// binary at build time (docker builds have no .git), else plainly unknown.
func TestSourceCommit(t *testing.T) {
	ctx := context.Background()
	outside := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", outside)
	for _, tc := range []struct {
		name, dir, stamped string
		want               *regexp.Regexp
	}{
		{"repository wins over stamp", "../..", "feedc0ffee", regexp.MustCompile(`^[0-9a-f]{12}(-dirty)?$`)},
		{"stamped outside a repository", outside, "feedc0ffee", regexp.MustCompile(`^feedc0ffee \(stamped at build\)$`)},
		{"stamped without a module", "", "feedc0ffee", regexp.MustCompile(`^feedc0ffee \(stamped at build\)$`)},
		{"neither", outside, "", regexp.MustCompile(`^unknown \(not run from the repository, no commit stamped at build\)$`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := runner.SourceCommit(ctx, tc.dir, tc.stamped); !tc.want.MatchString(got) {
				t.Errorf("SourceCommit(%q, %q) = %q, want %v", tc.dir, tc.stamped, got, tc.want)
			}
		})
	}
}
