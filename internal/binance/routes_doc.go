package binance

import (
	"sort"
	"strings"
)

// RouteInfo describes an endpoint for the OpenAPI document.
type RouteInfo struct {
	Method, Path string
	// Weight is the request weight (endpoints whose weight depends on
	// their parameters give the smallest).
	Weight   int
	Security Security
	// Params are the parameters the endpoint takes (signed ones included).
	Params []string
}

// Routes lists the endpoints the server answers, by path and method.
func (s *Server) Routes() []RouteInfo {
	out := make([]RouteInfo, 0, len(s.routes))
	for _, r := range s.routes {
		ps := make([]string, 0, len(r.allowed))
		for p := range r.allowed {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		out = append(out, RouteInfo{Method: r.method, Path: r.path, Weight: r.weight, Security: r.sec, Params: ps})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Method < out[j].Method
	})
	return out
}

// Describe is a route's request in one line: its security, weight and
// parameters.
func (r RouteInfo) Describe() string {
	var b strings.Builder
	b.WriteString("Binance-compatible, security ")
	b.WriteString(r.Security.String())
	if r.Security != SecNone {
		b.WriteString(" (X-MBX-APIKEY")
		if r.Security.Signed() {
			b.WriteString("; timestamp, recvWindow, signature: HMAC-SHA256 hex or Ed25519 base64 over query string + body")
		}
		b.WriteString(")")
	}
	b.WriteString(", weight ")
	b.WriteString(itoa(int64(r.Weight)))
	if len(r.Params) > 0 {
		b.WriteString("; parameters (query string, or form body for POST/PUT/DELETE): ")
		b.WriteString(strings.Join(r.Params, ", "))
	}
	return b.String()
}
