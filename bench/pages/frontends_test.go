package pages_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"crudbench/bench/pages"
	"crudbench/db"
	"crudbench/db/dbtest"
	"crudbench/db/seed"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// root is the repository's folder, from this package's.
const root = "../.."

// process is a front end's or an API's server started by a test.
type process struct {
	url  string
	logs *logBuffer
}

type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) add(s string) {
	l.mu.Lock()
	l.b.WriteString(s + "\n")
	l.mu.Unlock()
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// start runs a server command with env and waits for its "listening" log
// line (every crudbench server writes one, with its addr). The process is
// ended with the test; its log is printed if the test failed.
func start(t *testing.T, name string, cmd *exec.Cmd, env ...string) *process {
	t.Helper()
	cmd.Env = append(os.Environ(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &process{logs: &logBuffer{}}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("%s's log:\n%s", name, p.logs)
		}
	})
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			p.logs.add(sc.Text())
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" && line.Addr != "" {
				select {
				case listening <- line.Addr:
				default:
				}
			}
		}
		close(listening)
	}()
	select {
	case addr, ok := <-listening:
		if !ok {
			t.Fatalf("%s exited before listening; log:\n%s", name, p.logs)
		}
		p.url = "http://" + addr
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: no \"listening\" log line in 30 s; log:\n%s", name, p.logs)
	}
	return p
}

// goApp builds and starts one of the Go apps over dbURL.
func goApp(t *testing.T, name, dbURL string) *process {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "apps", name)).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", name, err, out)
	}
	return start(t, name, exec.Command(bin),
		"DATABASE_URL="+dbURL, "ADDR=127.0.0.1:0", "AUTH_SECRET=pages-test-secret-0123456789", "DEBUG_ADDR=", "METRICS_ADDR=")
}

// webBuilds builds both SPA variants into a temporary folder with the
// workspace's esbuild, as npm run build --workspace apps/web does.
func webBuilds(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("the SPA's builds need Node.js 20 or newer with npm (Debian: apt-get install nodejs npm)")
	}
	if _, err := os.Stat(filepath.Join(root, "node_modules", "esbuild")); err != nil {
		t.Fatal("the SPA's builds need the Node workspace installed: run npm ci at the repository's root")
	}
	out := t.TempDir()
	if b, err := exec.Command("node", filepath.Join(root, "apps/web/build.js"), out).CombinedOutput(); err != nil {
		t.Fatalf("building the SPA: %v\n%s", err, b)
	}
	return out
}

// staticServer serves one SPA build, proxying the API to api.
func staticServer(t *testing.T, builds, variant string, api *process) *process {
	t.Helper()
	return start(t, variant, exec.Command("node", filepath.Join(root, "apps/web/server.js")),
		"WEB_ROOT="+filepath.Join(builds, variant), "API_URL="+api.url, "ADDR=127.0.0.1:0")
}

// TestFrontEnds views the showcase person's page on the htmx site and on
// both SPA builds, over the real apps and one seeded PostgreSQL: each
// paints its marker with the 12 appointments shown, cold and warm, desktop
// and mobile-like, a warm view fetches no JavaScript; and the vacancy list
// paints its marker with a page of vacancies.
func TestFrontEnds(t *testing.T) {
	t.Parallel()
	dbURL := dbtest.Seeded(t)
	builds := webBuilds(t)
	site := goApp(t, "htmx", dbURL)
	rest := goApp(t, "rest", dbURL)
	graphql := goApp(t, "graphql", dbURL)
	fronts := []struct {
		name string
		base string
	}{
		{"htmx", site.url},
		{"web-rest", staticServer(t, builds, "web-rest", rest).url},
		{"web-graphql", staticServer(t, builds, "web-graphql", graphql).url},
	}
	b := startBrowser(t)
	for _, f := range fronts {
		t.Run(f.name, func(t *testing.T) {
			p := pages.PersonPage(f.base, seed.ShowcaseID, "editor", "editor")
			views := map[string]pages.View{}
			for _, c := range []struct {
				name string
				o    pages.Options
			}{
				{"cold", pages.Options{}},
				{"warm", pages.Options{Warm: true}},
				{"cold mobile", pages.Options{Profile: pages.Mobile, Timeout: time.Minute}},
				{"warm mobile", pages.Options{Warm: true, Profile: pages.Mobile, Timeout: time.Minute}},
			} {
				v := b.View(context.Background(), p, c.o)
				if v.Err != nil {
					t.Fatalf("%s view: %v", c.name, v.Err)
				}
				if v.Count != seed.ShowcaseAppointments {
					t.Errorf("%s view: marker painted with %d appointments shown, want %d", c.name, v.Count, seed.ShowcaseAppointments)
				}
				if v.DataVisible <= 0 || v.LCP <= 0 || v.Requests == 0 || v.Bytes == 0 {
					t.Errorf("%s view: implausible figures %+v", c.name, v)
				}
				t.Logf("%-11s %-12s data visible %6.0f ms  LCP %6.0f ms  %7d B (JS %7d B)  %2d requests (%d cached)  script %5.1f ms  task %6.1f ms",
					f.name, c.name, ms(v.DataVisible), ms(v.LCP), v.Bytes, v.JSBytes, v.Requests, v.Cached, ms(v.Script), ms(v.Task))
				views[c.name] = v
			}
			cold, warm := views["cold"], views["warm"]
			if cold.JSBytes == 0 {
				t.Errorf("a cold view fetched no JavaScript")
			}
			if warm.JSBytes != 0 {
				t.Errorf("a warm view fetched %d bytes of JavaScript, want the cached bundle", warm.JSBytes)
			}
			if warm.Bytes >= cold.Bytes {
				t.Errorf("a warm view fetched %d bytes, a cold one %d: want fewer warm", warm.Bytes, cold.Bytes)
			}
			if warm.Cached == 0 {
				t.Errorf("a warm view took nothing from the cache")
			}
			// The throttled network adds its latency to the document's
			// round trip, before any paint: a bound no load can lower,
			// where "slower than the desktop's view" is a race a load
			// that delays the unthrottled view can turn.
			latency := millis(pages.Mobile.Latency)
			for _, name := range []string{"cold mobile", "warm mobile"} {
				if m := views[name]; m.DataVisible < latency {
					t.Errorf("%s view's data visible after %v, want the throttled network's %v latency at least", name, m.DataVisible, latency)
				}
			}

			v := b.View(context.Background(), pages.VacanciesPage(f.base, "editor", "editor"), pages.Options{})
			if v.Err != nil {
				t.Fatalf("vacancy list: %v", v.Err)
			}
			if v.Count != db.DefaultLimit {
				t.Errorf("vacancy list: marker painted with %d vacancies shown, want a page of %d", v.Count, db.DefaultLimit)
			}
			t.Logf("%-11s %-12s data visible %6.0f ms  LCP %6.0f ms  %7d B (JS %7d B)  %2d requests", f.name, "vacancies", ms(v.DataVisible), ms(v.LCP), v.Bytes, v.JSBytes, v.Requests)
		})
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func millis(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }
