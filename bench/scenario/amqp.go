package scenario

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/amqpwire"
	"crudbench/db/seed"
)

// AMQPQueue is the request queue of the amqp kind (docs/contract.md): an
// amqp app's base URL is amqprpc://crudbench.requests.
const AMQPQueue = "crudbench.requests"

// amqpDialect drives the AMQP app: every operation is a request message
// of its type on the request queue, written as a request the amqpwire
// transport carries (POST amqprpc://<queue>/<type>?<parameters>, the
// parameters as headers, REST's JSON body, the bearer token as the
// authorization header), answered with the reply's status header and
// REST's body. Since the answers are REST's, so are the checks.
type amqpDialect struct{ restDialect }

// amqpCall returns the target of a call of operation typ with the
// parameters params (nil for none) and body (nil for none).
func amqpCall(base, typ string, params url.Values, body any) vegeta.Target {
	t := vegeta.Target{Method: http.MethodPost, URL: base + "/" + typ}
	if len(params) > 0 {
		t.URL += "?" + params.Encode()
	}
	if body != nil {
		t.Body, _ = json.Marshal(body)
		t.Header = jsonHeader()
	}
	return t
}

// idParam is the parameters of a call on one row.
func idParam(id int64) url.Values {
	return url.Values{"id": {strconv.FormatInt(id, 10)}}
}

func (amqpDialect) login(base, user, password string) vegeta.Target {
	return amqpCall(base, "login", nil, map[string]string{"username": user, "password": password})
}

// read asks the operations for REST's reads. read-slim is read-many's
// call: person.list takes no field selection, as REST's list does not.
func (amqpDialect) read(base string, op Op) vegeta.Target {
	switch op {
	case OpReadOne:
		return amqpCall(base, "person.get", idParam(seed.ShowcaseID), nil)
	case OpReadSmall:
		return amqpCall(base, "vacancy.list", url.Values{"status": {"open"}, "limit": {strconv.Itoa(ReadSmallLimit)}}, nil)
	case OpReadMany:
		return amqpCall(base, "person.list", url.Values{"limit": {strconv.Itoa(ReadManyLimit)}}, nil)
	case OpReadSlim:
		return amqpCall(base, "person.list", url.Values{"limit": {strconv.Itoa(ReadSlimLimit)}}, nil)
	}
	return amqpCall(base, "healthz", nil, nil)
}

func (amqpDialect) create(base string, v VacancyData) vegeta.Target {
	return amqpCall(base, "vacancy.create", nil, restVacancy{
		Title: v.Title, Department: v.Department, Location: v.Location,
		EmploymentType: "full_time", SalaryMinCents: v.SalaryMinCents, SalaryMaxCents: v.SalaryMaxCents,
		Status: "draft", OpensOn: OpensOn, Description: v.Description,
	})
}

func (amqpDialect) update(base string, id int64, version int32, v VacancyData) vegeta.Target {
	return amqpCall(base, "vacancy.update", idParam(id), map[string]any{
		"version":        version,
		"title":          v.Title,
		"salaryMaxCents": v.SalaryMaxCents,
		"description":    v.Description,
	})
}

func (amqpDialect) delete(base string, id int64) vegeta.Target {
	return amqpCall(base, "vacancy.delete", idParam(id), nil)
}

func (amqpDialect) readVacancy(base string, id int64) vegeta.Target {
	return amqpCall(base, "vacancy.get", idParam(id), nil)
}

// amqpDrafts is the call that lists an amqp app's draft vacancies, where a
// failed write cycle looks for its row without a database.
func amqpDrafts(base string) vegeta.Target {
	return amqpCall(base, "vacancy.list", url.Values{"status": {"draft"}, "limit": {strconv.Itoa(ReadManyLimit)}}, nil)
}

// AMQPBaseURL is the base URL of an amqp app consuming queue: the address
// its requests go to (amqpwire), the broker being the transport's.
func AMQPBaseURL(queue string) string {
	return amqpwire.Scheme + "://" + queue
}
