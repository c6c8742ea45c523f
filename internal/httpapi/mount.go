package httpapi

import (
	"net/http"
	"strings"

	"tenger/internal/apperr"
)

// API path prefixes of the services (spec §7, DESIGN §5).
var ServicePrefixes = []string{"/fe-ex-api", "/fe-co-api", "/fe-otc-api", "/fe-increment-api", "/fe-quant-api", "/fe-task-api"}

// BinancePrefixes are the paths of the Binance-compatible API
// (internal/binance), served beside the services.
var BinancePrefixes = []string{"/api/v3/", "/sapi/", "/fapi/", "/dapi/"}

// Mount registers every route of the routers on mux by its exact path, so
// several routers can share one service prefix, and answers unknown paths
// under the service prefixes with the catalogue's CodeNotFound.
func Mount(mux *http.ServeMux, routers ...*Router) {
	for _, r := range routers {
		for _, rt := range r.Routes() {
			mux.Handle(rt.Path, r)
		}
	}
	for _, p := range ServicePrefixes {
		mux.HandleFunc(p+"/", func(w http.ResponseWriter, hr *http.Request) {
			WriteError(w, hr, apperr.New(apperr.CodeNotFound))
		})
	}
}

// AllRoutes collects the routes of several routers (for the OpenAPI document).
func AllRoutes(routers ...*Router) []RouteDoc {
	var out []RouteDoc
	for _, r := range routers {
		out = append(out, r.Routes()...)
	}
	return out
}

// IsAPIPath reports whether a path belongs to an API rather than the web app.
func IsAPIPath(p string) bool {
	for _, pre := range ServicePrefixes {
		if p == pre || strings.HasPrefix(p, pre+"/") {
			return true
		}
	}
	for _, pre := range BinancePrefixes {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return p == "/graphql" || strings.HasPrefix(p, "/dev/") || p == "/ws" || p == "/healthz" || p == "/openapi.json"
}
