package binance

import (
	"fmt"
	"net/http"
)

// Error is an answer in Binance's error shape, {"code":-1121,"msg":"Invalid
// symbol."}, sent with HTTP status Status. Handlers return it (as error);
// any other error a handler returns is logged and answered as -1001.
type Error struct {
	Status int    `json:"-"`
	Code   int    `json:"code"`
	Msg    string `json:"msg"`
	// RetryAfter, when positive, is sent as the Retry-After header
	// (seconds): on 429 and 418 answers.
	RetryAfter int `json:"-"`
}

func (e *Error) Error() string { return fmt.Sprintf("binance %d: %s", e.Code, e.Msg) }

// NewError builds an error answer.
func NewError(status, code int, msg string) *Error {
	return &Error{Status: status, Code: code, Msg: msg}
}

func badRequest(code int, format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Error codes (Binance's errors.md). The messages below are Binance's own.
const (
	CodeUnknown                = -1000
	CodeDisconnected           = -1001
	CodeUnauthorized           = -1002
	CodeTooManyRequests        = -1003
	CodeTooManyOrders          = -1015
	CodeUnsupportedOperation   = -1020
	CodeInvalidTimestamp       = -1021
	CodeInvalidSignature       = -1022
	CodeIllegalChars           = -1100
	CodeTooManyParameters      = -1101
	CodeMandatoryParam         = -1102
	CodeUnknownParam           = -1103
	CodeUnreadParameters       = -1104
	CodeParamEmpty             = -1105
	CodeParamNotRequired       = -1106
	CodeParamOverflow          = -1108
	CodeBadPrecision           = -1111
	CodeBadInterval            = -1120
	CodeBadSymbol              = -1121
	CodeInvalidSymbolStatus    = -1122
	CodeOptionalParamsBadCombo = -1128
	CodeInvalidParameter       = -1130
	CodeInvalidTickerType      = -1139
	CodeDuplicateSymbols       = -1151
	CodeSymbolStatusMismatch   = -1220
	CodeBadAPIKeyFormat        = -2014
	CodeRejectedAPIKey         = -2015
)

// ErrUnknown is -1000, HTTP 500.
func ErrUnknown() *Error {
	return NewError(http.StatusInternalServerError, CodeUnknown, "An unknown error occurred while processing the request.")
}

// ErrDisconnected is -1001, HTTP 503: the market data could not be read.
func ErrDisconnected() *Error {
	return NewError(http.StatusServiceUnavailable, CodeDisconnected, "Internal error; unable to process your request. Please try again.")
}

// ErrUnauthorized is -1002, HTTP 401.
func ErrUnauthorized() *Error {
	return NewError(http.StatusUnauthorized, CodeUnauthorized, "You are not authorized to execute this request.")
}

// ErrUnsupported is -1020: a valid request this server cannot serve.
func ErrUnsupported() *Error {
	return badRequest(CodeUnsupportedOperation, "This operation is not supported.")
}

// ErrIllegalChars is -1100 for a parameter outside its legal range (a
// regular expression or a list, as Binance words it).
func ErrIllegalChars(name, legal string) *Error {
	return badRequest(CodeIllegalChars, "Illegal characters found in parameter '%s'; legal range is '%s'.", name, legal)
}

// ErrIllegalCharsAny is -1100 for an undecodable query string or body.
func ErrIllegalCharsAny() *Error {
	return badRequest(CodeIllegalChars, "Illegal characters found in a parameter.")
}

// ErrDuplicateParam is -1101 for a parameter sent twice.
func ErrDuplicateParam() *Error {
	return badRequest(CodeTooManyParameters, "Duplicate values for a parameter detected.")
}

// ErrTooManyParams is -1101 with the expected and received counts.
func ErrTooManyParams(expected, received int) *Error {
	return badRequest(CodeTooManyParameters, "Too many parameters; expected '%d' and received '%d'.", expected, received)
}

// ErrMandatory is -1102 for a mandatory parameter missing or empty.
func ErrMandatory(name string) *Error {
	return badRequest(CodeMandatoryParam, "Mandatory parameter '%s' was not sent, was empty/null, or malformed.", name)
}

// ErrEitherMandatory is -1102 when one of two parameters must be sent.
func ErrEitherMandatory(a, b string) *Error {
	return badRequest(CodeMandatoryParam, "Param '%s' or '%s' must be sent, but both were empty/null!", a, b)
}

// ErrUnread is -1104: parameters the endpoint does not take were sent.
func ErrUnread(read, sent int) *Error {
	return badRequest(CodeUnreadParameters, "Not all sent parameters were read; read '%d' parameter(s) but was sent '%d'.", read, sent)
}

// ErrEmpty is -1105 for an optional parameter sent empty.
func ErrEmpty(name string) *Error {
	return badRequest(CodeParamEmpty, "Parameter '%s' was empty.", name)
}

// ErrNotRequired is -1106.
func ErrNotRequired(name string) *Error {
	return badRequest(CodeParamNotRequired, "Parameter '%s' sent when not required.", name)
}

// ErrOverflow is -1108.
func ErrOverflow(name string) *Error {
	return badRequest(CodeParamOverflow, "Parameter '%s' overflowed.", name)
}

// ErrPrecision is -1111.
func ErrPrecision(name string) *Error {
	return badRequest(CodeBadPrecision, "Parameter '%s' has too much precision.", name)
}

// ErrBadInterval is -1120.
func ErrBadInterval() *Error { return badRequest(CodeBadInterval, "Invalid interval.") }

// ErrBadSymbol is -1121.
func ErrBadSymbol() *Error { return badRequest(CodeBadSymbol, "Invalid symbol.") }

// ErrInvalidSymbolStatus is -1122.
func ErrInvalidSymbolStatus() *Error {
	return badRequest(CodeInvalidSymbolStatus, "Invalid symbolStatus.")
}

// ErrBadCombo is -1128.
func ErrBadCombo() *Error {
	return badRequest(CodeOptionalParamsBadCombo, "Combination of optional parameters invalid.")
}

// ErrInvalidParam is -1130.
func ErrInvalidParam(name string) *Error {
	return badRequest(CodeInvalidParameter, "Data sent for parameter '%s' is not valid.", name)
}

// ErrInvalidTickerType is -1139.
func ErrInvalidTickerType() *Error { return badRequest(CodeInvalidTickerType, "Invalid ticker type.") }

// ErrDuplicateSymbols is -1151.
func ErrDuplicateSymbols() *Error {
	return badRequest(CodeDuplicateSymbols, "Symbol is present multiple times in the list.")
}

// ErrSymbolStatusMismatch is -1220.
func ErrSymbolStatusMismatch() *Error {
	return badRequest(CodeSymbolStatusMismatch, "The symbol's status does not match the requested symbolStatus.")
}

// errWeightLimit is -1003 with HTTP 429: the IP used more than its weight
// this minute; retry is the seconds until the minute ends.
func errWeightLimit(limit, retry int) *Error {
	return &Error{Status: http.StatusTooManyRequests, Code: CodeTooManyRequests, RetryAfter: retry,
		Msg: fmt.Sprintf("Too much request weight used; current limit is %d request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.", limit)}
}

// errBanned is -1003 with HTTP 418: the IP kept sending after a 429 and is
// banned until untilMs (Unix milliseconds).
func errBanned(untilMs int64, retry int) *Error {
	return &Error{Status: http.StatusTeapot, Code: CodeTooManyRequests, RetryAfter: retry,
		Msg: fmt.Sprintf("Way too much request weight used; IP banned until %d. Please use WebSocket Streams for live updates to avoid bans.", untilMs)}
}

// errTooManyOrders is -1015 with HTTP 429: the account placed l.Limit
// orders in the current window of the ORDERS limit l. As on Binance, there
// is no Retry-After.
func errTooManyOrders(l RateLimit) *Error {
	return &Error{Status: http.StatusTooManyRequests, Code: CodeTooManyOrders,
		Msg: fmt.Sprintf("Too many new orders; current limit is %d orders per %d %s.", l.Limit, l.IntervalNum, l.Interval)}
}
