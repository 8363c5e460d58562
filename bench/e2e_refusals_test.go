package main_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"crudbench/bench/stack"
)

// The refusals compared here are the ones the REST API's description
// (resources/openapi.yaml, its table of statuses) and the GraphQL app's
// README (its table of extensions.code) fix; docs/contract.md sends readers
// to both, and says itself how hostile input is refused (Hostile input)
// and what the trpc kind answers (Kind trpc: its codes). A Node app that
// answers one of them differently from its Go counterpart, or a tRPC app
// differently from the other, breaks a client written against the
// contract.

// restRefusal is one request the REST contract refuses: what is sent, as
// which role, and the status and the problem's fields (their names) that
// both apps must answer.
type restRefusal struct {
	name    string
	role    string // "editor", "viewer", "" (no token) or a raw Authorization value
	method  string
	path    string
	header  map[string]string // sent besides Authorization; Content-Type is application/json unless set
	body    string
	status  int
	fields  []string // the names under "fields", sorted
	ownAuth bool     // role is the whole Authorization header
	// mediaType is the answer's when net/http or Node's parser refuses the
	// request before the app sees it: application/problem+json unless set.
	mediaType string
}

// answerType is the media type of the answer rr wants.
func (rr restRefusal) answerType() string {
	if rr.mediaType != "" {
		return rr.mediaType
	}
	return "application/problem+json"
}

// A vacancy the create takes, with one value changed by the rows.
func vacancyJSON(change map[string]any) string {
	v := map[string]any{
		"title": "refused", "department": "Physics", "location": "Berlin", "employmentType": "full_time",
		"salaryMinCents": 4000000, "salaryMaxCents": 5000000, "status": "draft", "opensOn": "2026-01-01", "description": "x",
	}
	maps.Copy(v, change)
	b, _ := json.Marshal(v)
	return string(b)
}

var restRefusals = []restRefusal{
	{name: "malformed JSON", role: "editor", method: "POST", path: "/api/vacancies", body: `{"title":`, status: 400},
	{name: "body not an object", role: "editor", method: "POST", path: "/api/vacancies", body: `[]`, status: 400},
	{name: "empty body", role: "editor", method: "POST", path: "/api/vacancies", body: ``, status: 400},
	{name: "unknown field", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"nope": 1}), status: 400, fields: []string{"nope"}},
	{name: "wrong type", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"salaryMinCents": "4000000"}), status: 400, fields: []string{"salaryMinCents"}},
	{name: "not a date", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"opensOn": "2026-02-30"}), status: 400, fields: []string{"opensOn"}},
	{name: "unknown enum value", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"employmentType": "weekly"}), status: 422, fields: []string{"employmentType"}},
	{name: "enum in upper case", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"status": "DRAFT"}), status: 422, fields: []string{"status"}},
	{name: "salary min over max", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"salaryMinCents": 5000000, "salaryMaxCents": 4000000}), status: 422, fields: []string{"salaryMaxCents"}},
	{name: "missing title", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"title": ""}), status: 422, fields: []string{"title"}},
	{name: "unknown filledBy", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"filledBy": 999999999}), status: 422, fields: []string{"filledBy"}},
	{name: "null for a field that cannot be cleared", role: "editor", method: "PATCH", path: "/api/vacancies/1", body: `{"version":1,"title":null}`, status: 400, fields: []string{"title"}},
	{name: "no token", role: "", method: "GET", path: "/api/persons/1", status: 401},
	{name: "bad token", role: "Bearer a.b.c", ownAuth: true, method: "GET", path: "/api/persons/1", status: 401},
	{name: "not a bearer token", role: "Basic ZWRpdG9yOmVkaXRvcg==", ownAuth: true, method: "GET", path: "/api/persons/1", status: 401},
	{name: "wrong password", role: "", method: "POST", path: "/api/login", body: `{"username":"editor","password":"no"}`, status: 401},
	{name: "viewer creates", role: "viewer", method: "POST", path: "/api/vacancies", body: vacancyJSON(nil), status: 403},
	{name: "viewer updates", role: "viewer", method: "PATCH", path: "/api/vacancies/1", body: `{"version":1,"title":"x"}`, status: 403},
	{name: "viewer deletes", role: "viewer", method: "DELETE", path: "/api/vacancies/1", status: 403},
	{name: "unknown vacancy", role: "editor", method: "GET", path: "/api/vacancies/999999999", status: 404},
	{name: "unknown person", role: "editor", method: "GET", path: "/api/persons/999999999", status: 404},
	{name: "update of an unknown vacancy", role: "editor", method: "PATCH", path: "/api/vacancies/999999999", body: `{"version":1,"title":"x"}`, status: 404},
	{name: "delete of an unknown vacancy", role: "editor", method: "DELETE", path: "/api/vacancies/999999999", status: 404},
	{name: "unknown path", role: "editor", method: "GET", path: "/api/nothing", status: 404},
	{name: "id not a number", role: "editor", method: "GET", path: "/api/vacancies/abc", status: 400, fields: []string{"id"}},
	{name: "id zero", role: "editor", method: "GET", path: "/api/persons/0", status: 400, fields: []string{"id"}},
	{name: "stale version", role: "editor", method: "PATCH", path: "/api/vacancies/1", body: `{"version":999,"title":"x"}`, status: 409, fields: []string{"version"}},
	{name: "stale If-Match", role: "editor", method: "PATCH", path: "/api/vacancies/1", header: map[string]string{"If-Match": `"999"`}, body: `{"title":"x"}`, status: 409, fields: []string{"version"}},
	{name: "no version", role: "editor", method: "PATCH", path: "/api/vacancies/1", body: `{"title":"x"}`, status: 428, fields: []string{"version"}},
	{name: "If-Match not an ETag of ours", role: "editor", method: "PATCH", path: "/api/vacancies/1", header: map[string]string{"If-Match": `W/"1"`}, body: `{"title":"x"}`, status: 400},
	{name: "If-Match and version disagree", role: "editor", method: "PATCH", path: "/api/vacancies/1", header: map[string]string{"If-Match": `"2"`}, body: `{"version":1,"title":"x"}`, status: 400, fields: []string{"version"}},
	{name: "limit zero", role: "editor", method: "GET", path: "/api/vacancies?limit=0", status: 400, fields: []string{"limit"}},
	{name: "limit over 1000", role: "editor", method: "GET", path: "/api/persons?limit=1001", status: 400, fields: []string{"limit"}},
	{name: "limit not a number", role: "editor", method: "GET", path: "/api/persons?limit=ten", status: 400, fields: []string{"limit"}},
	{name: "bad cursor", role: "editor", method: "GET", path: "/api/vacancies?after=garbage", status: 400, fields: []string{"after"}},
	{name: "another list's cursor", role: "editor", method: "GET", path: "/api/vacancies?after=eyJrIjoicGVyc29uIn0", status: 400, fields: []string{"after"}},
	{name: "unknown status", role: "editor", method: "GET", path: "/api/vacancies?status=weird", status: 400, fields: []string{"status"}},
	{name: "body over 1 MiB", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"description": strings.Repeat("x", 1<<20)}), status: 413},
	{name: "not JSON", role: "editor", method: "POST", path: "/api/vacancies", header: map[string]string{"Content-Type": "text/plain"}, body: vacancyJSON(nil), status: 415},
	{name: "form", role: "editor", method: "POST", path: "/api/login", header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, body: "username=editor&password=editor", status: 415},
	{name: "body with a byte-order mark", role: "", method: "POST", path: "/api/login", body: "\ufeff" + `{"username":"editor","password":"no"}`, status: 400},
	// The integer rows leave the title empty: an app that took the number
	// would refuse the create anyway (422), and create nothing.
	{name: "integer in exponent form", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"salaryMinCents": json.Number("1e3"), "title": ""}), status: 400, fields: []string{"salaryMinCents"}},
	{name: "integer with a fraction", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"salaryMinCents": json.Number("1.5"), "title": ""}), status: 400, fields: []string{"salaryMinCents"}},
	{name: "integer written with a zero fraction", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"salaryMinCents": json.Number("1000.0"), "title": ""}), status: 400, fields: []string{"salaryMinCents"}},
	{name: "integer beyond int64", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"salaryMinCents": json.Number("9223372036854775808"), "title": ""}), status: 400, fields: []string{"salaryMinCents"}},
	{name: "integer beyond 2^53", role: "editor", method: "POST", path: "/api/vacancies", body: vacancyJSON(map[string]any{"filledBy": json.Number("9007199254740993")}), status: 422, fields: []string{"filledBy"}},
	{name: "query parameter not UTF-8", role: "editor", method: "GET", path: "/api/persons?q=%ff", status: 400, fields: []string{"q"}},
	{name: "id at int64's maximum", role: "editor", method: "GET", path: "/api/persons/9223372036854775807", status: 404},
	{name: "id beyond int64", role: "editor", method: "GET", path: "/api/persons/9223372036854775808", status: 400, fields: []string{"id"}},
	{name: "id negative", role: "editor", method: "GET", path: "/api/vacancies/-1", status: 400, fields: []string{"id"}},
	{name: "id of 100 KB", role: "editor", method: "GET", path: "/api/persons/" + strings.Repeat("1", 100<<10), status: 431, mediaType: "text/plain"},
	{name: "cursor beyond int64", role: "editor", method: "GET", path: "/api/vacancies?after=" + cursor(`{"k":"vacancy","i":9223372036854775808}`), status: 400, fields: []string{"after"}},
	{name: "cursor negative", role: "editor", method: "GET", path: "/api/persons?after=" + cursor(`{"k":"person","l":"A","f":"B","i":-1}`), status: 400, fields: []string{"after"}},
	{name: "cursor zero", role: "editor", method: "GET", path: "/api/persons?after=" + cursor(`{"k":"person","l":"A","f":"B","i":0}`), status: 400, fields: []string{"after"}},
	{name: "person cursor beyond int64", role: "editor", method: "GET", path: "/api/persons?after=" + cursor(`{"k":"person","l":"A","f":"B","i":9223372036854775808}`), status: 400, fields: []string{"after"}},
	{name: "method not allowed", role: "editor", method: "PUT", path: "/api/vacancies/1", body: vacancyJSON(nil), status: 405},
}

// gqlRefusal is one GraphQL request the contract refuses: the codes of
// its errors, and the status, which is the same in both apps.
type gqlRefusal struct {
	name      string
	role      string // as restRefusal's
	ownAuth   bool
	query     string
	variables map[string]any
	header    map[string]string // Content-Type is application/json unless set
	rawBody   string            // sent instead of query and variables when set
	method    string            // POST unless set
	rawQuery  string            // the URL's query, for GET
	status    int
	codes     []string // extensions.code of each error
	fields    []string // the names under the first error's extensions.fields, sorted
	// messages, when set, are each error's message, the same in every app:
	// for a refusal the GraphQL spec words, as graphql-js and gqlparser both
	// write them.
	messages []string
}

// graphqlResponse is the media type of the GraphQL-over-HTTP spec, with
// which request errors are 400 rather than 200.
var graphqlResponse = map[string]string{"Accept": "application/graphql-response+json"}

var gqlRefusals = []gqlRefusal{
	{name: "syntax error", role: "editor", query: `{ person(id: 1) { id `, status: 200, codes: []string{"GRAPHQL_PARSE_FAILED"}},
	{name: "syntax error, graphql-response", role: "editor", query: `{ person(id: 1) { id `, header: graphqlResponse, status: 400, codes: []string{"GRAPHQL_PARSE_FAILED"}},
	{name: "unknown field", role: "editor", query: `{ nope }`, status: 200, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "unknown field, graphql-response", role: "editor", query: `{ nope }`, header: graphqlResponse, status: 400, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "missing variable", role: "editor", query: `query($id: ID!) { person(id: $id) { id } }`, status: 200, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "depth over the limit", role: "editor", query: `{ vacancies { nodes { filledByPerson { appointments { person { appointments { person { appointments { person { appointments { id } } } } } } } } } } }`,
		status: 200, codes: []string{"DEPTH_LIMIT_EXCEEDED"}},
	{name: "depth over the limit, graphql-response", role: "editor", query: `{ vacancies { nodes { filledByPerson { appointments { person { appointments { person { appointments { person { appointments { id } } } } } } } } } } }`,
		header: graphqlResponse, status: 400, codes: []string{"DEPTH_LIMIT_EXCEEDED"}},
	{name: "complexity over the limit", role: "editor", query: `{ persons(first: 1000) { nodes { appointments { stipends { id payer { id code name kind } } } } } }`,
		status: 200, codes: []string{"COMPLEXITY_LIMIT_EXCEEDED"}},
	{name: "complexity over the limit, graphql-response", role: "editor", query: `{ persons(first: 1000) { nodes { appointments { stipends { id payer { id code name kind } } } } } }`,
		header: graphqlResponse, status: 400, codes: []string{"COMPLEXITY_LIMIT_EXCEEDED"}},
	{name: "document over the size limit", role: "editor", query: "{ __typename }" + strings.Repeat(" ", 16<<10), status: 200, codes: []string{"QUERY_TOO_LARGE"}},
	{name: "document over the size limit, graphql-response", role: "editor", query: "{ __typename }" + strings.Repeat(" ", 16<<10), header: graphqlResponse, status: 400, codes: []string{"QUERY_TOO_LARGE"}},
	{name: "no token", role: "", query: `{ person(id: 1) { id } }`, status: 200, codes: []string{"UNAUTHENTICATED"}},
	{name: "bad token", role: "Bearer a.b.c", ownAuth: true, query: `{ person(id: 1) { id } }`, status: 200, codes: []string{"UNAUTHENTICATED"}},
	{name: "wrong password", role: "", query: `mutation { login(username: "editor", password: "no") { token } }`, status: 200, codes: []string{"UNAUTHENTICATED"}},
	{name: "viewer mutation", role: "viewer", query: `mutation { deleteVacancy(id: 1) }`, status: 200, codes: []string{"FORBIDDEN"}},
	{name: "viewer update", role: "viewer", query: `mutation { updateVacancy(id: 1, version: 1, input: {title: "x"}) { id } }`, status: 200, codes: []string{"FORBIDDEN"}},
	{name: "unknown person", role: "editor", query: `{ person(id: 999999999) { id } }`, status: 200, codes: []string{"NOT_FOUND"}},
	{name: "unknown vacancy", role: "editor", query: `{ vacancy(id: 999999999) { id } }`, status: 200, codes: []string{"NOT_FOUND"}},
	{name: "delete of an unknown vacancy", role: "editor", query: `mutation { deleteVacancy(id: 999999999) }`, status: 200, codes: []string{"NOT_FOUND"}},
	{name: "stale version", role: "editor", query: `mutation { updateVacancy(id: 1, version: 999, input: {title: "x"}) { id } }`, status: 200, codes: []string{"CONFLICT"}},
	{name: "salary min over max", role: "editor", query: `mutation { updateVacancy(id: 1, version: 1, input: {salaryMinCents: 10, salaryMaxCents: 5}) { id } }`,
		status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"salaryMaxCents"}},
	{name: "create with salary min over max", role: "editor",
		query:     `mutation($input: VacancyInput!) { createVacancy(input: $input) { id } }`,
		variables: map[string]any{"input": gqlVacancy(map[string]any{"salaryMinCents": 5000000, "salaryMaxCents": 4000000})},
		status:    200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"salaryMaxCents"}},
	{name: "create without a title", role: "editor",
		query:     `mutation($input: VacancyInput!) { createVacancy(input: $input) { id } }`,
		variables: map[string]any{"input": gqlVacancy(map[string]any{"title": ""})},
		status:    200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"title"}},
	{name: "id not a number", role: "editor", query: `{ person(id: "x") { id } }`, status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"id"}},
	{name: "page too big", role: "editor", query: `{ persons(first: 1001) { nodes { id } } }`, status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"first"}},
	{name: "another list's cursor", role: "editor", query: `{ vacancies(after: "eyJrIjoicGVyc29uIn0") { nodes { id } } }`, status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"after"}},
	{name: "not a date", role: "editor", query: `mutation { updateVacancy(id: 1, version: 1, input: {opensOn: "2026-02-30"}) { id } }`, status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"opensOn"}},
	{name: "not a date, graphql-response", role: "editor", query: `mutation { updateVacancy(id: 1, version: 1, input: {opensOn: "2026-02-30"}) { id } }`, header: graphqlResponse, status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"opensOn"}},
	{name: "enum variable in lower case", role: "editor", query: `query($s: VacancyStatus) { vacancies(status: $s) { nodes { id } } }`,
		variables: map[string]any{"s": "open"}, status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"status"}},
	{name: "enum variable in lower case, graphql-response", role: "editor", query: `query($s: VacancyStatus) { vacancies(status: $s) { nodes { id } } }`,
		variables: map[string]any{"s": "open"}, header: graphqlResponse, status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"status"}},
	{name: "string for a number in a variable", role: "editor", query: `query($n: Int) { persons(first: $n) { nodes { id } } }`,
		variables: map[string]any{"n": "10"}, status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"first"}},
	{name: "not a date in a variable", role: "editor",
		query:     `mutation($input: VacancyInput!) { createVacancy(input: $input) { id } }`,
		variables: map[string]any{"input": gqlVacancy(map[string]any{"opensOn": "2026-02-30"})},
		status:    200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"opensOn"}},
	{name: "integer beyond int64 in a variable", role: "editor",
		query:     `mutation($input: VacancyInput!) { createVacancy(input: $input) { id } }`,
		variables: map[string]any{"input": gqlVacancy(map[string]any{"salaryMinCents": json.Number("9223372036854775808"), "title": ""})},
		status:    200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"salaryMinCents"}},
	{name: "missing variable, graphql-response", role: "editor", query: `query($id: ID!) { person(id: $id) { id } }`, header: graphqlResponse, status: 400, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	// A number not written as an int64 in digits, which JSON.parse reads
	// as an integer: gqlparser refuses it for an Int as it validates the
	// variables, the app's scalar for an Int64.
	{name: "Int variable in exponent form", role: "editor", query: `query($n: Int) { persons(first: $n) { nodes { id } } }`,
		variables: map[string]any{"n": json.Number("1e3")}, status: 200, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "Int variable in exponent form, graphql-response", role: "editor", query: `query($n: Int) { persons(first: $n) { nodes { id } } }`,
		variables: map[string]any{"n": json.Number("1e3")}, header: graphqlResponse, status: 400, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "Int variable with a zero fraction", role: "editor", query: `mutation($v: Int!) { updateVacancy(id: 1, version: $v, input: {title: "x"}) { id } }`,
		variables: map[string]any{"v": json.Number("1.0")}, status: 200, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "Int variable beyond int64", role: "editor", query: `query($n: Int) { persons(first: $n) { nodes { id } } }`,
		variables: map[string]any{"n": json.Number("9223372036854775808")}, status: 200, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "Int variable in exponent form over GET", role: "editor", method: "GET",
		rawQuery: "query=" + url.QueryEscape(`query($n: Int) { persons(first: $n) { nodes { id } } }`) + "&variables=" + url.QueryEscape(`{"n":1e3}`), status: 200, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "Int64 in exponent form in a variable", role: "editor",
		query:     `mutation($input: VacancyInput!) { createVacancy(input: $input) { id } }`,
		variables: map[string]any{"input": gqlVacancy(map[string]any{"salaryMinCents": json.Number("1e3"), "title": ""})},
		status:    200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"salaryMinCents"}},
	{name: "Int64 with a zero fraction in a variable", role: "editor",
		query:     `mutation($input: VacancyPatch!) { updateVacancy(id: 1, version: 1, input: $input) { id } }`,
		variables: map[string]any{"input": map[string]any{"salaryMaxCents": json.Number("5000000.0")}},
		status:    200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"salaryMaxCents"}},
	{name: "variable not an object", role: "editor", query: `mutation($input: VacancyInput!) { createVacancy(input: $input) { id } }`,
		variables: map[string]any{"input": "x"}, status: 200, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "body over 1 MiB", role: "editor", query: "{ __typename }" + strings.Repeat(" ", 1<<20), status: 413, codes: []string{"REQUEST_TOO_LARGE"}},
	{name: "body not JSON", role: "editor", rawBody: `{"query":`, status: 400, codes: []string{"BAD_REQUEST"}},
	{name: "body not an object", role: "editor", rawBody: `[]`, status: 400, codes: []string{"BAD_REQUEST"}},
	{name: "not JSON", role: "editor", header: map[string]string{"Content-Type": "text/plain"}, rawBody: `{"query":"{ __typename }"}`, status: 415, codes: []string{"UNSUPPORTED_MEDIA_TYPE"}},
	{name: "no content type", role: "editor", header: map[string]string{"Content-Type": ""}, rawBody: `{"query":"{ __typename }"}`, status: 415, codes: []string{"UNSUPPORTED_MEDIA_TYPE"}},
	{name: "variables not JSON over GET", role: "editor", method: "GET", rawQuery: "query=" + url.QueryEscape(`query($n: Int) { persons(first: $n) { nodes { id } } }`) + "&variables=notjson", status: 400, codes: []string{"BAD_REQUEST"}},
	{name: "document over the size limit over GET", role: "editor", method: "GET", rawQuery: "query=" + url.QueryEscape("{ __typename }"+strings.Repeat(" ", 16<<10)), status: 200, codes: []string{"QUERY_TOO_LARGE"}},
	{name: "subscription", role: "editor", query: `subscription { __typename }`, status: 200, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	// The spec's Lone Anonymous Operation: one error for each anonymous
	// operation, none for their sharing the name "" (gqlgen's third).
	{name: "two anonymous operations", role: "editor", query: `{ a: __typename } { b: __typename }`, status: 200,
		codes: []string{"GRAPHQL_VALIDATION_FAILED", "GRAPHQL_VALIDATION_FAILED"}, messages: []string{loneAnonymous, loneAnonymous}},
	{name: "two anonymous operations, graphql-response", role: "editor", query: `{ a: __typename } { b: __typename }`, header: graphqlResponse, status: 400,
		codes: []string{"GRAPHQL_VALIDATION_FAILED", "GRAPHQL_VALIDATION_FAILED"}, messages: []string{loneAnonymous, loneAnonymous}},
	// An operation the server cannot choose is gqlgen's request error.
	{name: "no query over GET", role: "editor", method: "GET", status: 200, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "no query", role: "editor", rawBody: `{"variables":{}}`, header: graphqlResponse, status: 400, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "an operation the document does not hold", role: "editor", method: "GET", rawQuery: "query=" + url.QueryEscape(`{ __typename }`) + "&operationName=Nope", status: 200, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "several operations and no operationName", role: "editor", query: `query A { a: __typename } query B { b: __typename }`, header: graphqlResponse, status: 400, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "several operations and no operationName over GET", role: "editor", method: "GET", rawQuery: "query=" + url.QueryEscape(`query A { a: __typename } query B { b: __typename }`), status: 200, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "query not UTF-8 over GET", role: "editor", method: "GET", rawQuery: "query=%7B%20a%3A%20__typename%20%ff%20%7D", status: 200, codes: []string{"GRAPHQL_PARSE_FAILED"}},
	{name: "an anonymous operation beside a named one", role: "editor", query: `{ a: __typename } query B { b: __typename }`, status: 200,
		codes: []string{"GRAPHQL_VALIDATION_FAILED"}, messages: []string{loneAnonymous}},
	{name: "deeply nested variable", role: "editor", query: `query($id: ID!) { person(id: $id) { id } }`,
		variables: map[string]any{"id": json.RawMessage(strings.Repeat("[", 1000) + strings.Repeat("]", 1000))}, status: 200, codes: []string{"GRAPHQL_VALIDATION_FAILED"}},
	{name: "id at int64's maximum", role: "editor", query: `{ person(id: "9223372036854775807") { id } }`, status: 200, codes: []string{"NOT_FOUND"}},
	{name: "id beyond int64", role: "editor", query: `{ person(id: "9223372036854775808") { id } }`, status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"id"}},
	{name: "id negative", role: "editor", query: `{ vacancy(id: "-1") { id } }`, status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"id"}},
	{name: "id zero", role: "editor", query: `{ vacancy(id: "0") { id } }`, status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"id"}},
	{name: "cursor beyond int64", role: "editor", query: `{ vacancies(after: "` + cursor(`{"k":"vacancy","i":9223372036854775808}`) + `") { nodes { id } } }`, status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"after"}},
	{name: "cursor negative", role: "editor", query: `{ persons(after: "` + cursor(`{"k":"person","l":"A","f":"B","i":-1}`) + `") { nodes { id } } }`, status: 200, codes: []string{"BAD_USER_INPUT"}, fields: []string{"after"}},
	{name: "body with a byte-order mark", role: "editor", rawBody: "\ufeff" + `{"query":"{ __typename }"}`, status: 400, codes: []string{"BAD_REQUEST"}},
	// Not a refusal: null for an argument with a default is the argument not given.
	{name: "first null", role: "editor", query: `{ persons(first: null) { nodes { id } } }`, status: 200},
	{name: "first null for vacancies", role: "editor", query: `{ vacancies(first: null) { nodes { id } } }`, status: 200},
	{name: "method not allowed", role: "editor", method: "PUT", query: `{ __typename }`, status: 405, codes: []string{"METHOD_NOT_ALLOWED"}},
	{name: "mutation over GET", role: "editor", method: "GET", rawQuery: "query=" + url.QueryEscape(`mutation { deleteVacancy(id: 999999999) }`), status: 405, codes: []string{"METHOD_NOT_ALLOWED"}},
}

// trpcRefusal is one tRPC call the trpc kind's contract (docs/contract.md,
// Kind trpc) refuses: its procedure and input, and the status, tRPC code
// and fields every tRPC app answers.
type trpcRefusal struct {
	name      string
	role      string // as restRefusal's
	ownAuth   bool
	procedure string            // the path under /trpc/
	mutation  bool              // sent as POST with input as the body; else GET with ?input=
	input     string            // the input's JSON, none when empty
	rawQuery  string            // the URL's query, sent instead of input's
	method    string            // instead of the one mutation says
	header    map[string]string // Content-Type is application/json for a body unless set
	status    int
	code      string   // error.data.code
	fields    []string // the names under error.data.fields, sorted
	// mediaType is the answer's when Node's parser refuses the request
	// before the app sees it: application/json unless set.
	mediaType string
}

// answerType is the media type of the answer tr wants.
func (tr trpcRefusal) answerType() string {
	if tr.mediaType != "" {
		return tr.mediaType
	}
	return "application/json"
}

var trpcRefusals = []trpcRefusal{
	{name: "no token", procedure: "person.byId", input: `{"id":1}`, status: 401, code: "UNAUTHORIZED"},
	{name: "bad token", role: "Bearer a.b.c", ownAuth: true, procedure: "person.byId", input: `{"id":1}`, status: 401, code: "UNAUTHORIZED"},
	{name: "not a bearer token", role: "Basic ZWRpdG9yOmVkaXRvcg==", ownAuth: true, procedure: "person.byId", input: `{"id":1}`, status: 401, code: "UNAUTHORIZED"},
	{name: "wrong password", procedure: "auth.login", mutation: true, input: `{"username":"editor","password":"no"}`, status: 401, code: "UNAUTHORIZED"},
	{name: "viewer creates", role: "viewer", procedure: "vacancy.create", mutation: true, input: vacancyJSON(nil), status: 403, code: "FORBIDDEN"},
	{name: "viewer updates", role: "viewer", procedure: "vacancy.update", mutation: true, input: `{"id":1,"version":1,"title":"x"}`, status: 403, code: "FORBIDDEN"},
	{name: "viewer deletes", role: "viewer", procedure: "vacancy.delete", mutation: true, input: `{"id":1}`, status: 403, code: "FORBIDDEN"},
	{name: "unknown person", role: "editor", procedure: "person.byId", input: `{"id":999999999}`, status: 404, code: "NOT_FOUND"},
	{name: "unknown vacancy", role: "editor", procedure: "vacancy.byId", input: `{"id":999999999}`, status: 404, code: "NOT_FOUND"},
	{name: "update of an unknown vacancy", role: "editor", procedure: "vacancy.update", mutation: true, input: `{"id":999999999,"version":1,"title":"x"}`, status: 404, code: "NOT_FOUND"},
	{name: "delete of an unknown vacancy", role: "editor", procedure: "vacancy.delete", mutation: true, input: `{"id":999999999}`, status: 404, code: "NOT_FOUND"},
	{name: "unknown procedure", role: "editor", procedure: "person.nothing", status: 404, code: "NOT_FOUND"},
	{name: "id as a string", role: "editor", procedure: "person.byId", input: `{"id":"1"}`, status: 400, code: "BAD_REQUEST", fields: []string{"id"}},
	{name: "id zero", role: "editor", procedure: "person.byId", input: `{"id":0}`, status: 400, code: "BAD_REQUEST", fields: []string{"id"}},
	{name: "id negative", role: "editor", procedure: "vacancy.byId", input: `{"id":-1}`, status: 400, code: "BAD_REQUEST", fields: []string{"id"}},
	{name: "id beyond int64", role: "editor", procedure: "person.byId", input: `{"id":9223372036854775808}`, status: 400, code: "BAD_REQUEST", fields: []string{"id"}},
	{name: "no id", role: "editor", procedure: "person.byId", input: `{}`, status: 400, code: "BAD_REQUEST", fields: []string{"id"}},
	{name: "no input", role: "editor", procedure: "vacancy.byId", status: 400, code: "BAD_REQUEST", fields: []string{"input"}},
	{name: "unknown member", role: "editor", procedure: "person.byId", input: `{"id":1,"nope":1}`, status: 400, code: "BAD_REQUEST", fields: []string{"nope"}},
	{name: "wrong type", role: "editor", procedure: "vacancy.create", mutation: true, input: vacancyJSON(map[string]any{"salaryMinCents": "4000000"}), status: 400, code: "BAD_REQUEST", fields: []string{"salaryMinCents"}},
	{name: "not a date", role: "editor", procedure: "vacancy.create", mutation: true, input: vacancyJSON(map[string]any{"opensOn": "2026-02-30"}), status: 400, code: "BAD_REQUEST", fields: []string{"opensOn"}},
	{name: "unknown enum value", role: "editor", procedure: "vacancy.create", mutation: true, input: vacancyJSON(map[string]any{"employmentType": "weekly"}), status: 400, code: "BAD_REQUEST", fields: []string{"employmentType"}},
	{name: "salary min over max", role: "editor", procedure: "vacancy.create", mutation: true, input: vacancyJSON(map[string]any{"salaryMinCents": 5000000, "salaryMaxCents": 4000000}), status: 400, code: "BAD_REQUEST", fields: []string{"salaryMaxCents"}},
	{name: "missing title", role: "editor", procedure: "vacancy.create", mutation: true, input: vacancyJSON(map[string]any{"title": ""}), status: 400, code: "BAD_REQUEST", fields: []string{"title"}},
	{name: "unknown filledBy", role: "editor", procedure: "vacancy.create", mutation: true, input: vacancyJSON(map[string]any{"filledBy": 999999999}), status: 400, code: "BAD_REQUEST", fields: []string{"filledBy"}},
	{name: "integer with a fraction", role: "editor", procedure: "vacancy.update", mutation: true, input: `{"id":1,"version":1,"salaryMaxCents":1.5}`, status: 400, code: "BAD_REQUEST", fields: []string{"salaryMaxCents"}},
	{name: "stale version", role: "editor", procedure: "vacancy.update", mutation: true, input: `{"id":1,"version":999,"title":"x"}`, status: 409, code: "CONFLICT", fields: []string{"version"}},
	{name: "no version", role: "editor", procedure: "vacancy.update", mutation: true, input: `{"id":1,"title":"x"}`, status: 412, code: "PRECONDITION_FAILED", fields: []string{"version"}},
	{name: "limit zero", role: "editor", procedure: "person.list", input: `{"limit":0}`, status: 400, code: "BAD_REQUEST", fields: []string{"limit"}},
	{name: "limit over 1000", role: "editor", procedure: "vacancy.list", input: `{"limit":1001}`, status: 400, code: "BAD_REQUEST", fields: []string{"limit"}},
	{name: "limit not a number", role: "editor", procedure: "person.list", input: `{"limit":"ten"}`, status: 400, code: "BAD_REQUEST", fields: []string{"limit"}},
	{name: "bad cursor", role: "editor", procedure: "vacancy.list", input: `{"after":"garbage"}`, status: 400, code: "BAD_REQUEST", fields: []string{"after"}},
	{name: "another list's cursor", role: "editor", procedure: "vacancy.list", input: `{"after":"eyJrIjoicGVyc29uIn0"}`, status: 400, code: "BAD_REQUEST", fields: []string{"after"}},
	{name: "cursor beyond int64", role: "editor", procedure: "vacancy.list", input: `{"after":"` + cursor(`{"k":"vacancy","i":9223372036854775808}`) + `"}`, status: 400, code: "BAD_REQUEST", fields: []string{"after"}},
	{name: "unknown status", role: "editor", procedure: "vacancy.list", input: `{"status":"weird"}`, status: 400, code: "BAD_REQUEST", fields: []string{"status"}},
	{name: "input not JSON", role: "editor", procedure: "person.byId", input: `{"id":`, status: 400, code: "BAD_REQUEST"},
	{name: "body not JSON", role: "editor", procedure: "vacancy.create", mutation: true, input: `{"title":`, status: 400, code: "BAD_REQUEST"},
	{name: "input not UTF-8", role: "editor", procedure: "person.list", rawQuery: "input=%ff", status: 400, code: "BAD_REQUEST", fields: []string{"input"}},
	{name: "input's JSON not UTF-8", role: "editor", procedure: "person.list", rawQuery: "input=" + url.QueryEscape(`{"q":"`) + "%ff%22%7D", status: 400, code: "BAD_REQUEST", fields: []string{"input"}},
	{name: "body over 1 MiB", role: "editor", procedure: "vacancy.create", mutation: true, input: vacancyJSON(map[string]any{"description": strings.Repeat("x", 1<<20)}), status: 413, code: "PAYLOAD_TOO_LARGE"},
	{name: "not JSON", role: "editor", procedure: "vacancy.create", mutation: true, header: map[string]string{"Content-Type": "text/plain"}, input: vacancyJSON(nil), status: 415, code: "UNSUPPORTED_MEDIA_TYPE"},
	{name: "mutation over GET", role: "editor", procedure: "vacancy.delete", method: "GET", input: `{"id":999999999}`, status: 405, code: "METHOD_NOT_SUPPORTED"},
	{name: "query over POST", role: "editor", procedure: "person.byId", method: "POST", input: `{"id":1}`, status: 405, code: "METHOD_NOT_SUPPORTED"},
	{name: "batch", role: "editor", procedure: "person.byId,person.byId", rawQuery: "batch=1&input=" + url.QueryEscape(`{"0":{"id":1},"1":{"id":1}}`), status: 400, code: "BAD_REQUEST"},
	// The adapter reads a body as a fetch Request does: the mark is
	// dropped, and the login is refused for its password.
	{name: "body with a byte-order mark", procedure: "auth.login", mutation: true, input: "\ufeff" + `{"username":"editor","password":"no"}`, status: 401, code: "UNAUTHORIZED"},
	{name: "id of 100 KB", role: "editor", procedure: "person.byId", input: `{"id":` + strings.Repeat("1", 100<<10) + `}`, status: 431, mediaType: "text/plain"},
}

// loneAnonymous is the message of the GraphQL spec's Lone Anonymous
// Operation rule, as graphql-js and gqlparser word it.
const loneAnonymous = "This anonymous operation must be the only defined operation."

// cursor encodes a list cursor as the apps do: base64url of its JSON.
func cursor(v string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(v))
}

// gqlVacancy is a createVacancy input with one value changed by the rows.
func gqlVacancy(change map[string]any) map[string]any {
	v := map[string]any{
		"title": "refused", "department": "Physics", "location": "Berlin", "employmentType": "FULL_TIME",
		"salaryMinCents": 4000000, "salaryMaxCents": 5000000, "status": "DRAFT", "opensOn": "2026-01-01", "description": "x",
	}
	maps.Copy(v, change)
	return v
}

// TestRefusals sends every request of a table to the apps of a kind, rest
// with express, fastify, nest, nest-fastify and next-rest, graphql with
// yoga, apollo, mercurius, mercurius-jit, nest-graphql, nest-mercurius and
// next-graphql, trpc with next-trpc (next-graphql and next-trpc are
// next-rest's process), on one database: each must
// answer the status and the error code (and the fields named) the contract
// fixes, and all of them the same.
func TestRefusals(t *testing.T) {
	requireNode(t)
	var rows []stack.App
	restApps := []string{"rest", "express", "fastify", "nest", "nest-fastify", "next-rest"}
	gqlApps := []string{"graphql", "yoga", "apollo", "mercurius", "mercurius-jit", "nest-graphql", "nest-mercurius", "next-graphql"}
	trpcApps := []string{"trpc", "next-trpc"}
	for _, name := range slices.Concat(restApps, gqlApps, trpcApps) {
		row, ok := stack.FindBuiltin(name)
		if !ok {
			t.Fatalf("no built-in app %s", name)
		}
		rows = append(rows, row)
	}
	_, procs := startApps(t, rows)
	client := &http.Client{Timeout: 30 * time.Second}

	t.Run(strings.Join(restApps, ", "), func(t *testing.T) {
		tokens := map[string]map[string]string{}
		for _, name := range restApps {
			tokens[name] = map[string]string{}
			for _, role := range []string{"editor", "viewer"} {
				tokens[name][role] = restLogin(t, client, procs[name].URL, role)
			}
		}
		for _, rr := range restRefusals {
			t.Run(rr.name, func(t *testing.T) {
				var answers []refusalAnswer
				for _, name := range restApps {
					a := sendREST(t, client, procs[name].URL, rr, tokens[name])
					if a.status != rr.status || !slices.Equal(a.fields, rr.fields) || a.mediaType != rr.answerType() {
						t.Errorf("%s: %d %s fields %q, want %d %s fields %q; body %s",
							name, a.status, a.mediaType, a.fields, rr.status, rr.answerType(), rr.fields, a.body)
					}
					answers = append(answers, a)
				}
				compareAnswers(t, restApps, answers)
			})
		}
		// Nothing the viewer or the refused writes sent changed vacancy 1.
		for _, name := range restApps {
			req, err := http.NewRequest("GET", procs[name].URL+"/api/vacancies/1", nil)
			if err != nil {
				t.Fatal(err)
			}
			authorize(req, "editor", false, tokens[name])
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK || res.Header.Get("ETag") != `"1"` {
				t.Errorf("%s: vacancy 1 after the refusals: %d, ETag %s, want it unchanged at version 1", name, res.StatusCode, res.Header.Get("ETag"))
			}
		}
	})

	t.Run(strings.Join(gqlApps, ", "), func(t *testing.T) {
		tokens := map[string]map[string]string{}
		for _, name := range gqlApps {
			tokens[name] = map[string]string{}
			for _, role := range []string{"editor", "viewer"} {
				tokens[name][role] = gqlLogin(t, client, procs[name].URL, role)
			}
		}
		for _, gr := range gqlRefusals {
			t.Run(gr.name, func(t *testing.T) {
				var answers []refusalAnswer
				for _, name := range gqlApps {
					a := sendGraphQL(t, client, procs[name].URL, gr, tokens[name])
					if a.status != gr.status || !slices.Equal(a.codes, gr.codes) || !slices.Equal(a.fields, gr.fields) ||
						gr.messages != nil && !slices.Equal(a.messages, gr.messages) {
						t.Errorf("%s: %d codes %q fields %q, want %d codes %q fields %q messages %q; body %s",
							name, a.status, a.codes, a.fields, gr.status, gr.codes, gr.fields, gr.messages, a.body)
					}
					answers = append(answers, a)
				}
				compareAnswers(t, gqlApps, answers)
			})
		}
	})

	t.Run(strings.Join(trpcApps, ", "), func(t *testing.T) {
		tokens := map[string]map[string]string{}
		for _, name := range trpcApps {
			tokens[name] = map[string]string{}
			for _, role := range []string{"editor", "viewer"} {
				tokens[name][role] = trpcLogin(t, client, procs[name].URL, role)
			}
		}
		for _, tr := range trpcRefusals {
			t.Run(tr.name, func(t *testing.T) {
				var answers []refusalAnswer
				for _, name := range trpcApps {
					a := sendTRPC(t, client, procs[name].URL, tr, tokens[name])
					var want []string
					if tr.code != "" {
						want = []string{tr.code}
					}
					if a.status != tr.status || !slices.Equal(a.codes, want) || !slices.Equal(a.fields, tr.fields) || a.mediaType != tr.answerType() {
						t.Errorf("%s: %d %s codes %q fields %q, want %d %s code %s fields %q; body %s",
							name, a.status, a.mediaType, a.codes, a.fields, tr.status, tr.answerType(), tr.code, tr.fields, a.body)
					}
					answers = append(answers, a)
				}
				compareAnswers(t, trpcApps, answers)
			})
		}
	})
}

// refusalAnswer is what is compared of an answer: of a problem its status,
// media type, title and fields' names; of a GraphQL answer its status,
// the codes of its errors and the first error's fields' names; and the
// headers a client acts on.
type refusalAnswer struct {
	status    int
	mediaType string
	title     string
	codes     []string
	fields    []string
	messages  []string // the errors' messages, when the row names them
	hasData   bool     // a member "data" that is not null
	challenge bool     // WWW-Authenticate: Bearer…
	allow     string   // Allow
	body      string   // for messages only
}

// compareAnswers fails unless every app of names answered as the first
// did.
func compareAnswers(t *testing.T, names []string, answers []refusalAnswer) {
	t.Helper()
	want := answers[0]
	want.body = ""
	for i, a := range answers[1:] {
		got := a
		got.body = ""
		if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
			t.Errorf("%s answers %+v, %s %+v", names[i+1], got, names[0], want)
		}
	}
}

// sendREST sends rr with the token of its role and reads the problem.
func sendREST(t *testing.T, client *http.Client, base string, rr restRefusal, tokens map[string]string) refusalAnswer {
	t.Helper()
	var body io.Reader
	if rr.body != "" || rr.method == "POST" || rr.method == "PATCH" || rr.method == "PUT" {
		body = strings.NewReader(rr.body)
	}
	req, err := http.NewRequest(rr.method, base+rr.path, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	for k, v := range rr.header {
		req.Header.Set(k, v)
	}
	authorize(req, rr.role, rr.ownAuth, tokens)
	return read(t, client, req, func(a *refusalAnswer, b []byte) {
		if rr.mediaType != "" {
			return
		}
		var p struct {
			Title  string            `json:"title"`
			Status int               `json:"status"`
			Fields map[string]string `json:"fields"`
		}
		if err := json.Unmarshal(b, &p); err != nil {
			t.Errorf("%s %s: the answer is not a problem: %v", rr.method, rr.path, err)
		}
		if p.Status != a.status {
			t.Errorf("%s %s: the problem says status %d, the answer is %d", rr.method, rr.path, p.Status, a.status)
		}
		a.title = p.Title
		a.fields = slices.Sorted(maps.Keys(p.Fields))
	})
}

// sendGraphQL sends gr to /graphql with the token of its role and reads
// the errors.
func sendGraphQL(t *testing.T, client *http.Client, base string, gr gqlRefusal, tokens map[string]string) refusalAnswer {
	t.Helper()
	body := gr.rawBody
	if body == "" {
		b, err := json.Marshal(map[string]any{"query": gr.query, "variables": gr.variables})
		if err != nil {
			t.Fatal(err)
		}
		body = string(b)
	}
	method := gr.method
	if method == "" {
		method = "POST"
	}
	var reqBody io.Reader
	if method != "GET" {
		reqBody = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+"/graphql?"+gr.rawQuery, reqBody)
	if err != nil {
		t.Fatal(err)
	}
	if reqBody != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	for k, v := range gr.header {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	authorize(req, gr.role, gr.ownAuth, tokens)
	return read(t, client, req, func(a *refusalAnswer, b []byte) {
		var r struct {
			Data   json.RawMessage `json:"data"`
			Errors []struct {
				Message    string `json:"message"`
				Extensions struct {
					Code   string            `json:"code"`
					Fields map[string]string `json:"fields"`
				} `json:"extensions"`
			} `json:"errors"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Errorf("%s: the answer is not a GraphQL response: %v", gr.name, err)
		}
		a.hasData = len(r.Data) > 0 && !bytes.Equal(r.Data, []byte("null"))
		for i, e := range r.Errors {
			a.codes = append(a.codes, e.Extensions.Code)
			if gr.messages != nil {
				a.messages = append(a.messages, e.Message)
			}
			if i == 0 {
				a.fields = slices.Sorted(maps.Keys(e.Extensions.Fields))
			}
		}
	})
}

// sendTRPC sends tr to /trpc/ with the token of its role and reads tRPC's
// error.
func sendTRPC(t *testing.T, client *http.Client, base string, tr trpcRefusal, tokens map[string]string) refusalAnswer {
	t.Helper()
	method := tr.method
	if method == "" {
		method = "GET"
		if tr.mutation {
			method = "POST"
		}
	}
	target := base + "/trpc/" + tr.procedure
	var body io.Reader
	switch {
	case tr.rawQuery != "":
		target += "?" + tr.rawQuery
	case method == "POST":
		body = strings.NewReader(tr.input)
	case tr.input != "":
		target += "?input=" + url.QueryEscape(tr.input)
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range tr.header {
		req.Header.Set(k, v)
	}
	authorize(req, tr.role, tr.ownAuth, tokens)
	return read(t, client, req, func(a *refusalAnswer, b []byte) {
		if tr.mediaType != "" {
			return
		}
		var r struct {
			Error *struct {
				Message string `json:"message"`
				Code    *int   `json:"code"`
				Data    struct {
					Code       string            `json:"code"`
					HTTPStatus int               `json:"httpStatus"`
					Fields     map[string]string `json:"fields"`
					Stack      *string           `json:"stack"`
				} `json:"data"`
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &r); err != nil || r.Error == nil {
			t.Errorf("%s: the answer is not tRPC's error: %v", tr.name, err)
			return
		}
		e := r.Error
		if e.Code == nil || e.Data.HTTPStatus != a.status || e.Data.Stack != nil {
			t.Errorf("%s: the error has JSON-RPC code %v, httpStatus %d (the answer is %d), stack %v: want a code, the status again and no stack",
				tr.name, e.Code, e.Data.HTTPStatus, a.status, e.Data.Stack != nil)
		}
		a.codes = []string{e.Data.Code}
		a.fields = slices.Sorted(maps.Keys(e.Data.Fields))
	})
}

// authorize sets Authorization for role: the role's token, nothing for
// "", or role itself when it is the whole header.
func authorize(req *http.Request, role string, own bool, tokens map[string]string) {
	switch {
	case own:
		req.Header.Set("Authorization", role)
	case role != "":
		req.Header.Set("Authorization", "Bearer "+tokens[role])
	}
}

// read sends req and fills in the answer's status, media type and
// headers, then the rest from its body with parse.
func read(t *testing.T, client *http.Client, req *http.Request, parse func(*refusalAnswer, []byte)) refusalAnswer {
	t.Helper()
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", req.Method, req.URL, err)
	}
	mediaType, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	a := refusalAnswer{
		status:    res.StatusCode,
		mediaType: mediaType,
		challenge: strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer"),
		allow:     res.Header.Get("Allow"),
		body:      string(b),
	}
	if len(a.body) > 600 {
		a.body = a.body[:600] + "…"
	}
	parse(&a, b)
	return a
}

// restLogin logs in as role (password = name, as the test database is
// seeded) over POST /api/login and returns the token.
func restLogin(t *testing.T, client *http.Client, base, role string) string {
	t.Helper()
	res, err := client.Post(base+"/api/login", "application/json", strings.NewReader(fmt.Sprintf(`{"username":%q,"password":%q}`, role, role)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var v struct {
		Token string `json:"token"`
	}
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode != http.StatusOK || v.Token == "" {
		t.Fatalf("login as %s at %s: %d, %v", role, base, res.StatusCode, err)
	}
	return v.Token
}

// trpcLogin logs in as role with auth.login and returns the token.
func trpcLogin(t *testing.T, client *http.Client, base, role string) string {
	t.Helper()
	res, err := client.Post(base+"/trpc/auth.login", "application/json", strings.NewReader(fmt.Sprintf(`{"username":%q,"password":%q}`, role, role)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var v struct {
		Result struct {
			Data struct {
				Token string `json:"token"`
			} `json:"data"`
		} `json:"result"`
	}
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode != http.StatusOK || v.Result.Data.Token == "" {
		t.Fatalf("login as %s at %s: %d, %v", role, base, res.StatusCode, err)
	}
	return v.Result.Data.Token
}

// gqlLogin logs in as role with the login mutation and returns the token.
func gqlLogin(t *testing.T, client *http.Client, base, role string) string {
	t.Helper()
	b, _ := json.Marshal(map[string]any{
		"query":     `mutation Login($username: String!, $password: String!) { login(username: $username, password: $password) { token } }`,
		"variables": map[string]string{"username": role, "password": role},
	})
	res, err := client.Post(base+"/graphql", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var v struct {
		Data struct {
			Login struct {
				Token string `json:"token"`
			} `json:"login"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode != http.StatusOK || v.Data.Login.Token == "" {
		t.Fatalf("login as %s at %s: %d, %v", role, base, res.StatusCode, err)
	}
	return v.Data.Login.Token
}
