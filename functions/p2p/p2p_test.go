package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/functions/fntest"
	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/awslambda"
	"tenger/internal/coins"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/p2p"
	"tenger/internal/platform"
	"tenger/internal/store"
)

// The P2P function driven as API Gateway sends its calls (the recorded
// buy_order_save event, and the user-info event moved to the other
// paths) on DynamoDB Local with the key-space guard: a merchant's payment
// method and SELL ad, a buyer's order by MNT amount with its escrow, the
// chat, and a cancel that returns the coins to the ad; another user's ids
// answer not found.

type p2pEnv struct {
	st      store.Store
	d       *platform.Deps
	box     *fntest.Recorder
	h       awslambda.HTTPFunc
	profile awslambda.HTTPFunc
}

func newP2PEnv(t *testing.T) *p2pEnv {
	t.Helper()
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	e := &p2pEnv{st: fntest.Table(t, "p2p"), box: &fntest.Recorder{}}
	e.d = &platform.Deps{Store: e.st, Notify: e.box, Log: zerolog.Nop(), Now: time.Now, Coins: cc, Markets: markets.Defaults(),
		Config: platform.Config{Stage: "test", SecureCookies: true}, SecretKey: []byte("p2p-function-test-auth-key-0123456789abcdef")}
	e.h = awslambda.NewRuntime("p2p", io.Discard).HTTP(newHandler(e.d))
	mux := http.NewServeMux()
	httpapi.Mount(mux, httpapi.NewProfileRouter(e.d.Auth(), e.d.APIOptions("profile", httpapi.AuthSessions(e.d.Auth()))))
	e.profile = awslambda.NewRuntime("profile", io.Discard).HTTP(mux)
	return e
}

// signUp registers email with the recorded sign-up events (profile function).
func (e *p2pEnv) signUp(t *testing.T, email string) (uid, token string) {
	t.Helper()
	return fntest.SignUp(t, e.profile, e.box, email)
}

// at is a recorded signed-in event (header auth) moved to another P2P path.
func at(t *testing.T, token, path string, body map[string]any) events.APIGatewayV2HTTPRequest {
	t.Helper()
	b, _ := json.Marshal(body)
	ev := fntest.At(t, token, path, string(b))
	ev.RouteKey, ev.RequestContext.RouteKey = "POST /fe-otc-api/{proxy+}", "POST /fe-otc-api/{proxy+}"
	return ev
}

func (e *p2pEnv) otc(t *testing.T, uid string) (string, string) {
	t.Helper()
	b, err := e.d.Ledger().Balance(context.Background(), ledger.UserAccount(uid, ledger.OTC), "USDT")
	if err != nil {
		t.Fatal(err)
	}
	return b.Available.String(), b.Frozen.String()
}

func TestP2PFunction(t *testing.T) {
	e := newP2PEnv(t)
	ctx := context.Background()
	mid, mtok := e.signUp(t, "p2p.merchant@tenger.example")
	bid, btok := e.signUp(t, "p2p.buyer@tenger.example")
	_, otok := e.signUp(t, "p2p.other@tenger.example")
	// The merchant is verified (as identity verification leaves the
	// profile), funded, and approved: the test's own writes.
	if _, err := e.st.Update(ctx, store.Key{PK: "USER#" + mid, SK: "PROFILE"},
		store.NewUpdate().Set(auth.AttrKYCStatus, int64(2)).Set(auth.AttrRealName, "Bat Dorj"), store.ItemExists()); err != nil {
		t.Fatal(err)
	}
	if _, err := e.d.Ledger().Post(ctx, ledger.Posting{ID: "dep:p2p-fn", Reason: "deposit", Legs: []ledger.Leg{
		ledger.Move(ledger.ChainAccount("TRC20"), ledger.UserAccount(mid, ledger.OTC), "USDT", decimal.NewFromInt(500))}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.d.P2P().MerchantApply(ctx, mid); err != nil {
		t.Fatal(err)
	}
	if err := e.d.P2P().DecideMerchant(ctx, mid, "desk", true); err != nil {
		t.Fatal(err)
	}

	var pm struct{ ID string }
	fntest.Call(t, e.h, at(t, mtok, "/fe-otc-api/otc/payment/add", map[string]any{"payment": "bank", "bank": "KHAN",
		"account": "MN120005005123456789", "userName": "Bat Dorj"}), &pm)
	var ad struct{ ID string }
	fntest.Call(t, e.h, at(t, mtok, "/fe-otc-api/otc/wanted_save", map[string]any{"side": "SELL", "coinSymbol": "USDT",
		"priceType": "fixed", "price": "3500", "volume": "200", "minTrade": "10000", "maxTrade": "700000",
		"payments": []string{pm.ID}, "limitTime": 15}), &ad)
	if av, fr := e.otc(t, mid); av != "300" || fr != "200" {
		t.Fatalf("merchant after the ad: %s available, %s frozen", av, fr)
	}
	var found struct{ Count int }
	fntest.Call(t, e.h, at(t, btok, "/fe-otc-api/otc/search", map[string]any{"side": "BUY", "coinSymbol": "USDT"}), &found)
	if found.Count != 1 {
		t.Fatalf("search found %d", found.Count)
	}

	// The recorded order event: 350000 MNT at 3500 is 100 USDT in escrow.
	var o struct {
		ID, Status, Volume string
		Buyer              string `json:"buyerUid"`
	}
	fntest.Call(t, e.h, fntest.SampleEvent(t, "http_p2p_buy_order_save.json", map[string]string{"token": btok,
		"advertId": ad.ID, "totalPrice": "350000"}), &o)
	if o.Status != p2p.StatusPending || o.Volume != "100" || o.Buyer != bid {
		t.Fatalf("order %+v", o)
	}
	if env := fntest.Call(t, e.h, at(t, otok, "/fe-otc-api/v4/otc/order_detail", map[string]any{"id": o.ID}), nil); env.Code != apperr.CodeP2POrderNotFound {
		t.Fatalf("another user's order: %+v", env)
	}
	var msgs []struct{ By, Content string }
	fntest.Call(t, e.h, at(t, btok, "/fe-otc-api/chatMsg/message", map[string]any{"id": o.ID, "content": "Paying from Khan Bank"}), &msgs)
	if len(msgs) != 2 || msgs[1].Content != "Paying from Khan Bank" || msgs[1].By != bid {
		t.Fatalf("chat %+v", msgs)
	}
	var open struct {
		Count     int
		OrderList []struct{ ID string }
	}
	ev := at(t, mtok, "/fe-ex-api/v4/order/otc/unfinished", map[string]any{"page": 1, "pageSize": 20})
	ev.RouteKey, ev.RequestContext.RouteKey = "POST /fe-ex-api/v4/order/otc/{proxy+}", "POST /fe-ex-api/v4/order/otc/{proxy+}"
	fntest.Call(t, e.h, ev, &open)
	if open.Count != 1 || open.OrderList[0].ID != o.ID {
		t.Fatalf("merchant's unfinished %+v", open)
	}
	fntest.Call(t, e.h, at(t, btok, "/fe-otc-api/otc/order_cancel", map[string]any{"id": o.ID}), &o)
	if o.Status != p2p.StatusCancelled {
		t.Fatalf("after cancel %+v", o)
	}
	var adNow struct{ Volume string }
	fntest.Call(t, e.h, at(t, btok, "/fe-otc-api/otc/v4/wanted_detail", map[string]any{"id": ad.ID}), &adNow)
	if adNow.Volume != "200" {
		t.Fatalf("ad after the cancel: %+v", adNow)
	}
	if av, fr := e.otc(t, mid); av != "300" || fr != "200" {
		t.Fatalf("merchant after the cancel: %s available, %s frozen", av, fr)
	}
	// The order's deadline instance is in the table for wfstart to start.
	if _, err := e.st.Get(ctx, store.Key{PK: "WF#p2p-timeout-" + o.ID, SK: "WF"}); err != nil {
		t.Fatalf("deadline instance: %v", err)
	}
	rep, err := e.d.Ledger().Audit(ctx)
	if err != nil || !rep.Clean() {
		t.Fatalf("audit %+v %v", rep, err)
	}
}
