package main

import (
	"context"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"crudbench/apps/grpc/gen/crudbenchv1"
	"crudbench/db"
)

// GetPerson returns a person with their appointments, stipends and
// fundings.
func (s *staff) GetPerson(ctx context.Context, req *crudbenchv1.GetPersonRequest) (*crudbenchv1.PersonDetail, error) {
	p, err := s.store.FindPersonDetail(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	out := &crudbenchv1.PersonDetail{
		Person:       personMessage(p.Person),
		Appointments: make([]*crudbenchv1.Appointment, len(p.Appointments)),
	}
	for i, a := range p.Appointments {
		out.Appointments[i] = appointmentMessage(a)
	}
	return out, nil
}

// personListFields renames the Store's filter fields to the request's.
var personListFields = map[string]string{"search": "query", "after": "pageToken"}

// ListPersons returns a page of persons, trimmed to the read mask.
func (s *staff) ListPersons(ctx context.Context, req *crudbenchv1.ListPersonsRequest) (*crudbenchv1.ListPersonsResponse, error) {
	keep, err := maskFields(req.GetReadMask())
	if err != nil {
		return nil, err
	}
	limit, err := pageSize(req.GetPageSize())
	if err != nil {
		return nil, renameFields(err, "", personListFields)
	}
	page, err := s.store.FindPersons(ctx, db.PersonFilter{Search: req.GetQuery(), After: req.GetPageToken(), Limit: limit})
	if err != nil {
		return nil, renameFields(err, "", personListFields)
	}
	out := &crudbenchv1.ListPersonsResponse{
		Persons:       make([]*crudbenchv1.Person, len(page.Persons)),
		NextPageToken: page.NextCursor,
	}
	for i, p := range page.Persons {
		out.Persons[i] = trim(personMessage(p), keep)
	}
	return out, nil
}

// maskFields is the set of Person fields a read mask keeps, nil for an
// empty mask (all). Paths name top-level fields of Person; a nested path
// or an unknown name is INVALID_ARGUMENT naming read_mask.
func maskFields(mask *fieldmaskpb.FieldMask) (map[protoreflect.Name]bool, error) {
	if len(mask.GetPaths()) == 0 {
		return nil, nil
	}
	fields := (&crudbenchv1.Person{}).ProtoReflect().Descriptor().Fields()
	keep := make(map[protoreflect.Name]bool, len(mask.GetPaths()))
	for _, p := range mask.GetPaths() {
		if strings.Contains(p, ".") || fields.ByName(protoreflect.Name(p)) == nil {
			return nil, invalidField("readMask", "has "+p+", which is not a field of Person")
		}
		keep[protoreflect.Name(p)] = true
	}
	return keep, nil
}

// trim clears the fields of m that keep lacks; a nil keep keeps all.
func trim[M protoreflect.ProtoMessage](m M, keep map[protoreflect.Name]bool) M {
	if keep == nil {
		return m
	}
	r := m.ProtoReflect()
	r.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		if !keep[fd.Name()] {
			r.Clear(fd)
		}
		return true
	})
	return m
}
