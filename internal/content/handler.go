package content

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/rs/zerolog"
)

// handler serves GraphQL over HTTP: POST with a JSON body (or an
// application/graphql body holding just the query) and GET with query,
// variables and operationName parameters.
type handler struct {
	exec    *executor
	token   string
	origins []string
}

func newHandler(src pageSource, opts Options, log zerolog.Logger) *handler {
	return &handler{exec: &executor{src: src, log: log}, token: opts.ReadToken, origins: opts.AllowedOrigins}
}

// tokenMatches applies the read-token rule: no configured token means open;
// otherwise the header must be "Bearer <token>", compared in constant time.
func tokenMatches(token, authorization string) bool {
	if token == "" {
		return true
	}
	scheme, got, ok := strings.Cut(strings.TrimSpace(authorization), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(token)) == 1
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.cors(w, r)
	if r.Method == http.MethodOptions {
		w.Header().Set("Allow", "GET, POST, OPTIONS")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, POST, OPTIONS")
		writeResponse(w, http.StatusMethodNotAllowed, errorResponse("GraphQL only supports GET and POST requests."))
		return
	}
	if !tokenMatches(h.token, r.Header.Get("Authorization")) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="content"`)
		writeResponse(w, http.StatusUnauthorized, errorResponse("Unauthorized: a valid read token is required."))
		return
	}
	req, err := h.decode(w, r)
	if err != nil {
		writeResponse(w, http.StatusBadRequest, errorResponse(err.Error()))
		return
	}
	req.DefaultLocale = RequestLocale(r)
	writeResponse(w, http.StatusOK, h.exec.execute(r.Context(), req))
}

// cors adds CORS headers for allowed origins.
func (h *handler) cors(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if origin == "" || len(h.origins) == 0 {
		return
	}
	if !slices.Contains(h.origins, "*") && !slices.Contains(h.origins, origin) {
		return
	}
	hd := w.Header()
	hd.Set("Access-Control-Allow-Origin", origin)
	hd.Set("Access-Control-Allow-Credentials", "true")
	hd.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	hd.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, exchange-language")
	hd.Set("Access-Control-Max-Age", "600")
	hd.Add("Vary", "Origin")
}

// decode reads the GraphQL request from the query string (GET) or the body
// (POST). Its errors are the client's fault and are answered with 400.
func (h *handler) decode(w http.ResponseWriter, r *http.Request) (Request, error) {
	if r.Method == http.MethodGet {
		// The query string is bounded like a POST body; without this only
		// the HTTP server's header limit (1 MB by default) would apply.
		if len(r.URL.RawQuery) > maxRequestBytes {
			return Request{}, fmt.Errorf("Request query string is larger than %d bytes.", maxRequestBytes)
		}
		q := r.URL.Query()
		req := Request{Query: q.Get("query"), OperationName: q.Get("operationName")}
		if v := q.Get("variables"); v != "" {
			vars, err := decodeVariables([]byte(v))
			if err != nil {
				return Request{}, err
			}
			req.Variables = vars
		}
		if req.Query == "" {
			return Request{}, errors.New("Must provide query string.")
		}
		return req, nil
	}

	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return Request{}, fmt.Errorf("Request body is larger than %d bytes.", maxRequestBytes)
		}
		return Request{}, fmt.Errorf("Could not read the request body: %v", err)
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/graphql" {
		return Request{Query: string(body)}, nil
	}

	var raw map[string]json.RawMessage
	if err := strictJSON(body, &raw); err != nil || raw == nil {
		return Request{}, errors.New("POST body must be a JSON object such as {\"query\": \"...\", \"variables\": {...}}.")
	}
	var req Request
	if q, ok := raw["query"]; ok && !isNull(q) {
		if err := json.Unmarshal(q, &req.Query); err != nil {
			return Request{}, errors.New("The \"query\" field must be a string.")
		}
	}
	if req.Query == "" {
		return Request{}, errors.New("Must provide query string.")
	}
	if n, ok := raw["operationName"]; ok && !isNull(n) {
		if err := json.Unmarshal(n, &req.OperationName); err != nil {
			return Request{}, errors.New("The \"operationName\" field must be a string.")
		}
	}
	if v, ok := raw["variables"]; ok && !isNull(v) {
		vars, err := decodeVariables(v)
		if err != nil {
			return Request{}, err
		}
		req.Variables = vars
	}
	return req, nil
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

func decodeVariables(raw []byte) (map[string]any, error) {
	var vars map[string]any
	if err := strictJSON(raw, &vars); err != nil {
		return nil, errors.New("The \"variables\" field must be a JSON object.")
	}
	return vars, nil
}

// strictJSON decodes exactly one JSON value, keeping numbers exact.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON value")
	}
	return nil
}

func writeResponse(w http.ResponseWriter, status int, resp Response) {
	// HTML escaping is off so texts such as "Terms & conditions" reach the
	// client as written; the response is JSON, never embedded in HTML.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	var body []byte
	if err := enc.Encode(resp); err != nil { // only for unmarshalable errors, which ours are not
		status = http.StatusInternalServerError
		body = []byte(`{"data":null,"errors":[{"message":"internal error"}]}`)
	} else {
		body = buf.Bytes()
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
