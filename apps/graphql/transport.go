package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"crudbench/apps/internal/serve"
)

// The media types of a GraphQL response (GraphQL over HTTP, "Accept").
const (
	mediaJSON            = "application/json"
	mediaGraphQLResponse = "application/graphql-response+json"
)

// httpTransport is GraphQL over HTTP as the spec
// (graphql.github.io/graphql-over-http) has it, in place of gqlgen's GET,
// POST and Options transports, which answer what they refuse in plain text
// or without an extensions.code: an unsupported Content-Type, a mutation
// over GET, undecodable variables, another method. They also read only the
// first JSON value of a body (so `{"query": …} xyz` ran) and read `null` as
// an empty request. Here every refusal is a GraphQL response with a code,
// in the media type the request accepts, and a body must be exactly one
// JSON object.
//
// It serves every request, so gqlgen's own "transport not supported" is
// never answered. The routes bring it GET, HEAD, POST and OPTIONS only;
// other methods are refused before it (methodNotAllowed).
type httpTransport struct{}

// Supports implements graphql.Transport.
func (httpTransport) Supports(*http.Request) bool { return true }

// Do implements graphql.Transport.
func (httpTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	switch r.Method {
	case http.MethodPost:
		servePOST(w, r, exec)
	case http.MethodGet, http.MethodHead:
		serveGET(w, r, exec)
	case http.MethodOptions:
		w.Header().Set("Allow", strings.Join(serve.Allowed(r), ", "))
		w.WriteHeader(http.StatusOK)
	default:
		serve.MethodNotAllowed(http.NotFound, methodNotAllowed)(w, r)
	}
}

// servePOST runs a request sent as a JSON body.
func servePOST(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	start := graphql.Now()
	if mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mediaType != mediaJSON {
		got := "no Content-Type"
		if ct := r.Header.Get("Content-Type"); ct != "" {
			got = "Content-Type " + ct
		}
		writeError(w, r, http.StatusUnsupportedMediaType, codeUnsupportedMediaType,
			"send the request as Content-Type: application/json, not "+got)
		return
	}
	body, err := io.ReadAll(r.Body)
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		// A body of unknown length (chunked) that grew past the shared
		// limit; one of announced length never gets here.
		writeTooLarge(w, r)
		return
	}
	if err != nil {
		writeError(w, r, http.StatusBadRequest, codeBadRequest, "the request body could not be read")
		return
	}
	params := &graphql.RawParams{}
	if err := decodeObject(body, params); err != nil {
		writeError(w, r, http.StatusBadRequest, codeBadRequest,
			`the body is not a GraphQL request: send one JSON object like {"query": "…", "variables": {…}}`)
		return
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	execute(w, r, exec, params, false)
}

// serveGET runs a query sent in the URL; mutations are refused.
func serveGET(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	start := graphql.Now()
	query, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		writeError(w, r, http.StatusBadRequest, codeBadRequest, "the URL's query string could not be read")
		return
	}
	params := &graphql.RawParams{
		Query:         query.Get("query"),
		OperationName: query.Get("operationName"),
		Headers:       r.Header,
	}
	for name, into := range map[string]*map[string]any{"variables": &params.Variables, "extensions": &params.Extensions} {
		if v := query.Get(name); v != "" {
			if err := decodeObject([]byte(v), into); err != nil {
				writeError(w, r, http.StatusBadRequest, codeBadRequest,
					fmt.Sprintf(`the %s parameter is not a JSON object like {"id": "4"}`, name))
				return
			}
		}
	}
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	execute(w, r, exec, params, true)
}

// execute runs one operation and writes its response. queriesOnly refuses
// mutations (GET, whose requests must be safe) with 405 and Allow: POST.
func execute(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor, params *graphql.RawParams, queriesOnly bool) {
	ctx := r.Context()
	mediaType := responseType(r)
	opCtx, errs := exec.CreateOperationContext(ctx, params)
	if errs != nil {
		// A request error (parse, validation, the query limits): 400 with
		// application/graphql-response+json, 200 with application/json,
		// so that clients of that older media type read the errors.
		// The deadline stopping the query limits' analysis is an outage
		// like any other: 503.
		resp, status := exec.DispatchError(graphql.WithOperationContext(ctx, opCtx), errs), http.StatusOK
		switch {
		case unavailable(resp):
			w.Header().Set("Retry-After", serve.RetryAfter)
			status = http.StatusServiceUnavailable
		case mediaType == mediaGraphQLResponse && errcode.GetErrorKind(errs) == errcode.KindProtocol:
			status = http.StatusBadRequest
		}
		writeResponse(w, mediaType, status, resp)
		return
	}
	if queriesOnly && opCtx.Operation.Operation != ast.Query {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, r, http.StatusMethodNotAllowed, codeMethodNotAllowed,
			fmt.Sprintf("a %s must be sent with POST", opCtx.Operation.Operation))
		return
	}
	responses, ctx := exec.DispatchOperation(ctx, opCtx)
	resp, status := responses(ctx), http.StatusOK
	if unavailable(resp) {
		resp.Data = nil
		w.Header().Set("Retry-After", serve.RetryAfter)
		status = http.StatusServiceUnavailable
	}
	writeResponse(w, mediaType, status, resp)
}

// decodeObject reads data, which must be exactly one JSON object, into v;
// numbers stay json.Number, for the scalars to read exactly.
func decodeObject(data []byte, v any) error {
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 || data[0] != '{' {
		return errors.New("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one JSON value")
	}
	return nil
}

// responseType is the media type of the response: the first of the
// request's Accept entries that names one of the two, application/json
// when there is none or it accepts anything, and
// application/graphql-response+json otherwise, as gqlgen's transports
// choose it.
func responseType(r *http.Request) string {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return mediaJSON
	}
	for part := range strings.SplitSeq(accept, ",") {
		mediaType, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mediaType {
		case "*/*", "application/*", mediaJSON:
			return mediaJSON
		case mediaGraphQLResponse:
			return mediaGraphQLResponse
		}
	}
	return mediaGraphQLResponse
}

// writeResponse writes v, a GraphQL response, with status, through
// serve.Respond like every app's answers. A response that cannot be encoded
// is a bug: the panic is answered by writePanic, nothing having been sent.
func writeResponse(w http.ResponseWriter, mediaType string, status int, v any) {
	err := serve.Respond(w, status, mediaType, func(b io.Writer) error { return json.NewEncoder(b).Encode(v) })
	if err != nil {
		panic(fmt.Errorf("encoding a GraphQL response: %w", err))
	}
}

// writeError answers a request refused before GraphQL execution (not a
// GraphQL request, a method or media type /graphql does not take, a body
// too large, a panic outside the resolvers) as a GraphQL response without
// data, in the media type the request accepts.
func writeError(w http.ResponseWriter, r *http.Request, status int, code, message string) {
	writeResponse(w, responseType(r), status, struct {
		Errors gqlerror.List `json:"errors"`
	}{gqlerror.List{gqlError(code, message)}})
}
