package scenario_test

import (
	"net/http"
	"testing"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/scenario"
)

// TestTRPCRequests checks the calls of the trpc kind as tRPC's wire
// format has them: a query a GET of /trpc/<procedure> with its input as
// URL-encoded JSON, a mutation a POST of its input, the token as REST's,
// and each named in a failure with its input as written.
func TestTRPCRequests(t *testing.T) {
	app, err := scenario.NewApp("t", scenario.KindTRPC, "http://h:1")
	if err != nil {
		t.Fatal(err)
	}
	s := &scenario.Session{App: app, Header: http.Header{"Authorization": {"Bearer tok"}}}
	for _, tt := range []struct {
		target                   vegeta.Target
		method, url, label, body string
	}{
		{s.Target(scenario.OpReadOne), "GET", "http://h:1/trpc/person.byId?input=%7B%22id%22%3A1%7D#read-one", `GET /trpc/person.byId?input={"id":1}`, ""},
		{s.Target(scenario.OpReadSmall), "GET", "http://h:1/trpc/vacancy.list?input=%7B%22limit%22%3A100%2C%22status%22%3A%22open%22%7D#read-small", `GET /trpc/vacancy.list?input={"limit":100,"status":"open"}`, ""},
		{s.Target(scenario.OpReadSlim), "GET", "http://h:1/trpc/person.list?input=%7B%22limit%22%3A1000%7D#read-slim", `GET /trpc/person.list?input={"limit":1000}`, ""},
		{s.Target(scenario.OpControl), "GET", "http://h:1/healthz#control", "GET /healthz", ""},
		{s.Delete(7), "POST", "http://h:1/trpc/vacancy.delete#delete-7", "POST /trpc/vacancy.delete", `{"id":7}`},
		{s.Update(7, 2, scenario.VacancyData{Title: "T", SalaryMaxCents: 5, Description: "D"}), "POST", "http://h:1/trpc/vacancy.update#update-7", "POST /trpc/vacancy.update",
			`{"description":"D","id":7,"salaryMaxCents":5,"title":"T","version":2}`},
	} {
		t.Run(tt.label, func(t *testing.T) {
			if tt.target.Method != tt.method || tt.target.URL != tt.url || string(tt.target.Body) != tt.body {
				t.Errorf("target %s %s %s, want %s %s %s", tt.target.Method, tt.target.URL, tt.target.Body, tt.method, tt.url, tt.body)
			}
			if got := tt.target.Header.Get("Authorization"); got != "Bearer tok" {
				t.Errorf("Authorization %q, want the session's bearer token", got)
			}
			if got := scenario.RequestLabel(tt.target); got != tt.label {
				t.Errorf("label %q, want %q", got, tt.label)
			}
		})
	}
}

// TestTRPCCheck checks the cheap check every trpc answer gets under load:
// status 200 and JSON, a failure named by its tRPC code and message.
func TestTRPCCheck(t *testing.T) {
	app, err := scenario.NewApp("t", scenario.KindTRPC, "http://h:1")
	if err != nil {
		t.Fatal(err)
	}
	json := http.Header{"Content-Type": {"application/json"}}
	for _, tt := range []struct {
		name string
		r    vegeta.Result
		want string
	}{
		{"ok", vegeta.Result{URL: "http://h:1/trpc/person.byId#read-one", Code: 200, Headers: json, Body: []byte(`{"result":{"data":{}}}`)}, ""},
		{"not found", vegeta.Result{URL: "http://h:1/trpc/person.byId#read-one", Code: 404, Headers: json,
			Body: []byte(`{"error":{"message":"person 1 not found","code":-32004,"data":{"code":"NOT_FOUND","httpStatus":404}}}`)},
			"status 404 (tRPC NOT_FOUND: person 1 not found), want 200"},
		{"not tRPC's error", vegeta.Result{URL: "http://h:1/trpc/person.byId#read-one", Code: 502, Body: []byte("bad gateway")}, `status 502: "bad gateway", want 200`},
		{"not JSON", vegeta.Result{URL: "http://h:1/trpc/person.byId#read-one", Code: 200, Headers: http.Header{"Content-Type": {"text/html"}}},
			`content type "text/html", want application/json`},
		{"control", vegeta.Result{URL: "http://h:1/healthz#control", Code: 200, Headers: http.Header{"Content-Type": {"text/plain"}}}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := errorText(app.Check(&tt.r)); got != tt.want {
				t.Errorf("check: %q, want %q", got, tt.want)
			}
		})
	}
}
