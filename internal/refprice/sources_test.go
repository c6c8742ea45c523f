package refprice

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// recorded serves the recorded answers of testdata: the path of each
// request picks the file, so a request the adapter should not make fails.
func recorded(t *testing.T, files map[string]string, status int) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		body, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

var indexes = []string{"btcusdt", "ethusdt", "tonusdt", "trxusdt", "xrpusdt", FiatIndex}

func TestBinanceRecordedAnswer(t *testing.T) {
	srv := recorded(t, map[string]string{"/api/v3/ticker/price": "binance_ticker_price.json"}, 200)
	got, err := Binance{BaseURL: srv.URL, Client: srv.Client()}.Fetch(context.Background(), indexes)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"btcusdt": "97012.35", "ethusdt": "3408.11", "tonusdt": "5.409", "trxusdt": "0.2471", "xrpusdt": "2.3179"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v (ETHBTC, a zero price and Mantle's MNTUSDT left out)", got, want)
	}
	for ix, p := range want {
		if q := got[ix]; !q.Price.Equal(d(p)) || q.Source != "binance" || time.Since(q.At) > time.Minute {
			t.Errorf("%s: %+v, want %s", ix, q, p)
		}
	}
	if _, ok := got[FiatIndex]; ok {
		t.Fatal("the MNT rate was taken from a venue where MNT is another coin")
	}
}

func TestBinanceErrorAnswer(t *testing.T) {
	srv := recorded(t, map[string]string{"/api/v3/ticker/price": "binance_error.json"}, 429)
	_, err := Binance{BaseURL: srv.URL, Client: srv.Client()}.Fetch(context.Background(), indexes)
	if err == nil || !strings.Contains(err.Error(), "429") {
		t.Fatalf("err %v, want the status", err)
	}
}

func TestOKXRecordedAnswer(t *testing.T) {
	srv := recorded(t, map[string]string{"/api/v5/market/index-tickers": "okx_index_tickers.json"}, 200)
	got, err := OKX{BaseURL: srv.URL, Client: srv.Client()}.Fetch(context.Background(), indexes)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("got %v, want BTC, ETH and TON (Mantle's MNT left out)", got)
	}
	q := got["btcusdt"]
	if !q.Price.Equal(d("97040.1")) || q.At.UnixMilli() != 1796528354123 {
		t.Fatalf("btcusdt %+v", q)
	}
}

func TestOKXErrorCode(t *testing.T) {
	srv := recorded(t, map[string]string{"/api/v5/market/index-tickers": "okx_error.json"}, 200)
	_, err := OKX{BaseURL: srv.URL, Client: srv.Client()}.Fetch(context.Background(), indexes)
	if err == nil || !strings.Contains(err.Error(), "50011") {
		t.Fatalf("err %v, want OKX's code", err)
	}
}

func TestParseSources(t *testing.T) {
	got, err := ParseSources(" binance=https://api.binance.us/ , okx ", nil)
	if err != nil || len(got) != 2 {
		t.Fatalf("%v %v", got, err)
	}
	if b := got[0].(Binance); b.BaseURL != "https://api.binance.us" {
		t.Fatalf("base %q", b.BaseURL)
	}
	if o := got[1].(OKX); o.BaseURL != "https://www.okx.com" {
		t.Fatalf("base %q", o.BaseURL)
	}
	if got, err := ParseSources("", nil); err != nil || len(got) != 0 {
		t.Fatalf("empty: %v %v", got, err)
	}
	if _, err := ParseSources("coinbase", nil); err == nil {
		t.Fatal("an unknown source was accepted")
	}
}
