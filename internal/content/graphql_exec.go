package content

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/rs/zerolog"
)

// The schema this executor serves:
//
//	type Query { page(id: String!, locale: String): Page! }
//	type Page  { id: String!  locale: String!  translations: JSON! }
const (
	typeQuery = "Query"
	typePage  = "Page"
)

// pageFields maps the fields of Page to their type names (for messages).
var pageFields = map[string]string{
	"id":           "String!",
	"locale":       "String!",
	"translations": "JSON!",
	"__typename":   "String!",
}

// builtinScalars are the input types a variable may be declared with.
var builtinScalars = map[string]bool{"String": true, "Int": true, "Float": true, "Boolean": true, "ID": true}

// Request is one GraphQL request, independent of its transport, so the HTTP
// handler and a Lambda function can share the execution.
type Request struct {
	Query string
	// Variables as decoded from JSON (numbers may be json.Number or float64).
	Variables map[string]any
	// OperationName selects the operation when the document holds several.
	OperationName string
	// DefaultLocale is used when page() has no locale argument (or it is
	// null or empty); "" means en-US. The HTTP handler fills it from the
	// lan cookie.
	DefaultLocale string
}

// GraphQLError is one entry of a response's "errors" list.
type GraphQLError struct {
	Message   string     `json:"message"`
	Locations []Location `json:"locations,omitempty"`
	Path      []any      `json:"path,omitempty"`
}

// MarshalJSON writes the error with printableMessage applied to its
// message: messages quote what the caller sent, and this is the one place
// every answer passes through on its way out.
func (e GraphQLError) MarshalJSON() ([]byte, error) {
	type plain GraphQLError // the same fields without this method
	p := plain(e)
	p.Message = printableMessage(e.Message)
	return json.Marshal(p)
}

// Response is a GraphQL response: Data is nil when execution did not start
// or a non-null field failed (then "data" is null).
type Response struct {
	Data   json.RawMessage
	Errors []GraphQLError
}

// MarshalJSON renders {"data": ..., "errors": [...]}, with "data": null
// when there is no data and no "errors" key when there are none.
func (r Response) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(`{"data":`)
	if r.Data == nil {
		buf.WriteString("null")
	} else {
		buf.Write(r.Data)
	}
	if len(r.Errors) > 0 {
		errs, err := json.Marshal(r.Errors)
		if err != nil {
			return nil, err
		}
		buf.WriteString(`,"errors":`)
		buf.Write(errs)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// pageSource is what the executor needs from the service; tests substitute
// a fake.
type pageSource interface {
	Page(ctx context.Context, id, locale string) (Page, error)
}

// executor runs parsed requests against a pageSource.
type executor struct {
	src pageSource
	log zerolog.Logger
}

func errorResponse(msg string, locs ...Location) Response {
	return Response{Errors: []GraphQLError{{Message: msg, Locations: locs}}}
}

// execute parses, validates and runs one request, within the bounds of
// graphql_limits.go.
func (x *executor) execute(ctx context.Context, req Request) Response {
	return boundAnswer(x.executeUnbounded(ctx, req))
}

func (x *executor) executeUnbounded(ctx context.Context, req Request) Response {
	if strings.TrimSpace(req.Query) == "" {
		return errorResponse("Must provide query string.")
	}
	if len(req.Query) > maxRequestBytes {
		// The HTTP handler refuses such requests before they get here; this
		// covers callers of Service.Execute.
		return errorResponse(fmt.Sprintf("Query text is larger than %d bytes.", maxRequestBytes))
	}
	doc, err := parseQuery(req.Query)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return errorResponse("Syntax Error: "+se.Message, se.Loc)
		}
		return errorResponse(err.Error())
	}
	op, gerr := selectOperation(doc, req.OperationName)
	if gerr != nil {
		return Response{Errors: []GraphQLError{*gerr}}
	}
	if gerr := checkQueryCost(op); gerr != nil {
		return Response{Errors: []GraphQLError{*gerr}}
	}
	if errs := validate(op); len(errs) > 0 {
		return Response{Errors: errs}
	}
	vars, errs := coerceVariables(op, req.Variables)
	if len(errs) > 0 {
		return Response{Errors: errs}
	}
	return x.run(ctx, op, vars, req.DefaultLocale)
}

func selectOperation(doc *document, name string) (*operation, *GraphQLError) {
	if name == "" {
		if len(doc.ops) > 1 {
			return nil, &GraphQLError{Message: "Must provide operation name if query contains multiple operations."}
		}
		return doc.ops[0], nil
	}
	for _, op := range doc.ops {
		if op.name == name {
			return op, nil
		}
	}
	return nil, &GraphQLError{Message: fmt.Sprintf("Unknown operation named %q.", name)}
}

// varUsage records where a variable is used and the type expected there.
type varUsage struct {
	name     string
	expected string // "String!" or "String"
	loc      Location
}

// validate applies the validation rules that matter for this schema.
func validate(op *operation) []GraphQLError {
	var errs []GraphQLError
	add := func(loc Location, format string, args ...any) {
		errs = append(errs, GraphQLError{Message: fmt.Sprintf(format, args...), Locations: []Location{loc}})
	}
	if op.kind != "query" {
		add(op.loc, "Schema is not configured to execute %s operation.", op.kind)
		return errs
	}

	defs := map[string]*varDef{}
	for _, d := range op.vars {
		if defs[d.name] != nil {
			add(d.loc, "There can be only one variable named \"$%s\".", d.name)
			continue
		}
		defs[d.name] = d
		base := d.typ
		for base.elem != nil {
			base = base.elem
		}
		if !builtinScalars[base.name] {
			add(d.loc, "Unknown type %q.", base.name)
			continue
		}
		if d.def != nil {
			if msg := checkLiteral(d.typ, d.def); msg != "" {
				add(d.def.loc, "Variable \"$%s\" has invalid default value: %s", d.name, msg)
			}
		}
	}

	var usages []varUsage
	for _, group := range groupFields(op.sel) {
		errs = append(errs, validateRootField(group, &usages)...)
	}

	used := map[string]bool{}
	for _, u := range usages {
		used[u.name] = true
		d := defs[u.name]
		if d == nil {
			if op.name != "" {
				add(u.loc, "Variable \"$%s\" is not defined by operation %q.", u.name, op.name)
			} else {
				add(u.loc, "Variable \"$%s\" is not defined.", u.name)
			}
			continue
		}
		if !variableFits(d, u.expected) {
			add(u.loc, "Variable \"$%s\" of type %q used in position expecting type %q.", u.name, d.typ.String(), u.expected)
		}
	}
	for _, d := range op.vars {
		if !used[d.name] {
			if op.name != "" {
				add(d.loc, "Variable \"$%s\" is never used in operation %q.", d.name, op.name)
			} else {
				add(d.loc, "Variable \"$%s\" is never used.", d.name)
			}
		}
	}
	return errs
}

// variableFits says whether a variable may be used where expected ("String!"
// or "String") is required; a nullable variable fits a non-null position
// only when it has a non-null default, as the specification allows.
func variableFits(d *varDef, expected string) bool {
	if d.typ.elem != nil || d.typ.name != "String" {
		return false
	}
	if !strings.HasSuffix(expected, "!") || d.typ.nonNull {
		return true
	}
	return d.def != nil && d.def.kind != valNull
}

// checkLiteral checks a constant literal against an input type and returns
// a message, or "" when it fits.
func checkLiteral(t *typeRef, v *value) string {
	if v.kind == valNull {
		if t.nonNull {
			return fmt.Sprintf("Expected value of type %q, found null.", t.String())
		}
		return ""
	}
	if t.elem != nil {
		if v.kind != valList {
			return checkLiteral(t.elem, v)
		}
		for _, e := range v.list {
			if msg := checkLiteral(t.elem, e); msg != "" {
				return msg
			}
		}
		return ""
	}
	ok := false
	switch t.name {
	case "String":
		ok = v.kind == valString
	case "ID":
		ok = v.kind == valString || v.kind == valInt
	case "Int":
		if v.kind == valInt {
			_, err := strconv.ParseInt(v.raw, 10, 32)
			ok = err == nil
		}
	case "Float":
		ok = v.kind == valInt || v.kind == valFloat
	case "Boolean":
		ok = v.kind == valBool
	}
	if ok {
		return ""
	}
	return fmt.Sprintf("%s cannot represent the value %s.", t.name, v.describe())
}

// fieldGroup is the fields of one selection set that share a response key;
// GraphQL merges them into one result entry.
type fieldGroup struct {
	key    string
	fields []*field
}

func groupFields(sel []*field) []*fieldGroup {
	var groups []*fieldGroup
	byKey := map[string]*fieldGroup{}
	for _, f := range sel {
		k := f.responseKey()
		g := byKey[k]
		if g == nil {
			g = &fieldGroup{key: k}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.fields = append(g.fields, f)
	}
	return groups
}

// mergeConflict checks that the fields of a group can be merged: same field
// name and, for page, the same arguments.
func mergeConflict(g *fieldGroup) *GraphQLError {
	first := g.fields[0]
	for _, f := range g.fields[1:] {
		if f.name != first.name {
			return &GraphQLError{
				Message: fmt.Sprintf("Fields %q conflict because %q and %q are different fields. Use different aliases on the fields to fetch both if this was intentional.",
					g.key, first.name, f.name),
				Locations: []Location{first.loc, f.loc},
			}
		}
		if argsKey(f.args) != argsKey(first.args) {
			return &GraphQLError{
				Message: fmt.Sprintf("Fields %q conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional.",
					g.key),
				Locations: []Location{first.loc, f.loc},
			}
		}
	}
	return nil
}

// argsKey renders arguments in a canonical order for comparison.
func argsKey(args []*argument) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.name + ":" + a.val.describe()
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func validateRootField(g *fieldGroup, usages *[]varUsage) []GraphQLError {
	if e := mergeConflict(g); e != nil {
		return []GraphQLError{*e}
	}
	var errs []GraphQLError
	add := func(loc Location, format string, args ...any) {
		errs = append(errs, GraphQLError{Message: fmt.Sprintf(format, args...), Locations: []Location{loc}})
	}
	for _, f := range g.fields {
		switch f.name {
		case "__typename":
			for _, a := range f.args {
				add(a.loc, "Unknown argument %q on field \"%s.__typename\".", a.name, typeQuery)
			}
			if f.hasSel {
				add(f.loc, "Field \"__typename\" must not have a selection since type \"String!\" has no subfields.")
			}
		case "page":
			errs = append(errs, validatePageArgs(f, usages)...)
			if !f.hasSel {
				add(f.loc, "Field \"page\" of type \"Page!\" must have a selection of subfields. Did you mean \"page { ... }\"?")
			}
		default:
			add(f.loc, "Cannot query field %q on type %q.", f.name, typeQuery)
		}
	}
	if g.fields[0].name != "page" {
		return errs
	}
	var sub []*field
	for _, f := range g.fields {
		sub = append(sub, f.sel...)
	}
	for _, sg := range groupFields(sub) {
		if e := mergeConflict(sg); e != nil {
			errs = append(errs, *e)
			continue
		}
		for _, f := range sg.fields {
			typ, ok := pageFields[f.name]
			if !ok {
				add(f.loc, "Cannot query field %q on type %q.", f.name, typePage)
				continue
			}
			for _, a := range f.args {
				add(a.loc, "Unknown argument %q on field \"%s.%s\".", a.name, typePage, f.name)
			}
			if f.hasSel {
				add(f.loc, "Field %q must not have a selection since type %q has no subfields.", f.name, typ)
			}
		}
	}
	return errs
}

func validatePageArgs(f *field, usages *[]varUsage) []GraphQLError {
	var errs []GraphQLError
	add := func(loc Location, format string, args ...any) {
		errs = append(errs, GraphQLError{Message: fmt.Sprintf(format, args...), Locations: []Location{loc}})
	}
	seen := map[string]bool{}
	for _, a := range f.args {
		if seen[a.name] {
			add(a.loc, "There can be only one argument named %q.", a.name)
			continue
		}
		seen[a.name] = true
		var expected string
		switch a.name {
		case "id":
			expected = "String!"
		case "locale":
			expected = "String"
		default:
			add(a.loc, "Unknown argument %q on field \"%s.page\".", a.name, typeQuery)
			continue
		}
		switch a.val.kind {
		case valVariable:
			*usages = append(*usages, varUsage{name: a.val.raw, expected: expected, loc: a.val.loc})
		case valString:
		case valNull:
			if expected == "String!" {
				add(a.val.loc, "Expected value of type %q, found null.", expected)
			}
		default:
			add(a.val.loc, "String cannot represent a non string value: %s", a.val.describe())
		}
	}
	if !seen["id"] {
		add(f.loc, "Field \"page\" argument \"id\" of type \"String!\" is required, but it was not provided.")
	}
	return errs
}

// coerceVariables checks the provided variable values against the
// operation's definitions and returns the values by name (absent = null).
func coerceVariables(op *operation, provided map[string]any) (map[string]any, []GraphQLError) {
	out := map[string]any{}
	var errs []GraphQLError
	for _, d := range op.vars {
		v, present := provided[d.name]
		fail := func(format string, args ...any) {
			errs = append(errs, GraphQLError{Message: fmt.Sprintf(format, args...), Locations: []Location{d.loc}})
		}
		switch {
		case !present && d.def != nil:
			out[d.name] = literalValue(d.def)
		case !present && d.typ.nonNull:
			fail("Variable \"$%s\" of required type %q was not provided.", d.name, d.typ.String())
		case !present:
		case v == nil && d.typ.nonNull:
			fail("Variable \"$%s\" of non-null type %q must not be null.", d.name, d.typ.String())
		default:
			if msg := coerceInput(d.typ, v); msg != "" {
				fail("Variable \"$%s\" got invalid value %s; %s", d.name, jsonText(v), msg)
				continue
			}
			out[d.name] = v
		}
	}
	return out, errs
}

// literalValue converts a constant literal to the Go value a JSON variable
// would have; only strings and null matter to this schema.
func literalValue(v *value) any {
	switch v.kind {
	case valString:
		return v.raw
	case valNull:
		return nil
	case valBool:
		return v.raw == "true"
	case valList:
		out := make([]any, len(v.list))
		for i, e := range v.list {
			out[i] = literalValue(e)
		}
		return out
	}
	return v.raw
}

// coerceInput checks a JSON variable value against an input type and
// returns a message, or "" when it fits.
func coerceInput(t *typeRef, v any) string {
	if v == nil {
		if t.nonNull {
			return fmt.Sprintf("Expected non-nullable type %q not to be null.", t.String())
		}
		return ""
	}
	if t.elem != nil {
		list, ok := v.([]any)
		if !ok {
			return coerceInput(t.elem, v)
		}
		for _, e := range list {
			if msg := coerceInput(t.elem, e); msg != "" {
				return msg
			}
		}
		return ""
	}
	num, isNum := asNumber(v)
	switch t.name {
	case "String":
		if _, ok := v.(string); !ok {
			return "String cannot represent a non string value: " + jsonText(v)
		}
	case "ID":
		if _, ok := v.(string); !ok && !(isNum && num == math.Trunc(num)) {
			return "ID cannot represent value: " + jsonText(v)
		}
	case "Int":
		if !isNum || num != math.Trunc(num) || num > math.MaxInt32 || num < math.MinInt32 {
			return "Int cannot represent non-integer value: " + jsonText(v)
		}
	case "Float":
		if !isNum {
			return "Float cannot represent non numeric value: " + jsonText(v)
		}
	case "Boolean":
		if _, ok := v.(bool); !ok {
			return "Boolean cannot represent a non boolean value: " + jsonText(v)
		}
	}
	return ""
}

func asNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// run executes a validated query operation. Page is non-null, so any field
// error nulls the whole "data".
func (x *executor) run(ctx context.Context, op *operation, vars map[string]any, defaultLocale string) Response {
	var buf bytes.Buffer
	var errs []GraphQLError
	buf.WriteByte('{')
	for i, g := range groupFields(op.sel) {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeJSONString(&buf, g.key)
		buf.WriteByte(':')
		f := g.fields[0]
		if f.name == "__typename" {
			writeJSONString(&buf, typeQuery)
			continue
		}
		pg, gerr := x.resolvePage(ctx, f, vars, defaultLocale)
		if gerr != nil {
			gerr.Path = []any{g.key}
			errs = append(errs, *gerr)
			continue
		}
		var sub []*field
		for _, f := range g.fields {
			sub = append(sub, f.sel...)
		}
		writePage(&buf, pg, groupFields(sub))
		if buf.Len() > maxAnswerBytes {
			// Stop building as soon as the bound is passed rather than
			// assemble an answer that will not be sent.
			return answerTooLarge()
		}
	}
	buf.WriteByte('}')
	if len(errs) > 0 {
		return Response{Errors: errs}
	}
	return Response{Data: buf.Bytes()}
}

func (x *executor) resolvePage(ctx context.Context, f *field, vars map[string]any, defaultLocale string) (Page, *GraphQLError) {
	var id, locale any
	for _, a := range f.args {
		var v any
		switch a.val.kind {
		case valVariable:
			v = vars[a.val.raw]
		case valString:
			v = a.val.raw
		}
		switch a.name {
		case "id":
			id = v
		case "locale":
			locale = v
		}
	}
	idStr, ok := id.(string)
	if !ok {
		return Page{}, &GraphQLError{Message: "Argument \"id\" of non-null type \"String!\" must not be null.", Locations: []Location{f.loc}}
	}
	loc, _ := locale.(string)
	if loc == "" {
		loc = defaultLocale
	}
	pg, err := x.src.Page(ctx, idStr, loc)
	if err != nil {
		msg := err.Error()
		if !errors.Is(err, ErrEmptyID) && !errors.Is(err, ErrPageNotFound) {
			// Store failures are logged here, not shown: their text is
			// internal detail.
			x.log.Error().Err(err).Str("page", idStr).Msg("content page lookup failed")
			msg = "internal error while reading page " + strconv.Quote(idStr)
		}
		return Page{}, &GraphQLError{Message: msg, Locations: []Location{f.loc}}
	}
	return pg, nil
}

func writePage(buf *bytes.Buffer, pg Page, groups []*fieldGroup) {
	buf.WriteByte('{')
	for i, g := range groups {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeJSONString(buf, g.key)
		buf.WriteByte(':')
		switch g.fields[0].name {
		case "id":
			writeJSONString(buf, pg.ID)
		case "locale":
			writeJSONString(buf, pg.Locale)
		case "translations":
			if len(pg.Translations) == 0 {
				buf.WriteString("{}")
			} else {
				buf.Write(pg.Translations)
			}
		case "__typename":
			writeJSONString(buf, typePage)
		}
	}
	buf.WriteByte('}')
}

func writeJSONString(buf *bytes.Buffer, s string) {
	b, _ := json.Marshal(s) // marshalling a string cannot fail
	buf.Write(b)
}
