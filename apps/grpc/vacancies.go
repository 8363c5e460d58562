package main

import (
	"context"

	"crudbench/apps/grpc/gen/crudbenchv1"
	"crudbench/db"
)

// GetVacancy returns one vacancy.
func (s *staff) GetVacancy(ctx context.Context, req *crudbenchv1.GetVacancyRequest) (*crudbenchv1.Vacancy, error) {
	v, err := s.store.FindVacancyByID(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return vacancyMessage(v), nil
}

// vacancyListFields renames the Store's filter fields to the request's.
var vacancyListFields = map[string]string{"after": "pageToken"}

// ListVacancies returns a page of vacancies, of one status when asked.
func (s *staff) ListVacancies(ctx context.Context, req *crudbenchv1.ListVacanciesRequest) (*crudbenchv1.ListVacanciesResponse, error) {
	limit, err := pageSize(req.GetPageSize())
	if err != nil {
		return nil, renameFields(err, "", vacancyListFields)
	}
	f := db.VacancyFilter{Status: vacancyStatus(req.GetStatus()), After: req.GetPageToken(), Limit: limit}
	page, err := s.store.FindVacancies(ctx, f)
	if err != nil {
		return nil, renameFields(err, "", vacancyListFields)
	}
	out := &crudbenchv1.ListVacanciesResponse{
		Vacancies:     make([]*crudbenchv1.Vacancy, len(page.Vacancies)),
		NextPageToken: page.NextCursor,
	}
	for i, v := range page.Vacancies {
		out.Vacancies[i] = vacancyMessage(v)
	}
	return out, nil
}

// CreateVacancy stores a new vacancy. Field violations are named inside
// the request ("vacancy.title").
func (s *staff) CreateVacancy(ctx context.Context, req *crudbenchv1.CreateVacancyRequest) (*crudbenchv1.Vacancy, error) {
	in, err := vacancyInput(req.GetVacancy())
	if err != nil {
		return nil, renameFields(err, "vacancy.", nil)
	}
	v, err := s.store.CreateVacancy(ctx, in)
	if err != nil {
		return nil, renameFields(err, "vacancy.", nil)
	}
	return vacancyMessage(v), nil
}

func vacancyInput(m *crudbenchv1.Vacancy) (db.VacancyInput, error) {
	opens, err := parseDate("opensOn", m.GetOpensOn())
	if err != nil {
		return db.VacancyInput{}, err
	}
	closes, err := parseOptionalDate("closesOn", m.ClosesOn)
	if err != nil {
		return db.VacancyInput{}, err
	}
	return db.VacancyInput{
		Title: m.GetTitle(), Department: m.GetDepartment(), Location: m.GetLocation(),
		EmploymentType: employmentType(m.GetEmploymentType()),
		SalaryMinCents: m.GetSalaryMinCents(), SalaryMaxCents: m.GetSalaryMaxCents(),
		Status: vacancyStatus(m.GetStatus()), OpensOn: opens, ClosesOn: closes,
		Description: m.GetDescription(), FilledBy: m.FilledBy,
	}, nil
}

// UpdateVacancy changes the fields set in the request if the vacancy is
// still at the request's version: ABORTED when it is not.
func (s *staff) UpdateVacancy(ctx context.Context, req *crudbenchv1.UpdateVacancyRequest) (*crudbenchv1.Vacancy, error) {
	if req.GetVersion() < 1 {
		return nil, invalidField("version", "is required: the version the change is based on")
	}
	upd, err := vacancyPatch(req)
	if err != nil {
		return nil, err
	}
	v, err := s.store.UpdateVacancy(ctx, req.GetId(), req.GetVersion(), upd)
	if err != nil {
		return nil, err
	}
	return vacancyMessage(v), nil
}

func vacancyPatch(req *crudbenchv1.UpdateVacancyRequest) (db.VacancyPatch, error) {
	upd := db.VacancyPatch{
		Title: req.Title, Department: req.Department, Location: req.Location,
		SalaryMinCents: req.SalaryMinCents, SalaryMaxCents: req.SalaryMaxCents,
		Description: req.Description, FilledBy: req.FilledBy,
		ClearClosesOn: req.GetClearClosesOn(), ClearFilledBy: req.GetClearFilledBy(),
	}
	if req.EmploymentType != nil {
		t := employmentType(req.GetEmploymentType())
		upd.EmploymentType = &t
	}
	if req.Status != nil {
		st := vacancyStatus(req.GetStatus())
		upd.Status = &st
	}
	var err error
	if upd.OpensOn, err = parseOptionalDate("opensOn", req.OpensOn); err != nil {
		return upd, err
	}
	if upd.ClosesOn, err = parseOptionalDate("closesOn", req.ClosesOn); err != nil {
		return upd, err
	}
	return upd, nil
}

// DeleteVacancy removes a vacancy.
func (s *staff) DeleteVacancy(ctx context.Context, req *crudbenchv1.DeleteVacancyRequest) (*crudbenchv1.DeleteVacancyResponse, error) {
	if err := s.store.DeleteVacancy(ctx, req.GetId()); err != nil {
		return nil, err
	}
	return &crudbenchv1.DeleteVacancyResponse{}, nil
}
