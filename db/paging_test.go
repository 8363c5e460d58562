package db_test

import (
	"testing"

	"crudbench/db"
)

const limitMessage = "must be a whole number from 1 to 1000"

func TestParsePageLimit(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       int
	}{
		{"absent is the filters' default", "", 0},
		{"smallest", "1", 1},
		{"largest", "1000", db.MaxLimit},
		{"leading zero", "050", 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := db.ParsePageLimit("limit", tc.text)
			if err != nil || got != tc.want {
				t.Errorf("ParsePageLimit(%q) = %d, %v; want %d", tc.text, got, err, tc.want)
			}
		})
	}
	for _, tc := range []struct{ name, text string }{
		{"zero", "0"},
		{"over the maximum", "1001"},
		{"negative", "-5"},
		{"not a number", "ten"},
		{"a fraction", "2.5"},
		{"spaces", " 5"},
		{"beyond int64", "99999999999999999999999"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := db.ParsePageLimit("limit", tc.text)
			wantLimitError(t, err, "limit")
		})
	}
}

func TestPageLimit(t *testing.T) {
	for _, n := range []int64{1, 50, 1000} {
		if got, err := db.PageLimit("first", n); err != nil || got != int(n) {
			t.Errorf("PageLimit(%d) = %d, %v; want %d", n, got, err, n)
		}
	}
	for _, n := range []int64{-1, 0, 1001, 1 << 40} {
		_, err := db.PageLimit("first", n)
		wantLimitError(t, err, "first")
	}
}

// wantLimitError fails unless err refuses a page size as bad input under
// field, in the words every app shows.
func wantLimitError(t *testing.T, err error, field string) {
	t.Helper()
	e := db.ErrorOf(err)
	if e == nil || e.Code != db.EINVALID || e.Fields[field] != limitMessage {
		t.Errorf("error %v, want %s with %s %q", err, db.EINVALID, field, limitMessage)
	}
}
