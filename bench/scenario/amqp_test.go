package scenario_test

import (
	"net/http"
	"strings"
	"testing"

	"crudbench/bench/scenario"
)

// TestAMQPTargets checks the amqp kind's calls as amqpwire carries them:
// the operation the path, REST's parameters the query (headers on the
// wire), REST's JSON bodies, and labels a person fixing the server reads.
func TestAMQPTargets(t *testing.T) {
	base := scenario.AMQPBaseURL(scenario.AMQPQueue)
	if base != "amqprpc://crudbench.requests" {
		t.Fatalf("base URL %q", base)
	}
	a, err := scenario.NewApp("amqp", scenario.KindAMQP, base)
	if err != nil {
		t.Fatal(err)
	}
	s := &scenario.Session{App: a, Header: http.Header{"Authorization": {"Bearer test"}}}
	for _, tt := range []struct {
		op    scenario.Op
		label string
	}{
		{scenario.OpReadOne, "POST /person.get?id=1"},
		{scenario.OpReadSmall, "POST /vacancy.list?limit=100&status=open"},
		{scenario.OpReadMany, "POST /person.list?limit=1000"},
		{scenario.OpReadSlim, "POST /person.list?limit=1000"},
		{scenario.OpControl, "POST /healthz"},
	} {
		t.Run(string(tt.op), func(t *testing.T) {
			tgt := s.Target(tt.op)
			if got := scenario.RequestLabel(tgt); got != tt.label || len(tgt.Body) != 0 || tgt.Header.Get("Authorization") != "Bearer test" {
				t.Errorf("label %q, body %q, authorization %q; want %q, none, the session's", got, tgt.Body, tgt.Header.Get("Authorization"), tt.label)
			}
		})
	}
	create := s.Create(scenario.VacancyData{Title: "t", Department: "d", Location: "l", SalaryMinCents: 1, SalaryMaxCents: 2, Description: "x"})
	if got := scenario.RequestLabel(create); got != "POST /vacancy.create" || create.Header.Get("Content-Type") != "application/json" || !strings.Contains(string(create.Body), `"employmentType":"full_time"`) {
		t.Errorf("create %q, content type %q, body %s", got, create.Header.Get("Content-Type"), create.Body)
	}
	update := s.Update(7, 3, scenario.VacancyData{Title: "u"})
	if got := scenario.RequestLabel(update); got != "POST /vacancy.update?id=7" || !strings.Contains(string(update.Body), `"version":3`) {
		t.Errorf("update %q, body %s", got, update.Body)
	}
	if got := scenario.RequestLabel(s.Delete(7)); got != "POST /vacancy.delete?id=7" {
		t.Errorf("delete %q", got)
	}

	for _, bad := range []string{"http://127.0.0.1:1", "amqp://u:p@h:5672/v", "amqprpc://crudbench.requests/person.get"} {
		if _, err := scenario.NewApp("amqp", scenario.KindAMQP, bad); err == nil || !strings.Contains(err.Error(), "not an amqprpc://queue address") {
			t.Errorf("NewApp at %q: %v, want it refused", bad, err)
		}
	}
}
