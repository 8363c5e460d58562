package main

import (
	"strings"
	"testing"

	amqp "github.com/rabbitmq/amqp091-go"

	"crudbench/apps/amqp/amqprpc"
	"crudbench/apps/internal/serve"
)

// TestRefusals sends what a careful client would not: each is a 4xx that
// names the problem, never a 5xx, as REST answers it.
func TestRefusals(t *testing.T) {
	a := newApp(t)
	vacancy := func(change func(map[string]any)) map[string]any {
		b := vacancyBody()
		change(b)
		return b
	}
	for _, c := range []struct {
		name   string
		op     string
		body   any
		params []string
		want   int
		field  string
	}{
		{name: "unknown type", op: "person.fetch", want: 400, field: "type"},
		{name: "no type", op: "", want: 400, field: "type"},
		{name: "no id", op: "person.get", want: 400, field: "id"},
		{name: "id 0", op: "person.get", params: []string{"id", "0"}, want: 400, field: "id"},
		{name: "id -1", op: "vacancy.get", params: []string{"id", "-1"}, want: 400, field: "id"},
		{name: "id +1", op: "vacancy.get", params: []string{"id", "+1"}, want: 400, field: "id"},
		{name: "id past int64", op: "person.get", params: []string{"id", "9223372036854775808"}, want: 400, field: "id"},
		{name: "id not digits", op: "vacancy.delete", params: []string{"id", "1e3"}, want: 400, field: "id"},
		{name: "largest id", op: "vacancy.get", params: []string{"id", "9223372036854775807"}, want: 404},
		{name: "limit 0", op: "person.list", params: []string{"limit", "0"}, want: 400, field: "limit"},
		{name: "limit 1001", op: "vacancy.list", params: []string{"limit", "1001"}, want: 400, field: "limit"},
		{name: "forged cursor", op: "person.list", params: []string{"after", "';--"}, want: 400, field: "after"},
		{name: "q not UTF-8", op: "person.list", params: []string{"q", "\xff"}, want: 400, field: "q"},
		{name: "no body", op: "vacancy.create", want: 415},
		{name: "empty object", op: "login", body: `{}`, want: 401},
		{name: "byte-order mark", op: "login", body: "\ufeff{\"username\":\"editor\",\"password\":\"editor\"}", want: 400},
		{name: "not an object", op: "login", body: `["editor"]`, want: 400},
		{name: "malformed", op: "login", body: `{"username":`, want: 400},
		{name: "trailing data", op: "login", body: `{"username":"editor","password":"editor"} {}`, want: 400},
		{name: "unknown member", op: "login", body: `{"username":"editor","password":"editor","admin":true}`, want: 400, field: "admin"},
		{name: "member in another case", op: "login", body: `{"USERNAME":"editor","password":"editor"}`, want: 400, field: "USERNAME"},
		{name: "not UTF-8", op: "login", body: "{\"username\":\"\xff\",\"password\":\"x\"}", want: 400},
		{name: "integer as 1e3", op: "vacancy.create", body: strings.Replace(mustJSON(t, vacancyBody()), "4000000", "1e3", 1), want: 400, field: "salaryMinCents"},
		{name: "integer as 1.0", op: "vacancy.create", body: strings.Replace(mustJSON(t, vacancyBody()), "4000000", "1.0", 1), want: 400, field: "salaryMinCents"},
		{name: "integer past int64", op: "vacancy.create", body: strings.Replace(mustJSON(t, vacancyBody()), "4000000", "9223372036854775808", 1), want: 400, field: "salaryMinCents"},
		{name: "bad date", op: "vacancy.create", body: vacancy(func(b map[string]any) { b["opensOn"] = "2026-13-01" }), want: 400, field: "opensOn"},
		{name: "rule broken", op: "vacancy.create", body: vacancy(func(b map[string]any) { b["salaryMaxCents"] = 1 }), want: 422, field: "salaryMaxCents"},
		{name: "empty title", op: "vacancy.create", body: vacancy(func(b map[string]any) { b["title"] = "" }), want: 422, field: "title"},
		{name: "update without version", op: "vacancy.update", body: `{"title":"x"}`, params: []string{"id", "1"}, want: 428, field: "version"},
		{name: "null title", op: "vacancy.update", body: `{"version":1,"title":null}`, params: []string{"id", "1"}, want: 400, field: "title"},
		{name: "body over 1 MiB", op: "login", body: `{"username":"` + strings.Repeat("a", serve.MaxBodyBytes) + `","password":"x"}`, want: 413},
	} {
		t.Run(c.name, func(t *testing.T) {
			a.call(t, c.op, a.editor, c.body, c.params...).wantProblem(t, c.want, nonEmpty(c.field)...)
		})
	}
	t.Run("wrong content type", func(t *testing.T) {
		r := callWith(t, a.client, amqprpc.Request{Type: "login", Body: []byte(`{"username":"editor","password":"editor"}`), ContentType: "text/plain"})
		r.wantProblem(t, 415)
	})
	t.Run("parameter not a string", func(t *testing.T) {
		r := callWith(t, a.client, amqprpc.Request{Type: "person.get", Token: a.viewer, Headers: amqp.Table{"id": int32(1)}})
		r.wantProblem(t, 400, "id")
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	return string(rawBody(t, v))
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
