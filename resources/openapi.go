package resources

import _ "embed"

// OpenAPI is the OpenAPI 3.1 document of the REST app (apps/rest), which
// serves it at GET /openapi.yaml and whose tests check every response they
// receive against it, so that the document and the code cannot drift apart.
//
//go:embed openapi.yaml
var OpenAPI []byte
