package scenario

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/db/seed"
)

// trpcDialect drives a tRPC app over tRPC's HTTP wire format, one call a
// request (no batching), no transformer: a query is GET
// /trpc/<procedure>?input=<JSON>, a mutation POST /trpc/<procedure> with
// the input as its JSON body; an answer is {"result":{"data":…}}, a
// failure {"error":{"message","code","data":{"code","httpStatus",…}}}
// with httpStatus as the response's status. The token travels as for
// REST, Authorization: Bearer.
type trpcDialect struct{}

// trpcPath is where a trpc app serves its procedures.
const trpcPath = "/trpc/"

// trpcQuery returns the GET of query procedure with input (none when nil),
// its JSON URL-encoded as a tRPC client encodes it.
func trpcQuery(base, procedure string, input any) vegeta.Target {
	u := base + trpcPath + procedure
	if input != nil {
		b, _ := json.Marshal(input)
		u += "?input=" + url.QueryEscape(string(b))
	}
	return vegeta.Target{Method: http.MethodGet, URL: u, Header: http.Header{"Accept": {"application/json"}}}
}

// trpcMutation returns the POST of mutation procedure with input as its body.
func trpcMutation(base, procedure string, input any) vegeta.Target {
	body, _ := json.Marshal(input)
	return vegeta.Target{Method: http.MethodPost, URL: base + trpcPath + procedure, Body: body, Header: jsonHeader()}
}

// trpcResponse is the envelope of every tRPC answer.
type trpcResponse struct {
	Result *struct {
		Data json.RawMessage `json:"data"`
	} `json:"result"`
	Error *struct {
		Message string `json:"message"`
		Data    struct {
			Code       string `json:"code"`
			HTTPStatus int    `json:"httpStatus"`
		} `json:"data"`
	} `json:"error"`
}

// checkTRPC is the cheap check of a tRPC answer: status 200 and a JSON
// media type (tRPC answers a failed call with its error's httpStatus).
// A failure names the tRPC code and message when the body is tRPC's error.
func checkTRPC(r *vegeta.Result) error {
	if r.Code != http.StatusOK {
		return fmt.Errorf("status %d%s, want 200", r.Code, trpcError(r.Body))
	}
	if mt := contentType(r); mt != "application/json" {
		return fmt.Errorf("content type %q, want application/json", mt)
	}
	return nil
}

// trpcError describes a failed call's body: " (tRPC NOT_FOUND: vacancy 7
// not found)" for tRPC's error envelope, else the body's start.
func trpcError(body []byte) string {
	var env trpcResponse
	if json.Unmarshal(body, &env) == nil && env.Error != nil && env.Error.Data.Code != "" {
		return fmt.Sprintf(" (tRPC %s: %s)", env.Error.Data.Code, env.Error.Message)
	}
	return snippet(body)
}

// decodeTRPC checks an answer and decodes its result's data into out.
func decodeTRPC(r *vegeta.Result, out any) error {
	if err := checkTRPC(r); err != nil {
		return err
	}
	var env trpcResponse
	if err := json.Unmarshal(r.Body, &env); err != nil || env.Result == nil {
		return fmt.Errorf(`not a tRPC answer, {"result":{"data":…}}%s`, snippet(r.Body))
	}
	if len(env.Result.Data) == 0 {
		return fmt.Errorf("no data in the answer%s", snippet(r.Body))
	}
	if err := json.Unmarshal(env.Result.Data, out); err != nil {
		return fmt.Errorf("unexpected tRPC data: %v%s", err, snippet(r.Body))
	}
	return nil
}

func (trpcDialect) login(base, user, password string) vegeta.Target {
	return trpcMutation(base, "auth.login", map[string]string{"username": user, "password": password})
}

func (trpcDialect) session(r *vegeta.Result) (http.Header, error) {
	var out struct {
		Token string `json:"token"`
	}
	if err := decodeTRPC(r, &out); err != nil {
		return nil, err
	}
	if out.Token == "" {
		return nil, fmt.Errorf("no token in the answer%s", snippet(r.Body))
	}
	return http.Header{"Authorization": {"Bearer " + out.Token}}, nil
}

// read asks the procedures for what REST's reads return. read-slim is
// read-many's call: the procedure takes no field selection, so a client
// that needs two fields gets the full list, as a REST client does.
func (trpcDialect) read(base string, op Op) vegeta.Target {
	switch op {
	case OpReadOne:
		return trpcQuery(base, "person.byId", map[string]any{"id": seed.ShowcaseID})
	case OpReadSmall:
		return trpcQuery(base, "vacancy.list", map[string]any{"status": "open", "limit": ReadSmallLimit})
	case OpReadMany:
		return trpcQuery(base, "person.list", map[string]any{"limit": ReadManyLimit})
	case OpReadSlim:
		return trpcQuery(base, "person.list", map[string]any{"limit": ReadSlimLimit})
	}
	return vegeta.Target{Method: http.MethodGet, URL: base + controlPath}
}

func (trpcDialect) create(base string, v VacancyData) vegeta.Target {
	return trpcMutation(base, "vacancy.create", restVacancy{
		Title: v.Title, Department: v.Department, Location: v.Location,
		EmploymentType: "full_time", SalaryMinCents: v.SalaryMinCents, SalaryMaxCents: v.SalaryMaxCents,
		Status: "draft", OpensOn: OpensOn, Description: v.Description,
	})
}

func (trpcDialect) update(base string, id int64, version int32, v VacancyData) vegeta.Target {
	return trpcMutation(base, "vacancy.update", map[string]any{
		"id":             id,
		"version":        version,
		"title":          v.Title,
		"salaryMaxCents": v.SalaryMaxCents,
		"description":    v.Description,
	})
}

func (trpcDialect) delete(base string, id int64) vegeta.Target {
	return trpcMutation(base, "vacancy.delete", map[string]any{"id": id})
}

func (trpcDialect) readVacancy(base string, id int64) vegeta.Target {
	return trpcQuery(base, "vacancy.byId", map[string]any{"id": id})
}

func (trpcDialect) check(op Op, r *vegeta.Result) error {
	if op == OpControl {
		return expect(r, http.StatusOK, "")
	}
	return checkTRPC(r)
}

func (trpcDialect) created(r *vegeta.Result) (int64, int32, error) {
	var v struct {
		ID      int64  `json:"id"`
		Version *int32 `json:"version"`
	}
	if err := decodeTRPC(r, &v); err != nil || v.ID == 0 {
		return 0, 0, fmt.Errorf("no vacancy id in the answer%s", snippet(r.Body))
	}
	if v.Version == nil {
		// The id is returned with the error: the row exists and must be
		// removed.
		return v.ID, 0, fmt.Errorf("no version in the answer (an update must name it)%s", snippet(r.Body))
	}
	return v.ID, *v.Version, nil
}

func (trpcDialect) version(r *vegeta.Result) (int32, bool, error) {
	var v struct {
		Version *int32 `json:"version"`
	}
	if err := decodeTRPC(r, &v); err != nil || v.Version == nil {
		return 0, false, fmt.Errorf("no version in the answer%s", snippet(r.Body))
	}
	return *v.Version, true, nil
}

// trpcContent returns the data of a read's answer: the person detail, or
// a list's items.
func trpcContent(op Op, r *vegeta.Result) (any, error) {
	var data any
	if err := decodeTRPC(r, &data); err != nil {
		return nil, err
	}
	if op != OpReadOne {
		data = member(data, "items")
	}
	return data, nil
}

// trpcDrafts is the call that lists a trpc app's draft vacancies, where a
// failed write cycle looks for its row without a database.
func trpcDrafts(base string) vegeta.Target {
	return trpcQuery(base, "vacancy.list", map[string]any{"status": "draft", "limit": ReadManyLimit})
}
