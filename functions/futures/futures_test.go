package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/functions/fntest"
	"tenger/internal/apperr"
	"tenger/internal/awslambda"
	"tenger/internal/coins"
	"tenger/internal/futures"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/spotfunds"
)

func TestHandlerNeedsTheEngine(t *testing.T) {
	if _, err := newHandler(&platform.Deps{}); !errors.Is(err, platform.ErrNoEngine) {
		t.Fatalf("newHandler without the engine = %v", err)
	}
}

// TestFuturesFromSampleEvents drives the futures function as API Gateway
// does, with recorded HTTP API v2 events (futures-version 101), on
// DynamoDB Local with the engine task's endpoint running futures: two
// users open their futures accounts (the wallet's create_co_id), one
// rests a short and the other buys it at market (cookie auth); the buyer's
// position shows in get_assets_list (header auth) with its liquidation
// price; an order beyond the margin is refused in the call; the table,
// the engine and the postings agree.
func TestFuturesFromSampleEvents(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	st := fntest.Table(t, "futures-fn")
	box := &fntest.Recorder{}
	logs := &syncBuffer{}
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	d := &platform.Deps{Store: st, Notify: box, Log: zerolog.New(logs), Now: time.Now, Coins: cc,
		Markets: markets.Defaults(), Config: platform.Config{Stage: "test", SecureCookies: true}}
	eng, fr := fntest.EngineFutures(t, d)
	handler, err := newHandler(d)
	if err != nil {
		t.Fatal(err)
	}
	h := awslambda.NewRuntime("futures", logs).HTTP(handler)
	others := http.NewServeMux()
	wallet, err := d.WalletArea()
	if err != nil {
		t.Fatal(err)
	}
	httpapi.Mount(others, append(d.ProfileArea(), wallet...)...)
	profile := awslambda.NewRuntime("profile", logs).HTTP(others)

	if err := fr.SetDevIndex("BTCUSDT", decimal.NewFromInt(60000)); err != nil {
		t.Fatal(err)
	}
	if err := fr.Step(ctx); err != nil {
		t.Fatal(err)
	}
	signUp := func(email string) (uid, tok string) {
		// The recorded events' user, under another address.
		as := func(name string, fill map[string]string) events.APIGatewayV2HTTPRequest {
			ev := fntest.SampleEvent(t, name, fill)
			body := ev.Body
			if ev.IsBase64Encoded {
				b, err := base64.StdEncoding.DecodeString(body)
				if err != nil {
					t.Fatal(err)
				}
				body = string(b)
			}
			body = strings.ReplaceAll(body, "sample.user@tenger.example", email)
			if ev.IsBase64Encoded {
				body = base64.StdEncoding.EncodeToString([]byte(body))
			}
			ev.Body = body
			return ev
		}
		if env := fntest.Call(t, profile, as("http_email_code.json", nil), nil); env.Code != "0" {
			t.Fatalf("emailValidCode: %+v", env)
		}
		var reg struct{ UID string }
		fntest.Call(t, profile, as("http_register.json", map[string]string{"code": box.LastCode(email)}), &reg)
		var login struct{ Token string }
		fntest.Call(t, profile, as("http_login.json", nil), &login)
		funds := d.SpotFunds()
		if err := funds.Credit(ctx, spotfunds.Move{Ref: "dep:" + reg.UID, UID: reg.UID, Coin: "USDT", Amount: decimal.NewFromInt(2000),
			Other: ledger.ChainAccount("TRC20"), Reason: "deposit"}); err != nil {
			t.Fatal(err)
		}
		if err := funds.Futures(ctx, spotfunds.Move{Ref: "in:" + reg.UID, UID: reg.UID, Coin: "USDT", Amount: decimal.NewFromInt(2000)}, true); err != nil {
			t.Fatal(err)
		}
		if err := d.Futures().Open(ctx, reg.UID); err != nil {
			t.Fatal(err)
		}
		return reg.UID, login.Token
	}
	_, seller := signUp("futures.seller@tenger.example")
	buyer, buyerTok := signUp("futures.buyer@tenger.example")

	order := func(tok, side, typ, price, volume, cid string) fntest.Envelope {
		_, env := fntest.Do(t, h, fntest.SampleEvent(t, "http_futures_order_create.json",
			map[string]string{"token": tok, "side": side, "type": typ, "price": price, "volume": volume, "clientOid": cid}))
		return env
	}
	if env := order(seller, "SELL", "LIMIT", "60000", "100", "s-1"); env.Code != "0" {
		t.Fatalf("the short: %+v", env)
	}
	// 100 contracts at 20x (the default) of 0.1 BTC at 60,000 hold 300 and a 3 fee; 1,000 do not fit 2,000.
	if env := order(buyerTok, "BUY", "MARKET", "", "1000", "b-0"); env.Code != apperr.CodeFuturesInsufficient {
		t.Fatalf("beyond the margin: %+v", env)
	}
	var o futures.Order
	fntest.Call(t, h, fntest.SampleEvent(t, "http_futures_order_create.json",
		map[string]string{"token": buyerTok, "side": "BUY", "type": "MARKET", "price": "", "volume": "100", "clientOid": "b-1"}), &o)
	if o.Status != futures.StatusFilled || o.AvgPrice != "60000.0" {
		t.Fatalf("market buy %+v", o)
	}
	var a futures.Assets
	fntest.Call(t, h, fntest.SampleEvent(t, "http_futures_assets.json", map[string]string{"token": buyerTok}), &a)
	if len(a.Positions) != 1 || a.Positions[0].Side != "LONG" || a.Positions[0].Volume != 100 || a.Positions[0].Liquidation == "" ||
		a.Accounts[0].PositionMargin != "300.00000000" {
		t.Fatalf("assets %+v", a)
	}
	if _, env := fntest.Do(t, h, fntest.SampleEvent(t, "http_futures_assets.json", map[string]string{"token": "not-a-session"})); env.Code != apperr.CodeNotSignedIn {
		t.Fatalf("assets without a session: %+v", env)
	}
	// Position mode: hedge for a user with nothing open; refused while a
	// position is; a mode that does not exist.
	mode := func(tok, m string) fntest.Envelope {
		_, env := fntest.Do(t, h, fntest.SampleEvent(t, "http_futures_position_model_edit.json", map[string]string{"token": tok, "positionMode": m}))
		return env
	}
	_, hedger := signUp("futures.hedger@tenger.example")
	var cfg futures.UserConfig
	fntest.Call(t, h, fntest.SampleEvent(t, "http_futures_position_model_edit.json", map[string]string{"token": hedger, "positionMode": "2"}), &cfg)
	if cfg.PositionMode != futures.PositionHedge {
		t.Fatalf("hedge mode %+v", cfg)
	}
	if env := mode(buyerTok, "2"); env.Code != apperr.CodeFuturesPositionModeLocked {
		t.Fatalf("hedge mode with a position: %+v", env)
	}
	if env := mode(hedger, "3"); env.Code != apperr.CodeFuturesPositionMode {
		t.Fatalf("mode 3: %+v", env)
	}
	if problems, err := eng.Verify(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("engine and table disagree: %v %v", problems, err)
	}
	rep, err := d.Ledger().Audit(ctx, "USDT")
	if err != nil || !rep.Clean() {
		t.Fatalf("audit: %v %v", rep.Problems, err)
	}
	if strings.Contains(logs.String(), buyerTok) {
		t.Error("the session token reached the logs")
	}
	_ = buyer
}

// syncBuffer is a log sink the handlers and the engine's goroutine share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
