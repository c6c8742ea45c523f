package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/httpapi"
	"tenger/internal/platform"
	"tenger/internal/store"
)

func testServer(t *testing.T) (*platform.Local, http.Handler) {
	t.Helper()
	d, err := platform.OpenLocal(t.TempDir(), platform.Config{Dev: true}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h, err := buildHandler(ctx, d, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d, h
}

// envelope is an API answer with its data left raw.
type envelope = benchAnswer

func post(t *testing.T, h http.Handler, path, body string, hdr map[string]string) (int, envelope) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var env envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("%s: answer is not an envelope (%d): %q", path, rec.Code, rec.Body.String())
	}
	return rec.Code, env
}

// apiRoutes lists the JSON routes of the assembled server, from its own
// OpenAPI document, so a route added later is covered without editing this test.
func apiRoutes(t *testing.T, h http.Handler) map[string]map[string]any {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	var doc struct {
		Paths map[string]map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for p, ops := range doc.Paths {
		if op, ok := ops["post"]; ok && op["requestBody"] != nil {
			out[p] = op
		}
	}
	if len(out) == 0 {
		t.Fatal("no JSON routes in the OpenAPI document")
	}
	return out
}

func requestProps(op map[string]any) map[string]any {
	rb := op["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)
	props, _ := rb["properties"].(map[string]any)
	return props
}

// TestEveryRouteRejectsBadInput sends malformed, mistyped and oversized
// bodies to every JSON route: each answer must be a catalogue code other
// than success, never a 5xx.
func TestEveryRouteRejectsBadInput(t *testing.T) {
	_, h := testServer(t)
	routes := apiRoutes(t, h)
	big := `{"x":"` + strings.Repeat("a", 2<<20) + `"}`
	for path, op := range routes {
		props := requestProps(op)
		// A value of the wrong JSON type for every field: objects where
		// strings, numbers or arrays are expected.
		var wrong []string
		for name, s := range props {
			if name == "uaTime" || name == "securityInfo" {
				continue
			}
			sm, _ := s.(map[string]any)
			switch sm["type"] {
			case "object":
				wrong = append(wrong, `"`+name+`":"not-an-object"`)
			default:
				wrong = append(wrong, `"`+name+`":{"nested":true}`)
			}
		}
		bodies := map[string]string{
			"malformed":    `{"a":`,
			"not object":   `["a"]`,
			"trailing":     `{} {}`,
			"oversized":    big,
			"wrong types":  "{" + strings.Join(wrong, ",") + "}",
			"null bytes":   "{\"a\":\"\x00\"",
			"deep nesting": strings.Repeat("[", 10000),
		}
		for name, body := range bodies {
			if name == "wrong types" && len(wrong) == 0 {
				continue
			}
			status, env := post(t, h, path, body, map[string]string{httpapi.HeaderLanguage: "mn_MN"})
			if status >= 500 {
				t.Errorf("%s %s: HTTP %d", path, name, status)
			}
			if env.Code == apperr.CodeOK || env.Code == "" || env.Msg == "" {
				t.Errorf("%s %s: code %q msg %q, want a catalogue error", path, name, env.Code, env.Msg)
			}
		}
	}
}

func TestUnknownRoutesAndMethods(t *testing.T) {
	_, h := testServer(t)
	for _, p := range httpapi.ServicePrefixes {
		status, env := post(t, h, p+"/no/such/route", `{}`, nil)
		if status != http.StatusNotFound || env.Code != apperr.CodeNotFound {
			t.Errorf("%s: %d %s", p, status, env.Code)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/fe-ex-api/common/page_view", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET on a POST route: %d", rec.Code)
	}
}

func TestPageViewRecorded(t *testing.T) {
	d, h := testServer(t)
	_, env := post(t, h, "/fe-ex-api/common/page_view", `{"path":"/auth/login","title":"Log in","uaTime":"2026-11-21 10:00:00","securityInfo":"{}"}`, nil)
	if env.Code != apperr.CodeOK {
		t.Fatalf("page_view: %s %s", env.Code, env.Msg)
	}
	_, env = post(t, h, "/fe-ex-api/common/page_view", `{"path":"no-slash"}`, nil)
	if env.Code != apperr.CodeParam {
		t.Fatalf("bad path: %s", env.Code)
	}
	page, err := d.Store.Query(context.Background(), storeQueryPageViews(time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 1 || page.Items[0].Str("path") != "/auth/login" {
		t.Fatalf("stored views: %v", page.Items)
	}
}

func storeQueryPageViews(day time.Time) store.Query {
	return store.Query{PK: "PAGEVIEW#" + day.UTC().Format("2006-01-02")}
}

func TestPublicMarketInfo(t *testing.T) {
	_, h := testServer(t)
	_, env := post(t, h, "/fe-ex-api/common/public_info_market", `{}`, nil)
	var doc struct {
		CoinList    map[string]map[string]any            `json:"coinList"`
		Market      map[string]map[string]map[string]any `json:"market"`
		MarketOrder []string                             `json:"marketOrder"`
	}
	if env.Code != "0" || json.Unmarshal(env.Data, &doc) != nil {
		t.Fatalf("%s %s", env.Code, env.Msg)
	}
	if doc.CoinList["BTC"]["longName"] != "Bitcoin" || doc.CoinList["MNT"]["isFiat"] != true {
		t.Fatalf("coinList %v", doc.CoinList)
	}
	btc := doc.Market["USDT"]["BTC/USDT"]
	if btc["symbol"] != "btcusdt" || btc["priceTick"] != "0.01" || len(doc.MarketOrder) < 2 || doc.MarketOrder[0] != "USDT" {
		t.Fatalf("market %v order %v", doc.Market, doc.MarketOrder)
	}
	_, env = post(t, h, "/fe-ex-api/common/market_recommend_symbol", `{}`, nil)
	if env.Code != "0" || !strings.Contains(string(env.Data), `"btcusdt"`) {
		t.Fatalf("recommend %s %s", env.Code, env.Data)
	}
}
