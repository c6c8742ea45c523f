package httpapi

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"tenger/internal/apperr"
)

// The strict pass. encoding/json (v1) matches object keys to struct fields
// case-insensitively, lets the last of two equal keys win, and turns invalid
// UTF-8 (and lone UTF-16 surrogates in \u escapes) into U+FFFD, so
// {"amount":"1","AMOUNT":"2"} moved 2 and a name with a broken byte was
// stored altered. encoding/json/v2 refuses all of these, but only behind
// GOEXPERIMENT=jsonv2, which the build cannot require. So one pass over the
// body, before v1 decodes it, refuses:
//
//   - a key given twice in one object (at every level, inside ignored
//     values and maps too);
//   - a key that is not a field's exact name but one v1 would still match
//     (another letter case, or a Unicode fold such as "ſ" for "s");
//   - a string, key or value, that is not valid UTF-8 or holds a lone
//     surrogate escape.
//
// Unknown keys stay ignored. The pass checks no syntax of its own: when the
// body is not JSON it stands aside and v1 names the error, as before.

// maxStrictDepth is v1's nesting limit; a deeper body is left to v1, which
// refuses it.
const maxStrictDepth = 10000

// errNotJSON says the strict pass found malformed JSON and leaves the
// answer to the decoder.
var errNotJSON = errors.New("httpapi: malformed JSON")

// keyKind says what a JSON object at one place of a request maps to.
type keyKind uint8

const (
	// keysFree: any key (maps' elements, interfaces, unknown fields, types
	// that decode themselves); only duplicates are checked.
	keysFree keyKind = iota
	// keysStruct: the keys are a struct's field names.
	keysStruct
	// keysMap: any key, and each value is decoded as elem.
	keysMap
	// keysOpaque: a value kept as sent and checked later on its own
	// (strictOpaque); the pass only finds its end.
	keysOpaque
)

// strictOpaque is implemented by types that keep a JSON value as sent for
// a strict decoding of its own later (one entry of /order/batch): the pass
// over the whole body skips them, so what is wrong inside one entry is
// that entry's answer, not the whole request's.
type strictOpaque interface{ strictOpaque() }

var strictOpaqueType = reflect.TypeFor[strictOpaque]()

// keySchema is what the strict pass knows of a destination type: for a
// struct its field names, exact and folded, and what each field's value
// decodes into; for maps, slices and arrays their element's schema. A nil
// schema checks no names.
type keySchema struct {
	kind   keyKind
	fields map[string]*keySchema
	// folded maps a field name folded as v1 folds keys to the exact name.
	folded map[string]string
	// elem is the schema of a map's values or a slice's or array's elements.
	elem *keySchema
}

var schemaCache sync.Map // reflect.Type → *keySchema

// schemaFor returns the (cached) schema of values decoded into t.
func schemaFor(t reflect.Type) *keySchema {
	if s, ok := schemaCache.Load(t); ok {
		return s.(*keySchema)
	}
	s := buildSchema(t, map[reflect.Type]*keySchema{})
	actual, _ := schemaCache.LoadOrStore(t, s)
	return actual.(*keySchema)
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func buildSchema(t reflect.Type, building map[reflect.Type]*keySchema) *keySchema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(strictOpaqueType) {
		return &keySchema{kind: keysOpaque}
	}
	// A type that decodes itself sees the raw value: its keys are its own
	// business (FlexString, FlexInt and decimals take scalars anyway).
	if reflect.PointerTo(t).Implements(jsonUnmarshalerType) || reflect.PointerTo(t).Implements(textUnmarshalerType) {
		return nil
	}
	if s, ok := building[t]; ok {
		return s // a recursive type: the schema being built
	}
	switch t.Kind() {
	case reflect.Struct:
		s := &keySchema{kind: keysStruct, fields: map[string]*keySchema{}, folded: map[string]string{}}
		building[t] = s
		for _, f := range jsonFields(t) {
			s.fields[f.name] = buildSchema(f.typ, building)
			fold := string(foldKey(nil, []byte(f.name)))
			if _, taken := s.folded[fold]; !taken {
				s.folded[fold] = f.name
			}
		}
		delete(building, t)
		return s
	case reflect.Map:
		return &keySchema{kind: keysMap, elem: buildSchema(t.Elem(), building)}
	case reflect.Slice, reflect.Array:
		if e := buildSchema(t.Elem(), building); e != nil {
			return &keySchema{kind: keysFree, elem: e}
		}
	}
	return nil
}

// jsonField is a key v1 decodes into a struct field.
type jsonField struct {
	name   string
	typ    reflect.Type
	depth  int
	tagged bool
}

// jsonFields lists the keys v1 matches for struct t, with its rules:
// exported fields by their json tag's name or Go name, "-" skipped,
// untagged embedded structs promoted, and of fields with the same name the
// shallowest (then the only tagged one) kept, none when still ambiguous.
func jsonFields(t reflect.Type) []jsonField {
	var all []jsonField
	var walk func(t reflect.Type, depth int, seen map[reflect.Type]bool)
	walk = func(t reflect.Type, depth int, seen map[reflect.Type]bool) {
		if seen[t] {
			return
		}
		seen[t] = true
		defer delete(seen, t)
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if f.Anonymous {
				if !f.IsExported() && ft.Kind() != reflect.Struct {
					continue
				}
			} else if !f.IsExported() {
				continue
			}
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if name == "" && f.Anonymous && ft.Kind() == reflect.Struct {
				walk(ft, depth+1, seen)
				continue
			}
			tagged := name != ""
			if !tagged {
				name = f.Name
			}
			all = append(all, jsonField{name: name, typ: f.Type, depth: depth, tagged: tagged})
		}
	}
	walk(t, 0, map[reflect.Type]bool{})
	byName := map[string][]jsonField{}
	var order []string
	for _, f := range all {
		if _, ok := byName[f.name]; !ok {
			order = append(order, f.name)
		}
		byName[f.name] = append(byName[f.name], f)
	}
	var out []jsonField
	for _, name := range order {
		fs := byName[name]
		best, n := fs[0], 0
		for _, f := range fs {
			if f.depth < best.depth {
				best = f
			}
		}
		var top []jsonField
		for _, f := range fs {
			if f.depth == best.depth {
				top = append(top, f)
			}
		}
		if len(top) == 1 {
			out = append(out, top[0])
			continue
		}
		for _, f := range top {
			if f.tagged {
				best, n = f, n+1
			}
		}
		if n == 1 {
			out = append(out, best)
		}
	}
	return out
}

// foldKey appends to out the key folded as v1 folds keys to match field
// names (encoding/json's foldName: ASCII upper case, other runes to the
// smallest rune of their Unicode fold set), so a key and a field name
// that v1 matches fold to the same bytes.
func foldKey(out, in []byte) []byte {
	for i := 0; i < len(in); {
		if c := in[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(in[i:])
		for {
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		out = utf8.AppendRune(out, r)
		i += n
	}
	return out
}

// pathElem is one step of the path to a refused value: an object key, or
// an array index when key is nil.
type pathElem struct {
	key   []byte
	index int
}

// strictError is a refusal on its way out of the scan: each object and
// array it leaves adds its step to path (innermost first), so the scan
// keeps no path of its own and costs nothing for it on a good body.
type strictError struct {
	path []pathElem
	why  string
}

func (e *strictError) Error() string { return e.why }

// at adds the step the error leaves through.
func (e *strictError) at(p pathElem) *strictError {
	e.path = append(e.path, p)
	return e
}

// strictScanner walks a JSON body once.
type strictScanner struct {
	b     []byte
	i     int
	depth int
}

// checkStrict runs the strict pass over body for a destination of type t
// (a pointer to the request struct). It answers a 410 naming the field, or
// nil: also when the body is not JSON, which the decoder then reports.
func checkStrict(body []byte, t reflect.Type) error {
	sc := strictScanner{b: body}
	sc.space()
	err := sc.value(schemaFor(t))
	if se, ok := err.(*strictError); ok {
		return se.answer()
	}
	return nil
}

func (sc *strictScanner) space() {
	for sc.i < len(sc.b) {
		switch sc.b[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

func (sc *strictScanner) value(s *keySchema) error {
	if sc.i >= len(sc.b) {
		return errNotJSON
	}
	if s != nil && s.kind == keysOpaque {
		return sc.skip()
	}
	switch c := sc.b[sc.i]; {
	case c == '{':
		return sc.object(s)
	case c == '[':
		return sc.array(s)
	case c == '"':
		_, _, _, err := sc.str()
		if err == errBadText {
			return &strictError{why: "must be valid UTF-8 text"}
		}
		return err
	case c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z':
		// Numbers and literals: their syntax is the decoder's to check.
		for sc.i < len(sc.b) {
			c := sc.b[sc.i]
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c == '-' || c == '+' || c == '.' || c == 'E') {
				break
			}
			sc.i++
		}
		return nil
	}
	return errNotJSON
}

func (sc *strictScanner) object(s *keySchema) error {
	if sc.depth++; sc.depth > maxStrictDepth {
		return errNotJSON
	}
	sc.i++ // '{'
	sc.space()
	if sc.i < len(sc.b) && sc.b[sc.i] == '}' {
		sc.i++
		sc.depth--
		return nil
	}
	// Keys seen so far: a linear search while few (no allocation for the
	// usual request), a set beyond that so a body of thousands of keys
	// costs no more than linear time.
	var few [16][]byte
	seen := few[:0]
	var many map[string]struct{}
	for {
		if sc.i >= len(sc.b) || sc.b[sc.i] != '"' {
			return errNotJSON
		}
		start, end, escaped, err := sc.str()
		if err == errBadText {
			return &strictError{why: "a field name is not valid UTF-8 text"}
		}
		if err != nil {
			return err
		}
		key := sc.b[start:end]
		if escaped {
			var k string
			if json.Unmarshal(sc.b[start-1:end+1], &k) != nil {
				return errNotJSON
			}
			key = []byte(k)
		}
		step := pathElem{key: key, index: -1}
		if many != nil {
			if _, dup := many[string(key)]; dup {
				return (&strictError{why: "duplicate key"}).at(step)
			}
			many[string(key)] = struct{}{}
		} else {
			for _, k := range seen {
				if bytes.Equal(k, key) {
					return (&strictError{why: "duplicate key"}).at(step)
				}
			}
			if len(seen) < len(few) {
				seen = append(seen, key)
			} else {
				many = make(map[string]struct{}, 2*len(few))
				for _, k := range seen {
					many[string(k)] = struct{}{}
				}
				many[string(key)] = struct{}{}
			}
		}
		var child *keySchema
		if s != nil {
			switch s.kind {
			case keysMap:
				child = s.elem
			case keysStruct:
				if c, ok := s.fields[string(key)]; ok {
					child = c
				} else {
					var fb [64]byte
					if name, ok := s.folded[string(foldKey(fb[:0], key))]; ok {
						return (&strictError{why: "unknown field: names are case-sensitive, did you mean " + strconv.Quote(name) + "?"}).at(step)
					}
				}
			}
		}
		sc.space()
		if sc.i >= len(sc.b) || sc.b[sc.i] != ':' {
			return errNotJSON
		}
		sc.i++
		sc.space()
		if err := sc.value(child); err != nil {
			if se, ok := err.(*strictError); ok {
				se.at(step)
			}
			return err
		}
		sc.space()
		if sc.i >= len(sc.b) {
			return errNotJSON
		}
		switch sc.b[sc.i] {
		case ',':
			sc.i++
			sc.space()
		case '}':
			sc.i++
			sc.depth--
			return nil
		default:
			return errNotJSON
		}
	}
}

func (sc *strictScanner) array(s *keySchema) error {
	if sc.depth++; sc.depth > maxStrictDepth {
		return errNotJSON
	}
	sc.i++ // '['
	sc.space()
	if sc.i < len(sc.b) && sc.b[sc.i] == ']' {
		sc.i++
		sc.depth--
		return nil
	}
	var elem *keySchema
	if s != nil {
		elem = s.elem
	}
	for n := 0; ; n++ {
		if err := sc.value(elem); err != nil {
			if se, ok := err.(*strictError); ok {
				se.at(pathElem{index: n})
			}
			return err
		}
		sc.space()
		if sc.i >= len(sc.b) {
			return errNotJSON
		}
		switch sc.b[sc.i] {
		case ',':
			sc.i++
			sc.space()
		case ']':
			sc.i++
			sc.depth--
			return nil
		default:
			return errNotJSON
		}
	}
}

// skip moves past the value at sc.i without checking it (an opaque
// value): strings are skipped whole, brackets counted. Its syntax is the
// decoder's to check; a body that ends inside it is errNotJSON.
func (sc *strictScanner) skip() error {
	depth := 0
	for sc.i < len(sc.b) {
		switch c := sc.b[sc.i]; c {
		case '"':
			for sc.i++; ; sc.i++ {
				if sc.i >= len(sc.b) {
					return errNotJSON
				}
				if sc.b[sc.i] == '\\' {
					sc.i++
					continue
				}
				if sc.b[sc.i] == '"' {
					sc.i++
					break
				}
			}
		case '{', '[':
			depth++
			sc.i++
			continue
		case '}', ']':
			if depth == 0 {
				return errNotJSON
			}
			depth--
			sc.i++
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return errNotJSON
			}
			sc.i++
			continue
		default:
			// A number or literal: at the top it ends at the first
			// delimiter; inside brackets it is skipped byte by byte.
			if depth > 0 {
				sc.i++
				continue
			}
			for sc.i < len(sc.b) && strings.IndexByte(",:]} \t\n\r", sc.b[sc.i]) < 0 {
				sc.i++
			}
			return nil
		}
		if depth == 0 {
			return nil
		}
	}
	return errNotJSON
}

// errBadText marks a string that is not valid UTF-8 text.
var errBadText = errors.New("httpapi: invalid UTF-8")

// str scans the string at sc.i, returning the bounds of its contents and
// whether it holds escapes. Bytes that are not UTF-8 and \u escapes of
// lone surrogates are errBadText; v1 would store them as U+FFFD.
func (sc *strictScanner) str() (start, end int, escaped bool, err error) {
	b := sc.b
	i := sc.i + 1
	start = i
	for i < len(b) {
		c := b[i]
		if plainByte[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			sc.i = i + 1
			return start, i, escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(b) {
				return 0, 0, false, errNotJSON
			}
			if b[i+1] != 'u' {
				i += 2
				continue
			}
			r, ok := hex4(b, i+2)
			if !ok {
				return 0, 0, false, errNotJSON
			}
			i += 6
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return 0, 0, false, errBadText // a low surrogate alone
			case r >= 0xD800 && r <= 0xDBFF:
				// A high surrogate must be followed by an escaped low one.
				if i+1 >= len(b) || b[i] != '\\' || b[i+1] != 'u' {
					return 0, 0, false, errBadText
				}
				lo, ok := hex4(b, i+2)
				if !ok {
					return 0, 0, false, errNotJSON
				}
				if lo < 0xDC00 || lo > 0xDFFF {
					return 0, 0, false, errBadText
				}
				i += 6
			}
		case c < 0x20:
			return 0, 0, false, errNotJSON
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				return 0, 0, false, errBadText
			}
			i += n
		}
	}
	return 0, 0, false, errNotJSON
}

// plainByte marks the bytes a string scan steps over without a second
// look: ASCII other than control characters, '"' and '\\'.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// hex4 reads the four hex digits of a \u escape at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// answer is the 410 naming the refused value's path: "amount: duplicate
// key", "list[2].name: must be valid UTF-8 text". Names are cut short so a
// huge key cannot make a huge answer.
func (e *strictError) answer() error {
	var p strings.Builder
	for i := len(e.path) - 1; i >= 0; i-- {
		step := e.path[i]
		if step.index >= 0 {
			p.WriteString("[" + strconv.Itoa(step.index) + "]")
			continue
		}
		if p.Len() > 0 {
			p.WriteByte('.')
		}
		k := step.key
		if len(k) > 64 {
			k = append(bytes.ToValidUTF8(k[:64], nil), "…"...)
		}
		p.Write(bytes.ToValidUTF8(k, []byte("\uFFFD")))
	}
	if p.Len() == 0 {
		p.WriteString("body")
	}
	return apperr.Param(p.String() + ": " + e.why)
}
