package cpuprof_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"crudbench/bench/cpuprof"
	"crudbench/bench/results"
)

// sample is one stack of a synthetic profile, leaf first, and its CPU.
type sample struct {
	frames []string
	cpu    time.Duration
}

// synthetic builds a Go-style CPU profile of d holding samples, encoded as
// pprof serves it.
func synthetic(t *testing.T, d time.Duration, samples ...sample) []byte {
	t.Helper()
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        int64(10 * time.Millisecond),
		DurationNanos: int64(d),
	}
	funcs := make(map[string]*profile.Function)
	for _, s := range samples {
		ps := &profile.Sample{Value: []int64{int64(s.cpu / (10 * time.Millisecond)), int64(s.cpu)}}
		for _, name := range s.frames {
			fn := funcs[name]
			if fn == nil {
				fn = &profile.Function{ID: uint64(len(funcs) + 1), Name: name, SystemName: name}
				funcs[name] = fn
				p.Function = append(p.Function, fn)
			}
			loc := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn}}}
			p.Location = append(p.Location, loc)
			ps.Location = append(ps.Location, loc)
		}
		p.Sample = append(p.Sample, ps)
	}
	if err := p.CheckValid(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// shareOf returns layer's share in prof.
func shareOf(t *testing.T, prof results.CPUProfile, layer string) float64 {
	t.Helper()
	for _, l := range prof.Layers {
		if l.Layer == layer {
			return l.Share
		}
	}
	t.Fatalf("no layer %s in %+v", layer, prof.Layers)
	return 0
}

// TestLayers puts one sample through each rule of the classification.
func TestLayers(t *testing.T) {
	handler := []string{"net/http.HandlerFunc.ServeHTTP", "net/http.serverHandler.ServeHTTP", "net/http.(*conn).serve"}
	on := func(frames ...string) []string { return append(frames, handler...) }
	for _, tt := range []struct {
		name   string
		frames []string
		want   string
	}{
		{"gc worker", []string{"runtime.scanobject", "runtime.gcDrain", "runtime.gcBgMarkWorker"}, results.LayerRuntime},
		{"finalizer runs other code", []string{"os.(*file).close", "runtime.runfinq"}, results.LayerRuntime},
		{"sweeper", []string{"runtime.sweepone", "runtime.bgsweep"}, results.LayerRuntime},
		{"scheduler only", []string{"runtime.futex", "runtime.findRunnable", "runtime.schedule", "runtime.park_m", "runtime.mcall"}, results.LayerRuntime},
		{"no stack", nil, results.LayerRuntime},
		{"net/http under syscalls", []string{"syscall.Syscall", "internal/poll.(*FD).Write", "net.(*conn).Write", "bufio.(*Writer).Flush", "net/http.(*response).finishRequest", "net/http.(*conn).serve"}, results.LayerHTTP},
		{"chi", on("strings.IndexByte", "github.com/go-chi/chi/v5.(*node).findRoute", "github.com/go-chi/chi/v5.(*Mux).routeHTTP"), results.LayerHTTP},
		{"textproto", []string{"net/textproto.(*Reader).ReadMIMEHeader", "net/http.readRequest", "net/http.(*conn).serve"}, results.LayerHTTP},
		{"serve middleware", on("context.WithDeadline", "crudbench/apps/internal/serve.Deadline.func1"), results.LayerHTTP},
		{"metrics middleware", on("time.Since", "crudbench/apps/internal/metrics.(*Metrics).Requests.func1.1", "crudbench/apps/internal/metrics.(*Metrics).Requests.func1"), results.LayerHTTP},
		{"compiled templ component", on("strings.(*Builder).WriteString", "main.personPage.func1", "github.com/a-h/templ/runtime.GeneratedTemplate.func1", "main.(*server).handlePersonGet.func1"), results.LayerEncoding},
		{"templ escaping", on("github.com/a-h/templ.EscapeString", "main.personPage.func1"), results.LayerEncoding},
		{"response written while rendering", on("net/http.(*response).Write", "main.personPage.func1", "github.com/a-h/templ/runtime.GeneratedTemplate.func1"), results.LayerHTTP},
		{"prometheus histogram", on("sync/atomic.(*Uint64).Add", "github.com/prometheus/client_golang/prometheus.(*histogram).Observe", "crudbench/apps/internal/metrics.(*Metrics).Requests.func1.1"), results.LayerHTTP},
		{"encoding/json under skipped frames", on("runtime.memmove", "bytes.(*Buffer).Write", "strconv.AppendInt", "encoding/json.intEncoder", "encoding/json.(*encodeState).marshal", "main.writeJSON"), results.LayerEncoding},
		{"html/template", on("html/template.htmlEscaper", "text/template.(*state).evalCall", "main.(*views).render"), results.LayerEncoding},
		{"gqlgen", on("github.com/99designs/gqlgen/graphql/executor.(*Executor).DispatchOperation.func1"), results.LayerEncoding},
		{"gqlparser", on("github.com/vektah/gqlparser/v2/parser.(*parser).parseField"), results.LayerEncoding},
		{"generated executor", on("crudbench/apps/graphql/graph/generated.(*executionContext)._Person_appointments", "crudbench/apps/graphql/graph.(*personResolver).Appointments"), results.LayerEncoding},
		{"generated model", on("crudbench/apps/graphql/graph/model.Status.MarshalGQL"), results.LayerEncoding},
		{"pgx", on("internal/poll.(*FD).Read", "github.com/jackc/pgx/v5/pgproto3.(*chunkReader).Next", "crudbench/db.(*Store).FindPersonByID"), results.LayerDriver},
		{"puddle, generic", on("sync.(*Mutex).Lock", "github.com/jackc/puddle/v2.(*Pool[go.shape.*uint8]).Acquire", "crudbench/db.(*Store).FindPersonByID"), results.LayerDriver},
		{"app handler allocating", on("runtime.mallocgc", "runtime.makeslice", "main.(*server).handlePersonGet.func1"), results.LayerApp},
		{"store", on("crudbench/db.toPerson", "crudbench/db.(*Store).FindPersonByID"), results.LayerApp},
		{"sqlc", on("crudbench/db/internal/sqlcdb.(*Queries).GetPerson"), results.LayerApp},
		{"resolver", on("crudbench/apps/graphql/graph.(*queryResolver).Person"), results.LayerApp},
		{"generic with a path in its type arguments", on("slices.SortFunc[go.shape.struct { crudbench/db.ID int64 }]", "crudbench/apps/graphql/loaders.(*loaders).persons"), results.LayerApp},
		{"crypto", on("crypto/sha256.blockAMD64", "crypto/hmac.(*hmac).Sum", "github.com/golang-jwt/jwt/v5.(*Parser).Parse", "crudbench/apps/internal/auth.(*Tokens).Verify"), results.LayerOther},
		{"other module", on("github.com/vikstrous/dataloadgen.(*Loader[go.shape.int64,go.shape.*uint8]).Load"), results.LayerOther},
		{"logging encodes JSON", on("encoding/json.appendString", "log/slog.appendJSONMarshal", "log/slog.(*Logger).log", "crudbench/apps/internal/serve.LogRequests.func1"), results.LayerOther},
	} {
		t.Run(tt.name, func(t *testing.T) {
			prof, err := cpuprof.Analyze(synthetic(t, time.Second, sample{tt.frames, 30 * time.Millisecond}))
			if err != nil {
				t.Fatal(err)
			}
			if got := shareOf(t, prof, tt.want); got != 1 {
				t.Errorf("%s share = %v, want 1; layers %+v", tt.want, got, prof.Layers)
			}
		})
	}
}
