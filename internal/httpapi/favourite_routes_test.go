package httpapi

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/favourites"
	"tenger/internal/markets"
	"tenger/internal/store/embedded"
)

func TestFavouriteRoutes(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	mc := markets.Defaults()
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	h := NewMarketRouterWith(cc, mc, nil, favourites.New(st, mc),
		Options{Service: "market", Log: zerolog.Nop(), Sessions: walletSessions{"ta": "10000001", "tb": "10000002"}})
	const p = "/fe-ex-api"
	symbols := func(a walletAnswer) []string {
		t.Helper()
		if a.Code != "0" {
			t.Fatalf("answer %+v", a)
		}
		var r FavouritesResp
		if err := json.Unmarshal(a.Data, &r); err != nil {
			t.Fatal(err)
		}
		return r.Symbols
	}
	follow := func(token string) []string {
		t.Helper()
		a := tradeCall(t, h, p+"/common/public_info_market", token, map[string]any{})
		var doc PublicInfoMarket
		if a.Code != "0" || json.Unmarshal(a.Data, &doc) != nil || doc.FollowCoinList == nil {
			t.Fatalf("public info: %+v", a)
		}
		return doc.FollowCoinList
	}

	// A visitor's stars merged at sign-in (operationType 0, as a string or a number), then one added and one removed.
	got := symbols(tradeCall(t, h, p+"/optional/update_symbol", "ta", map[string]any{"symbols": "ethusdt, BTC/USDT", "operationType": "0"}))
	if !slices.Equal(got, []string{"ethusdt", "btcusdt"}) {
		t.Fatalf("merged %v", got)
	}
	symbols(tradeCall(t, h, p+"/optional/update_symbol", "ta", map[string]any{"symbols": "trxusdt", "operationType": 1}))
	got = symbols(tradeCall(t, h, p+"/optional/update_symbol", "ta", map[string]any{"symbols": "ethusdt", "operationType": 2}))
	want := []string{"btcusdt", "trxusdt"}
	if !slices.Equal(got, want) {
		t.Fatalf("after add and remove %v", got)
	}
	if l := symbols(tradeCall(t, h, p+"/optional/list_symbol", "ta", map[string]any{})); !slices.Equal(l, want) {
		t.Fatalf("list_symbol %v", l)
	}
	// The market document carries the caller's list, nobody else's.
	if l := follow("ta"); !slices.Equal(l, want) {
		t.Fatalf("followCoinList %v", l)
	}
	if l := follow("tb"); len(l) != 0 {
		t.Fatalf("another user's followCoinList %v", l)
	}
	if l := follow(""); len(l) != 0 {
		t.Fatalf("a visitor's followCoinList %v", l)
	}
	// Refusals: a visitor, an unknown pair, a bad operation.
	for _, c := range []struct {
		token string
		body  map[string]any
		code  string
	}{
		{"", map[string]any{"symbols": "btcusdt", "operationType": 1}, apperr.CodeNotSignedIn},
		{"ta", map[string]any{"symbols": "nopeusdt", "operationType": 1}, apperr.CodeMarketSymbolUnknown},
		{"ta", map[string]any{"symbols": "btcusdt", "operationType": "x"}, apperr.CodeParam},
		{"ta", map[string]any{"symbols": "btcusdt", "operationType": 7}, apperr.CodeParam},
		{"ta", map[string]any{"operationType": 1}, apperr.CodeParam},
	} {
		if a := tradeCall(t, h, p+"/optional/update_symbol", c.token, c.body); a.Code != c.code {
			t.Errorf("%v: %+v, want %s", c.body, a, c.code)
		}
	}
	if l := follow("ta"); !slices.Equal(l, want) {
		t.Fatalf("refused calls changed the list: %v", l)
	}
}
