package db_test

import (
	"context"
	"regexp"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"crudbench/db"
	"crudbench/db/dbtest"
)

// TestLimitsMatchSchema checks that the CHECK constraints of the migrated
// database bound every text column the Store validates with the db.Max…Len
// limit it uses, so that the database, the last guard, and the Store's
// field messages never disagree about what fits.
func TestLimitsMatchSchema(t *testing.T) {
	t.Parallel()
	want := map[string]int{
		"person.first_name":          db.MaxNameLen,
		"person.last_name":           db.MaxNameLen,
		"person.email":               db.MaxEmailLen,
		"person.phone":               db.MaxPhoneLen,
		"person.department":          db.MaxNameLen,
		"appointment.position_title": db.MaxTitleLen,
		"appointment.department":     db.MaxNameLen,
		"vacancy.title":              db.MaxTitleLen,
		"vacancy.department":         db.MaxNameLen,
		"vacancy.location":           db.MaxNameLen,
		"vacancy.description":        db.MaxDescriptionLen,
	}

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbtest.Empty(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `
		SELECT c.conrelid::regclass::text, pg_get_constraintdef(c.oid)
		FROM pg_constraint c
		WHERE c.contype = 'c' AND c.conrelid::regclass::text IN ('person', 'appointment', 'vacancy')`)
	if err != nil {
		t.Fatal(err)
	}
	// PostgreSQL writes "BETWEEN 1 AND 100" back as
	// "char_length(x) >= 1 AND char_length(x) <= 100".
	upper := regexp.MustCompile(`char_length\(\(?(\w+)\)?(?:::text)?\) <= (\d+)`)
	got := map[string]int{}
	for rows.Next() {
		var table, def string
		if err := rows.Scan(&table, &def); err != nil {
			t.Fatal(err)
		}
		for _, m := range upper.FindAllStringSubmatch(def, -1) {
			n, _ := strconv.Atoi(m[2])
			got[table+"."+m[1]] = n
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the schema's length CHECKs differ from the db limits (-limits +schema):\n%s", diff)
	}
}
