package scenario_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/scenario"
)

// session returns a REST session that is never dialled: these tests look
// at the requests a workload builds and feed it answers as data.
func session(t *testing.T, kind scenario.Kind) *scenario.Session {
	t.Helper()
	a, err := scenario.NewApp("app-under-test", kind, "http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	return &scenario.Session{App: a, Header: http.Header{"Authorization": {"Bearer test"}}}
}

// restAnswer is what the REST app answers to a write target: 201 with the
// new row, 200 with the updated row, 204 for a delete.
func restAnswer(t *testing.T, tgt vegeta.Target, nextID *int64) *vegeta.Result {
	t.Helper()
	r := &vegeta.Result{Method: tgt.Method, URL: tgt.URL, Headers: http.Header{"Content-Type": {"application/json"}}}
	op, id := scenario.OpOf(r)
	switch op {
	case scenario.OpCreate:
		*nextID++
		r.Code, r.Body = http.StatusCreated, fmt.Appendf(nil, `{"id":%d,"version":1}`, *nextID)
	case scenario.OpUpdate:
		r.Code, r.Body = http.StatusOK, fmt.Appendf(nil, `{"id":%d,"version":2}`, id)
	case scenario.OpDelete:
		r.Code, r.Headers = http.StatusNoContent, http.Header{}
	default:
		t.Fatalf("unexpected write target %s %s", tgt.Method, tgt.URL)
	}
	return r
}

func next(t *testing.T, tr vegeta.Targeter) vegeta.Target {
	t.Helper()
	var tgt vegeta.Target
	if err := tr(&tgt); err != nil {
		t.Fatal(err)
	}
	return tgt
}

func TestWriteRotation(t *testing.T) {
	t.Run("fast answers", writeFastAnswers)
	t.Run("slow answers", writeSlowAnswers)
	t.Run("wrong answers", writeWrongAnswers)
}

// writeFastAnswers answers every step at once: cycles complete in turn
// and each create has its own tagged title.
func writeFastAnswers(t *testing.T) {
	w, err := scenario.NewWorkload(session(t, scenario.KindREST), scenario.Write, "bench test")
	if err != nil {
		t.Fatal(err)
	}
	tr := w.Targeter()
	var ids int64
	var ops []scenario.Op
	var titles []string
	for range 9 {
		tgt := next(t, tr)
		if tgt.Header.Get("Authorization") != "Bearer test" {
			t.Errorf("%s %s lacks the session header", tgt.Method, tgt.URL)
		}
		r := restAnswer(t, tgt, &ids)
		w.Observe(r)
		if r.Error != "" {
			t.Errorf("%s: %s", r.URL, r.Error)
		}
		op, _ := scenario.OpOf(r)
		ops = append(ops, op)
		if op == scenario.OpCreate {
			var body struct{ Title string }
			json.Unmarshal(tgt.Body, &body)
			titles = append(titles, body.Title)
		}
	}
	want := slices.Repeat([]scenario.Op{scenario.OpCreate, scenario.OpUpdate, scenario.OpDelete}, 3)
	if !slices.Equal(ops, want) {
		t.Errorf("steps %v, want %v", ops, want)
	}
	if alive := w.Alive(); len(alive) != 0 {
		t.Errorf("rows %v still alive after complete cycles", alive)
	}
	for i, title := range titles {
		if !strings.HasPrefix(title, "bench test #") || slices.Index(titles, title) != i {
			t.Errorf("create titles %q are not unique and tagged", titles)
			break
		}
	}
}

// writeSlowAnswers answers late, as a loaded app does.
func writeSlowAnswers(t *testing.T) {
	// Nothing has answered yet: every step falls back to a create, and
	// each row moves on once only, so no row gets two writes at once.
	w, _ := scenario.NewWorkload(session(t, scenario.KindREST), scenario.Write, "bench test")
	tr := w.Targeter()
	var ids int64
	var pending []vegeta.Target
	for range 3 {
		pending = append(pending, next(t, tr))
	}
	for _, tgt := range pending {
		if op, _ := scenario.OpOf(&vegeta.Result{URL: tgt.URL}); op != scenario.OpCreate {
			t.Fatalf("step %s before any answer, want create", op)
		}
		w.Observe(restAnswer(t, tgt, &ids))
	}
	touched := map[int64]int{}
	for range 12 {
		tgt := next(t, tr)
		r := restAnswer(t, tgt, &ids)
		w.Observe(r)
		if op, id := scenario.OpOf(r); op == scenario.OpUpdate {
			touched[id]++
		}
	}
	for id, n := range touched {
		if n != 1 {
			t.Errorf("row %d updated %d times", id, n)
		}
	}
	if len(w.Alive()) == 0 {
		t.Error("no row alive in the middle of a pipeline")
	}
}

// writeWrongAnswers answers a create with an error.
func writeWrongAnswers(t *testing.T) {
	w, _ := scenario.NewWorkload(session(t, scenario.KindREST), scenario.Write, "bench test")
	tgt := next(t, w.Targeter())
	r := &vegeta.Result{Method: tgt.Method, URL: tgt.URL, Code: http.StatusUnprocessableEntity,
		Headers: http.Header{"Content-Type": {"application/problem+json"}}, Body: []byte(`{"title":"Unprocessable"}`)}
	w.Observe(r)
	if !strings.Contains(r.Error, "status 422, want 201") {
		t.Errorf("Error = %q, want the unexpected status", r.Error)
	}
	if len(w.Alive()) != 0 {
		t.Error("a failed create left a row to clean up")
	}

	// A create answered without a version made a row: it fails, and its
	// row is kept for Cleanup, never updated.
	tgt = next(t, w.Targeter())
	r = &vegeta.Result{Method: tgt.Method, URL: tgt.URL, Code: http.StatusCreated,
		Headers: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"id":7}`)}
	w.Observe(r)
	if !strings.Contains(r.Error, "create: no version in the answer") {
		t.Errorf("Error = %q, want the missing version", r.Error)
	}
	if alive := w.Alive(); !slices.Equal(alive, []int64{7}) {
		t.Errorf("rows alive %v, want the row the create made, 7", alive)
	}
	if tgt := next(t, w.Targeter()); !strings.HasSuffix(tgt.URL, "#create") {
		t.Errorf("next step %s %s, want a create: the row has no version to update", tgt.Method, tgt.URL)
	}
}

func TestMixedOrder(t *testing.T) {
	w, err := scenario.NewWorkload(session(t, scenario.KindGraphQL), scenario.Mixed, "bench test")
	if err != nil {
		t.Fatal(err)
	}
	tr := w.Targeter()
	const total = 200 // ten cycles of the 20-slot order
	counts := map[string]int{}
	previous := ""
	for i := range total {
		tgt := next(t, tr)
		op, _ := scenario.OpOf(&vegeta.Result{URL: tgt.URL})
		kind := string(op)
		if op == scenario.OpCreate || op == scenario.OpUpdate || op == scenario.OpDelete {
			kind = scenario.Write
		}
		counts[kind]++
		if kind == scenario.ReadMany && previous == scenario.ReadMany {
			t.Errorf("request %d: read-many twice in a row", i)
		}
		previous = kind
		if tgt.Method != http.MethodPost || !strings.HasSuffix(strings.Split(tgt.URL, "#")[0], "/graphql") {
			t.Errorf("GraphQL request %s %s", tgt.Method, tgt.URL)
		}
	}
	for _, wt := range scenario.MixWeights {
		if got, want := counts[wt.Scenario], wt.Percent*total/100; got != want {
			t.Errorf("%s: %d of %d requests, want %d", wt.Scenario, got, total, want)
		}
	}
}

// TestMixedOrderShared checks that shards of one schedule pick the
// operations of their requests' places in it: together they send the
// mix of one runner.
func TestMixedOrderShared(t *testing.T) {
	kinds := func(w *scenario.Workload, n int) []string {
		tr := w.Targeter()
		var ids int64
		out := make([]string, n)
		for i := range out {
			tgt := next(t, tr)
			op, _ := scenario.OpOf(&vegeta.Result{Method: tgt.Method, URL: tgt.URL})
			out[i] = string(op)
			if op == scenario.OpCreate || op == scenario.OpUpdate || op == scenario.OpDelete {
				out[i] = scenario.Write
				w.Observe(restAnswer(t, tgt, &ids))
			}
		}
		return out
	}
	one, err := scenario.NewWorkload(session(t, scenario.KindREST), scenario.Mixed, "bench test")
	if err != nil {
		t.Fatal(err)
	}
	const count, each = 3, 40
	want := kinds(one, count*each)
	for i := range count {
		t.Run(fmt.Sprintf("shard %d of %d", i, count), func(t *testing.T) {
			w, err := scenario.NewWorkload(session(t, scenario.KindREST), scenario.Mixed, fmt.Sprintf("bench test s%d", i))
			if err != nil {
				t.Fatal(err)
			}
			w.Share(i, count)
			for k, got := range kinds(w, each) {
				if n := i + k*count; got != want[n] {
					t.Errorf("request %d of the schedule (the shard's %d) is %s, want %s", n, k, got, want[n])
				}
			}
		})
	}
}

func TestReadTargets(t *testing.T) {
	tests := []struct {
		kind   scenario.Kind
		op     scenario.Op
		method string
		url    string
		label  string
	}{
		{scenario.KindREST, scenario.OpReadOne, "GET", "http://127.0.0.1:1/api/persons/1", "GET /api/persons/1"},
		{scenario.KindREST, scenario.OpReadSmall, "GET", "http://127.0.0.1:1/api/vacancies?status=open&limit=100", "GET /api/vacancies?status=open&limit=100"},
		{scenario.KindREST, scenario.OpReadMany, "GET", "http://127.0.0.1:1/api/persons?limit=1000", "GET /api/persons?limit=1000"},
		{scenario.KindREST, scenario.OpReadSlim, "GET", "http://127.0.0.1:1/api/persons?limit=1000", "GET /api/persons?limit=1000"},
		{scenario.KindREST, scenario.OpControl, "GET", "http://127.0.0.1:1/healthz", "GET /healthz"},
		{scenario.KindGraphQL, scenario.OpReadOne, "POST", "http://127.0.0.1:1/graphql", "POST /graphql (PersonDetail)"},
		{scenario.KindGraphQL, scenario.OpReadMany, "POST", "http://127.0.0.1:1/graphql", "POST /graphql (AllPersons)"},
		{scenario.KindGraphQL, scenario.OpReadSlim, "POST", "http://127.0.0.1:1/graphql", "POST /graphql (SlimPersons)"},
		{scenario.KindGraphQL, scenario.OpControl, "GET", "http://127.0.0.1:1/healthz", "GET /healthz"},
		{scenario.KindSite, scenario.OpReadOne, "GET", "http://127.0.0.1:1/persons/1", "GET /persons/1"},
		{scenario.KindSite, scenario.OpReadSmall, "GET", "http://127.0.0.1:1/vacancies?status=open&limit=100", "GET /vacancies?status=open&limit=100"},
		{scenario.KindSite, scenario.OpReadMany, "GET", "http://127.0.0.1:1/persons?limit=1000", "GET /persons?limit=1000"},
		{scenario.KindSite, scenario.OpReadSlim, "GET", "http://127.0.0.1:1/persons/options?limit=1000", "GET /persons/options?limit=1000"},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind)+" "+string(tt.op), func(t *testing.T) {
			tgt := session(t, tt.kind).Target(tt.op)
			if tgt.Method != tt.method || tgt.URL != tt.url+"#"+string(tt.op) {
				t.Errorf("target %s %s, want %s %s#%s", tgt.Method, tgt.URL, tt.method, tt.url, tt.op)
			}
			if got := scenario.RequestLabel(tgt); got != tt.label {
				t.Errorf("RequestLabel = %q, want %q", got, tt.label)
			}
			req, err := tgt.Request()
			if err != nil {
				t.Fatal(err)
			}
			if req.URL.Fragment == "" || strings.Contains(req.URL.RequestURI(), "#") {
				t.Errorf("the operation label must stay a fragment, never sent: %q", req.URL.RequestURI())
			}
		})
	}
}

func TestParseKind(t *testing.T) {
	for _, k := range scenario.Kinds {
		if got, err := scenario.ParseKind(string(k)); got != k || err != nil {
			t.Errorf("ParseKind(%q) = %q, %v", k, got, err)
		}
	}
	if _, err := scenario.ParseKind("htmx"); err == nil || !strings.Contains(err.Error(), "known: rest, graphql, site") {
		t.Errorf("ParseKind(htmx): %v, want an error listing the kinds", err)
	}
}

func TestNewAppUnknownKind(t *testing.T) {
	if _, err := scenario.NewApp("x", "soap", "http://127.0.0.1:1"); err == nil || !strings.Contains(err.Error(), `unknown kind "soap"`) {
		t.Errorf("NewApp of kind soap: %v", err)
	}
}
