package db

import (
	"context"

	"crudbench/db/internal/sqlcdb"
)

// FindAppointments returns the appointments of the given persons, ordered by
// person and start date, without stipends and fundings: one statement for
// any number of persons (the GraphQL dataloaders batch through it).
func (s *Store) FindAppointments(ctx context.Context, personIDs []int64) ([]Appointment, error) {
	rows, err := s.q.ListAppointmentsByPersons(ctx, personIDs)
	if err != nil {
		return nil, translate(err)
	}
	out := make([]Appointment, len(rows))
	for i, r := range rows {
		out[i] = appointmentOf(r)
	}
	return out, nil
}

// FindStipends returns the stipends of the given appointments with their
// payers, in one statement.
func (s *Store) FindStipends(ctx context.Context, appointmentIDs []int64) ([]Stipend, error) {
	rows, err := s.q.ListStipendsByAppointments(ctx, appointmentIDs)
	if err != nil {
		return nil, translate(err)
	}
	out := make([]Stipend, len(rows))
	for i, r := range rows {
		out[i] = stipendOf(r.Stipend, r.Payer)
	}
	return out, nil
}

// FindFundings returns the fundings of the given appointments with their
// payers, in one statement.
func (s *Store) FindFundings(ctx context.Context, appointmentIDs []int64) ([]Funding, error) {
	rows, err := s.q.ListFundingsByAppointments(ctx, appointmentIDs)
	if err != nil {
		return nil, translate(err)
	}
	out := make([]Funding, len(rows))
	for i, r := range rows {
		out[i] = Funding{AppointmentID: r.Funding.AppointmentID, Payer: payerOf(r.Payer), Percent: r.Funding.Percent}
	}
	return out, nil
}

// CreateAppointment validates and stores an appointment of a person.
func (s *Store) CreateAppointment(ctx context.Context, in AppointmentInput) (Appointment, error) {
	if err := in.validate(); err != nil {
		return Appointment{}, err
	}
	row, err := s.q.CreateAppointment(ctx, sqlcdb.CreateAppointmentParams{
		PersonID: in.PersonID, PositionTitle: in.PositionTitle, Department: in.Department,
		Fte: in.FTE, StartsOn: in.StartsOn.Time(), EndsOn: timePtr(in.EndsOn),
	})
	if err != nil {
		return Appointment{}, translate(err)
	}
	return appointmentOf(row), nil
}

// CreateStipend validates and stores a stipend on an appointment.
func (s *Store) CreateStipend(ctx context.Context, in StipendInput) (Stipend, error) {
	if err := in.validate(); err != nil {
		return Stipend{}, err
	}
	var out Stipend
	err := s.inTx(ctx, func(q *sqlcdb.Queries) error {
		row, err := q.CreateStipend(ctx, sqlcdb.CreateStipendParams{
			AppointmentID: in.AppointmentID, PayerID: in.PayerID, AmountCents: in.AmountCents,
			Currency: in.Currency, StartsOn: in.StartsOn.Time(), EndsOn: timePtr(in.EndsOn),
		})
		if err != nil {
			return err
		}
		payer, err := q.GetPayer(ctx, row.PayerID)
		if err != nil {
			return err
		}
		out = stipendOf(row, payer)
		return nil
	})
	return out, err
}

// CreateFunding validates and stores a payer's share of an appointment; the
// shares of one appointment may not exceed 100 percent together.
func (s *Store) CreateFunding(ctx context.Context, in FundingInput) (Funding, error) {
	if err := in.validate(); err != nil {
		return Funding{}, err
	}
	var out Funding
	err := s.inTx(ctx, func(q *sqlcdb.Queries) error {
		row, err := q.CreateFunding(ctx, sqlcdb.CreateFundingParams{
			AppointmentID: in.AppointmentID, PayerID: in.PayerID, Percent: in.Percent,
		})
		if err != nil {
			return err
		}
		payer, err := q.GetPayer(ctx, row.PayerID)
		if err != nil {
			return err
		}
		out = Funding{AppointmentID: row.AppointmentID, Payer: payerOf(payer), Percent: row.Percent}
		return nil
	})
	return out, err
}

func appointmentOf(r sqlcdb.Appointment) Appointment {
	return Appointment{
		ID: r.ID, PersonID: r.PersonID, PositionTitle: r.PositionTitle, Department: r.Department,
		FTE: r.Fte, StartsOn: DateOf(r.StartsOn), EndsOn: datePtr(r.EndsOn),
		Stipends: []Stipend{}, Fundings: []Funding{},
	}
}

func stipendOf(r sqlcdb.Stipend, p sqlcdb.Payer) Stipend {
	return Stipend{
		ID: r.ID, AppointmentID: r.AppointmentID, Payer: payerOf(p), AmountCents: r.AmountCents,
		Currency: r.Currency, StartsOn: DateOf(r.StartsOn), EndsOn: datePtr(r.EndsOn),
	}
}

func payerOf(p sqlcdb.Payer) Payer {
	return Payer{ID: p.ID, Code: p.Code, Name: p.Name, Kind: PayerKind(p.Kind)}
}
