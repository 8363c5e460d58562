package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/db/seed"
)

// graphqlDialect drives the GraphQL app: every operation is a POST of a
// query document to /graphql, authenticated by a bearer token.
type graphqlDialect struct{}

// The selections ask for every field the REST app returns, so the two
// carry the same data (GraphQL's field selection is not used to send less),
// except in read-slim, whose whole point is a client that selects less.
const (
	personFields  = `id employeeNo firstName lastName email phone department status hiredOn version createdAt updatedAt`
	payerFields   = `payer { id code name kind }`
	vacancyFields = `id title department location employmentType salaryMinCents salaryMaxCents status opensOn closesOn description filledBy version createdAt updatedAt`
)

// Queries the bench sends. Literal arguments keep the reads free of
// variables, as a client's persisted query for a fixed page would be.
var (
	queryReadOne = `query PersonDetail { person(id: ` + strconv.Itoa(seed.ShowcaseID) + `) { ` + personFields +
		` appointments { id personId positionTitle department fte startsOn endsOn` +
		` stipends { id appointmentId ` + payerFields + ` amountCents currency startsOn endsOn }` +
		` fundings { appointmentId ` + payerFields + ` percent } } } }`
	queryReadSmall = `query OpenVacancies { vacancies(status: OPEN, first: ` + strconv.Itoa(ReadSmallLimit) +
		`) { nodes { ` + vacancyFields + ` } pageInfo { endCursor hasNextPage } } }`
	queryReadMany = `query AllPersons { persons(first: ` + strconv.Itoa(ReadManyLimit) +
		`) { nodes { ` + personFields + ` } pageInfo { endCursor hasNextPage } } }`
	// queryReadSlim is what a picker asks for: each person's id and name,
	// and no page info (the picker shows the first 1000 and never pages).
	queryReadSlim = `query SlimPersons { persons(first: ` + strconv.Itoa(ReadSlimLimit) +
		`) { nodes { id firstName lastName } } }`
	queryVacancy   = `query Vacancy($id: ID!) { vacancy(id: $id) { ` + vacancyFields + ` } }`
	mutationLogin  = `mutation Login($username: String!, $password: String!) { login(username: $username, password: $password) { token expiresAt } }`
	mutationCreate = `mutation CreateVacancy($input: VacancyInput!) { createVacancy(input: $input) { id version title } }`
	mutationUpdate = `mutation UpdateVacancy($id: ID!, $version: Int!, $input: VacancyPatch!) { updateVacancy(id: $id, version: $version, input: $input) { id version title } }`
	mutationDelete = `mutation DeleteVacancy($id: ID!) { deleteVacancy(id: $id) }`
)

// graphqlRequest returns a POST /graphql target.
func graphqlRequest(base, query string, vars map[string]any) vegeta.Target {
	payload := map[string]any{"query": query}
	if vars != nil {
		payload["variables"] = vars
	}
	body, _ := json.Marshal(payload)
	return vegeta.Target{Method: http.MethodPost, URL: base + "/graphql", Body: body, Header: jsonHeader()}
}

// graphqlResponse is the envelope of every GraphQL answer.
type graphqlResponse struct {
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string `json:"message"`
		Extensions struct {
			Code string `json:"code"`
		} `json:"extensions"`
	} `json:"errors"`
}

// decodeGraphQL checks the status and media type of an answer, decodes its
// data into out and turns a GraphQL errors payload into an error.
func decodeGraphQL(r *vegeta.Result, out any) error {
	if err := checkGraphQL(r); err != nil {
		return err
	}
	var env graphqlResponse
	if err := json.Unmarshal(r.Body, &env); err != nil {
		return fmt.Errorf("not a GraphQL answer: %v%s", err, snippet(r.Body))
	}
	if len(env.Errors) > 0 {
		e := env.Errors[0]
		return fmt.Errorf("GraphQL error %s: %s", e.Extensions.Code, e.Message)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		return fmt.Errorf("unexpected GraphQL data: %v%s", err, snippet(r.Body))
	}
	return nil
}

// checkGraphQL is the cheap check of a GraphQL answer: status 200, a JSON
// media type and no "errors" member. The byte search is enough because the
// queries select no field called errors.
func checkGraphQL(r *vegeta.Result) error {
	if r.Code != http.StatusOK {
		return fmt.Errorf("status %d, want 200%s", r.Code, snippet(r.Body))
	}
	mt := contentType(r)
	if mt != "application/json" && mt != "application/graphql-response+json" {
		return fmt.Errorf("content type %q, want application/json", mt)
	}
	if bytes.Contains(r.Body, []byte(`"errors"`)) {
		var env graphqlResponse
		if json.Unmarshal(r.Body, &env) == nil && len(env.Errors) > 0 {
			return fmt.Errorf("GraphQL error %s: %s", env.Errors[0].Extensions.Code, env.Errors[0].Message)
		}
	}
	return nil
}

func (graphqlDialect) login(base, user, password string) vegeta.Target {
	return graphqlRequest(base, mutationLogin, map[string]any{"username": user, "password": password})
}

func (graphqlDialect) session(r *vegeta.Result) (http.Header, error) {
	var out struct {
		Login struct {
			Token string `json:"token"`
		} `json:"login"`
	}
	if err := decodeGraphQL(r, &out); err != nil {
		return nil, err
	}
	if out.Login.Token == "" {
		return nil, fmt.Errorf("no token in the answer%s", snippet(r.Body))
	}
	return http.Header{"Authorization": {"Bearer " + out.Login.Token}}, nil
}

func (graphqlDialect) read(base string, op Op) vegeta.Target {
	switch op {
	case OpReadOne:
		return graphqlRequest(base, queryReadOne, nil)
	case OpReadSmall:
		return graphqlRequest(base, queryReadSmall, nil)
	case OpReadMany:
		return graphqlRequest(base, queryReadMany, nil)
	case OpReadSlim:
		return graphqlRequest(base, queryReadSlim, nil)
	}
	return vegeta.Target{Method: http.MethodGet, URL: base + controlPath}
}

func (graphqlDialect) create(base string, v VacancyData) vegeta.Target {
	return graphqlRequest(base, mutationCreate, map[string]any{"input": map[string]any{
		"title": v.Title, "department": v.Department, "location": v.Location,
		"employmentType": "FULL_TIME", "salaryMinCents": v.SalaryMinCents, "salaryMaxCents": v.SalaryMaxCents,
		"status": "DRAFT", "opensOn": OpensOn, "description": v.Description,
	}})
}

func (graphqlDialect) update(base string, id int64, version int32, v VacancyData) vegeta.Target {
	return graphqlRequest(base, mutationUpdate, map[string]any{
		"id":      strconv.FormatInt(id, 10),
		"version": version,
		"input":   map[string]any{"title": v.Title, "salaryMaxCents": v.SalaryMaxCents, "description": v.Description},
	})
}

func (graphqlDialect) delete(base string, id int64) vegeta.Target {
	return graphqlRequest(base, mutationDelete, map[string]any{"id": strconv.FormatInt(id, 10)})
}

func (graphqlDialect) readVacancy(base string, id int64) vegeta.Target {
	return graphqlRequest(base, queryVacancy, map[string]any{"id": strconv.FormatInt(id, 10)})
}

func (graphqlDialect) check(op Op, r *vegeta.Result) error {
	if op == OpControl {
		return expect(r, http.StatusOK, "")
	}
	return checkGraphQL(r)
}

func (graphqlDialect) created(r *vegeta.Result) (int64, int32, error) {
	var out struct {
		CreateVacancy struct {
			ID      json.RawMessage `json:"id"`
			Version *int32          `json:"version"`
		} `json:"createVacancy"`
	}
	if err := decodeGraphQL(r, &out); err != nil {
		return 0, 0, err
	}
	id, err := parseID(string(out.CreateVacancy.ID))
	if err != nil {
		return 0, 0, fmt.Errorf("no vacancy id in the answer%s", snippet(r.Body))
	}
	if out.CreateVacancy.Version == nil {
		return id, 0, fmt.Errorf("no version in the answer (an update must name it)%s", snippet(r.Body))
	}
	return id, *out.CreateVacancy.Version, nil
}

// parseID reads a GraphQL ID, which arrives as a string of digits.
func parseID(s string) (int64, error) {
	id, err := strconv.ParseInt(strings.Trim(s, `"`), 10, 64)
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("bad id %q", s)
	}
	return id, nil
}

func (graphqlDialect) version(r *vegeta.Result) (int32, bool, error) {
	var out struct {
		Vacancy struct {
			Version *int32 `json:"version"`
		} `json:"vacancy"`
	}
	if err := decodeGraphQL(r, &out); err != nil {
		return 0, false, err
	}
	if out.Vacancy.Version == nil {
		return 0, false, fmt.Errorf("no version in the answer%s", snippet(r.Body))
	}
	return *out.Vacancy.Version, true, nil
}
