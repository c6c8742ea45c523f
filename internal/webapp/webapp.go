// Package webapp serves the built web app (frontend/dist) with the SPA
// fallback every client-side route needs, and the runtime configuration
// document (/config.json) from which the app learns its endpoints. In AWS the
// web stack writes the same document next to the site in S3.
package webapp

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Config is the runtime configuration document of the web app.
type Config struct {
	Region string `json:"region"`
	// API maps each service prefix (e.g. "/fe-ex-api") to the base URL that
	// serves it; the app appends the prefix and path.
	API map[string]string `json:"api"`
	// WS is the realtime WebSocket URL.
	WS string `json:"ws"`
	// Content is the content service's GraphQL URL.
	Content string `json:"content"`
	// Flags are server switches the app obeys.
	Flags Flags `json:"flags"`
}

// Flags are server switches for capabilities that are not yet live.
type Flags struct {
	// FuturesLive: while false, futures links other than the competition go
	// to /maintenance.
	FuturesLive bool `json:"futuresLive"`
	// WalletLive: while false, wallet entry points (deposit buttons) are hidden.
	WalletLive bool `json:"walletLive"`
}

// LocalConfig is the document `tenger serve` answers: every service on the
// origin the browser used.
func LocalConfig(r *http.Request, prefixes []string, flags Flags) Config {
	scheme, ws := "http", "ws"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme, ws = "https", "wss"
	}
	origin := scheme + "://" + r.Host
	api := make(map[string]string, len(prefixes))
	for _, p := range prefixes {
		api[p] = origin
	}
	return Config{Region: "local", API: api, WS: ws + "://" + r.Host + "/ws", Content: origin + "/graphql", Flags: flags}
}

// Handler serves files from dir; paths without a file get index.html so
// client-side routes load the app. Hashed assets are cached for a year,
// index.html never; scripts, styles and documents go gzipped to clients
// that accept it. Every answer, errors included, carries the site's
// security headers (SecurityHeaders adds them to the rest of the server).
func Handler(dir string) http.Handler {
	gz := &gzipCache{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		SetSecurityHeaders(w.Header(), LocalContentSecurityPolicy(r.Host), r.TLS != nil)
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		clean := path.Clean("/" + r.URL.Path)
		file := filepath.Join(dir, filepath.FromSlash(clean))
		if st, err := os.Stat(file); err == nil && !st.IsDir() {
			if strings.HasPrefix(clean, "/assets/") {
				w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			}
			gz.serveFile(w, r, file, st)
			return
		}
		// A missing file with an extension is a real 404, not an app route.
		if ext := path.Ext(clean); ext != "" && ext != ".html" {
			http.NotFound(w, r)
			return
		}
		index := filepath.Join(dir, "index.html")
		ist, err := os.Stat(index)
		if err != nil {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte("The web app is not built. Run `make run` (it builds frontend/ into frontend/dist), or pass --web DIR.\n"))
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		gz.serveFile(w, r, index, ist)
	})
}
