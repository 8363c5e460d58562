package seed

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/crypto/bcrypt"

	"crudbench/db"
	"crudbench/db/internal/sqlcdb"
)

// Dev defaults for the two users. They are for a local benchmark only;
// set SEED_VIEWER_PASSWORD and SEED_EDITOR_PASSWORD anywhere else.
const (
	DefaultViewerPassword = "viewer"
	DefaultEditorPassword = "editor"
)

// Config says how much to seed and the users' passwords.
type Config struct {
	Persons        int // DefaultPersons when 0
	ViewerPassword string
	EditorPassword string
}

// ConfigFromEnv reads SEED_PERSONS, SEED_VIEWER_PASSWORD and
// SEED_EDITOR_PASSWORD, falling back to the defaults.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		Persons:        DefaultPersons,
		ViewerPassword: DefaultViewerPassword,
		EditorPassword: DefaultEditorPassword,
	}
	if v := getenv("SEED_PERSONS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1_000_000 {
			return c, fmt.Errorf("SEED_PERSONS=%q: want a number of persons between 1 and 1000000", v)
		}
		c.Persons = n
	}
	if v := getenv("SEED_VIEWER_PASSWORD"); v != "" {
		c.ViewerPassword = v
	}
	if v := getenv("SEED_EDITOR_PASSWORD"); v != "" {
		c.EditorPassword = v
	}
	return c, nil
}

// Stats counts the rows a seed wrote.
type Stats struct {
	Payers, Persons, Appointments, Stipends, Fundings, Vacancies, Users int
	// Skipped is true when the database already held data and nothing was written.
	Skipped bool
}

// tables in dependency order; Reset truncates them all.
const tables = "funding, stipend, appointment, vacancy, person, payer, app_user"

// Load writes the dataset into a migrated database in one transaction. It
// is idempotent: when persons exist already it only makes sure the two users
// have the configured passwords (writing nothing when they do), and reports
// Skipped.
func Load(ctx context.Context, url string, cfg Config) (Stats, error) {
	if cfg.Persons <= 0 {
		cfg.Persons = DefaultPersons
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return Stats{}, fmt.Errorf("seed: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))

	tx, err := conn.Begin(ctx)
	if err != nil {
		return Stats{}, fmt.Errorf("seed: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	q := sqlcdb.New(tx)

	var st Stats
	n, err := q.CountPersons(ctx)
	if err != nil {
		return st, fmt.Errorf("seed: %w", err)
	}
	if n > 0 {
		st.Skipped = true
	} else if st, err = loadDataset(ctx, tx, q, Generate(cfg.Persons)); err != nil {
		return st, fmt.Errorf("seed: %w", err)
	}
	users := []struct {
		name, password string
		role           db.Role
	}{{"viewer", cfg.ViewerPassword, db.RoleViewer}, {"editor", cfg.EditorPassword, db.RoleEditor}}
	for _, u := range users {
		// A user who already has this role and password is left alone, so
		// a second Load writes nothing at all.
		cur, err := q.GetUserByUsername(ctx, u.name)
		if err == nil && cur.Role == string(u.role) && bcrypt.CompareHashAndPassword([]byte(cur.PasswordHash), []byte(u.password)) == nil {
			continue
		}
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return st, fmt.Errorf("seed: user %s: %w", u.name, err)
		}
		hash, err := bcrypt.GenerateFromPassword([]byte(u.password), bcrypt.DefaultCost)
		if err != nil {
			return st, fmt.Errorf("seed: password of %s: %w", u.name, err)
		}
		if err := q.UpsertUser(ctx, sqlcdb.UpsertUserParams{Username: u.name, PasswordHash: string(hash), Role: string(u.role)}); err != nil {
			return st, fmt.Errorf("seed: user %s: %w", u.name, err)
		}
		st.Users++
	}
	return st, tx.Commit(ctx)
}

// Reset empties every table (and restarts the ids) so that Load can write
// the dataset again.
func Reset(ctx context.Context, url string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "TRUNCATE "+tables+" RESTART IDENTITY CASCADE"); err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	return nil
}

func loadDataset(ctx context.Context, tx pgx.Tx, q *sqlcdb.Queries, d *Dataset) (Stats, error) {
	var st Stats
	payers := make([]sqlcdb.SeedPayersParams, len(d.Payers))
	for i, p := range d.Payers {
		payers[i] = sqlcdb.SeedPayersParams{ID: p.ID, Code: p.Code, Name: p.Name, Kind: string(p.Kind)}
	}
	persons := make([]sqlcdb.SeedPersonsParams, len(d.Persons))
	for i, p := range d.Persons {
		persons[i] = sqlcdb.SeedPersonsParams{
			ID: p.ID, EmployeeNo: p.EmployeeNo, FirstName: p.FirstName, LastName: p.LastName,
			Email: p.Email, Phone: p.Phone, Department: p.Department, Status: string(p.Status),
			HiredOn: p.HiredOn.Time(), CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
		}
	}
	appts := make([]sqlcdb.SeedAppointmentsParams, len(d.Appointments))
	for i, a := range d.Appointments {
		appts[i] = sqlcdb.SeedAppointmentsParams{
			ID: a.ID, PersonID: a.PersonID, PositionTitle: a.PositionTitle, Department: a.Department,
			Fte: a.FTE, StartsOn: a.StartsOn.Time(), EndsOn: timeOf(a.EndsOn),
		}
	}
	stipends := make([]sqlcdb.SeedStipendsParams, len(d.Stipends))
	for i, s := range d.Stipends {
		stipends[i] = sqlcdb.SeedStipendsParams{
			ID: s.ID, AppointmentID: s.AppointmentID, PayerID: s.Payer.ID, AmountCents: s.AmountCents,
			Currency: s.Currency, StartsOn: s.StartsOn.Time(), EndsOn: timeOf(s.EndsOn),
		}
	}
	fundings := make([]sqlcdb.SeedFundingsParams, len(d.Fundings))
	for i, f := range d.Fundings {
		fundings[i] = sqlcdb.SeedFundingsParams{AppointmentID: f.AppointmentID, PayerID: f.Payer.ID, Percent: f.Percent}
	}
	vacancies := make([]sqlcdb.SeedVacanciesParams, len(d.Vacancies))
	for i, v := range d.Vacancies {
		vacancies[i] = sqlcdb.SeedVacanciesParams{
			ID: v.ID, Title: v.Title, Department: v.Department, Location: v.Location,
			EmploymentType: string(v.EmploymentType), SalaryMinCents: v.SalaryMinCents,
			SalaryMaxCents: v.SalaryMaxCents, Status: string(v.Status), OpensOn: v.OpensOn.Time(),
			ClosesOn: timeOf(v.ClosesOn), Description: v.Description, FilledBy: v.FilledBy,
			CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt,
		}
	}
	steps := []struct {
		n   *int
		run func() (int64, error)
	}{
		{&st.Payers, func() (int64, error) { return q.SeedPayers(ctx, payers) }},
		{&st.Persons, func() (int64, error) { return q.SeedPersons(ctx, persons) }},
		{&st.Appointments, func() (int64, error) { return q.SeedAppointments(ctx, appts) }},
		{&st.Stipends, func() (int64, error) { return q.SeedStipends(ctx, stipends) }},
		{&st.Fundings, func() (int64, error) { return q.SeedFundings(ctx, fundings) }},
		{&st.Vacancies, func() (int64, error) { return q.SeedVacancies(ctx, vacancies) }},
	}
	for _, s := range steps {
		n, err := s.run()
		if err != nil {
			return st, err
		}
		*s.n = int(n)
	}
	// The seed wrote explicit ids: move each identity past them so that
	// rows created later get fresh ones.
	for _, t := range []string{"payer", "person", "appointment", "stipend", "vacancy"} {
		sql := fmt.Sprintf("SELECT setval(pg_get_serial_sequence('%s', 'id'), greatest((SELECT max(id) FROM %s), 1))", t, t)
		if _, err := tx.Exec(ctx, sql); err != nil {
			return st, err
		}
	}
	return st, nil
}

func timeOf(d *db.Date) *time.Time {
	if d == nil {
		return nil
	}
	t := d.Time()
	return &t
}
