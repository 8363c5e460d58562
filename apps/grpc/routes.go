package main

import (
	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"crudbench/apps/grpc/gen/crudbenchv1"
)

// addServices is the whole surface of the gRPC app: crudbench.v1.Staff
// and the standard health service (server reflection is registered by
// NewServer, after them, so that it lists them).
func addServices(srv *grpc.Server, staff *staff, health *readiness) {
	crudbenchv1.RegisterStaffServer(srv, staff)
	healthpb.RegisterHealthServer(srv, health)
}

// access is what a method asks of its caller.
type access int

const (
	open   access = iota // anyone: login, health, reflection
	reader               // a valid token
	editor               // a valid token with the editor role
)

// staffAccess is the access each Staff method needs; methods of the other
// services (health, reflection) are open. A Staff method missing here
// would be open, so TestAccessCoversStaff checks that it names them all.
var staffAccess = map[string]access{
	crudbenchv1.Staff_Login_FullMethodName:         open,
	crudbenchv1.Staff_GetPerson_FullMethodName:     reader,
	crudbenchv1.Staff_ListPersons_FullMethodName:   reader,
	crudbenchv1.Staff_GetVacancy_FullMethodName:    reader,
	crudbenchv1.Staff_ListVacancies_FullMethodName: reader,
	crudbenchv1.Staff_CreateVacancy_FullMethodName: editor,
	crudbenchv1.Staff_UpdateVacancy_FullMethodName: editor,
	crudbenchv1.Staff_DeleteVacancy_FullMethodName: editor,
}
