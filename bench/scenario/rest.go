package scenario

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// restDialect drives the REST app: JSON over resource URLs, a bearer token.
type restDialect struct{}

func (restDialect) login(base, user, password string) vegeta.Target {
	body, _ := json.Marshal(map[string]string{"username": user, "password": password})
	return vegeta.Target{Method: http.MethodPost, URL: base + "/api/login", Body: body, Header: jsonHeader()}
}

func (restDialect) session(r *vegeta.Result) (http.Header, error) {
	if err := expect(r, http.StatusOK, "application/json"); err != nil {
		return nil, err
	}
	var out struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(r.Body, &out); err != nil || out.Token == "" {
		return nil, fmt.Errorf("no token in the answer%s", snippet(r.Body))
	}
	return http.Header{"Authorization": {"Bearer " + out.Token}}, nil
}

func (restDialect) read(base string, op Op) vegeta.Target {
	path := "/api" + readPath(op)
	if op == OpControl {
		path = controlPath
	}
	return vegeta.Target{Method: http.MethodGet, URL: base + path, Header: http.Header{"Accept": {"application/json"}}}
}

// restVacancy is the JSON body of a create; fields the bench leaves alone
// (closing date, filled by) are omitted and so null.
type restVacancy struct {
	Title          string `json:"title"`
	Department     string `json:"department"`
	Location       string `json:"location"`
	EmploymentType string `json:"employmentType"`
	SalaryMinCents int64  `json:"salaryMinCents"`
	SalaryMaxCents int64  `json:"salaryMaxCents"`
	Status         string `json:"status"`
	OpensOn        string `json:"opensOn"`
	Description    string `json:"description"`
}

func (restDialect) create(base string, v VacancyData) vegeta.Target {
	body, _ := json.Marshal(restVacancy{
		Title: v.Title, Department: v.Department, Location: v.Location,
		EmploymentType: "full_time", SalaryMinCents: v.SalaryMinCents, SalaryMaxCents: v.SalaryMaxCents,
		Status: "draft", OpensOn: OpensOn, Description: v.Description,
	})
	return vegeta.Target{Method: http.MethodPost, URL: base + "/api/vacancies", Body: body, Header: jsonHeader()}
}

func (restDialect) update(base string, id int64, version int32, v VacancyData) vegeta.Target {
	body, _ := json.Marshal(map[string]any{
		"version":        version,
		"title":          v.Title,
		"salaryMaxCents": v.SalaryMaxCents,
		"description":    v.Description,
	})
	return vegeta.Target{Method: http.MethodPatch, URL: base + "/api/vacancies/" + strconv.FormatInt(id, 10), Body: body, Header: jsonHeader()}
}

func (restDialect) delete(base string, id int64) vegeta.Target {
	return vegeta.Target{Method: http.MethodDelete, URL: base + "/api/vacancies/" + strconv.FormatInt(id, 10)}
}

func (restDialect) readVacancy(base string, id int64) vegeta.Target {
	return vegeta.Target{Method: http.MethodGet, URL: base + "/api/vacancies/" + strconv.FormatInt(id, 10), Header: http.Header{"Accept": {"application/json"}}}
}

func (restDialect) check(op Op, r *vegeta.Result) error {
	switch op {
	case OpCreate:
		return expect(r, http.StatusCreated, "application/json")
	case OpDelete:
		return expect(r, http.StatusNoContent, "")
	case OpControl:
		return expect(r, http.StatusOK, "")
	}
	return expect(r, http.StatusOK, "application/json")
}

func (restDialect) created(r *vegeta.Result) (int64, int32, error) {
	var v struct {
		ID      int64  `json:"id"`
		Version *int32 `json:"version"`
	}
	if err := json.Unmarshal(r.Body, &v); err != nil || v.ID == 0 {
		return 0, 0, fmt.Errorf("no vacancy id in the answer%s", snippet(r.Body))
	}
	if v.Version == nil {
		// The id is returned with the error: the row exists and must be
		// removed.
		return v.ID, 0, fmt.Errorf("no version in the answer (an update must name it)%s", snippet(r.Body))
	}
	return v.ID, *v.Version, nil
}

func (restDialect) version(r *vegeta.Result) (int32, bool, error) {
	var v struct {
		Version *int32 `json:"version"`
	}
	if err := json.Unmarshal(r.Body, &v); err != nil || v.Version == nil {
		return 0, false, fmt.Errorf("no version in the answer%s", snippet(r.Body))
	}
	return *v.Version, true, nil
}
