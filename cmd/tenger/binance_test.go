package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestBinanceAPIMountedAndDocumented: tenger serve answers the
// Binance-compatible API on its prefixes (never the web app's page) and
// lists its endpoints in /openapi.json.
func TestBinanceAPIMountedAndDocumented(t *testing.T) {
	_, h := testServer(t)
	for path, want := range map[string]int{"/api/v3/ping": 200, "/api/v3/exchangeInfo": 200, "/fapi/v1/exchangeInfo": 200,
		"/api/v3/nothing": 404, "/sapi/v1/nothing": 404} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != want || strings.Contains(rec.Body.String(), "<div id=\"root\"") {
			t.Errorf("GET %s: %d %.80s", path, rec.Code, rec.Body.String())
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	var doc struct {
		Paths map[string]map[string]struct {
			Tags        []string `json:"tags"`
			Description string   `json:"description"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	op, ok := doc.Paths["/api/v3/order"]["post"]
	if !ok || len(op.Tags) != 1 || op.Tags[0] != "binance-compatible" || !strings.Contains(op.Description, "security TRADE") {
		t.Fatalf("POST /api/v3/order in the document: %+v", doc.Paths["/api/v3/order"])
	}
	if _, ok := doc.Paths["/sapi/v1/capital/withdraw/apply"]["post"]; !ok {
		t.Fatal("withdraw/apply is not documented")
	}
}
