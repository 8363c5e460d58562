package stack_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"crudbench/bench/stack"
	"crudbench/db/dbtest"
)

func TestFrontEnds(t *testing.T) {
	root, err := stack.ModuleRoot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range stack.FrontEnds {
		t.Run(a.Name, func(t *testing.T) {
			if err := stack.CheckName(a.Name); err != nil {
				t.Error(err)
			}
			if _, dup := stack.FindBuiltin(a.Name); dup {
				t.Errorf("%s is a front end and a built-in app", a.Name)
			}
			api, ok := stack.FindBuiltin(a.Fronts)
			if !ok || api.Difference != "" {
				t.Errorf("%s fronts %q, want a kind's default app", a.Name, a.Fronts)
			}
			if a.Toolchain != stack.ToolchainNode || a.Kind != "" {
				t.Errorf("%s: toolchain %q, kind %q; want a Node static server with no kind", a.Name, a.Toolchain, a.Kind)
			}
			checkSources(t, root, a, false)
			if got, ok := stack.FindFrontEnd(a.Name); !ok || got.Name != a.Name {
				t.Errorf("FindFrontEnd(%q) = %+v, %v", a.Name, got, ok)
			}
		})
	}
}

// TestStartFrontEnd starts web-rest in front of a real rest app: its
// build's index at every page's path, and the API's answer, as the API
// gives it, at the API's paths.
func TestStartFrontEnd(t *testing.T) {
	root, err := stack.ModuleRoot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	web, _ := stack.FindFrontEnd("web-rest")
	api, _ := stack.FindBuiltin(web.Fronts)
	dir := t.TempDir()
	if err := stack.Build(t.Context(), root, dir, []stack.App{api, web}, io.Discard); err != nil {
		t.Fatal(err)
	}
	cfg := stack.AppConfig{DatabaseURL: dbtest.Empty(t), DBMaxConns: 2, AuthSecret: "stack-test-secret-0123456789", Log: io.Discard}
	if _, err := stack.StartApp(t.Context(), web, filepath.Join(dir, web.Name), cfg); err == nil || !strings.Contains(err.Error(), "rest") {
		t.Errorf("a front end started without its API's URL: %v, want an error naming rest", err)
	}
	a, err := stack.StartApp(t.Context(), api, filepath.Join(dir, api.Name), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	cfg.APIURL = a.URL
	p, err := stack.StartApp(t.Context(), web, filepath.Join(dir, web.Name), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	if p.DebugURL != "" || p.MetricsURL != "" || p.IdleRSSBytes == 0 {
		t.Errorf("DebugURL %q, MetricsURL %q, idle RSS %d; want none, none and its memory", p.DebugURL, p.MetricsURL, p.IdleRSSBytes)
	}
	environ, err := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/environ")
	if err != nil {
		t.Fatal(err)
	}
	vars := strings.Split(string(environ), "\x00")
	for _, v := range []string{"API_URL=" + a.URL, "WEB_ROOT=dist/web-rest"} {
		if !slices.Contains(vars, v) {
			t.Errorf("the static server was started without %s", v)
		}
	}

	status, body := get(t, p.URL+"/persons/1")
	if status != http.StatusOK || !strings.Contains(body, "/assets/app-") {
		t.Errorf("GET /persons/1: %d, want 200 and the build's index%s", status, body)
	}
	login := `{"username":"nobody","password":"wrong"}`
	wantStatus, wantBody := post(t, a.URL+"/api/login", login)
	gotStatus, gotBody := post(t, p.URL+"/api/login", login)
	if gotStatus != wantStatus || gotBody != wantBody {
		t.Errorf("POST /api/login through the front end: %d %s; the API answers %d %s", gotStatus, gotBody, wantStatus, wantBody)
	}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	return do(t, req)
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}
