package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"strings"
	"testing"

	"crudbench/bench/stack"
)

// TestValidateOnlyTRPC checks the trpc kind as a team attaching its own
// tRPC server would: a server that speaks tRPC's wire format in a few
// lines of Go, over the Go rest app, passes every scenario, and the same
// server with flaws is refused, each failure naming the call and what is
// wrong — a nested row missing, a failed call by its tRPC code, an answer
// outside tRPC's envelope, an update that did not happen — with a failing
// exit status.
func TestValidateOnlyTRPC(t *testing.T) {
	row, _ := stack.FindBuiltin("rest")
	dbURL, procs := startApps(t, []stack.App{row})
	rest := procs["rest"].URL

	good := serve(t, trpcOverREST(rest, nil))
	wrong := serve(t, trpcOverREST(rest, func(procedure string, status int, data []byte) (int, []byte) {
		switch procedure {
		case "person.byId":
			var p map[string]any
			if err := json.Unmarshal(data, &p); err == nil {
				app := p["appointments"].([]any)[0].(map[string]any)
				app["stipends"] = app["stipends"].([]any)[1:]
				data, _ = json.Marshal(p)
			}
		case "vacancy.list":
			return http.StatusInternalServerError, trpcFailure("INTERNAL_SERVER_ERROR", http.StatusInternalServerError, "boom")
		case "person.list":
			return status, data // REST's page, outside tRPC's envelope
		}
		return status, trpcResult(data)
	}))
	lazy := serve(t, skipUpdates(trpcOverREST(rest, nil), rest))

	attach := strings.Join([]string{"good-trpc=trpc@" + good, "wrong-trpc=trpc@" + wrong, "lazy-trpc=trpc@" + lazy}, ",")
	console, err := execBench(t, []string{"DATABASE_URL=" + dbURL}, "-validate-only", "-attach", attach,
		"-scenarios", "read-one,read-small,read-many,read-slim,write,control")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("bench -validate-only exited with %v, want exit status 1", err)
	}
	for _, line := range []string{
		"  good-trpc (kind trpc): passed read-one, read-small, read-many, read-slim, write, control\n",
		"  wrong-trpc (kind trpc): passed write, control\n",
		`    FAILED read-one: GET /trpc/person.byId?input={"id":1}: showcase person has 12 appointments, 35 stipends, 24 fundings; want 12, 36, 24` + "\n",
		`    FAILED read-small: GET /trpc/vacancy.list?input={"limit":100,"status":"open"}: status 500 (tRPC INTERNAL_SERVER_ERROR: boom), want 200` + "\n",
		`    FAILED read-many: GET /trpc/person.list?input={"limit":1000}: not a tRPC answer, {"result":{"data":…}}: "{\"items\":`,
		`    FAILED read-slim: GET /trpc/person.list?input={"limit":1000}: not a tRPC answer`,
		"  lazy-trpc (kind trpc): passed read-one, read-small, read-many, read-slim, control\n",
		`    FAILED write: after update: GET /trpc/vacancy.byId?input={"id":`,
		`does not show the title "crudbench `,
		"bench: validation failed: 5 of 18 checks (scenario × app)",
	} {
		if !strings.Contains(console, line) {
			t.Errorf("the console does not say %q", line)
		}
	}
	if strings.Contains(console, "changed the number of vacancies") {
		t.Errorf("a failed write cycle left its row behind:\n%s", console)
	}
	if t.Failed() {
		t.Logf("console:\n%s", console)
	}

	t.Run("a create that does not say its id, attached alone", func(t *testing.T) {
		// No DATABASE_URL: the failed cycle finds its row by its title
		// in the server's own list of drafts (vacancy.list), and deletes it.
		noID := serve(t, trpcOverREST(rest, func(procedure string, status int, data []byte) (int, []byte) {
			if procedure == "vacancy.create" {
				var v map[string]any
				if err := json.Unmarshal(data, &v); err == nil {
					delete(v, "id")
					data, _ = json.Marshal(v)
				}
			}
			return status, trpcResult(data)
		}))
		console, err := execBench(t, nil, "-validate-only", "-attach", "noid-trpc=trpc@"+noID, "-scenarios", "write")
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("bench -validate-only exited with %v, want exit status 1", err)
		}
		if want := "    FAILED write: create, POST /trpc/vacancy.create: no vacancy id in the answer"; !strings.Contains(console, want) {
			t.Errorf("the console does not say %q:\n%s", want, console)
		}
		if strings.Contains(console, "may remain") || strings.Contains(console, "could not be removed") {
			t.Errorf("the cycle's row was not removed:\n%s", console)
		}
		token := restLogin(t, http.DefaultClient, rest, "editor")
		req, _ := http.NewRequest(http.MethodGet, rest+"/api/vacancies?status=draft&limit=1000", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var page struct {
			Items []struct {
				ID    int64
				Title string
			}
		}
		if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
			t.Fatal(err)
		}
		for _, v := range page.Items {
			if strings.Contains(v.Title, "noid-trpc") {
				t.Errorf("vacancy %d %q, the failed cycle's, is still there", v.ID, v.Title)
			}
		}
	})
}

// trpcAnswer turns what the REST app answered to a procedure's call (its
// status, and its body, null for none) into the tRPC server's answer.
type trpcAnswer func(procedure string, status int, data []byte) (int, []byte)

// serve serves h on a test server and returns its URL.
func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}

// trpcOverREST is a tRPC server of the trpc kind's procedures, each the
// REST app's request at rest, answered in tRPC's envelope — or as answer
// has it, for a server with flaws (nil: none). /healthz is the REST
// app's.
func trpcOverREST(rest string, answer trpcAnswer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" {
			forward(w, r, http.MethodGet, rest+"/healthz", nil)
			return
		}
		procedure, ok := strings.CutPrefix(r.URL.Path, "/trpc/")
		raw := []byte(r.URL.Query().Get("input"))
		if r.Method == http.MethodPost {
			raw, _ = io.ReadAll(r.Body)
		}
		var input map[string]any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber() // ids and limits as written, never 1.2e+06
		if len(raw) > 0 && dec.Decode(&input) != nil {
			writeTRPC(w, http.StatusBadRequest, trpcFailure("PARSE_ERROR", http.StatusBadRequest, "the input is not JSON"))
			return
		}
		method, path, body, known := restCall(procedure, input)
		if !ok || !known {
			writeTRPC(w, http.StatusNotFound, trpcFailure("NOT_FOUND", http.StatusNotFound, fmt.Sprintf("no procedure %q", procedure)))
			return
		}
		req, _ := http.NewRequestWithContext(r.Context(), method, rest+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", r.Header.Get("Authorization"))
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			writeTRPC(w, http.StatusBadGateway, trpcFailure("INTERNAL_SERVER_ERROR", http.StatusInternalServerError, err.Error()))
			return
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			var problem struct{ Detail string }
			_ = json.Unmarshal(data, &problem)
			writeTRPC(w, resp.StatusCode, trpcFailure(trpcCodes[resp.StatusCode], resp.StatusCode, problem.Detail))
			return
		}
		if len(bytes.TrimSpace(data)) == 0 {
			data = []byte("null")
		}
		status, out := http.StatusOK, trpcResult(data)
		if answer != nil {
			status, out = answer(procedure, http.StatusOK, data)
		}
		writeTRPC(w, status, out)
	})
}

// trpcCodes are tRPC's codes of the REST app's failures.
var trpcCodes = map[int]string{
	http.StatusBadRequest: "BAD_REQUEST", http.StatusUnauthorized: "UNAUTHORIZED", http.StatusForbidden: "FORBIDDEN",
	http.StatusNotFound: "NOT_FOUND", http.StatusConflict: "CONFLICT", http.StatusServiceUnavailable: "SERVICE_UNAVAILABLE",
}

// restCall is the REST request of a tRPC procedure's call with input.
func restCall(procedure string, input map[string]any) (method, path string, body []byte, ok bool) {
	id := fmt.Sprint(input["id"])
	query := url.Values{}
	for _, k := range []string{"limit", "after", "q", "status"} {
		if v, ok := input[k]; ok {
			query.Set(k, fmt.Sprint(v))
		}
	}
	delete(input, "id")
	body, _ = json.Marshal(input)
	switch procedure {
	case "auth.login":
		return http.MethodPost, "/api/login", body, true
	case "person.byId":
		return http.MethodGet, "/api/persons/" + id, nil, true
	case "person.list":
		return http.MethodGet, "/api/persons?" + query.Encode(), nil, true
	case "vacancy.byId":
		return http.MethodGet, "/api/vacancies/" + id, nil, true
	case "vacancy.list":
		return http.MethodGet, "/api/vacancies?" + query.Encode(), nil, true
	case "vacancy.create":
		return http.MethodPost, "/api/vacancies", body, true
	case "vacancy.update":
		return http.MethodPatch, "/api/vacancies/" + id, body, true
	case "vacancy.delete":
		return http.MethodDelete, "/api/vacancies/" + id, nil, true
	}
	return "", "", nil, false
}

// skipUpdates answers vacancy.update with the vacancy as it is, changing
// nothing, and serves every other call with next: a server that loses
// writes.
func skipUpdates(next http.Handler, rest string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/trpc/vacancy.update" {
			next.ServeHTTP(w, r)
			return
		}
		var input struct{ ID int64 }
		_ = json.NewDecoder(r.Body).Decode(&input)
		forward(w, r, http.MethodGet, fmt.Sprintf("%s/api/vacancies/%d", rest, input.ID), trpcResult)
	})
}

// forward sends r's Authorization to method target and writes its answer,
// wrapped by wrap when given.
func forward(w http.ResponseWriter, r *http.Request, method, target string, wrap func([]byte) []byte) {
	req, _ := http.NewRequestWithContext(r.Context(), method, target, nil)
	req.Header.Set("Authorization", r.Header.Get("Authorization"))
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if wrap != nil {
		data = wrap(data)
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(resp.StatusCode)
	w.Write(data)
}

// trpcResult is tRPC's envelope of a call's data.
func trpcResult(data []byte) []byte {
	return []byte(`{"result":{"data":` + string(bytes.TrimSpace(data)) + `}}`)
}

// trpcFailure is tRPC's envelope of a failed call.
func trpcFailure(code string, status int, message string) []byte {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": message, "code": -32603, "data": map[string]any{"code": code, "httpStatus": status},
	}})
	return b
}

// writeTRPC writes a tRPC answer.
func writeTRPC(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}
