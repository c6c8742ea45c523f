package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"tenger/internal/apperr"
)

// decodeBody reads a JSON object body of at most max bytes into dst. An empty
// body counts as {}. Every failure is a catalogue error: oversized bodies
// CodeBodyTooLarge, anything malformed or mistyped 410 with the field named.
// Keys must be the fields' exact names and appear once per object, and text
// must be valid UTF-8 (checkStrict); unknown keys are ignored.
func decodeBody(w http.ResponseWriter, hr *http.Request, max int64, dst any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, hr.Body, max))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return apperr.New(apperr.CodeBodyTooLarge, max)
		}
		return apperr.Param("unreadable body")
	}
	return decodeJSON(body, dst)
}

// decodeJSON decodes a request given whole (a body, a WebSocket request's
// params, one entry of a batch) into dst, by the rules of decodeBody.
func decodeJSON(body []byte, dst any) error {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		body = []byte("{}")
	}
	if body[0] != '{' {
		return apperr.Param("body must be a JSON object")
	}
	if err := checkStrict(body, reflect.TypeOf(dst)); err != nil {
		return err
	}
	// The common case, a well-formed body, in one pass; a failure is
	// decoded again below only to name what is wrong.
	if json.Unmarshal(body, dst) == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return apperr.Param("malformed JSON: data after the object")
	}
	return nil
}

func decodeError(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var ae *apperr.Error
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &se):
		return apperr.Param(fmt.Sprintf("malformed JSON at byte %d", se.Offset))
	case errors.As(err, &te):
		field := jsonPath(te.Field)
		if field == "" {
			field = "body"
		}
		return apperr.Param(fmt.Sprintf("%s: must be %s", field, jsonKind(te.Type)))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return apperr.Param("malformed JSON: unexpected end")
	}
	return apperr.Param("malformed JSON")
}

// jsonPath is the path of a mistyped field as the caller wrote it: the
// decoder names fields of embedded request structs after their Go type
// ("WalletTransferBase.amount"), which means nothing to a client. The API's
// field names all start lower case.
func jsonPath(field string) string {
	parts := strings.Split(field, ".")
	kept := parts[:0]
	for _, p := range parts {
		if p != "" && !unicode.IsUpper(rune(p[0])) {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ".")
}

func jsonKind(t reflect.Type) string {
	if t == nil {
		return "a valid value"
	}
	switch t {
	case reflect.TypeFor[FlexInt]():
		return "an integer"
	case reflect.TypeFor[FlexString]():
		return "a string or a number"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a valid value"
}

// decodeRequest decodes and validates a request given whole, exactly as
// Handle does a body: the WebSocket methods and the entries of a batch
// answer the same input with the same code and message as the REST route.
func decodeRequest(body []byte, dst any) error {
	if err := decodeJSON(body, dst); err != nil {
		return err
	}
	return validate(dst)
}

// validate enforces `v:"required"` tags (non-blank strings, non-nil
// pointers, non-empty slices) and then the type's own Validate method.
func validate(req any) error {
	if err := checkRequired(reflect.ValueOf(req).Elem()); err != nil {
		return err
	}
	if v, ok := req.(Validator); ok {
		if err := v.Validate(); err != nil {
			var ae *apperr.Error
			if errors.As(err, &ae) {
				return ae
			}
			return apperr.Param(err.Error())
		}
	}
	return nil
}

func checkRequired(v reflect.Value) error {
	if v.Kind() != reflect.Struct {
		return nil
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		fv := v.Field(i)
		if f.Anonymous && fv.Kind() == reflect.Struct {
			if err := checkRequired(fv); err != nil {
				return err
			}
			continue
		}
		if !strings.Contains(f.Tag.Get("v"), "required") {
			continue
		}
		name := jsonName(f)
		empty := false
		switch fv.Kind() {
		case reflect.String:
			empty = strings.TrimSpace(fv.String()) == ""
		case reflect.Pointer, reflect.Interface:
			empty = fv.IsNil()
		case reflect.Slice, reflect.Map:
			empty = fv.Len() == 0
		case reflect.Struct:
			if fi, ok := fv.Interface().(FlexInt); ok {
				empty = !fi.Set
			}
		}
		if empty {
			return apperr.Param(name + ": required")
		}
	}
	return nil
}

func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	if tag == "" {
		return f.Name
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		return f.Name
	}
	return name
}

// FlexString accepts a JSON string or number (clients send codes, phone
// numbers and amounts both ways) and holds it as a string. A number is kept
// as the exact text the client sent, never read through a float, so both
// forms of one value reach the field's own rule as the same text and get the
// same answer: a 400-digit amount is "too long" (13509) as a number as it is
// as a string, where reading it as a float64 made it a type error (410).
type FlexString string

// UnmarshalJSON implements json.Unmarshaler.
func (s *FlexString) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*s = ""
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return err
		}
		*s = FlexString(str)
		return nil
	}
	// The decoder hands over only valid JSON values: one starting with a
	// digit or '-' is a number.
	if len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')) {
		*s = FlexString(b)
		return nil
	}
	return &json.UnmarshalTypeError{Value: string(b), Type: reflect.TypeFor[FlexString]()}
}

// String returns the trimmed value.
func (s FlexString) String() string { return strings.TrimSpace(string(s)) }

// FlexInt accepts a JSON integer or a string holding one (the spec sends
// operationType both as 6 and as "17"). Both forms follow one rule, the
// documented pattern ^-?[0-9]+$ within int64: no '+', spaces, fraction or
// exponent, and anything else is 410 "<field>: must be an integer".
type FlexInt struct {
	V   int64
	Set bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (n *FlexInt) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = FlexInt{}
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	v, ok := parseInteger(s)
	if !ok {
		return &json.UnmarshalTypeError{Value: string(b), Type: reflect.TypeFor[FlexInt]()}
	}
	*n = FlexInt{V: v, Set: true}
	return nil
}

// parseInteger reads s when it matches ^-?[0-9]+$ and fits in an int64.
// strconv.ParseInt alone would also take a leading '+'.
func parseInteger(s string) (int64, bool) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}

// MarshalJSON implements json.Marshaler.
func (n FlexInt) MarshalJSON() ([]byte, error) {
	if !n.Set {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, n.V, 10), nil
}

// Empty is the request or response type of routes without fields.
type Empty struct{}

// maxPage bounds every list's page number, so offsets never overflow.
const maxPage = 100000

// checkPaging is the paging rule of every list: page 1 to maxPage and
// pageSize 1 to maxSize when given.
func checkPaging(page, size FlexInt, maxSize int) error {
	if page.Set && (page.V < 1 || page.V > maxPage) {
		return apperr.Param(fmt.Sprintf("page: 1 to %d", maxPage))
	}
	if size.Set && (size.V < 1 || size.V > int64(maxSize)) {
		return apperr.Param(fmt.Sprintf("pageSize: 1 to %d", maxSize))
	}
	return nil
}
