package binance

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// MaxBody bounds a form body (POST, PUT, DELETE).
const MaxBody = 64 << 10

// Params are a request's parameters: the query string and, for POST, PUT
// and DELETE, an application/x-www-form-urlencoded body. A name in both
// takes the query string's value (Binance's rule). A name sent twice in
// one of them is -1101.
type Params struct {
	vals  map[string]string
	names []string // in the order sent, each once
	// RawQuery and RawBody are what the client sent, for signature checks.
	RawQuery string
	RawBody  []byte
}

// parseParams reads the query string and the form body.
func parseParams(r *http.Request) (*Params, error) {
	p := &Params{vals: map[string]string{}, RawQuery: r.URL.RawQuery}
	query, err := parseForm(r.URL.RawQuery)
	if err != nil {
		return p, err
	}
	var body [][2]string
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Body != nil {
		ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if ct == "application/x-www-form-urlencoded" {
			b, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
			if err != nil {
				return p, ErrIllegalCharsAny()
			}
			if len(b) > MaxBody {
				return p, badRequest(CodeTooManyParameters, "Too many parameters sent for this endpoint.")
			}
			p.RawBody = b
			if body, err = parseForm(string(b)); err != nil {
				return p, err
			}
		}
	}
	for _, kv := range query {
		p.vals[kv[0]] = kv[1]
		p.names = append(p.names, kv[0])
	}
	for _, kv := range body {
		if _, ok := p.vals[kv[0]]; ok {
			continue // the query string's value wins
		}
		p.vals[kv[0]] = kv[1]
		p.names = append(p.names, kv[0])
	}
	return p, nil
}

// parseForm splits a urlencoded string, refusing bad escapes, invalid UTF-8
// and names sent twice.
func parseForm(s string) ([][2]string, error) {
	var out [][2]string
	seen := map[string]bool{}
	for s != "" {
		var kv string
		kv, s, _ = strings.Cut(s, "&")
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		k, err1 := url.QueryUnescape(k)
		v, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil || !utf8.ValidString(k) || !utf8.ValidString(v) || k == "" {
			return nil, ErrIllegalCharsAny()
		}
		if seen[k] {
			return nil, ErrDuplicateParam()
		}
		seen[k] = true
		out = append(out, [2]string{k, v})
	}
	return out, nil
}

// Names lists the parameter names sent, in order.
func (p *Params) Names() []string { return append([]string(nil), p.names...) }

// Len is the number of parameters sent.
func (p *Params) Len() int { return len(p.names) }

// Has reports whether the parameter was sent (possibly empty).
func (p *Params) Has(name string) bool {
	_, ok := p.vals[name]
	return ok
}

// Raw returns a parameter's value as sent.
func (p *Params) Raw(name string) (string, bool) {
	v, ok := p.vals[name]
	return v, ok
}

// String returns a parameter: sent reports whether it was. A mandatory one
// missing or empty is -1102; an optional one sent empty is -1105.
func (p *Params) String(name string, mandatory bool) (v string, sent bool, err error) {
	v, sent = p.vals[name]
	switch {
	case mandatory && (!sent || v == ""):
		return "", false, ErrMandatory(name)
	case sent && v == "":
		return "", false, ErrEmpty(name)
	}
	return v, sent, nil
}

// Legal ranges Binance quotes in -1100 answers.
const (
	LegalSymbol  = `^[A-Z0-9-_.]{1,20}$`
	LegalSymbols = `^\[("[A-Z0-9-_.]{1,20}"(,"[A-Z0-9-_.]{1,20}"){0,}){0,1}\]$`
	LegalLong    = `^[0-9]{1,20}$`
	LegalDecimal = `^([0-9]{1,20})(\.[0-9]{1,20})?$`
)

var (
	symbolRE  = regexp.MustCompile(LegalSymbol)
	symbolsRE = regexp.MustCompile(LegalSymbols)
	longRE    = regexp.MustCompile(LegalLong)
	decimalRE = regexp.MustCompile(LegalDecimal)
)

// Symbol returns a symbol parameter (BTCUSDT), checked against Binance's
// legal range (upper case; btcusdt is -1100). It does not look the symbol
// up.
func (p *Params) Symbol(name string, mandatory bool) (string, bool, error) {
	v, sent, err := p.String(name, mandatory)
	if err != nil || !sent {
		return "", false, err
	}
	if !symbolRE.MatchString(v) {
		return "", false, ErrIllegalChars(name, LegalSymbol)
	}
	return v, true, nil
}

// Symbols returns a symbols parameter, a JSON array of symbols
// (["BTCUSDT","ETHUSDT"]); a symbol listed twice is -1151.
func (p *Params) Symbols(name string) ([]string, bool, error) {
	v, sent, err := p.String(name, false)
	if err != nil || !sent {
		return nil, false, err
	}
	if !symbolsRE.MatchString(v) {
		return nil, false, ErrIllegalChars(name, LegalSymbols)
	}
	var list []string
	if err := json.Unmarshal([]byte(v), &list); err != nil {
		return nil, false, ErrIllegalChars(name, LegalSymbols)
	}
	seen := map[string]bool{}
	for _, s := range list {
		if seen[s] {
			return nil, false, ErrDuplicateSymbols()
		}
		seen[s] = true
	}
	return list, true, nil
}

// Long returns a non-negative integer parameter (Binance's LONG and INT).
func (p *Params) Long(name string, mandatory bool) (int64, bool, error) {
	v, sent, err := p.String(name, mandatory)
	if err != nil || !sent {
		return 0, false, err
	}
	if !longRE.MatchString(v) {
		return 0, false, ErrIllegalChars(name, LegalLong)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, false, ErrOverflow(name)
	}
	return n, true, nil
}

// Limit returns a limit parameter: def when absent, capped at max (Binance
// returns at most the maximum for a larger limit); 0 is -1130.
func (p *Params) Limit(name string, def, max int) (int, error) {
	n, sent, err := p.Long(name, false)
	if err != nil {
		return 0, err
	}
	if !sent {
		return def, nil
	}
	if n < 1 {
		return 0, ErrInvalidParam(name)
	}
	return int(min(n, int64(max))), nil
}

// microsFrom is where a timestamp is taken as microseconds: Binance takes
// timestamps in milliseconds or microseconds.
const microsFrom = 100_000_000_000_000

// Time returns a timestamp parameter in Unix milliseconds (microseconds
// are converted).
func (p *Params) Time(name string) (int64, bool, error) {
	n, sent, err := p.Long(name, false)
	if err != nil || !sent {
		return 0, false, err
	}
	if n >= microsFrom {
		n /= 1000
	}
	return n, true, nil
}

// Decimal returns a decimal parameter (price, quantity) in Binance's legal
// range; more than maxDecimals decimals (when maxDecimals >= 0) is -1111.
func (p *Params) Decimal(name string, mandatory bool, maxDecimals int32) (decimal.Decimal, bool, error) {
	v, sent, err := p.String(name, mandatory)
	if err != nil || !sent {
		return decimal.Zero, false, err
	}
	if !decimalRE.MatchString(v) {
		return decimal.Zero, false, ErrIllegalChars(name, LegalDecimal)
	}
	d, err := decimal.NewFromString(v)
	if err != nil {
		return decimal.Zero, false, ErrIllegalChars(name, LegalDecimal)
	}
	if maxDecimals >= 0 && -d.Exponent() > maxDecimals && !d.Equal(d.Truncate(maxDecimals)) {
		return decimal.Zero, false, ErrPrecision(name)
	}
	return d, true, nil
}

// Enum returns a parameter that must be one of values (exact case);
// another value is -1130.
func (p *Params) Enum(name string, mandatory bool, values ...string) (string, bool, error) {
	v, sent, err := p.String(name, mandatory)
	if err != nil || !sent {
		return "", false, err
	}
	for _, x := range values {
		if v == x {
			return v, true, nil
		}
	}
	return "", false, ErrInvalidParam(name)
}

// Bool returns a BOOLEAN parameter, true or false in any case.
func (p *Params) Bool(name string, def bool) (bool, error) {
	v, sent, err := p.String(name, false)
	if err != nil || !sent {
		return def, err
	}
	switch strings.ToLower(v) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, ErrInvalidParam(name)
}

// unread checks that every parameter sent is one the endpoint takes
// (allowed); otherwise -1104 with the counts.
func (p *Params) unread(allowed map[string]bool) error {
	read := 0
	for _, n := range p.names {
		if allowed[n] {
			read++
		}
	}
	if read != len(p.names) {
		return ErrUnread(read, len(p.names))
	}
	return nil
}
