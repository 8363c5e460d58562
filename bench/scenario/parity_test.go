package scenario_test

import (
	"encoding/json"
	"strings"
	"testing"

	"crudbench/bench/scenario"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return scenario.Normalize(v, "")
}

func TestParity(t *testing.T) {
	rest := `{"id":1,"firstName":"Ada","status":"on_leave","createdAt":"2024-01-02T03:04:05.5+01:00",
		"appointments":[{"id":7,"personId":1,"fte":0.5,"endsOn":null,
			"stipends":[{"id":9,"appointmentId":7,"payer":{"id":3,"kind":"grant"},"amountCents":120000}]}]}`
	tests := []struct {
		name, graphql, diff string
	}{
		{"same data", `{"id":"1","firstName":"Ada","status":"ON_LEAVE","createdAt":"2024-01-02T02:04:05.5Z",
			"appointments":[{"id":"7","personId":"1","fte":0.5,"endsOn":null,
				"stipends":[{"id":"9","appointmentId":"7","payer":{"id":"3","kind":"GRANT"},"amountCents":120000}]}]}`, ""},
		{"other value", `{"id":"1","firstName":"Ada","status":"ON_LEAVE","createdAt":"2024-01-02T02:04:05.5Z",
			"appointments":[{"id":"7","personId":"1","fte":0.5,"endsOn":null,
				"stipends":[{"id":"9","appointmentId":"7","payer":{"id":"3","kind":"GRANT"},"amountCents":120001}]}]}`,
			"person.appointments[0].stipends[0].amountCents: got 120001, want 120000"},
		{"missing field", `{"id":"1","firstName":"Ada","status":"ON_LEAVE",
			"appointments":[{"id":"7","personId":"1","fte":0.5,"endsOn":null,
				"stipends":[{"id":"9","appointmentId":"7","payer":{"id":"3","kind":"GRANT"},"amountCents":120000}]}]}`,
			"person.createdAt: missing"},
		{"extra row", `{"id":"1","firstName":"Ada","status":"ON_LEAVE","createdAt":"2024-01-02T02:04:05.5Z",
			"appointments":[{"id":"7","personId":"1","fte":0.5,"endsOn":null,"stipends":[]},{}]}`,
			"person.appointments: 2 items, want 1"},
		{"other time", `{"id":"1","firstName":"Ada","status":"ON_LEAVE","createdAt":"2024-01-02T03:04:05.5Z",
			"appointments":[{"id":"7","personId":"1","fte":0.5,"endsOn":null,
				"stipends":[{"id":"9","appointmentId":"7","payer":{"id":"3","kind":"GRANT"},"amountCents":120000}]}]}`,
			"person.createdAt: got"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := scenario.FirstDifference("person", decode(t, rest), decode(t, tt.graphql))
			if tt.diff == "" && d != "" {
				t.Errorf("difference %q, want none", d)
			}
			if tt.diff != "" && !strings.HasPrefix(d, tt.diff) {
				t.Errorf("difference %q, want %q", d, tt.diff)
			}
		})
	}
}
