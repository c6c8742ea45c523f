// Package apperr is Tenger's one error catalogue: every non-zero code an API
// answers with, its HTTP status and its message in each supported language.
// Spec §8 codes (410, 10002, 10009 ...) keep their meaning; the rest are ours.
//
// Domain code returns *Error values built with New; the HTTP platform turns
// them into {"code", "msg", "data"} responses in the caller's language. Any
// other error becomes CodeInternal, so an unexpected failure is never shown
// to a client with its internals.
package apperr

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Languages the catalogue speaks. Anything else falls back to English.
const (
	LangEN = "en_US"
	LangMN = "mn_MN"
)

// Entry is one catalogue entry.
type Entry struct {
	Code string
	// HTTP is the status the code is answered with. Business rule failures
	// answer 200 (the client reads the code), as the spec's clients expect.
	HTTP int
	EN   string
	MN   string
}

// Error is a catalogue error with optional details.
type Error struct {
	Entry Entry
	// Args fill %s/%d verbs in the message.
	Args []any
	// ErrorMsg is the machine key some spec calls return beside msg
	// (for example "the.amount.is.not.enough").
	ErrorMsg string
	// Data is returned as the response's data (for example retryAfter).
	Data any
	// Cause is the underlying error, logged but never shown.
	Cause error
}

func (e *Error) Error() string {
	s := e.Entry.Code + " " + e.Message(LangEN)
	if e.Cause != nil {
		s += ": " + e.Cause.Error()
	}
	return s
}

// Unwrap exposes the cause.
func (e *Error) Unwrap() error { return e.Cause }

// Is matches another *Error with the same code, so errors.Is(err, apperr.E(CodeX)) works.
func (e *Error) Is(target error) bool {
	var t *Error
	if errors.As(target, &t) {
		return t.Entry.Code == e.Entry.Code
	}
	return false
}

// Message returns the message in the language lang.
func (e *Error) Message(lang string) string {
	tmpl := e.Entry.EN
	if lang == LangMN && e.Entry.MN != "" {
		tmpl = e.Entry.MN
	}
	if len(e.Args) > 0 && strings.Contains(tmpl, "%") {
		// Text arguments may echo what the caller sent.
		args := make([]any, len(e.Args))
		for i, a := range e.Args {
			if s, ok := a.(string); ok {
				a = printable(s)
			}
			args[i] = a
		}
		return fmt.Sprintf(tmpl, args...)
	}
	return tmpl
}

// maxEchoLen bounds a caller's text echoed in a message (a symbol, a chain
// name): enough for any real value, short enough to keep messages readable.
const maxEchoLen = 64

// printable is s as a message may echo it: control and format characters
// (NUL, line breaks, bidirectional overrides) dropped, invalid UTF-8
// replaced, and at most maxEchoLen characters.
func printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			clean = false
			break
		}
	}
	if clean && utf8.RuneCountInString(s) <= maxEchoLen {
		return s
	}
	var b strings.Builder
	n := 0
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			continue
		}
		if n == maxEchoLen {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// WithErrorMsg sets the errorMsg key.
func (e *Error) WithErrorMsg(key string) *Error { e.ErrorMsg = key; return e }

// WithData sets the response data.
func (e *Error) WithData(d any) *Error { e.Data = d; return e }

// WithCause records the underlying error.
func (e *Error) WithCause(err error) *Error { e.Cause = err; return e }

var catalogue = map[string]Entry{}

// register adds an entry at init time; a duplicate code is a programming error.
func register(code string, httpStatus int, en, mn string) string {
	if _, dup := catalogue[code]; dup {
		panic("apperr: duplicate code " + code)
	}
	catalogue[code] = Entry{Code: code, HTTP: httpStatus, EN: en, MN: mn}
	return code
}

// New returns the catalogue error for code, with message arguments.
func New(code string, args ...any) *Error {
	e, ok := catalogue[code]
	if !ok {
		panic("apperr: unknown code " + code)
	}
	return &Error{Entry: e, Args: args}
}

// Param is the 410 'Parameter error' with a detail appended in both
// languages, for example Param("email: must be a valid e-mail address").
func Param(detail string) *Error {
	e := New(CodeParam)
	if detail != "" {
		e.Entry.EN = e.Entry.EN + ": " + detail
		e.Entry.MN = e.Entry.MN + ": " + detail
	}
	return e
}

// As extracts a catalogue error from err; any other error becomes
// CodeInternal carrying err as its cause.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return New(CodeInternal).WithCause(err)
}

// Entries returns the whole catalogue sorted by code (for the OpenAPI
// document and the docs).
func Entries() []Entry {
	out := make([]Entry, 0, len(catalogue))
	for _, e := range catalogue {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Platform codes. Feature packages add theirs in their own file of this
// package (codes_<area>.go) so the catalogue stays one.
var (
	// CodeOK is success.
	CodeOK = "0"
	// CodeParam: malformed JSON, wrong types, missing or invalid fields (spec §8).
	CodeParam = register("410", http.StatusOK, "Parameter error", "Параметрийн алдаа")
	// CodeNotSignedIn: no session or an expired one (spec §8: clients pass it on silently).
	CodeNotSignedIn = register("10002", http.StatusOK, "Please sign in again", "Дахин нэвтэрнэ үү")
	// CodeVerifyCodeWrong: spec §8 withdraw-submit message for wrong e-mail or SMS codes.
	CodeVerifyCodeWrong = register("10009", http.StatusOK,
		"Mobile or email verification code is wrong",
		"Мобайл эсвэл имэйл баталгаажуулах код буруу байна")
	CodeForbidden       = register("10003", http.StatusForbidden, "Request rejected: anti-forgery token missing or wrong", "Хүсэлт татгалзсан: хуурамч хүсэлтээс хамгаалах токен буруу байна")
	CodeTooManyRequests = register("10004", http.StatusTooManyRequests, "Too many requests, try again in %d seconds", "Хэт олон хүсэлт илгээлээ, %d секундын дараа дахин оролдоно уу")
	CodeNotFound        = register("10005", http.StatusNotFound, "No such API route", "Ийм API зам байхгүй")
	CodeMethod          = register("10006", http.StatusMethodNotAllowed, "Method not allowed", "Энэ аргыг зөвшөөрөхгүй")
	CodeBodyTooLarge    = register("10007", http.StatusRequestEntityTooLarge, "Request body too large (at most %d bytes)", "Хүсэлтийн хэмжээ хэт их байна (дээд тал нь %d байт)")
	CodeInternal        = register("10500", http.StatusServiceUnavailable, "Service temporarily unavailable, please try again", "Үйлчилгээ түр ажиллахгүй байна, дахин оролдоно уу")
	CodeDevOnly         = register("10010", http.StatusNotFound, "Available only in development mode", "Зөвхөн хөгжүүлэлтийн горимд ажиллана")
	// CodeTooManyInFlight: a WebSocket connection sent another request while
	// its bound of unanswered requests were still running (push.MaxInFlight).
	CodeTooManyInFlight = register("10011", http.StatusTooManyRequests,
		"Too many requests in flight on this connection (at most %d): wait for their answers",
		"Энэ холболтоор хариу хүлээж буй хүсэлт хэт олон байна (дээд тал нь %d): хариуг нь хүлээнэ үү")
)
