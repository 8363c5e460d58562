package db

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"crudbench/db/internal/sqlcdb"
)

// MaxSearchLen is the longest search text of the person list.
const MaxSearchLen = 100

// PersonFilter selects a page of persons ordered by last name, first name
// and id.
type PersonFilter struct {
	// Search matches a substring of the first name, last name or email,
	// case-insensitively.
	Search string
	// After is the NextCursor of the previous page ("" for the first).
	After string
	// Limit is the page size, 1..MaxLimit; 0 means DefaultLimit.
	Limit int
}

// PersonPage is one page of persons.
type PersonPage struct {
	Persons []Person
	// NextCursor continues after the last person; "" when this is the last page.
	NextCursor string
}

// PersonName is what a person picker shows of a person: who it is and its
// id, which the form submits.
type PersonName struct {
	ID        int64  `json:"id"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
}

// PersonNameFilter selects the persons a picker offers, in the person
// list's order (last name, first name, id). A picker shows one list, so
// there is no cursor.
type PersonNameFilter struct {
	// Search matches a substring of the first or last name,
	// case-insensitively.
	Search string
	// Limit is the number of names, 1..MaxLimit; 0 means DefaultLimit.
	Limit int
}

// FindPersonNames returns the id and names of the persons f selects. It
// reads only those three columns: a picker needs nothing else, and the
// full rows of a thousand persons are several times the bytes.
func (s *Store) FindPersonNames(ctx context.Context, f PersonNameFilter) ([]PersonName, error) {
	limit, err := filterLimit(f.Limit)
	if err != nil {
		return nil, err
	}
	search, err := searchPattern(f.Search)
	if err != nil {
		return nil, err
	}
	rows, err := s.q.ListPersonNames(ctx, sqlcdb.ListPersonNamesParams{Search: search, RowLimit: int32(limit)})
	if err != nil {
		return nil, translate(err)
	}
	out := make([]PersonName, len(rows))
	for i, r := range rows {
		out[i] = PersonName{ID: r.ID, FirstName: r.FirstName, LastName: r.LastName}
	}
	return out, nil
}

// FindPersonByID returns a person without appointments.
func (s *Store) FindPersonByID(ctx context.Context, id int64) (Person, error) {
	row, err := s.q.GetPerson(ctx, id)
	if errors.Is(err, pgx.ErrNoRows) {
		return Person{}, Errorf(ENOTFOUND, "person %d not found", id)
	}
	if err != nil {
		return Person{}, translate(err)
	}
	return personOf(row), nil
}

// FindPersonDetail returns a person with every appointment, stipend and
// funding (payers included) in at most four statements however large the
// tree: the person, its appointments, then stipends and fundings of all
// appointments at once.
func (s *Store) FindPersonDetail(ctx context.Context, id int64) (PersonDetail, error) {
	p, err := s.FindPersonByID(ctx, id)
	if err != nil {
		return PersonDetail{}, err
	}
	appts, err := s.FindAppointments(ctx, []int64{id})
	if err != nil {
		return PersonDetail{}, err
	}
	ids := make([]int64, len(appts))
	for i, a := range appts {
		ids[i] = a.ID
	}
	if len(ids) > 0 {
		stipends, err := s.FindStipends(ctx, ids)
		if err != nil {
			return PersonDetail{}, err
		}
		fundings, err := s.FindFundings(ctx, ids)
		if err != nil {
			return PersonDetail{}, err
		}
		byAppt := make(map[int64]int, len(appts))
		for i, a := range appts {
			byAppt[a.ID] = i
		}
		for _, st := range stipends {
			a := &appts[byAppt[st.AppointmentID]]
			a.Stipends = append(a.Stipends, st)
		}
		for _, f := range fundings {
			a := &appts[byAppt[f.AppointmentID]]
			a.Fundings = append(a.Fundings, f)
		}
	}
	return PersonDetail{Person: p, Appointments: appts}, nil
}

// FindPersonsByIDs returns the persons with the given ids that exist,
// ordered by id (a batch loader's fetch).
func (s *Store) FindPersonsByIDs(ctx context.Context, ids []int64) ([]Person, error) {
	rows, err := s.q.ListPersonsByIDs(ctx, ids)
	if err != nil {
		return nil, translate(err)
	}
	out := make([]Person, len(rows))
	for i, r := range rows {
		out[i] = personOf(r)
	}
	return out, nil
}

// searchPattern checks a person search and returns the ILIKE pattern that
// finds it anywhere in the names (escaped: % and _ match themselves), or
// nil for no search.
func searchPattern(search string) (*string, error) {
	if search == "" {
		return nil, nil
	}
	p := problems{}
	p.text("search", search, 0, MaxSearchLen)
	if err := p.err(); err != nil {
		return nil, err
	}
	pattern := "%" + likeEscaper.Replace(search) + "%"
	return &pattern, nil
}

// FindPersons returns one page of persons.
func (s *Store) FindPersons(ctx context.Context, f PersonFilter) (PersonPage, error) {
	limit, err := filterLimit(f.Limit)
	if err != nil {
		return PersonPage{}, err
	}
	search, err := searchPattern(f.Search)
	if err != nil {
		return PersonPage{}, err
	}
	arg := sqlcdb.ListPersonsParams{Search: search, RowLimit: int32(limit + 1)}
	if f.After != "" {
		c, err := decodePersonCursor(f.After)
		if err != nil {
			return PersonPage{}, err
		}
		arg.HasAfter, arg.AfterLastName, arg.AfterFirstName, arg.AfterID = true, c.LastName, c.FirstName, c.ID
	}
	rows, err := s.q.ListPersons(ctx, arg)
	if err != nil {
		return PersonPage{}, translate(err)
	}
	page := PersonPage{Persons: make([]Person, 0, min(len(rows), limit))}
	for i, r := range rows {
		if i == limit {
			last := page.Persons[limit-1]
			page.NextCursor = encodeCursor(personCursor{Kind: "person", LastName: last.LastName, FirstName: last.FirstName, ID: last.ID})
			break
		}
		page.Persons = append(page.Persons, personOf(r))
	}
	return page, nil
}

// CreatePerson validates and stores a new person.
func (s *Store) CreatePerson(ctx context.Context, in PersonInput) (Person, error) {
	if in.Status == "" {
		in.Status = PersonActive
	}
	if err := in.validate(); err != nil {
		return Person{}, err
	}
	row, err := s.q.CreatePerson(ctx, sqlcdb.CreatePersonParams{
		EmployeeNo: in.EmployeeNo, FirstName: in.FirstName, LastName: in.LastName, Email: in.Email,
		Phone: in.Phone, Department: in.Department, Status: string(in.Status), HiredOn: in.HiredOn.Time(),
	})
	if err != nil {
		return Person{}, translate(err)
	}
	return personOf(row), nil
}

// UpdatePerson applies upd to the person id if its version is still
// version. A stale version is ECONFLICT and changes nothing.
func (s *Store) UpdatePerson(ctx context.Context, id int64, version int32, upd PersonPatch) (Person, error) {
	var out Person
	err := s.inTx(ctx, func(q *sqlcdb.Queries) error {
		cur, err := q.GetPerson(ctx, id)
		if errors.Is(err, pgx.ErrNoRows) {
			return Errorf(ENOTFOUND, "person %d not found", id)
		}
		if err != nil {
			return err
		}
		if cur.Version != version {
			return staleVersion("person")
		}
		in := upd.apply(inputOfPerson(cur))
		if err := in.validate(); err != nil {
			return err
		}
		row, err := q.UpdatePerson(ctx, sqlcdb.UpdatePersonParams{
			ID: id, Version: version,
			EmployeeNo: in.EmployeeNo, FirstName: in.FirstName, LastName: in.LastName, Email: in.Email,
			Phone: in.Phone, Department: in.Department, Status: string(in.Status), HiredOn: in.HiredOn.Time(),
		})
		if errors.Is(err, pgx.ErrNoRows) {
			return staleVersion("person")
		}
		if err != nil {
			return err
		}
		out = personOf(row)
		return nil
	})
	return out, err
}

// DeletePerson removes a person and, by cascade, their appointments,
// stipends and fundings; vacancies they filled keep no reference.
func (s *Store) DeletePerson(ctx context.Context, id int64) error {
	n, err := s.q.DeletePerson(ctx, id)
	if err != nil {
		return translate(err)
	}
	if n == 0 {
		return Errorf(ENOTFOUND, "person %d not found", id)
	}
	return nil
}

// staleVersion is the conflict of an update that names an old version.
func staleVersion(what string) error {
	return &Error{
		Code:    ECONFLICT,
		Message: "the " + what + " was changed by someone else; reload it and apply your change again",
		Fields:  map[string]string{"version": "is stale: the current version is newer than the one sent"},
	}
}

func personOf(r sqlcdb.Person) Person {
	return Person{
		ID: r.ID, EmployeeNo: r.EmployeeNo, FirstName: r.FirstName, LastName: r.LastName,
		Email: r.Email, Phone: r.Phone, Department: r.Department, Status: PersonStatus(r.Status),
		HiredOn: DateOf(r.HiredOn), Version: r.Version, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

func inputOfPerson(r sqlcdb.Person) PersonInput {
	p := personOf(r)
	return PersonInput{
		EmployeeNo: p.EmployeeNo, FirstName: p.FirstName, LastName: p.LastName, Email: p.Email,
		Phone: p.Phone, Department: p.Department, Status: p.Status, HiredOn: p.HiredOn,
	}
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// Cursors are opaque to clients: base64url of a small JSON value.
type personCursor struct {
	Kind      string `json:"k"`
	LastName  string `json:"l"`
	FirstName string `json:"f"`
	ID        int64  `json:"i"`
}

func encodeCursor(v any) string {
	b, _ := json.Marshal(v)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(s string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(s) > 1024 || !utf8.Valid(b) || json.Unmarshal(b, v) != nil {
		return invalid(map[string]string{"after": "is not a cursor returned by this list"})
	}
	return nil
}

func decodePersonCursor(s string) (personCursor, error) {
	var c personCursor
	if err := decodeCursor(s, &c); err != nil {
		return c, err
	}
	if c.Kind != "person" || c.ID <= 0 || slices.ContainsFunc([]string{c.LastName, c.FirstName}, func(v string) bool { return strings.ContainsRune(v, 0) }) {
		return c, invalid(map[string]string{"after": "is not a cursor returned by this list"})
	}
	return c, nil
}
