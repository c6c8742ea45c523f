package httpapi

import (
	"bytes"
	"context"
	"image"
	pngpkg "image/png"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/p2p"
	"tenger/internal/p2p/paymethod"
	"tenger/internal/store"
	"tenger/internal/upload"
	"tenger/internal/upload/diskstore"
	"tenger/internal/workflow"
)

// p2pUsers: every user is verified, named after their id.
type p2pUsers struct{}

func (p2pUsers) P2PProfile(_ context.Context, uid string) (p2p.Profile, error) {
	return p2p.Profile{Nick: "nick-" + uid, KYCVerified: true}, nil
}

// p2pTestFund: the fund password is "fund-pw" for everyone.
type p2pTestFund struct{}

func (p2pTestFund) FundPasswordSet(context.Context, string) (bool, error) { return true, nil }
func (p2pTestFund) CheckFundPassword(_ context.Context, _, pw string) (bool, error) {
	return pw == "fund-pw", nil
}

// p2pTestMethods is the paymethod service seen as p2p.Methods.
type p2pTestMethods struct{ svc *paymethod.Service }

func (m p2pTestMethods) Methods(ctx context.Context, uid string, ids []string) ([]p2p.Method, error) {
	list, err := m.svc.Get(ctx, uid, ids)
	out := make([]p2p.Method, len(list))
	for i, x := range list {
		out[i] = p2p.Method{ID: x.ID, Kind: x.Kind, Title: x.Title, UserName: x.UserName, Account: x.Account, Bank: x.Bank}
	}
	return out, err
}

// ownedUploads is the upload service as P2P checks chat images.
type ownedUploads struct{ svc *upload.Service }

func (o ownedUploads) Owned(ctx context.Context, uid string, ids []string) error {
	for _, id := range ids {
		if _, err := o.svc.Owned(ctx, uid, id); err != nil {
			return err
		}
	}
	return nil
}

type p2pEnv struct {
	*profEnv
	svc    *p2p.Service
	led    *ledger.Ledger
	runner *workflow.Runner
	files  *upload.Service
}

func newP2PEnv(t *testing.T) *p2pEnv {
	t.Helper()
	p := newProfEnv(t)
	led := ledger.New(p.st, p.clock.Now)
	pay := paymethod.New(paymethod.Options{Store: p.st, Now: p.clock.Now, Log: zerolog.Nop(),
		Banks: func() []paymethod.Bank {
			return []paymethod.Bank{{Code: "KHAN", Name: "Khan Bank", NameMN: "Хаан банк"}}
		},
		HolderName: func(context.Context, string) (string, error) { return "Bat Dorj", nil }})
	var svc *p2p.Service
	svc = p2p.New(p2p.Options{Store: p.st, Ledger: led, Profiles: p2pUsers{}, Methods: p2pTestMethods{pay}, Fund: p2pTestFund{},
		Now: p.clock.Now, Log: zerolog.Nop(),
		Start: func(id string, input any, now, at time.Time) (store.Op, error) {
			return workflow.StartOpAt(svc.TimeoutDefinition(), id, input, now, at)
		}})
	runner := workflow.New(workflow.Options{Store: p.st, Now: p.clock.Now, Log: zerolog.Nop()})
	runner.Register(svc.TimeoutDefinition())
	disk, err := diskstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := upload.New(upload.Options{Store: p.st, Files: disk, Now: p.clock.Now, Log: zerolog.Nop()})
	svc.SetUploads(ownedUploads{files})
	mux := http.NewServeMux()
	opts := Options{Log: zerolog.Nop(), Now: p.clock.Now, Sessions: AuthSessions(p.svc)}
	Mount(mux, p.h.(*Router), NewP2PRouter(svc, pay, files, opts), NewDevP2PRouter(svc, opts))
	p.h = mux
	return &p2pEnv{profEnv: p, svc: svc, led: led, runner: runner, files: files}
}

func (e *p2pEnv) otcBalance(t *testing.T, uid string) (string, string) {
	t.Helper()
	b, err := e.led.Balance(context.Background(), ledger.UserAccount(uid, ledger.OTC), "USDT")
	if err != nil {
		t.Fatal(err)
	}
	return b.Available.String(), b.Frozen.String()
}

// TestP2PRoutesJourney: a merchant applies and is approved, adds a bank
// payment method and publishes a SELL ad; a buyer finds it, opens an
// order, they chat, the buyer pays and the seller releases; a second
// order times out through the workflow; bad input and other users' ids
// answer their codes and move nothing.
func TestP2PRoutesJourney(t *testing.T) {
	e := newP2PEnv(t)
	mid := e.signUp(t, "merchant@example.com", "Passw0rd!x")
	mtok := e.signIn(t, "merchant@example.com", "Passw0rd!x")
	bid := e.signUp(t, "buyer@example.com", "Passw0rd!x")
	btok := e.signIn(t, "buyer@example.com", "Passw0rd!x")
	e.signUp(t, "other@example.com", "Passw0rd!x")
	otok := e.signIn(t, "other@example.com", "Passw0rd!x")
	if _, err := e.led.Post(context.Background(), ledger.Posting{ID: "dep:m", Reason: "deposit",
		Legs: []ledger.Leg{ledger.Move(ledger.ChainAccount("TRC20"), ledger.UserAccount(mid, ledger.OTC), "USDT", decimal.NewFromInt(1000))}}); err != nil {
		t.Fatal(err)
	}

	info := e.ok(t, "/fe-otc-api/otc/public_info", withEnv(map[string]any{}), authMode{})
	if len(info["coins"].([]any)) != 3 || len(info["payments"].([]any)) != 3 {
		t.Fatalf("public_info %+v", info)
	}
	pm := e.ok(t, "/fe-otc-api/otc/payment/add", withEnv(map[string]any{"payment": "bank", "bank": "KHAN",
		"account": "MN120005005123456789", "userName": "Bat Dorj"}), hdr(mtok))
	e.fails(t, "/fe-otc-api/otc/payment/add", withEnv(map[string]any{"payment": "bank", "bank": "KHAN",
		"account": "MN12", "userName": "Bat Dorj"}), hdr(mtok), apperr.CodePayIBANFormat)

	ad := withEnv(map[string]any{"side": "SELL", "coinSymbol": "USDT", "priceType": "fixed", "price": "3500", "volume": "500",
		"minTrade": "10000", "maxTrade": "1000000", "payments": []string{pm["id"].(string)}, "limitTime": 15,
		"description": "Pay from your own account."})
	e.fails(t, "/fe-otc-api/otc/wanted_save", ad, hdr(mtok), apperr.CodeP2PNotMerchant)
	e.ok(t, "/fe-otc-api/otc/company_apply", withEnv(map[string]any{}), hdr(mtok))
	e.ok(t, "/dev/p2p/merchant", map[string]any{"userId": mid, "approve": true}, authMode{})
	bad := withEnv(map[string]any{"side": "SELL", "coinSymbol": "USDT", "priceType": "fixed", "price": "1e3", "volume": "500",
		"minTrade": "10000", "maxTrade": "1000000", "payments": []string{pm["id"].(string)}, "limitTime": 15})
	e.fails(t, "/fe-otc-api/otc/wanted_save", bad, hdr(mtok), apperr.CodeParam)
	a := e.ok(t, "/fe-otc-api/otc/wanted_save", ad, hdr(mtok))
	adID := a["id"].(string)
	if av, fr := e.otcBalance(t, mid); av != "500" || fr != "500" {
		t.Fatalf("merchant after the ad: %s available, %s frozen", av, fr)
	}

	found := e.ok(t, "/fe-otc-api/otc/search", withEnv(map[string]any{"side": "BUY", "coinSymbol": "USDT", "amount": "350000"}), authMode{})
	if found["count"] != float64(1) || found["list"].([]any)[0].(map[string]any)["merchant"].(map[string]any)["nickName"] != "nick-"+mid {
		t.Fatalf("search %+v", found)
	}
	env := e.fails(t, "/fe-otc-api/v4/otc/buy_order_save", withEnv(map[string]any{"advertId": adID, "volume": "10"}), hdr(mtok), apperr.CodeP2POwnAd)
	if env.ErrorMsg != "own_ad_cannot_be_traded" {
		t.Fatalf("own ad errorMsg %q", env.ErrorMsg)
	}
	o := e.ok(t, "/fe-otc-api/v4/otc/buy_order_save", withEnv(map[string]any{"advertId": adID, "totalPrice": "350000"}), hdr(btok))
	oid := o["id"].(string)
	if o["volume"] != "100" || o["status"] != p2p.StatusPending || o["side"] != "BUY" || o["buyerUid"] != bid {
		t.Fatalf("order %+v", o)
	}
	e.fails(t, "/fe-otc-api/v4/otc/order_detail", withEnv(map[string]any{"id": oid}), hdr(otok), apperr.CodeP2POrderNotFound)
	e.fails(t, "/fe-otc-api/chatMsg/message", withEnv(map[string]any{"id": oid, "content": "hi"}), hdr(otok), apperr.CodeP2POrderNotFound)
	_, chat := e.post(t, "/fe-otc-api/chatMsg/message", withEnv(map[string]any{"id": oid, "content": "Paying now"}), hdr(btok))
	if msgs, _ := chat.Data.([]any); chat.Code != "0" || len(msgs) != 2 || msgs[1].(map[string]any)["content"] != "Paying now" {
		t.Fatalf("chat %+v", chat)
	}
	// An image in the chat: the other side sees it, a third user does not.
	var png bytes.Buffer
	if err := pngpkg.Encode(&png, image.NewGray(image.Rect(0, 0, 20, 10))); err != nil {
		t.Fatal(err)
	}
	pngBytes := png.Bytes()
	img, err := e.files.Accept(context.Background(), bid, upload.PurposeImage, bytes.NewReader(pngBytes))
	if err != nil {
		t.Fatal(err)
	}
	e.ok(t, "/fe-otc-api/chatMsg/message", withEnv(map[string]any{"id": oid, "image": img.ID}), hdr(btok))
	// served answers whether the image's bytes came back (an error is a JSON envelope).
	served := func(tok, order, image string) bool {
		req := httptest.NewRequest(http.MethodGet, PathP2PChatImage+"?id="+order+"&image="+image, nil)
		req.Header.Set("exchange-token", tok)
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		return rec.Code == http.StatusOK && rec.Header().Get("Content-Type") == "image/png"
	}
	if !served(mtok, oid, img.ID) {
		t.Fatal("the seller cannot read the buyer's chat image")
	}
	if served(otok, oid, img.ID) {
		t.Fatal("a third user read the chat image")
	}
	other, err := e.files.Accept(context.Background(), bid, upload.PurposeImage, bytes.NewReader(pngBytes))
	if err != nil {
		t.Fatal(err)
	}
	if served(mtok, oid, other.ID) {
		t.Fatal("an upload never sent in the chat was served")
	}
	e.fails(t, "/fe-otc-api/otc/confirm_order", withEnv(map[string]any{"id": oid, "capitalPword": "fund-pw"}), hdr(btok), apperr.CodeP2POrderRole)
	e.ok(t, "/fe-otc-api/v4/otc/order_payed", withEnv(map[string]any{"id": oid}), hdr(btok))
	e.fails(t, "/fe-otc-api/otc/confirm_order", withEnv(map[string]any{"id": oid, "capitalPword": "nope"}), hdr(mtok), apperr.CodeP2PFundPassword)
	done := e.ok(t, "/fe-otc-api/otc/confirm_order", withEnv(map[string]any{"id": oid, "capitalPword": "fund-pw"}), hdr(mtok))
	if done["status"] != p2p.StatusCompleted || done["side"] != "SELL" {
		t.Fatalf("released %+v", done)
	}
	e.fails(t, "/fe-otc-api/otc/confirm_order", withEnv(map[string]any{"id": oid, "capitalPword": "fund-pw"}), hdr(mtok), apperr.CodeP2POrderState)
	if av, fr := e.otcBalance(t, bid); av != "100" || fr != "0" {
		t.Fatalf("buyer after the release: %s available, %s frozen", av, fr)
	}

	// Express quotes the ad; a block stops trading between the two until it is lifted.
	q := e.ok(t, "/fe-otc-api/quick_money/noToken/otc_channel_check", withEnv(map[string]any{"side": "BUY", "coinSymbol": "USDT", "volume": "10"}), authMode{})
	if q["advertId"] != adID || q["totalPrice"] != "35000" {
		t.Fatalf("express %+v", q)
	}
	if bal := e.ok(t, "/fe-otc-api/quick_money/get_quick_sell_balance", withEnv(map[string]any{"coinSymbol": "USDT"}), hdr(btok)); bal["available"] != "100" {
		t.Fatalf("sell balance %+v", bal)
	}
	e.ok(t, "/fe-otc-api/otc/person_relationship", withEnv(map[string]any{"uid": bid, "relation": "block"}), hdr(mtok))
	e.fails(t, "/fe-otc-api/v4/otc/buy_order_save", withEnv(map[string]any{"advertId": adID, "volume": "20"}), hdr(btok), apperr.CodeP2PBlocked)
	e.ok(t, "/fe-otc-api/otc/user_contacts_remove", withEnv(map[string]any{"uid": bid}), hdr(mtok))

	// A second order, never paid: cancelled by the system at its deadline.
	o2 := e.ok(t, "/fe-otc-api/v4/otc/buy_order_save", withEnv(map[string]any{"advertId": adID, "volume": "20"}), hdr(btok))
	list := e.ok(t, "/fe-ex-api/v4/order/otc/unfinished", withEnv(map[string]any{"page": 1, "pageSize": 20}), hdr(mtok))
	if list["count"] != float64(1) || list["orderList"].([]any)[0].(map[string]any)["id"] != o2["id"] {
		t.Fatalf("unfinished %+v", list)
	}
	e.clock.Add(16 * time.Minute)
	if _, err := e.runner.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	d2 := e.ok(t, "/fe-otc-api/v4/otc/order_detail", withEnv(map[string]any{"id": o2["id"]}), hdr(btok))
	if d2["status"] != p2p.StatusCancelledBySystem {
		t.Fatalf("after the deadline %+v", d2)
	}
	complete := e.ok(t, "/fe-ex-api/v4/order/otc/complete", withEnv(map[string]any{}), hdr(btok))
	if complete["count"] != float64(2) {
		t.Fatalf("complete %+v", complete)
	}
	if av, fr := e.otcBalance(t, mid); av != "500" || fr != "400" {
		t.Fatalf("merchant at the end: %s available, %s frozen", av, fr)
	}
	home := e.ok(t, "/fe-otc-api/otc/person_home_page", withEnv(map[string]any{"uid": bid}), authMode{})
	if home["completeOrders"] != float64(1) || home["cancelOrders"] != float64(1) || home["completionRate"] != "50.00" {
		t.Fatalf("buyer's record %+v", home)
	}
	e.fails(t, "/fe-otc-api/otc/order_cancel", withEnv(map[string]any{"id": "12"}), hdr(btok), apperr.CodeP2POrderNotFound)
	e.fails(t, "/fe-otc-api/v4/otc/buy_order_save", withEnv(map[string]any{"advertId": adID, "volume": "-3"}), hdr(btok), apperr.CodeParam)
	rep, err := e.led.Audit(context.Background())
	if err != nil || !rep.Clean() {
		t.Fatalf("audit %+v %v", rep, err)
	}
}
