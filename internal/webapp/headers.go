package webapp

import "net/http"

// BootScriptHash is the CSP source of the one inline script of the web
// app's index.html (frontend/index.html): it sets the theme of the cusSkin
// cookie before the first paint. A change to that script changes its hash
// (TestBootScriptHash says the new one).
const BootScriptHash = "'sha256-ogAcf6v4vSEBRH+cIrGF1GkC/1kDgwl/NF20vBL1XD0='"

// The site's Content-Security-Policy in two halves around connect-src, so
// `tenger serve` can add its own WebSocket origin without a second copy of
// the policy.
const (
	cspHead = "default-src 'self'; " +
		"connect-src 'self' https://*.execute-api.amazonaws.com wss://*.execute-api.amazonaws.com"
	cspTail = "; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; font-src 'self' data:; " +
		"script-src 'self' " + BootScriptHash + "; " + cspFrames + "; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
	// cspFrames lets the identity page show Sumsub's verification flow: its
	// WebSDK (bundled from npm, so script-src stays 'self') draws the flow in
	// an iframe from Sumsub's host (in.sumsub.com, or the one its access
	// token names, e.g. api.sumsub.com). 'self' keeps the site's own frames.
	cspFrames = "frame-src 'self' https://*.sumsub.com"
)

// ContentSecurityPolicy is the site's policy: the app's own files and the
// AWS endpoints it calls (the HTTP API and the WebSocket API live on
// execute-api domains). CloudFront serves it in AWS (stacks/web.go) and
// `tenger serve` serves it locally (LocalContentSecurityPolicy), from this
// one definition so the two cannot drift apart.
const ContentSecurityPolicy = cspHead + cspTail

// CloudContentSecurityPolicy is the policy CloudFront serves with the site
// in AWS: connect-src names the API endpoints of the stage's region (their
// hosts are <id>.execute-api.<region>.amazonaws.com, which
// *.execute-api.amazonaws.com does not match: a wildcard stands for the
// labels before the rest, which must end the host) and extra origins (the
// edge's custom domain's WebSocket). region may be a CloudFormation token.
func CloudContentSecurityPolicy(region string, extra ...string) string {
	csp := "default-src 'self'; connect-src 'self' https://*.execute-api." + region + ".amazonaws.com wss://*.execute-api." +
		region + ".amazonaws.com"
	for _, o := range extra {
		csp += " " + o
	}
	return csp + cspTail
}

// LocalContentSecurityPolicy is ContentSecurityPolicy with the WebSocket
// origin of the host the browser used (the `ws` of the local /config.json):
// 'self' covers ws: and wss: only in browsers that follow CSP level 3, so
// the local app's own socket is named. A Host header that is not a plain
// host[:port] (it comes from the client) adds nothing.
func LocalContentSecurityPolicy(host string) string {
	if !plainHost(host) {
		return ContentSecurityPolicy
	}
	return cspHead + " ws://" + host + " wss://" + host + cspTail
}

// plainHost reports whether h is a host name, IPv4 or bracketed IPv6
// address with an optional port: nothing that could end the directive.
func plainHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == ':' || c == '[' || c == ']') {
			return false
		}
	}
	return true
}

// SetSecurityHeaders sets the security headers CloudFront adds to the site
// in AWS (stacks/web.go) on h, with csp as the Content-Security-Policy:
// no MIME sniffing, no framing, no full URLs in the Referer of other sites,
// and, when the answer travels over HTTPS, Strict-Transport-Security.
func SetSecurityHeaders(h http.Header, csp string, https bool) {
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	if https {
		// The same two years as CloudFront's policy.
		h.Set("Strict-Transport-Security", "max-age=63072000; includeSubDomains; preload")
	}
}

// SecurityHeaders wraps the whole `tenger serve` handler so every answer
// carries the site's security headers: the app's files and its SPA
// fallback, the APIs, /openapi.json, /config.json, the /dev routes and
// every error, including those written by handlers that know nothing of
// them. They are set before next runs, so a handler may still override one.
func SecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		SetSecurityHeaders(w.Header(), LocalContentSecurityPolicy(r.Host), r.TLS != nil)
		next.ServeHTTP(w, r)
	})
}
