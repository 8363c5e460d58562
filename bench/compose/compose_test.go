package compose_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

var apps = []string{"rest", "graphql", "htmx"}

func load(t *testing.T) *types.Project {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	opts, err := cli.NewProjectOptions([]string{filepath.Join(root, "docker-compose.yml")},
		cli.WithWorkingDirectory(root),
		cli.WithName("crudbench"),
		cli.WithProfiles([]string{"bench"}),
		cli.WithEnv([]string{}),
	)
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatalf("docker-compose.yml does not load: %v", err)
	}
	return p
}

func TestComposeFile(t *testing.T) {
	p := load(t)
	want := append([]string{"postgres", "seed", "bench"}, apps...)
	for _, name := range want {
		if _, ok := p.Services[name]; !ok {
			t.Fatalf("service %s missing", name)
		}
	}

	oneShot := map[string]bool{"seed": true, "bench": true}
	for name, s := range p.Services {
		t.Run(name, func(t *testing.T) {
			if s.Privileged || len(s.CapAdd) > 0 {
				t.Errorf("runs privileged or adds capabilities")
			}
			if oneShot[name] {
				if s.Restart != "" && s.Restart != "no" {
					t.Errorf("one-shot service restarts: %q", s.Restart)
				}
				return
			}
			if s.HealthCheck == nil || len(s.HealthCheck.Test) == 0 || s.HealthCheck.Disable {
				t.Errorf("no health check")
			}
		})
	}

	if img := p.Services["postgres"].Image; !regexp.MustCompile(`^postgres:\d+`).MatchString(img) {
		t.Errorf("postgres image %q does not pin a major version", img)
	}
	if cmd := strings.Join(p.Services["postgres"].Command, " "); !strings.Contains(cmd, "shared_preload_libraries=pg_stat_statements") {
		t.Errorf("postgres does not preload pg_stat_statements: %s", cmd)
	}
	if d := p.Services["seed"].DependsOn["postgres"]; d.Condition != types.ServiceConditionHealthy {
		t.Errorf("seed waits for postgres with %q, want healthy", d.Condition)
	}

	first := p.Services[apps[0]]
	for _, name := range apps {
		s := p.Services[name]
		if d := s.DependsOn["postgres"]; d.Condition != types.ServiceConditionHealthy {
			t.Errorf("%s waits for postgres with %q, want healthy", name, d.Condition)
		}
		if d := s.DependsOn["seed"]; d.Condition != types.ServiceConditionCompletedSuccessfully {
			t.Errorf("%s waits for seed with %q, want completed", name, d.Condition)
		}
		// Fairness: the same pool, limits and secret for all three apps.
		for _, k := range []string{"DB_MAX_CONNS", "AUTH_SECRET", "DATABASE_URL"} {
			if v, w := s.Environment[k], first.Environment[k]; v == nil || w == nil || *v != *w {
				t.Errorf("%s: %s differs from %s's", name, k, apps[0])
			}
		}
		if s.CPUS != first.CPUS || s.MemLimit != first.MemLimit || s.CPUS == 0 || s.MemLimit == 0 {
			t.Errorf("%s: limits cpus=%v mem=%v, %s has cpus=%v mem=%v", name, s.CPUS, s.MemLimit, apps[0], first.CPUS, first.MemLimit)
		}
		if s.Build == nil || s.Build.Target != name {
			t.Errorf("%s: built from target %v, want %s", name, s.Build, name)
		}
	}

	b := p.Services["bench"]
	if !slices.Contains(b.Profiles, "bench") {
		t.Errorf("bench is not under the bench profile: %v", b.Profiles)
	}
	if b.Pid != "host" {
		t.Errorf("bench pid = %q, want host (its sampler must see the apps)", b.Pid)
	}
	cmd := strings.Join(b.Command, " ")
	for _, name := range apps {
		if !strings.Contains(cmd, name+"=http://"+name+":") {
			t.Errorf("bench command does not attach to %s: %s", name, cmd)
		}
	}
}

// TestReadmeMatchesCompose checks that the README's compose section names
// the same published ports, services and profile as the file.
func TestReadmeMatchesCompose(t *testing.T) {
	p := load(t)
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i := strings.Index(readme, "## Run with docker compose")
	if i < 0 {
		t.Fatal(`README has no "## Run with docker compose" section`)
	}
	section := readme[i:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}

	published := map[string]bool{}
	for _, name := range apps {
		for _, port := range p.Services[name].Ports {
			published[port.Published] = true
			if !strings.Contains(section, "http://localhost:"+port.Published) {
				t.Errorf("README does not show %s at http://localhost:%s", name, port.Published)
			}
		}
	}
	for _, m := range regexp.MustCompile(`http://localhost:(\d+)`).FindAllStringSubmatch(section, -1) {
		if !published[m[1]] {
			t.Errorf("README shows port %s, which no app publishes", m[1])
		}
	}
	for _, cmd := range []string{"docker compose up", "docker compose run --rm bench", "BENCH_PROFILES=", "docker compose down"} {
		if !strings.Contains(section, cmd) {
			t.Errorf("README compose section lacks %q", cmd)
		}
	}
	if !strings.Contains(section, "results/") {
		t.Error("README compose section does not say where results land")
	}
}
