package db_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"crudbench/db"
)

func TestErrorOf(t *testing.T) {
	cause := errors.New(`relation "secret" does not exist`)
	t.Run("nil", func(t *testing.T) {
		if got := db.ErrorOf(nil); got != nil {
			t.Errorf("ErrorOf(nil) = %v, want nil", got)
		}
		if got := db.ErrorCode(nil); got != "" {
			t.Errorf("ErrorCode(nil) = %q, want empty", got)
		}
	})
	t.Run("store error", func(t *testing.T) {
		e := &db.Error{Code: db.EINVALID, Message: "invalid input", Fields: map[string]string{"email": "must be a valid email address"}}
		if got := db.ErrorOf(e); got != e {
			t.Errorf("ErrorOf(%v) = %v, want the same value", e, got)
		}
	})
	t.Run("wrapped store error", func(t *testing.T) {
		e := db.Errorf(db.ENOTFOUND, "person 9 not found")
		if got := db.ErrorOf(fmt.Errorf("resolving person: %w", e)); got != e {
			t.Errorf("ErrorOf found %v, want %v", got, e)
		}
	})
	t.Run("internal store error", func(t *testing.T) {
		e := &db.Error{Code: db.EINTERNAL, Message: "internal error", Err: cause}
		got := db.ErrorOf(e)
		if got != e || got.Err != cause {
			t.Errorf("ErrorOf(%v) = %v (cause %v), want the same value", e, got, got.Err)
		}
	})
	for _, tc := range []struct {
		name, wantCause string
		err             error
	}{
		{"foreign error", "not a store error", errors.New("not a store error")},
		{"internal with a message of its own", "internal: pq: secret detail", &db.Error{Code: db.EINTERNAL, Message: "pq: secret detail"}},
		{"internal with a message and a cause", `internal: insert failed: relation "secret" does not exist`, &db.Error{Code: db.EINTERNAL, Message: "insert failed", Err: cause}},
		{"unknown code", "teapot: short and stout", &db.Error{Code: "teapot", Message: "short and stout"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := db.ErrorOf(tc.err)
			if got.Code != db.EINTERNAL || got.Message != "internal error" || got.Fields != nil {
				t.Errorf("ErrorOf(%v) = %v, want %s with the generic message", tc.err, got, db.EINTERNAL)
			}
			if db.ErrorCode(tc.err) != db.EINTERNAL {
				t.Errorf("ErrorCode(%v) = %q, want %q", tc.err, db.ErrorCode(tc.err), db.EINTERNAL)
			}
			if got.Err == nil || got.Err.Error() != tc.wantCause {
				t.Fatalf("cause = %v, want %q (for the log)", got.Err, tc.wantCause)
			}
			if e, ok := tc.err.(*db.Error); ok && e.Err != nil && !errors.Is(got, e.Err) {
				t.Errorf("the cause %v is lost from the chain of %v", e.Err, got)
			}
			if strings.Contains(got.Error(), "secret") {
				t.Errorf("Error() = %q shows what only the log may hold", got.Error())
			}
		})
	}
}
