package main

import (
	"net"
	"net/http"
	"net/http/pprof"
	"os"
)

// envPprof names the environment variable that, when set to a HOST:PORT,
// makes the binary serve Go's profiling endpoints (/debug/pprof/) there.
// It is deliberately not a flag: profiling is a diagnostic for performance
// work (tenger bench against tenger serve), never part of a deployment, and
// the endpoints live on their own listener so they are never reachable
// through the API's address.
const envPprof = "TENGER_PPROF"

func init() {
	addr := os.Getenv(envPprof)
	if addr == "" {
		return
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	go func() { _ = http.Serve(ln, mux) }()
}
