package content

import (
	"fmt"
	"strings"
)

// document is a parsed GraphQL executable document.
type document struct {
	ops []*operation
}

// operation is one operation definition.
type operation struct {
	kind string // "query", "mutation" or "subscription"
	name string
	vars []*varDef
	sel  []*field
	loc  Location
}

// varDef is a variable definition such as "$id: String! = "home"".
type varDef struct {
	name string
	typ  *typeRef
	def  *value // nil when there is no default
	loc  Location
}

// typeRef is a type reference: a named type, or a list of one, possibly
// non-null.
type typeRef struct {
	name    string   // named type; "" for a list
	elem    *typeRef // list element type
	nonNull bool
}

func (t *typeRef) String() string {
	s := t.name
	if t.elem != nil {
		s = "[" + t.elem.String() + "]"
	}
	if t.nonNull {
		s += "!"
	}
	return s
}

// field is one field selection.
type field struct {
	alias  string // "" when none
	name   string
	args   []*argument
	sel    []*field
	hasSel bool // a selection set was written (it is never empty)
	loc    Location
}

// responseKey is the key the field's result appears under.
func (f *field) responseKey() string {
	if f.alias != "" {
		return f.alias
	}
	return f.name
}

// argument is one "name: value" argument.
type argument struct {
	name string
	val  *value
	loc  Location
}

// valueKind says which kind of literal a value is.
type valueKind int

const (
	valVariable valueKind = iota + 1
	valInt
	valFloat
	valString
	valBool
	valNull
	valEnum
	valList
	valObject
)

// value is an input value literal. raw holds the variable name, the number
// or enum text, or the decoded string.
type value struct {
	kind   valueKind
	raw    string
	list   []*value
	fields []*objectField
	loc    Location
}

// objectField is one "name: value" entry of an input object literal.
type objectField struct {
	name string
	val  *value
}

// describe renders the value in GraphQL syntax for error messages.
func (v *value) describe() string {
	switch v.kind {
	case valVariable:
		return "$" + v.raw
	case valString:
		return fmt.Sprintf("%q", v.raw)
	case valNull:
		return "null"
	case valList:
		parts := make([]string, len(v.list))
		for i, e := range v.list {
			parts[i] = e.describe()
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case valObject:
		parts := make([]string, len(v.fields))
		for i, f := range v.fields {
			parts[i] = f.name + ": " + f.val.describe()
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return v.raw
}

// parser is a recursive-descent parser for the executable subset of GraphQL
// this service needs: operations with variable definitions, fields with
// aliases, arguments and selection sets, and every kind of input literal.
// Fragments and directives are recognised and rejected with a clear message.
type parser struct {
	lex    *lexer
	tok    token
	tokens int
	depth  int
}

// parseQuery parses a GraphQL document. Errors are *SyntaxError.
func parseQuery(src string) (*document, error) {
	p := &parser{lex: newLexer(src)}
	if err := p.advance(); err != nil {
		return nil, err
	}
	doc := &document{}
	for p.tok.kind != tokEOF {
		op, err := p.definition()
		if err != nil {
			return nil, err
		}
		doc.ops = append(doc.ops, op)
	}
	if len(doc.ops) == 0 {
		return nil, p.errHere("Unexpected <EOF>.")
	}
	return doc, nil
}

func (p *parser) advance() error {
	p.tokens++
	if p.tokens > maxTokens {
		return p.errHere("Document contains more than %d tokens.", maxTokens)
	}
	t, err := p.lex.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

func (p *parser) errHere(format string, args ...any) *SyntaxError {
	return &SyntaxError{Message: fmt.Sprintf(format, args...), Loc: p.tok.pos}
}

func (p *parser) unexpected() *SyntaxError {
	return p.errHere("Unexpected %s.", p.tok.describe())
}

func (p *parser) isPunct(s string) bool { return p.tok.kind == tokPunct && p.tok.value == s }

// expectPunct consumes the punctuator s.
func (p *parser) expectPunct(s string) error {
	if !p.isPunct(s) {
		return p.errHere("Expected %q, found %s.", s, p.tok.describe())
	}
	return p.advance()
}

// expectName consumes a name and returns it.
func (p *parser) expectName() (string, error) {
	if p.tok.kind != tokName {
		return "", p.errHere("Expected Name, found %s.", p.tok.describe())
	}
	name := p.tok.value
	return name, p.advance()
}

// enter and leave bound recursion depth.
func (p *parser) enter() error {
	p.depth++
	if p.depth > maxNesting {
		return p.errHere("Document is nested more than %d levels deep.", maxNesting)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

func (p *parser) definition() (*operation, error) {
	loc := p.tok.pos
	if p.isPunct("{") {
		sel, err := p.selectionSet()
		if err != nil {
			return nil, err
		}
		return &operation{kind: "query", sel: sel, loc: loc}, nil
	}
	if p.tok.kind == tokName {
		switch p.tok.value {
		case "query", "mutation", "subscription":
			return p.operationDefinition()
		case "fragment":
			return nil, p.errHere("Fragments are not supported by this service.")
		}
	}
	if p.tok.kind == tokString || p.tok.kind == tokBlockString {
		return nil, p.errHere("Unexpected description: only executable definitions are allowed.")
	}
	return nil, p.unexpected()
}

func (p *parser) operationDefinition() (*operation, error) {
	op := &operation{kind: p.tok.value, loc: p.tok.pos}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.tok.kind == tokName {
		op.name = p.tok.value
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	if p.isPunct("(") {
		vars, err := p.variableDefinitions()
		if err != nil {
			return nil, err
		}
		op.vars = vars
	}
	if err := p.rejectDirectives(); err != nil {
		return nil, err
	}
	sel, err := p.selectionSet()
	if err != nil {
		return nil, err
	}
	op.sel = sel
	return op, nil
}

func (p *parser) rejectDirectives() error {
	if p.isPunct("@") {
		return p.errHere("Directives are not supported by this service.")
	}
	return nil
}

func (p *parser) variableDefinitions() ([]*varDef, error) {
	if err := p.expectPunct("("); err != nil {
		return nil, err
	}
	var defs []*varDef
	for {
		d := &varDef{loc: p.tok.pos}
		if err := p.expectPunct("$"); err != nil {
			return nil, err
		}
		name, err := p.expectName()
		if err != nil {
			return nil, err
		}
		d.name = name
		if err := p.expectPunct(":"); err != nil {
			return nil, err
		}
		if d.typ, err = p.typeReference(); err != nil {
			return nil, err
		}
		if p.isPunct("=") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			if d.def, err = p.value(true); err != nil {
				return nil, err
			}
		}
		if err := p.rejectDirectives(); err != nil {
			return nil, err
		}
		defs = append(defs, d)
		if p.isPunct(")") {
			return defs, p.advance()
		}
	}
}

func (p *parser) typeReference() (*typeRef, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := &typeRef{}
	if p.isPunct("[") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		elem, err := p.typeReference()
		if err != nil {
			return nil, err
		}
		t.elem = elem
		if err := p.expectPunct("]"); err != nil {
			return nil, err
		}
	} else {
		name, err := p.expectName()
		if err != nil {
			return nil, err
		}
		t.name = name
	}
	if p.isPunct("!") {
		t.nonNull = true
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (p *parser) selectionSet() ([]*field, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	if err := p.expectPunct("{"); err != nil {
		return nil, err
	}
	var fields []*field
	for {
		if p.isPunct("...") {
			return nil, p.errHere("Fragments are not supported by this service.")
		}
		f, err := p.field()
		if err != nil {
			return nil, err
		}
		fields = append(fields, f)
		if p.isPunct("}") {
			return fields, p.advance()
		}
	}
}

func (p *parser) field() (*field, error) {
	f := &field{loc: p.tok.pos}
	name, err := p.expectName()
	if err != nil {
		return nil, err
	}
	if p.isPunct(":") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		f.alias = name
		if name, err = p.expectName(); err != nil {
			return nil, err
		}
	}
	f.name = name
	if p.isPunct("(") {
		if f.args, err = p.arguments(); err != nil {
			return nil, err
		}
	}
	if err := p.rejectDirectives(); err != nil {
		return nil, err
	}
	if p.isPunct("{") {
		f.hasSel = true
		if f.sel, err = p.selectionSet(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func (p *parser) arguments() ([]*argument, error) {
	if err := p.expectPunct("("); err != nil {
		return nil, err
	}
	var args []*argument
	for {
		a := &argument{loc: p.tok.pos}
		name, err := p.expectName()
		if err != nil {
			return nil, err
		}
		a.name = name
		if err := p.expectPunct(":"); err != nil {
			return nil, err
		}
		if a.val, err = p.value(false); err != nil {
			return nil, err
		}
		args = append(args, a)
		if p.isPunct(")") {
			return args, p.advance()
		}
	}
}

// value parses an input value; constant values (variable defaults) must not
// contain variables.
func (p *parser) value(constant bool) (*value, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	v := &value{loc: p.tok.pos, raw: p.tok.value}
	switch p.tok.kind {
	case tokInt:
		v.kind = valInt
	case tokFloat:
		v.kind = valFloat
	case tokString, tokBlockString:
		v.kind = valString
	case tokName:
		switch p.tok.value {
		case "true", "false":
			v.kind = valBool
		case "null":
			v.kind = valNull
		default:
			v.kind = valEnum
		}
	case tokPunct:
		switch p.tok.value {
		case "$":
			if constant {
				return nil, p.errHere("Unexpected variable in a constant value.")
			}
			if err := p.advance(); err != nil {
				return nil, err
			}
			name, err := p.expectName()
			if err != nil {
				return nil, err
			}
			v.kind, v.raw = valVariable, name
			return v, nil
		case "[":
			return p.listValue(v, constant)
		case "{":
			return p.objectValue(v, constant)
		}
		return nil, p.unexpected()
	default:
		return nil, p.unexpected()
	}
	return v, p.advance()
}

func (p *parser) listValue(v *value, constant bool) (*value, error) {
	v.kind, v.raw = valList, ""
	if err := p.advance(); err != nil {
		return nil, err
	}
	for !p.isPunct("]") {
		if p.tok.kind == tokEOF {
			return nil, p.errHere("Expected \"]\", found <EOF>.")
		}
		e, err := p.value(constant)
		if err != nil {
			return nil, err
		}
		v.list = append(v.list, e)
	}
	return v, p.advance()
}

func (p *parser) objectValue(v *value, constant bool) (*value, error) {
	v.kind, v.raw = valObject, ""
	if err := p.advance(); err != nil {
		return nil, err
	}
	for !p.isPunct("}") {
		name, err := p.expectName()
		if err != nil {
			return nil, err
		}
		if err := p.expectPunct(":"); err != nil {
			return nil, err
		}
		e, err := p.value(constant)
		if err != nil {
			return nil, err
		}
		v.fields = append(v.fields, &objectField{name: name, val: e})
	}
	return v, p.advance()
}
