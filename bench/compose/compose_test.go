package compose_test

import (
	"bytes"
	"context"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"

	"crudbench/bench/scenario"
	"crudbench/bench/stack"
)

// apps are the services the bench measures: the Go apps, then the Node.js
// ones (Dockerfile.node), then the gRPC apps, then trpc, then the Next.js
// app's rows, a container each.
var apps = []string{"rest", "graphql", "htmx", "express", "express-cluster", "fastify", "nest", "yoga", "apollo", "mercurius", "nest-graphql", "grpc", "grpc-node", "trpc", "next-rest", "next-graphql", "next-trpc", "amqp"}

// brokers are the services the apps of kind amqp consume from, as
// postgres is the database: infrastructure, not a measured app.
var brokers = []string{"rabbitmq"}

// servers are all the apps compose runs: every one is measured.
var servers = apps

// scheme is the scheme the bench attaches app by, as the runner's table
// gives its kind: grpc:// for a gRPC app, amqp:// (its broker's) for an
// AMQP app, http:// for the others.
func scheme(app string) string {
	a, _ := stack.FindBuiltin(app)
	switch a.Kind {
	case scenario.KindGRPC:
		return "grpc"
	case scenario.KindAMQP:
		return "amqp"
	}
	return "http"
}

// load reads docker-compose.yml as compose would with the given environment
// (KEY=value entries; none means every default).
func load(t *testing.T, env ...string) *types.Project {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	opts, err := cli.NewProjectOptions([]string{filepath.Join(root, "docker-compose.yml")},
		cli.WithWorkingDirectory(root),
		cli.WithName("crudbench"),
		cli.WithProfiles([]string{"bench"}),
		cli.WithEnv(env),
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
	want := append(append([]string{"postgres", "seed", "bench"}, brokers...), servers...)
	for _, name := range want {
		if _, ok := p.Services[name]; !ok {
			t.Fatalf("service %s missing", name)
		}
	}

	oneShot := map[string]bool{"seed": true, "bench": true}
	for name := range p.Services {
		if !oneShot[name] && name != "postgres" && !slices.Contains(brokers, name) && !slices.Contains(servers, name) {
			t.Errorf("service %s is neither the database, a one-shot nor an app", name)
		}
	}
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
	for _, name := range servers {
		s := p.Services[name]
		if d := s.DependsOn["postgres"]; d.Condition != types.ServiceConditionHealthy {
			t.Errorf("%s waits for postgres with %q, want healthy", name, d.Condition)
		}
		if d := s.DependsOn["seed"]; d.Condition != types.ServiceConditionCompletedSuccessfully {
			t.Errorf("%s waits for seed with %q, want completed", name, d.Condition)
		}
		// Fairness: the same pool, limits, secret and log level for every app.
		for _, k := range []string{"DB_MAX_CONNS", "AUTH_SECRET", "DATABASE_URL", "LOG_LEVEL"} {
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
		if !s.ReadOnly || !slices.Contains(s.SecurityOpt, "no-new-privileges:true") {
			t.Errorf("%s: read_only %v, security_opt %q, want a read-only root and no-new-privileges", name, s.ReadOnly, s.SecurityOpt)
		}
	}

	b := p.Services["bench"]
	if !slices.Contains(b.Profiles, "bench") {
		t.Errorf("bench is not under the bench profile: %v", b.Profiles)
	}
	if b.Pid != "" {
		t.Errorf("bench pid = %q, want the container's own (it reads the apps' metrics, not the host's /proc)", b.Pid)
	}
	attached := benchFlagURLs(t, b.Command, "-attach")
	for _, name := range apps {
		u := attached[name]
		if u == nil {
			t.Errorf("the bench's -attach does not name %s", name)
		} else if scheme(name) == "amqp" {
			// An amqp app is attached by its broker, the one it consumes.
			if v := p.Services[name].Environment["AMQP_URL"]; v == nil || *v != u.String() || u.Hostname() != "rabbitmq" {
				t.Errorf("the bench attaches %s at %s, want the broker its AMQP_URL names, on rabbitmq", name, u.Redacted())
			}
			if d := p.Services[name].DependsOn["rabbitmq"]; d.Condition != types.ServiceConditionHealthy {
				t.Errorf("%s waits for rabbitmq with %q, want healthy", name, d.Condition)
			}
		} else if port := addrPort(t, p.Services[name]); u.Scheme != scheme(name) || u.Hostname() != name || u.Port() != port {
			t.Errorf("the bench attaches %s at %s, want %s://%s:%s (its ADDR)", name, u, scheme(name), name, port)
		}
		if d := b.DependsOn[name]; d.Condition != types.ServiceConditionHealthy {
			t.Errorf("the bench waits for %s with %q, want healthy", name, d.Condition)
		}
	}
}

// TestAppsMatchRunner checks the compose file against the runner's table
// of built-in apps: the bench's -attach is what the runner parses, every
// app is attached as its built-in kind, and every built-in app runs in
// compose but the variants that differ only by their environment (e.g.
// graphql-tuned), as the file carries none of those. Each Node.js app's
// image installs its package's workspace and starts its main script.
func TestAppsMatchRunner(t *testing.T) {
	p := load(t)
	cmd := p.Services["bench"].Command
	i := slices.Index(cmd, "-attach")
	if i < 0 || i+1 == len(cmd) {
		t.Fatalf("the bench command has no -attach value: %q", cmd)
	}
	attached, err := stack.ParseAttach(cmd[i+1])
	if err != nil {
		t.Fatalf("the runner refuses the bench's -attach: %v", err)
	}
	for _, a := range attached {
		if b, ok := stack.FindBuiltin(a.Name); !ok || b.Kind != a.Kind {
			t.Errorf("-attach gives %s as kind %s; the runner's table has %v", a.Name, a.Kind, b.Kind)
		}
	}

	stages := dockerStages(t, "../../Dockerfile.node")
	for _, b := range stack.Builtin {
		t.Run(b.Name, func(t *testing.T) {
			if slices.Contains(notComposed, b.Name) {
				if slices.Contains(servers, b.Name) {
					t.Errorf("compose runs it: take it off notComposed")
				}
				return
			}
			if !slices.Contains(servers, b.Name) {
				if len(b.RunEnv) == 0 && len(b.BuildEnv) == 0 {
					t.Errorf("a built-in app, not a variant of its environment alone, and compose does not run it")
				}
				return
			}
			if b.Toolchain != stack.ToolchainNode {
				return
			}
			if s := p.Services[b.Name]; s.Build == nil || s.Build.Dockerfile != "Dockerfile.node" {
				t.Fatalf("built from %v, want Dockerfile.node", s.Build)
			}
			st, ok := stages[b.Name]
			if !ok {
				t.Fatalf("Dockerfile.node has no stage %s", b.Name)
			}
			if want := []string{"node", b.Main}; !slices.Equal(st.entrypoint(stages), want) {
				t.Errorf("its image starts %q, want %q", st.entrypoint(stages), want)
			}
			if !strings.Contains(st.installs(stages), "--workspace apps/"+b.Package+" ") {
				t.Errorf("its image does not install the workspace apps/%s (npm ci --workspace)", b.Package)
			}
		})
	}
}

// notComposed are the built-in apps compose does not run, as
// docs/compose.md says: none, now that it runs amqp's broker too.
var notComposed []string

// stage is one stage of a Dockerfile: the stage it is built FROM and the
// text of its instructions.
type stage struct {
	from, text string
}

// dockerStages reads the named stages of a Dockerfile.
func dockerStages(t *testing.T, path string) map[string]stage {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	stages := map[string]stage{}
	name := ""
	for line := range strings.Lines(string(b)) {
		if m := regexp.MustCompile(`^FROM (\S+) AS (\S+)`).FindStringSubmatch(line); m != nil {
			name = m[2]
			stages[name] = stage{from: m[1]}
			continue
		}
		if name != "" {
			st := stages[name]
			st.text += line
			stages[name] = st
		}
	}
	return stages
}

// entrypoint is the stage's ENTRYPOINT, its own or the one it inherits.
func (s stage) entrypoint(stages map[string]stage) []string {
	if m := regexp.MustCompile(`(?m)^ENTRYPOINT \[(.*)\]`).FindStringSubmatch(s.text); m != nil {
		var args []string
		for _, arg := range strings.Split(m[1], ",") {
			args = append(args, strings.Trim(strings.TrimSpace(arg), `"`))
		}
		return args
	}
	if parent, ok := stages[s.from]; ok {
		return parent.entrypoint(stages)
	}
	return nil
}

// installs is the text of the stages the stage copies its node_modules
// from (COPY --from=…), its parent's included.
func (s stage) installs(stages map[string]stage) string {
	var text string
	for _, m := range regexp.MustCompile(`COPY --from=(\S+) \S*node_modules`).FindAllStringSubmatch(s.text, -1) {
		text += stages[m[1]].text
	}
	if parent, ok := stages[s.from]; ok {
		text += parent.installs(stages)
	}
	return text
}

// TestMetricsWiring checks that every app serves its metrics on the compose
// network and not on the host, and that the bench scrapes each app's
// METRICS_ADDR, and nothing else, by its service name.
func TestMetricsWiring(t *testing.T) {
	p := load(t)
	scraped := benchFlagURLs(t, p.Services["bench"].Command, "-metrics-url")
	for _, name := range servers {
		t.Run(name, func(t *testing.T) {
			port := metricsPort(t, p.Services[name])
			for _, published := range p.Services[name].Ports {
				if strconv.Itoa(int(published.Target)) == port {
					t.Errorf("metrics port %s is published on the host as %s", port, published.Published)
				}
			}
			u := scraped[name]
			if u == nil {
				t.Fatalf("the bench's -metrics-url does not name %s", name)
			}
			if u.Scheme != "http" || u.Hostname() != name || u.Port() != port || u.Path != "/metrics" {
				t.Errorf("the bench scrapes %s at %s, want http://%s:%s/metrics", name, u, name, port)
			}
		})
	}
	for name := range scraped {
		if !slices.Contains(apps, name) {
			t.Errorf("the bench's -metrics-url names %s, which is not an app", name)
		}
	}
}

// addrPort returns the port of s's ADDR, the one the app listens on.
func addrPort(t *testing.T, s types.ServiceConfig) string {
	t.Helper()
	v := s.Environment["ADDR"]
	if v == nil {
		t.Fatal("no ADDR")
	}
	_, port, err := net.SplitHostPort(*v)
	if err != nil || port == "" {
		t.Fatalf("ADDR %q is not host:port: %v", *v, err)
	}
	return port
}

// metricsPort returns the port of s's METRICS_ADDR, failing unless the
// address listens on every interface: on loopback the bench's container
// could not reach it.
func metricsPort(t *testing.T, s types.ServiceConfig) string {
	t.Helper()
	v := s.Environment["METRICS_ADDR"]
	if v == nil {
		t.Fatal("no METRICS_ADDR")
	}
	host, port, err := net.SplitHostPort(*v)
	if err != nil || port == "" {
		t.Fatalf("METRICS_ADDR %q is not host:port: %v", *v, err)
	}
	if host != "" && host != "0.0.0.0" && host != "::" {
		t.Errorf("METRICS_ADDR %q binds %s only, want every interface", *v, host)
	}
	return port
}

// benchFlagURLs returns the name=URL pairs the bench command gives flag,
// by name. A URL may follow a kind (name=kind@URL, as -attach names an app
// that is not built in): the kind is dropped.
func benchFlagURLs(t *testing.T, cmd types.ShellCommand, flag string) map[string]*url.URL {
	t.Helper()
	i := slices.Index(cmd, flag)
	if i < 0 || i+1 == len(cmd) {
		t.Fatalf("the bench command has no %s value: %q", flag, cmd)
	}
	urls := make(map[string]*url.URL)
	for pair := range strings.SplitSeq(cmd[i+1], ",") {
		name, raw, ok := strings.Cut(pair, "=")
		if kind, rest, found := strings.Cut(raw, "@"); found && !strings.Contains(kind, "/") {
			raw = rest
		}
		u, err := url.Parse(raw)
		if !ok || err != nil {
			t.Fatalf("%s: %q is not name=URL", flag, pair)
		}
		urls[name] = u
	}
	return urls
}

// TestPortBindings checks that every published port is on loopback unless
// BIND_ADDR opens the apps on purpose, and that PostgreSQL, which needs no
// outside clients, stays on loopback even then.
func TestPortBindings(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     []string
		appHost string
	}{
		{"default", nil, "127.0.0.1"},
		{"opened with BIND_ADDR", []string{"BIND_ADDR=0.0.0.0"}, "0.0.0.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := load(t, tc.env...)
			want := map[string]string{"postgres": "127.0.0.1", "rabbitmq": "127.0.0.1"}
			for _, name := range servers {
				want[name] = tc.appHost
			}
			for name, s := range p.Services {
				host, publishes := want[name]
				if !publishes {
					if len(s.Ports) > 0 {
						t.Errorf("%s publishes ports %v, want none", name, s.Ports)
					}
					continue
				}
				if len(s.Ports) == 0 {
					t.Errorf("%s publishes no port", name)
				}
				for _, port := range s.Ports {
					if port.HostIP != host {
						t.Errorf("%s publishes %s on %q, want %q", name, port.Published, port.HostIP, host)
					}
				}
			}
		})
	}
}

// TestBuildStampsCommit checks that every built service passes COMMIT from
// the environment to the build (the same value, so all share one build
// stage), and that the Dockerfile links it into a variable the bench really
// has: -X on a missing symbol is silently ignored.
func TestBuildStampsCommit(t *testing.T) {
	p := load(t, "COMMIT=feedc0ffee42")
	for name, s := range p.Services {
		if s.Build == nil {
			continue
		}
		if c := s.Build.Args["COMMIT"]; c == nil || *c != "feedc0ffee42" {
			t.Errorf("%s: build argument COMMIT = %v, want the environment's feedc0ffee42", name, c)
		}
	}

	dockerfile, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`-X (\S+)=\$\{COMMIT\}`).FindSubmatch(dockerfile)
	if m == nil {
		t.Fatal("the Dockerfile links no variable from ${COMMIT} (-X name=${COMMIT})")
	}
	bin := filepath.Join(t.TempDir(), "bench")
	marker := "stamped-commit-" + strconv.Itoa(os.Getpid())
	build := exec.Command("go", "build", "-ldflags", "-X "+string(m[1])+"="+marker, "-o", bin, "../../bench")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(marker)) {
		t.Errorf("the bench binary built with -X %s=%s does not hold the value: no such variable", m[1], marker)
	}
}

// TestBenchUser checks that the bench runs as root by default (it must be
// able to write into a ./results folder Docker created root-owned) and as
// the invoking user when BENCH_USER says so.
func TestBenchUser(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		want string
	}{
		{"default", nil, "0:0"},
		{"BENCH_USER", []string{"BENCH_USER=1000:1000"}, "1000:1000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := load(t, tc.env...).Services["bench"].User; got != tc.want {
				t.Errorf("bench user = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestBenchScenarios checks that the bench runs the scenarios it runs by
// default unless BENCH_SCENARIOS names others: the compose file has to
// spell the default out, since an empty -scenarios is no list.
func TestBenchScenarios(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		want string
	}{
		{"default", nil, strings.Join(scenario.Core, ",")},
		{"BENCH_SCENARIOS", []string{"BENCH_SCENARIOS=read-one,write"}, "read-one,write"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := load(t, tc.env...).Services["bench"].Command
			i := slices.Index(cmd, "-scenarios")
			if i < 0 || i+1 == len(cmd) {
				t.Fatalf("the bench command has no -scenarios value: %q", cmd)
			}
			if got := cmd[i+1]; got != tc.want {
				t.Errorf("bench -scenarios = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestReadmeMatchesCompose checks that the docs/compose.md's compose section names
// the same published ports, services and profile as the file.
func TestReadmeMatchesCompose(t *testing.T) {
	p := load(t)
	b, err := os.ReadFile("../../docs/compose.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i := strings.Index(readme, "## Run with docker compose")
	if i < 0 {
		t.Fatal(`docs/compose.md has no "## Run with docker compose" section`)
	}
	section := readme[i:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}

	// The HTTP apps are shown by URL, the gRPC app as a grpcurl target.
	published := map[string]bool{}
	for _, name := range servers {
		for _, port := range p.Services[name].Ports {
			published[port.Published] = true
			want := "http://localhost:" + port.Published
			if scheme(name) == "grpc" {
				want = "-plaintext localhost:" + port.Published
			}
			if !strings.Contains(section, want) {
				t.Errorf("docs/compose.md does not show %s as %s", name, want)
			}
		}
	}
	for _, m := range regexp.MustCompile(`localhost:(\d+)`).FindAllStringSubmatch(section, -1) {
		if !published[m[1]] {
			t.Errorf("docs/compose.md shows port %s, which no app publishes", m[1])
		}
	}
	for _, cmd := range []string{"docker compose up", "docker compose run --rm bench", "BENCH_PROFILES=", "docker compose down",
		"Compose v2", "BIND_ADDR=0.0.0.0", "DB CPU is always n/a", "METRICS_ADDR", "`logs/` is empty", "docker compose logs"} {
		if !strings.Contains(section, cmd) {
			t.Errorf("docs/compose.md compose section lacks %q", cmd)
		}
	}
	if !strings.Contains(section, "results/") {
		t.Error("docs/compose.md compose section does not say where results land")
	}
	file, err := os.ReadFile("../../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]bool{}
	for _, m := range regexp.MustCompile(`\$\{([A-Z_]+)`).FindAllStringSubmatch(string(file), -1) {
		vars[m[1]] = true
	}
	for v := range vars {
		if !strings.Contains(section, "`"+v+"`") {
			t.Errorf("docs/compose.md compose section does not document the variable %s", v)
		}
	}
}
