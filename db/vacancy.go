package db

import (
	"context"
	"errors"
	"slices"

	"github.com/jackc/pgx/v5"

	"crudbench/db/internal/sqlcdb"
)

// VacancyFilter selects a page of vacancies ordered by id.
type VacancyFilter struct {
	// Status keeps only vacancies in that status ("" for all).
	Status VacancyStatus
	// After is the NextCursor of the previous page ("" for the first).
	After string
	// Limit is the page size, 1..MaxLimit; 0 means DefaultLimit.
	Limit int
}

// VacancyPage is one page of vacancies.
type VacancyPage struct {
	Vacancies []Vacancy
	// NextCursor continues after the last vacancy; "" on the last page.
	NextCursor string
}

// FindVacancyByID returns one vacancy.
func (s *Store) FindVacancyByID(ctx context.Context, id int64) (Vacancy, error) {
	row, err := s.q.GetVacancy(ctx, id)
	if errors.Is(err, pgx.ErrNoRows) {
		return Vacancy{}, Errorf(ENOTFOUND, "vacancy %d not found", id)
	}
	if err != nil {
		return Vacancy{}, translate(err)
	}
	return vacancyOf(row), nil
}

// FindVacancies returns one page of vacancies.
func (s *Store) FindVacancies(ctx context.Context, f VacancyFilter) (VacancyPage, error) {
	limit, err := filterLimit(f.Limit)
	if err != nil {
		return VacancyPage{}, err
	}
	arg := sqlcdb.ListVacanciesParams{RowLimit: int32(limit + 1)}
	if f.Status != "" {
		if !slices.Contains(VacancyStatuses, f.Status) {
			return VacancyPage{}, invalid(map[string]string{"status": "must be one of " + list(VacancyStatuses)})
		}
		st := string(f.Status)
		arg.Status = &st
	}
	if f.After != "" {
		var c struct {
			Kind string `json:"k"`
			ID   int64  `json:"i"`
		}
		if err := decodeCursor(f.After, &c); err != nil {
			return VacancyPage{}, err
		}
		if c.Kind != "vacancy" {
			return VacancyPage{}, invalid(map[string]string{"after": "is not a cursor returned by this list"})
		}
		arg.AfterID = c.ID
	}
	rows, err := s.q.ListVacancies(ctx, arg)
	if err != nil {
		return VacancyPage{}, translate(err)
	}
	page := VacancyPage{Vacancies: make([]Vacancy, 0, min(len(rows), limit))}
	for i, r := range rows {
		if i == limit {
			page.NextCursor = encodeCursor(map[string]any{"k": "vacancy", "i": page.Vacancies[limit-1].ID})
			break
		}
		page.Vacancies = append(page.Vacancies, vacancyOf(r))
	}
	return page, nil
}

// CreateVacancy validates and stores a new vacancy.
func (s *Store) CreateVacancy(ctx context.Context, in VacancyInput) (Vacancy, error) {
	if in.Status == "" {
		in.Status = VacancyDraft
	}
	if err := in.validate(); err != nil {
		return Vacancy{}, err
	}
	row, err := s.q.CreateVacancy(ctx, sqlcdb.CreateVacancyParams{
		Title: in.Title, Department: in.Department, Location: in.Location,
		EmploymentType: string(in.EmploymentType), SalaryMinCents: in.SalaryMinCents,
		SalaryMaxCents: in.SalaryMaxCents, Status: string(in.Status), OpensOn: in.OpensOn.Time(),
		ClosesOn: timePtr(in.ClosesOn), Description: in.Description, FilledBy: in.FilledBy,
	})
	if err != nil {
		return Vacancy{}, translate(err)
	}
	return vacancyOf(row), nil
}

// UpdateVacancy applies upd to the vacancy id if its version is still
// version. A stale version is ECONFLICT and changes nothing.
func (s *Store) UpdateVacancy(ctx context.Context, id int64, version int32, upd VacancyPatch) (Vacancy, error) {
	var out Vacancy
	err := s.inTx(ctx, func(q *sqlcdb.Queries) error {
		cur, err := q.GetVacancy(ctx, id)
		if errors.Is(err, pgx.ErrNoRows) {
			return Errorf(ENOTFOUND, "vacancy %d not found", id)
		}
		if err != nil {
			return err
		}
		if cur.Version != version {
			return staleVersion("vacancy")
		}
		in := upd.apply(inputOfVacancy(cur))
		if err := in.validate(); err != nil {
			return err
		}
		row, err := q.UpdateVacancy(ctx, sqlcdb.UpdateVacancyParams{
			ID: id, Version: version,
			Title: in.Title, Department: in.Department, Location: in.Location,
			EmploymentType: string(in.EmploymentType), SalaryMinCents: in.SalaryMinCents,
			SalaryMaxCents: in.SalaryMaxCents, Status: string(in.Status), OpensOn: in.OpensOn.Time(),
			ClosesOn: timePtr(in.ClosesOn), Description: in.Description, FilledBy: in.FilledBy,
		})
		if errors.Is(err, pgx.ErrNoRows) {
			return staleVersion("vacancy")
		}
		if err != nil {
			return err
		}
		out = vacancyOf(row)
		return nil
	})
	return out, err
}

// DeleteVacancy removes a vacancy.
func (s *Store) DeleteVacancy(ctx context.Context, id int64) error {
	n, err := s.q.DeleteVacancy(ctx, id)
	if err != nil {
		return translate(err)
	}
	if n == 0 {
		return Errorf(ENOTFOUND, "vacancy %d not found", id)
	}
	return nil
}

func vacancyOf(r sqlcdb.Vacancy) Vacancy {
	return Vacancy{
		ID: r.ID, Title: r.Title, Department: r.Department, Location: r.Location,
		EmploymentType: EmploymentType(r.EmploymentType), SalaryMinCents: r.SalaryMinCents,
		SalaryMaxCents: r.SalaryMaxCents, Status: VacancyStatus(r.Status), OpensOn: DateOf(r.OpensOn),
		ClosesOn: datePtr(r.ClosesOn), Description: r.Description, FilledBy: r.FilledBy,
		Version: r.Version, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

func inputOfVacancy(r sqlcdb.Vacancy) VacancyInput {
	v := vacancyOf(r)
	return VacancyInput{
		Title: v.Title, Department: v.Department, Location: v.Location, EmploymentType: v.EmploymentType,
		SalaryMinCents: v.SalaryMinCents, SalaryMaxCents: v.SalaryMaxCents, Status: v.Status,
		OpensOn: v.OpensOn, ClosesOn: v.ClosesOn, Description: v.Description, FilledBy: v.FilledBy,
	}
}
