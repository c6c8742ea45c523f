package httpapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/push"
)

// OpenAPI builds the OpenAPI 3.1 document of the given routes: every path
// with its request fields (plus the uaTime/securityInfo envelope) and the
// fields of its response data, and the error catalogue as a schema.
func OpenAPI(title, version string, routes []RouteDoc) map[string]any {
	paths := map[string]any{}
	sort.SliceStable(routes, func(i, j int) bool { return routes[i].Path < routes[j].Path })
	for _, rt := range routes {
		op := map[string]any{
			"summary":     rt.Summary,
			"tags":        []string{rt.Tag},
			"operationId": operationID(rt),
		}
		if rt.Auth == Private {
			op["security"] = []any{map[string]any{"exchangeToken": []string{}}, map[string]any{"tokenCookie": []string{}, "xsrfHeader": []string{}}}
		}
		if rt.Req != nil {
			req := schemaOf(rt.Req, map[reflect.Type]bool{})
			props, _ := req["properties"].(map[string]any)
			if props == nil {
				props = map[string]any{}
				req["properties"] = props
			}
			props["uaTime"] = map[string]any{"type": "string", "description": "client local time, YYYY-MM-DD HH:mm:ss"}
			props["securityInfo"] = map[string]any{"description": "JSON (or JSON string) with a time stamp, device identifiers and flags"}
			op["requestBody"] = map[string]any{"required": true, "content": map[string]any{
				"application/json": map[string]any{"schema": req}}}
			op["responses"] = map[string]any{"200": map[string]any{
				"description": "envelope; code \"0\" is success, other codes come from the catalogue",
				"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"code":     map[string]any{"type": "string"},
						"msg":      map[string]any{"type": "string"},
						"errorMsg": map[string]any{"type": "string"},
						"data":     schemaOf(rt.Resp, map[reflect.Type]bool{}),
					},
					"required": []string{"code", "msg", "data"},
				}}},
			}}
		} else {
			if rt.RawRequest != "" {
				op["description"] = "Request: " + rt.RawRequest
			}
			op["responses"] = map[string]any{"200": map[string]any{"description": rt.RawResponse}}
		}
		if len(rt.WSMethods) > 0 {
			op["x-websocket-methods"] = wsMethodsDoc(rt.WSMethods)
		}
		method := strings.ToLower(rt.Method)
		if method == "" {
			method = "get"
		}
		entry, _ := paths[rt.Path].(map[string]any)
		if entry == nil {
			entry = map[string]any{}
			paths[rt.Path] = entry
		}
		entry[method] = op
	}
	codes := []any{}
	for _, e := range apperr.Entries() {
		codes = append(codes, map[string]any{"code": e.Code, "http": e.HTTP, "en_US": e.EN, "mn_MN": e.MN})
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": title, "version": version, "description": decodingRules},
		"paths":   paths,
		"components": map[string]any{
			"securitySchemes": map[string]any{
				"exchangeToken": map[string]any{"type": "apiKey", "in": "header", "name": HeaderToken},
				"tokenCookie":   map[string]any{"type": "apiKey", "in": "cookie", "name": CookieToken},
				"xsrfHeader": map[string]any{"type": "apiKey", "in": "header", "name": HeaderXSRF,
					"description": "with the token cookie: the value of the " + CookieXSRF + " cookie that sign-in sets, derived from the session (an HMAC-SHA256 keyed by its token); any other value is refused"},
			},
		},
		"x-error-catalogue": codes,
	}
}

// wsMethodsDoc documents a WebSocket route's request methods: the request
// and answer frames, and per method its params (the REST route's body) and
// the answer's data.
func wsMethodsDoc(ms []WSMethod) map[string]any {
	methods := map[string]any{}
	for _, m := range ms {
		methods[m.Name] = map[string]any{
			"summary":  m.Summary,
			"route":    m.Route,
			"security": "an auth frame accepted on the connection (else code 10002)",
			"params":   schemaOf(m.Params, map[reflect.Type]bool{}),
			"data":     schemaOf(m.Data, map[reflect.Type]bool{}),
		}
	}
	return map[string]any{
		"description": fmt.Sprintf(`Request frames on the same connection, after an accepted auth frame: {"id","method","params"} answered by one `+
			`{"id","status","code","msg","data"} echoing the id. params are decoded and validated by the rules of the method's REST route, `+
			`and the answer's code, msg and data are that route's for the same input. Up to %d requests of a connection may run at once, `+
			`answered as they finish (not in the order sent); one more is answered at once with code 10011. A frame is at most %d bytes; `+
			`a bad frame gets an error answer (410 naming what is wrong, with the id when it was valid) and the connection stays open.`,
			push.MaxInFlight, push.MaxFrameLen),
		"request": schemaOf(reflect.TypeFor[WSRequest](), map[reflect.Type]bool{}),
		"answer":  schemaOf(reflect.TypeFor[WSAnswer](), map[reflect.Type]bool{}),
		"methods": methods,
	}
}

// decodingRules is the document's statement of how request bodies are
// read (decodeBody and checkStrict); README's API conventions say the same.
const decodingRules = "Request bodies are JSON objects of at most 64 KB. Keys are matched exactly (case-sensitive): " +
	"a key given twice in one object, at any depth, or a known field's name in another letter case is refused with 410 naming it; " +
	"unknown keys are ignored. Text must be valid UTF-8 (no lone surrogate escapes), else 410 naming the field. " +
	"Integer fields take a JSON integer or a string matching ^-?[0-9]+$; amounts, prices and codes take a string or a number, " +
	"read from its exact text, and the field's own rule then applies to both forms alike."

func operationID(rt RouteDoc) string {
	s := strings.Trim(rt.Path, "/")
	s = strings.NewReplacer("/", "_", "-", "_", ".", "_", "{", "", "}", "").Replace(s)
	return strings.ToLower(rt.Method) + "_" + s
}

// schemaDoc is implemented by types that describe their own schema (a
// value kept as sent, such as a batch entry).
type schemaDoc interface{ openAPISchema() map[string]any }

var (
	schemaDocType  = reflect.TypeFor[schemaDoc]()
	decimalType    = reflect.TypeFor[decimal.Decimal]()
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	flexIntType    = reflect.TypeFor[FlexInt]()
	flexStringType = reflect.TypeFor[FlexString]()
)

// schemaOf derives a JSON Schema from a Go type through its json tags.
func schemaOf(t reflect.Type, seen map[reflect.Type]bool) map[string]any {
	if t == nil {
		return map[string]any{}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Implements(schemaDocType) {
		return reflect.Zero(t).Interface().(schemaDoc).openAPISchema()
	}
	switch t {
	case decimalType:
		return map[string]any{"type": "string", "format": "decimal"}
	case flexIntType:
		return map[string]any{"oneOf": []any{map[string]any{"type": "integer"}, map[string]any{"type": "string", "pattern": "^-?[0-9]+$"}},
			"description": "an integer within int64, as a JSON number or a string; both forms follow ^-?[0-9]+$ (no '+', spaces, fraction or exponent)"}
	case rawMessageType:
		return map[string]any{}
	case flexStringType:
		return map[string]any{"type": "string", "description": "a number is accepted too, kept as its exact text, so both forms get the same answer"}
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "contentEncoding": "base64"}
		}
		return map[string]any{"type": "array", "items": schemaOf(t.Elem(), seen)}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": schemaOf(t.Elem(), seen)}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		if seen[t] {
			return map[string]any{"type": "object"}
		}
		seen[t] = true
		defer delete(seen, t)
		props := map[string]any{}
		var required []string
		addStructFields(t, props, &required, seen)
		s := map[string]any{"type": "object", "properties": props}
		if len(required) > 0 {
			sort.Strings(required)
			s["required"] = required
		}
		return s
	}
	return map[string]any{}
}

func addStructFields(t reflect.Type, props map[string]any, required *[]string, seen map[reflect.Type]bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			addStructFields(f.Type, props, required, seen)
			continue
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name := jsonName(f)
		s := schemaOf(f.Type, seen)
		if d := f.Tag.Get("doc"); d != "" {
			s["description"] = d
		}
		props[name] = s
		if strings.Contains(f.Tag.Get("v"), "required") {
			*required = append(*required, name)
		}
	}
}
