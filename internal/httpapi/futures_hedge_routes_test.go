package httpapi

import (
	"testing"

	"tenger/internal/apperr"
)

// Hedge position mode over the routes: position_model_edit (bad mode,
// then hedge), an order without a side refused, a long and a short of one
// contract listed apart with their positionSide, the mode locked while
// they are open, and change_position_margin needing a side.
func TestFuturesHedgeRoutes(t *testing.T) {
	e := newFutEnv(t)
	e.ok(t, "/dev/index", map[string]any{"symbol": "BTCUSDT", "price": "40000"}, authMode{})
	alice, bob := e.trader(t, "alice@ex.mn", "2000"), e.trader(t, "bob@ex.mn", "2000")
	for _, u := range []authMode{alice, bob} {
		e.ok(t, "/fe-co-api/user/open_contract", map[string]any{}, u)
	}
	e.fails(t, "/fe-co-api/user/position_model_edit", map[string]any{"positionMode": 0}, alice, apperr.CodeFuturesPositionMode)
	e.fails(t, "/fe-co-api/user/position_model_edit", map[string]any{"positionMode": 2}, authMode{}, apperr.CodeNotSignedIn)
	if cfg := e.ok(t, "/fe-co-api/user/position_model_edit", map[string]any{"positionMode": 2}, alice); cfg["positionMode"] != float64(2) {
		t.Fatalf("position mode %+v", cfg)
	}
	if cfg := e.ok(t, "/fe-co-api/user/get_user_config", map[string]any{"symbol": "BTCUSDT"}, alice); cfg["positionMode"] != float64(2) {
		t.Fatalf("user config %+v", cfg)
	}
	buy := map[string]any{"symbol": "BTCUSDT", "side": "BUY", "type": "LIMIT", "price": "40000", "volume": "100"}
	e.fails(t, "/fe-co-api/order/order_create", buy, alice, apperr.CodeFuturesPositionSide)
	e.ok(t, "/fe-co-api/order/order_create", map[string]any{"symbol": "BTCUSDT", "side": "SELL", "type": "LIMIT", "price": "40000", "volume": "100"}, bob)
	buy["positionSide"] = "LONG"
	if o := e.ok(t, "/fe-co-api/order/order_create", buy, alice); o["positionSide"] != "LONG" || o["status"] != "FILLED" {
		t.Fatalf("open long %+v", o)
	}
	e.ok(t, "/fe-co-api/order/order_create", map[string]any{"symbol": "BTCUSDT", "side": "BUY", "type": "LIMIT", "price": "40000", "volume": "50"}, bob)
	e.ok(t, "/fe-co-api/order/order_create", map[string]any{"symbol": "BTCUSDT", "side": "SELL", "type": "LIMIT", "price": "40000", "volume": "50",
		"positionSide": "SHORT"}, alice)
	list := e.ok(t, "/fe-co-api/position/get_assets_list", map[string]any{}, alice)["positionList"].([]any)
	got := map[string]float64{}
	for _, p := range list {
		p := p.(map[string]any)
		got[p["positionSide"].(string)] = p["volume"].(float64)
	}
	if len(list) != 2 || got["LONG"] != 100 || got["SHORT"] != 50 {
		t.Fatalf("positions %+v", list)
	}
	e.fails(t, "/fe-co-api/user/position_model_edit", map[string]any{"positionMode": 1}, alice, apperr.CodeFuturesPositionModeLocked)
	e.fails(t, "/fe-co-api/position/change_position_margin", map[string]any{"symbol": "BTCUSDT", "amount": "10", "type": 1}, alice,
		apperr.CodeFuturesPositionSide)
	// Bob is one-way: a side is refused.
	e.fails(t, "/fe-co-api/order/order_create", buy, bob, apperr.CodeFuturesPositionSide)
}
