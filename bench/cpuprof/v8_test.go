package cpuprof_test

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/pprof/profile"

	"crudbench/bench/cpuprof"
	"crudbench/bench/results"
)

// recorded reads a V8 CPU profile in testdata. They were recorded from the
// apps under the bench's medium read-one load, through their
// /debug/v8/profile?seconds=2 (the checkout's folder in the scripts' URLs
// replaced by /srv/crudbench).
func recorded(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name+".cpuprofile.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// v8Counts reads what the conversion must keep from a V8 profile: its
// length, its samples but the idle ones, and its median time between
// samples, in nanoseconds.
func v8Counts(t *testing.T, data []byte) (seconds float64, busy int, period int64) {
	t.Helper()
	var v struct {
		Nodes []struct {
			ID        int64
			CallFrame struct{ FunctionName, URL string }
		}
		StartTime, EndTime  int64
		Samples, TimeDeltas []int64
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	idle := map[int64]bool{}
	for _, n := range v.Nodes {
		idle[n.ID] = n.CallFrame.FunctionName == "(idle)" && n.CallFrame.URL == ""
	}
	for _, id := range v.Samples {
		if !idle[id] {
			busy++
		}
	}
	deltas := slices.Sorted(slices.Values(v.TimeDeltas))
	return float64(v.EndTime-v.StartTime) / 1e6, busy, deltas[len(deltas)/2] * 1000
}

// TestFromV8Recorded converts the apps' real profiles: the samples but
// the idle ones are kept, each one sampling interval of CPU, the layers add up to 1 with each
// app's work where it belongs, the functions read well, and go tool pprof
// opens the result.
func TestFromV8Recorded(t *testing.T) {
	for _, tt := range []struct {
		name string
		// busy are the layers the app's work must show in; fn a
		// function the profile must name as it does.
		busy []string
		fn   string
	}{
		{"express-read-one", []string{results.LayerHTTP, results.LayerEncoding, results.LayerDriver, results.LayerApp, results.LayerRuntime, results.LayerOther}, "cloneQueryConfig (pg/lib/utils.js:"},
		{"yoga-read-one", []string{results.LayerHTTP, results.LayerEncoding, results.LayerDriver, results.LayerApp, results.LayerRuntime}, "executeField (@graphql-tools/executor/esm/execution/execute.js:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v8 := recorded(t, tt.name)
			data, err := cpuprof.FromV8(v8)
			if err != nil {
				t.Fatal(err)
			}
			seconds, busy, period := v8Counts(t, v8)
			busyNanos := int64(busy) * period
			p, err := profile.ParseData(data)
			if err != nil {
				t.Fatal(err)
			}
			var samples, nanos int64
			for _, s := range p.Sample {
				samples, nanos = samples+s.Value[0], nanos+s.Value[1]
			}
			if samples != int64(busy) || nanos != busyNanos || busy == 0 || p.Period != period || period < 9e6 {
				t.Errorf("%d samples of %d ns, period %d ns; want the %d busy ones of %d ns, period %d ns (10 ms or more)", samples, nanos, p.Period, busy, busyNanos, period)
			}

			prof, err := cpuprof.Analyze(data)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(prof.Seconds-seconds) > 1e-9 || math.Abs(prof.CPUSeconds-float64(busyNanos)/1e9) > 1e-9 {
				t.Errorf("Seconds, CPUSeconds = %v, %v; want %v, %v", prof.Seconds, prof.CPUSeconds, seconds, float64(busyNanos)/1e9)
			}
			sum := 0.0
			for _, l := range prof.Layers {
				sum += l.Share
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("layer shares add up to %v: %+v", sum, prof.Layers)
			}
			for _, l := range tt.busy {
				if shareOf(t, prof, l) == 0 {
					t.Errorf("no CPU in %s: %+v", l, prof.Layers)
				}
			}
			for _, f := range prof.Top {
				if strings.Contains(f.Name, "file:") || strings.Contains(f.Name, "/srv/") || strings.Contains(f.Name, "node_modules") {
					t.Errorf("function %q: want its file short", f.Name)
				}
			}
			t.Logf("layers %+v", prof.Layers)

			file := filepath.Join(t.TempDir(), "cpu.pb.gz")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("go", "tool", "pprof", "-top", "-nodecount", "1000", file).CombinedOutput()
			if err != nil || !strings.Contains(string(out), tt.fn) {
				t.Errorf("go tool pprof -top: %v, want %q in:\n%s", err, tt.fn, out)
			}
		})
	}
}

// frame is a V8 call frame of a synthetic profile.
type frame struct{ fn, url string }

// v8Stack is one sample of a synthetic V8 profile: its stack, leaf
// first, and the time since the sample before (or the profile's start).
type v8Stack struct {
	frames []frame
	micros int64
}

// synthetic V8 builds a V8 profile, as the inspector returns it, of
// stacks sampled in turn.
func syntheticV8(t *testing.T, stacks ...v8Stack) []byte {
	t.Helper()
	type node struct {
		ID        int64 `json:"id"`
		CallFrame struct {
			FunctionName string `json:"functionName"`
			URL          string `json:"url"`
			LineNumber   int64  `json:"lineNumber"`
			ColumnNumber int64  `json:"columnNumber"`
		} `json:"callFrame"`
		Children []int64 `json:"children,omitempty"`
	}
	nodes := []*node{{ID: 1}}
	nodes[0].CallFrame.FunctionName = "(root)"
	child := func(parent *node, f frame) *node {
		for _, c := range parent.Children {
			if n := nodes[c-1]; n.CallFrame.FunctionName == f.fn && n.CallFrame.URL == f.url {
				return n
			}
		}
		n := &node{ID: int64(len(nodes) + 1)}
		n.CallFrame.FunctionName, n.CallFrame.URL, n.CallFrame.LineNumber = f.fn, f.url, 9
		nodes = append(nodes, n)
		parent.Children = append(parent.Children, n.ID)
		return n
	}
	var samples, deltas []int64
	const start = 1_000_000
	at := int64(start)
	for _, s := range stacks {
		n := nodes[0]
		for i := len(s.frames) - 1; i >= 0; i-- {
			n = child(n, s.frames[i])
		}
		samples, deltas = append(samples, n.ID), append(deltas, s.micros)
		at += s.micros
	}
	data, err := json.Marshal(map[string]any{"nodes": nodes, "startTime": start, "endTime": at, "samples": samples, "timeDeltas": deltas})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFromV8Weights: every sample but the idle ones weighs the median
// time between samples, however late it came; the profile lasts from its
// start to its end.
func TestFromV8Weights(t *testing.T) {
	work := []frame{{"work", "file:///srv/app/src/work.js"}}
	idle := []frame{{"(idle)", ""}}
	gc := []frame{{"(garbage collector)", ""}}
	data, err := cpuprof.FromV8(syntheticV8(t,
		v8Stack{work, 10_000}, v8Stack{idle, 10_000}, v8Stack{work, 500_000}, v8Stack{gc, 10_000}, v8Stack{work, 10_000}))
	if err != nil {
		t.Fatal(err)
	}
	prof, err := cpuprof.Analyze(data)
	if err != nil {
		t.Fatal(err)
	}
	if prof.Seconds != 0.54 || math.Abs(prof.CPUSeconds-0.04) > 1e-9 {
		t.Errorf("Seconds, CPUSeconds = %v, %v; want 0.54, 0.04", prof.Seconds, prof.CPUSeconds)
	}
	want := []results.FunctionShare{
		{Name: "work (app/src/work.js:10)", Flat: 0.75, Cum: 0.75},
		{Name: "(garbage collector)", Flat: 0.25, Cum: 0.25},
	}
	if d := cmp.Diff(want, prof.Top, cmpopts.EquateApprox(0, 1e-9)); d != "" {
		t.Errorf("top (-want +got):\n%s", d)
	}

	// A function without a script is native, and named so.
	data, err = cpuprof.FromV8(syntheticV8(t, v8Stack{[]frame{{"writev", ""}, {"", "file:///srv/app/src/work.js"}}, 10_000}))
	if err != nil {
		t.Fatal(err)
	}
	if prof, err = cpuprof.Analyze(data); err != nil {
		t.Fatal(err)
	}
	want = []results.FunctionShare{{Name: "writev (native)", Flat: 1, Cum: 1}}
	if d := cmp.Diff(want, prof.Top, cmpopts.EquateApprox(0, 1e-9)); d != "" {
		t.Errorf("top (-want +got):\n%s", d)
	}
}

// TestNodeLayers puts one sample through each rule of the Node layers.
func TestNodeLayers(t *testing.T) {
	app := "file:///srv/crudbench/apps/express/src/routes/persons.js"
	mod := func(p string) string { return "file:///srv/crudbench/apps/yoga/node_modules/" + p }
	server := []frame{{"emit", "node:events"}, {"parserOnIncoming", "node:_http_server"}}
	on := func(frames ...frame) []frame { return append(frames, server...) }
	for _, tt := range []struct {
		name   string
		frames []frame
		want   string
	}{
		{"garbage collector", []frame{{"(garbage collector)", ""}}, results.LayerRuntime},
		{"V8 outside JavaScript", []frame{{"(program)", ""}}, results.LayerRuntime},
		{"timers only", []frame{{"listOnTimeout", "node:internal/timers"}, {"processTimers", "node:internal/timers"}}, results.LayerRuntime},
		{"node's http server", server, results.LayerHTTP},
		{"a socket write under http", on(frame{"writev", ""}, frame{"_writeGeneric", "node:internal/stream_base_commons"}, frame{"end", "node:_http_outgoing"}), results.LayerHTTP},
		{"the router", on(frame{"handle", mod("router/index.js")}), results.LayerHTTP},
		{"express", on(frame{"handle", mod("express/lib/application.js")}), results.LayerHTTP},
		{"prom-client", []frame{{"observe", mod("prom-client/lib/histogram.js")}}, results.LayerHTTP},
		{"the fetch API yoga serves through", []frame{{"PonyfillRequest", mod("@whatwg-node/node-fetch/cjs/Request.js")}}, results.LayerHTTP},
		{"graphql-js", on(frame{"executeField", mod("graphql/execution/execute.js")}), results.LayerEncoding},
		{"yoga", []frame{{"jsonStringifyResultWithoutInternals", mod("graphql-yoga/esm/plugins/result-processor/stringify.js")}}, results.LayerEncoding},
		{"a scoped graphql package", []frame{{"executeField", mod("@graphql-tools/executor/esm/execution/execute.js")}}, results.LayerEncoding},
		{"envelop", []frame{{"(anonymous)", mod("@envelop/core/esm/orchestrator.js")}}, results.LayerEncoding},
		{"apollo server", []frame{{"processGraphQLRequest", mod("@apollo/server/dist/esm/requestPipeline.js")}}, results.LayerEncoding},
		{"apollo's express integration", on(frame{"(anonymous)", mod("@as-integrations/express5/dist/esm/index.js")}), results.LayerHTTP},
		{"mercurius", []frame{{"fastifyGraphQl", mod("mercurius/index.js")}}, results.LayerEncoding},
		{"graphql-jit", []frame{{"query", mod("graphql-jit/dist/execution.js")}}, results.LayerEncoding},
		{"fastify's router", on(frame{"lookup", mod("find-my-way/index.js")}), results.LayerHTTP},
		{"fastify", on(frame{"routeHandler", mod("fastify/lib/route.js")}), results.LayerHTTP},
		{"nest's router", on(frame{"(anonymous)", mod("@nestjs/core/router/router-proxy.js")}), results.LayerHTTP},
		{"nest's interceptors", []frame{{"subscribe", mod("rxjs/dist/cjs/internal/Observable.js")}}, results.LayerHTTP},
		{"nest's express platform", on(frame{"(anonymous)", mod("@nestjs/platform-express/adapters/express-adapter.js")}), results.LayerHTTP},
		{"nest's graphql module", on(frame{"(anonymous)", mod("@nestjs/graphql/dist/services/resolvers-explorer.service.js")}), results.LayerEncoding},
		{"fastify's serializer", []frame{{"anonymous", mod("fast-json-stringify/index.js")}}, results.LayerEncoding},
		{"mercurius's loaders", []frame{{"processBatch", mod("single-user-cache/index.js")}}, results.LayerOther},
		{"the app's JSON writer", on(frame{"sendJSON", "file:///srv/crudbench/apps/express/src/http/respond.js"}), results.LayerEncoding},
		{"the app's JSON reader", on(frame{"decode", "file:///srv/crudbench/apps/express/src/http/body.js"}), results.LayerEncoding},
		{"pg", []frame{{"handleDataRow", mod("pg/lib/query.js")}}, results.LayerDriver},
		{"pg-protocol under a socket read", []frame{{"parse", mod("pg-protocol/dist/parser.js")}, {"onStreamRead", "node:internal/stream_base_commons"}}, results.LayerDriver},
		{"pg's type parsers", []frame{{"parseDate", mod("postgres-date/index.js")}}, results.LayerDriver},
		{"the app", on(frame{"getPerson", app}), results.LayerApp},
		{"a builtin in the app", on(frame{"map", ""}, frame{"getPerson", app}), results.LayerApp},
		{"the shared package", []frame{{"verify", mod("@crudbench/node-base/src/tokens.js")}}, results.LayerApp},
		{"a helper package is its caller's", on(frame{"GetIntrinsic", mod("get-intrinsic/index.js")}, frame{"stringify", mod("qs/lib/stringify.js")}), results.LayerHTTP},
		{"promise helpers", []frame{{"then", mod("@whatwg-node/promise-helpers/esm/index.js")}, {"(anonymous)", mod("@envelop/core/esm/orchestrator.js")}}, results.LayerEncoding},
		{"tokens", on(frame{"createPublicKey", "node:internal/crypto/keys"}, frame{"getSecret", mod("jsonwebtoken/verify.js")}, frame{"verify", mod("@crudbench/node-base/src/tokens.js")}), results.LayerOther},
		{"logging", []frame{{"write", mod("pino/lib/proto.js")}}, results.LayerOther},
		{"dataloader", []frame{{"dispatchBatch", mod("dataloader/index.js")}}, results.LayerOther},
		{"evaluated code", []frame{{"f", "evalmachine.<anonymous>"}}, results.LayerOther},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data, err := cpuprof.FromV8(syntheticV8(t, v8Stack{tt.frames, 10_000}))
			if err != nil {
				t.Fatal(err)
			}
			prof, err := cpuprof.Analyze(data)
			if err != nil {
				t.Fatal(err)
			}
			if got := shareOf(t, prof, tt.want); got != 1 {
				t.Errorf("%s has %v of the CPU, want all: %+v", tt.want, got, prof.Layers)
			}
		})
	}
}

func TestFromV8Refuses(t *testing.T) {
	for _, tt := range []struct {
		name, data, wantErr string
	}{
		{"not JSON", "<html>404 page not found</html>", "not a V8 CPU profile"},
		{"a pprof profile", "\x1f\x8b\x08\x00", "not a V8 CPU profile"},
		{"no nodes", `{"nodes":[],"samples":[],"timeDeltas":[]}`, "no nodes"},
		{"samples without deltas", `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"samples":[1],"timeDeltas":[]}`, "1 samples but 0 time deltas"},
		{"an unknown child", `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]}],"samples":[],"timeDeltas":[]}`, "unknown child 2"},
		{"an unknown sample", `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"samples":[7],"timeDeltas":[0]}`, "unknown node 7"},
		{"a cycle", `{"nodes":[{"id":1,"callFrame":{"functionName":"a"},"children":[2]},{"id":2,"callFrame":{"functionName":"b"},"children":[1]}],"samples":[2],"timeDeltas":[0]}`, "its own ancestor"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := cpuprof.FromV8([]byte(tt.data)); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("FromV8 = %v, want an error with %q", err, tt.wantErr)
			}
		})
	}
}

// TestFetchV8 asks a Node app's debug path for the profile and converts it.
func TestFetchV8(t *testing.T) {
	v8 := recorded(t, "express-read-one")
	asked := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked <- r.URL.Path + "?" + r.URL.RawQuery
		w.Write(v8)
	}))
	defer srv.Close()
	data, err := cpuprof.FetchV8(t.Context(), srv.Client(), srv.URL, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got := <-asked; got != "/debug/v8/profile?seconds=2" {
		t.Errorf("asked for %s, want /debug/v8/profile?seconds=2", got)
	}
	if _, err := cpuprof.Analyze(data); err != nil {
		t.Errorf("Analyze of what FetchV8 returned: %v", err)
	}

	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "a CPU profile is already being taken: one at a time", http.StatusConflict)
	}))
	defer refuse.Close()
	if _, err := cpuprof.FetchV8(t.Context(), refuse.Client(), refuse.URL, time.Second); err == nil || !strings.Contains(err.Error(), "409 Conflict: a CPU profile is already being taken") {
		t.Errorf("FetchV8 = %v, want the 409 and the app's message", err)
	}
}
