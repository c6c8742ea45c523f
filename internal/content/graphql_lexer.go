package content

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokenKind classifies a lexical token of a GraphQL document.
type tokenKind int

const (
	tokEOF tokenKind = iota
	tokPunct
	tokName
	tokInt
	tokFloat
	tokString
	tokBlockString
)

// token is one lexical token. For strings, value holds the decoded text; for
// punctuators, names and numbers it holds the source text.
type token struct {
	kind  tokenKind
	value string
	pos   Location
}

// describe renders a token as graphql-js does in "found ..." messages.
func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "<EOF>"
	case tokPunct:
		return strconv.Quote(t.value)
	case tokName:
		return "Name " + strconv.Quote(t.value)
	case tokInt:
		return "Int " + strconv.Quote(t.value)
	case tokFloat:
		return "Float " + strconv.Quote(t.value)
	case tokString:
		return "String " + strconv.Quote(t.value)
	case tokBlockString:
		return "BlockString " + strconv.Quote(t.value)
	}
	return "token"
}

// Location is a 1-based line and column in the query text (columns count
// characters, not bytes).
type Location struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// SyntaxError is a lexing or parsing error with its position.
type SyntaxError struct {
	Message string
	Loc     Location
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("Syntax Error: %s (line %d, column %d)", e.Message, e.Loc.Line, e.Loc.Column)
}

// lexer turns GraphQL source text into tokens, following the lexical grammar
// of the GraphQL specification (October 2021): commas, white space, line
// terminators, comments and the byte order mark are ignored.
type lexer struct {
	src       string
	off       int // byte offset of the next unread character
	line      int
	lineStart int // byte offset where the current line starts
}

func newLexer(src string) *lexer { return &lexer{src: src, line: 1} }

// loc returns the location of the byte offset off, which must lie on the
// current line.
func (l *lexer) loc(off int) Location {
	return Location{Line: l.line, Column: utf8.RuneCountInString(l.src[l.lineStart:off]) + 1}
}

func (l *lexer) errAt(off int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Message: fmt.Sprintf(format, args...), Loc: l.loc(off)}
}

// newline records a line terminator ending at byte offset end.
func (l *lexer) newline(end int) {
	l.line++
	l.lineStart = end
}

// next returns the next token.
func (l *lexer) next() (token, error) {
	if err := l.skipIgnored(); err != nil {
		return token{}, err
	}
	if l.off >= len(l.src) {
		return token{kind: tokEOF, pos: l.loc(l.off)}, nil
	}
	start := l.off
	c := l.src[l.off]
	switch {
	case strings.IndexByte("!$&():=@[]{}|", c) >= 0:
		l.off++
		return token{kind: tokPunct, value: string(c), pos: l.loc(start)}, nil
	case c == '.':
		if strings.HasPrefix(l.src[l.off:], "...") {
			l.off += 3
			return token{kind: tokPunct, value: "...", pos: l.loc(start)}, nil
		}
		return token{}, l.errAt(start, "Unexpected character: %q.", ".")
	case isNameStart(c):
		l.off++
		for l.off < len(l.src) && isNameContinue(l.src[l.off]) {
			l.off++
		}
		return token{kind: tokName, value: l.src[start:l.off], pos: l.loc(start)}, nil
	case c == '-' || isDigit(c):
		return l.number()
	case c == '"':
		if strings.HasPrefix(l.src[l.off:], `"""`) {
			return l.blockString()
		}
		return l.string()
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.off:])
	if r == utf8.RuneError {
		return token{}, l.errAt(start, "Invalid UTF-8 in the query text.")
	}
	return token{}, l.errAt(start, "Unexpected character: %q.", string(r))
}

func (l *lexer) skipIgnored() error {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == ',':
			l.off++
		case c == '\n':
			l.off++
			l.newline(l.off)
		case c == '\r':
			l.off++
			if l.off < len(l.src) && l.src[l.off] == '\n' {
				l.off++
			}
			l.newline(l.off)
		case c == '#':
			for l.off < len(l.src) && l.src[l.off] != '\n' && l.src[l.off] != '\r' {
				l.off++
			}
		case strings.HasPrefix(l.src[l.off:], "\uFEFF"):
			l.off += len("\uFEFF")
		default:
			return nil
		}
	}
	return nil
}

func isNameStart(c byte) bool {
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
}

func isNameContinue(c byte) bool { return isNameStart(c) || isDigit(c) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number lexes IntValue and FloatValue.
func (l *lexer) number() (token, error) {
	start := l.off
	isFloat := false
	if l.src[l.off] == '-' {
		l.off++
	}
	if l.off < len(l.src) && l.src[l.off] == '0' {
		l.off++
		if l.off < len(l.src) && isDigit(l.src[l.off]) {
			return token{}, l.errAt(l.off, "Invalid number, unexpected digit after 0: %q.", string(l.src[l.off]))
		}
	} else if err := l.digits(); err != nil {
		return token{}, err
	}
	if l.off < len(l.src) && l.src[l.off] == '.' {
		isFloat = true
		l.off++
		if err := l.digits(); err != nil {
			return token{}, err
		}
	}
	if l.off < len(l.src) && (l.src[l.off] == 'e' || l.src[l.off] == 'E') {
		isFloat = true
		l.off++
		if l.off < len(l.src) && (l.src[l.off] == '+' || l.src[l.off] == '-') {
			l.off++
		}
		if err := l.digits(); err != nil {
			return token{}, err
		}
	}
	// A number must not run straight into a name or a dot ("1.2.3", "12abc").
	if l.off < len(l.src) && (l.src[l.off] == '.' || isNameStart(l.src[l.off])) {
		return token{}, l.errAt(l.off, "Invalid number, expected digit but got: %q.", string(l.src[l.off]))
	}
	kind := tokInt
	if isFloat {
		kind = tokFloat
	}
	return token{kind: kind, value: l.src[start:l.off], pos: l.loc(start)}, nil
}

func (l *lexer) digits() error {
	if l.off >= len(l.src) {
		return l.errAt(l.off, "Invalid number, expected digit but got: <EOF>.")
	}
	if !isDigit(l.src[l.off]) {
		r, _ := utf8.DecodeRuneInString(l.src[l.off:])
		return l.errAt(l.off, "Invalid number, expected digit but got: %q.", string(r))
	}
	for l.off < len(l.src) && isDigit(l.src[l.off]) {
		l.off++
	}
	return nil
}

// string lexes a quoted string with escapes.
func (l *lexer) string() (token, error) {
	start := l.off
	l.off++ // opening quote
	var b strings.Builder
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == '"':
			l.off++
			return token{kind: tokString, value: b.String(), pos: l.loc(start)}, nil
		case c == '\n' || c == '\r':
			return token{}, l.errAt(start, "Unterminated string.")
		case c == '\\':
			if err := l.escape(&b); err != nil {
				return token{}, err
			}
		case c < 0x20 && c != '\t':
			return token{}, l.errAt(l.off, "Invalid character within String: %q.", string(c))
		default:
			r, size := utf8.DecodeRuneInString(l.src[l.off:])
			if r == utf8.RuneError && size <= 1 {
				return token{}, l.errAt(l.off, "Invalid UTF-8 in the query text.")
			}
			b.WriteRune(r)
			l.off += size
		}
	}
	return token{}, l.errAt(start, "Unterminated string.")
}

// escape decodes one escape sequence starting at the backslash.
func (l *lexer) escape(b *strings.Builder) error {
	at := l.off
	l.off++
	if l.off >= len(l.src) {
		return l.errAt(at, "Unterminated string.")
	}
	c := l.src[l.off]
	l.off++
	switch c {
	case '"', '\\', '/':
		b.WriteByte(c)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r, err := l.unicodeEscape(at)
		if err != nil {
			return err
		}
		b.WriteRune(r)
	default:
		return l.errAt(at, "Invalid character escape sequence: %q.", `\`+string(c))
	}
	return nil
}

// unicodeEscape reads the hex digits after "\u" (four of them, or a braced
// code point), joining a surrogate pair written as two escapes.
func (l *lexer) unicodeEscape(at int) (rune, error) {
	bad := func() (rune, error) {
		end := min(l.off+4, len(l.src))
		return 0, l.errAt(at, "Invalid Unicode escape sequence: %q.", `\u`+l.src[l.off:end])
	}
	if l.off < len(l.src) && l.src[l.off] == '{' {
		end := strings.IndexByte(l.src[l.off:], '}')
		if end < 2 || end > 9 {
			return bad()
		}
		v, err := strconv.ParseUint(l.src[l.off+1:l.off+end], 16, 32)
		if err != nil || v > utf8.MaxRune || (v >= 0xD800 && v <= 0xDFFF) {
			return bad()
		}
		l.off += end + 1
		return rune(v), nil
	}
	hex4 := func(off int) (rune, bool) {
		if off+4 > len(l.src) {
			return 0, false
		}
		v, err := strconv.ParseUint(l.src[off:off+4], 16, 32)
		return rune(v), err == nil
	}
	r, ok := hex4(l.off)
	if !ok {
		return bad()
	}
	if r >= 0xD800 && r <= 0xDBFF { // high surrogate: needs a low one next
		if strings.HasPrefix(l.src[l.off+4:], `\u`) {
			if lo, ok := hex4(l.off + 6); ok && lo >= 0xDC00 && lo <= 0xDFFF {
				l.off += 10
				return (r-0xD800)<<10 + (lo - 0xDC00) + 0x10000, nil
			}
		}
		return bad()
	}
	if r >= 0xDC00 && r <= 0xDFFF {
		return bad()
	}
	l.off += 4
	return r, nil
}

// blockString lexes a """block string""" and applies the specification's
// common-indentation removal.
func (l *lexer) blockString() (token, error) {
	start := l.off
	startLoc := l.loc(start)
	l.off += 3
	var raw strings.Builder
	for l.off < len(l.src) {
		switch {
		case strings.HasPrefix(l.src[l.off:], `"""`):
			l.off += 3
			return token{kind: tokBlockString, value: blockStringValue(raw.String()), pos: startLoc}, nil
		case strings.HasPrefix(l.src[l.off:], `\"""`):
			raw.WriteString(`"""`)
			l.off += 4
		default:
			c := l.src[l.off]
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return token{}, l.errAt(l.off, "Invalid character within String: %q.", string(c))
			}
			r, size := utf8.DecodeRuneInString(l.src[l.off:])
			if r == utf8.RuneError && size <= 1 {
				return token{}, l.errAt(l.off, "Invalid UTF-8 in the query text.")
			}
			raw.WriteRune(r)
			l.off += size
			if c == '\n' || (c == '\r' && (l.off >= len(l.src) || l.src[l.off] != '\n')) {
				l.newline(l.off)
			}
		}
	}
	return token{}, &SyntaxError{Message: "Unterminated string.", Loc: startLoc}
}

// blockStringValue implements BlockStringValue() of the specification.
func blockStringValue(raw string) string {
	raw = strings.ReplaceAll(raw, "\r\n", "\n")
	raw = strings.ReplaceAll(raw, "\r", "\n")
	lines := strings.Split(raw, "\n")
	common := -1
	for i, line := range lines {
		if i == 0 {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		if indent < len(line) && (common < 0 || indent < common) {
			common = indent
		}
	}
	if common > 0 {
		for i := 1; i < len(lines); i++ {
			if len(lines[i]) >= common {
				lines[i] = lines[i][common:]
			} else {
				lines[i] = ""
			}
		}
	}
	blank := func(s string) bool { return strings.Trim(s, " \t") == "" }
	for len(lines) > 0 && blank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && blank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}
