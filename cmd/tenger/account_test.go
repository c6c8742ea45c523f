package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/platform"
	"tenger/internal/spotfunds"
)

// localServer runs the local runtime's handler on the data directory data
// (without its background work: the tests move money through the engine
// directly) and returns it with an API client; stop closes both, as a
// stopped tenger serve leaves the directory to the operator's commands.
func localServer(t *testing.T, data string) (l *platform.Local, c *benchClient, stop func()) {
	t.Helper()
	l, err := platform.OpenLocal(data, platform.Config{Dev: true}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h, err := buildHandler(ctx, l, t.TempDir())
	if err != nil {
		_ = l.Close()
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			srv.Close()
			if err := l.Close(); err != nil {
				t.Error(err)
			}
		}
	}
	t.Cleanup(stop)
	return l, &benchClient{base: srv.URL, hc: srv.Client()}, stop
}

// call sends one request and fails the test on a transport error.
func call(t *testing.T, c *benchClient, path, token string, body any) benchAnswer {
	t.Helper()
	env, status, err := c.do(context.Background(), path, token, body)
	if err != nil || status >= 500 {
		t.Fatalf("%s: HTTP %d %v %+v", path, status, err, env)
	}
	return env
}

func okData(t *testing.T, c *benchClient, path, token string, body any, out any) {
	t.Helper()
	env := call(t, c, path, token, body)
	if env.Code != "0" {
		t.Fatalf("%s: code %s %s", path, env.Code, env.Msg)
	}
	if out != nil {
		if err := json.Unmarshal(env.Data, out); err != nil {
			t.Fatal(err)
		}
	}
}

type cancelInfo struct {
	CanCancel bool
	Reasons   []struct {
		Type  string
		Count int
	}
}

func spotMove(uid, ref, amount string) spotfunds.Move {
	return spotfunds.Move{Ref: ref, UID: uid, Coin: "USDT", Amount: decimal.RequireFromString(amount),
		Other: ledger.ChainAccount("TRC20"), Reason: "test"}
}

// TestAccountCancellationEndToEnd: on the local runtime, an order and its
// balance keep the account open (read from the engine's store projection,
// the order index included); once both are gone the owner cancels it,
// their session stops working and sign-in is refused; a deposit that
// arrives afterwards is credited and held; the operator finds it with
// `tenger account review` and reopens the account with `tenger account
// reopen`, after which the owner signs in to the money.
func TestAccountCancellationEndToEnd(t *testing.T) {
	data := t.TempDir()
	l, c, stop := localServer(t, data)
	ctx := context.Background()
	const email = "closer@example.com"
	token, err := benchSignUp(ctx, c, email)
	if err != nil {
		t.Fatal(err)
	}
	var me struct{ ID string }
	okData(t, c, "/fe-ex-api/common/user_info", token, map[string]any{}, &me)
	if err := l.SpotFunds().Credit(ctx, spotMove(me.ID, "deposit:e2e-1", "100")); err != nil {
		t.Fatal(err)
	}
	var order struct {
		OrderID string `json:"order_id"`
	}
	okData(t, c, "/fe-ex-api/order/create", token, map[string]any{"symbol": "btcusdt", "side": "BUY", "type": "LIMIT",
		"price": "10000", "volume": "0.001"}, &order)
	var info cancelInfo
	okData(t, c, "/fe-ex-api/user/check_user_cancellation_info", token, map[string]any{}, &info)
	if info.CanCancel || len(info.Reasons) != 2 || info.Reasons[0].Type != "balance" || info.Reasons[1].Type != "open_orders" ||
		info.Reasons[1].Count != 1 {
		t.Fatalf("with an order: %+v", info)
	}
	okData(t, c, "/fe-ex-api/order/cancel", token, map[string]any{"symbol": "btcusdt", "order_id": order.OrderID}, nil)
	if err := l.SpotFunds().Debit(ctx, spotMove(me.ID, "out:e2e-1", "100")); err != nil {
		t.Fatal(err)
	}
	okData(t, c, "/fe-ex-api/user/check_user_cancellation_info", token, map[string]any{}, &info)
	if !info.CanCancel || len(info.Reasons) != 0 {
		t.Fatalf("when clear: %+v", info)
	}
	okData(t, c, "/fe-ex-api/v4/common/emailValidCode", token, map[string]any{"operationType": 17}, nil)
	code, err := c.lastCode(ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	okData(t, c, "/fe-ex-api/user/user_cancellation", token, map[string]any{"emailCode": code, "reason": "e2e"}, nil)
	for _, path := range []string{"/fe-ex-api/order/create", "/fe-ex-api/common/user_info", "/fe-ex-api/finance/v5/account_balance"} {
		if env := call(t, c, path, token, map[string]any{"symbol": "btcusdt", "side": "BUY", "type": "LIMIT", "price": "1",
			"volume": "1"}); env.Code != apperr.CodeNotSignedIn {
			t.Fatalf("%s with the cancelled account's session: %s %s", path, env.Code, env.Msg)
		}
	}
	if env := call(t, c, "/fe-ex-api/user/login_in", "", map[string]any{"email": email, "loginPword": benchPassword}); env.Code != apperr.CodeAccountCancelled {
		t.Fatalf("sign-in: %s %s", env.Code, env.Msg)
	}
	// Money that arrives now is credited and held.
	if err := l.SpotFunds().Credit(ctx, spotMove(me.ID, "deposit:e2e-2", "25")); err != nil {
		t.Fatal(err)
	}
	stop()

	var out bytes.Buffer
	if err := accountCommand(&out, []string{"--data", data, "review"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), me.ID) || !strings.Contains(out.String(), "25 USDT (spot)") ||
		!strings.Contains(out.String(), "1 cancelled accounts holding money") {
		t.Fatalf("review:\n%s", out.String())
	}
	out.Reset()
	if err := accountCommand(&out, []string{"--data", data, "show", me.ID}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "reason: e2e") || !strings.Contains(out.String(), "records kept until at least") {
		t.Fatalf("show:\n%s", out.String())
	}
	out.Reset()
	if err := accountCommand(&out, []string{"--data", data, "--as", "desk-1", "--note", "identified at the office", "reopen", me.ID}); err != nil {
		t.Fatal(err)
	}
	if err := accountCommand(&out, []string{"--data", data, "reopen", me.ID}); err == nil || !strings.Contains(err.Error(), "not closed") {
		t.Fatalf("second reopen: %v", err)
	}
	out.Reset()
	if err := accountCommand(&out, []string{"--data", data, "show", me.ID}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "by desk-1 (identified at the office)") {
		t.Fatalf("show after reopening names neither the operator nor the note:\n%s", out.String())
	}

	_, c, _ = localServer(t, data)
	var login struct{ Token string }
	okData(t, c, "/fe-ex-api/user/login_in", "", map[string]any{"email": email, "loginPword": benchPassword}, &login)
	var bal struct {
		AllCoinMap map[string]struct{ Normal string } `json:"allCoinMap"`
	}
	okData(t, c, "/fe-ex-api/finance/v5/account_balance", login.Token, map[string]any{}, &bal)
	if got := bal.AllCoinMap["USDT"].Normal; !dec(got).Equal(dec("25")) {
		t.Fatalf("USDT after reopening: %q", got)
	}
}

// The account command's usage errors, and a data directory without a
// store, are refused before anything is opened.
func TestAccountCommandArgs(t *testing.T) {
	var out bytes.Buffer
	for _, args := range [][]string{{}, {"reopen"}, {"review", "x"}, {"delete", "1"}} {
		if err := accountCommand(&out, args); err == nil {
			t.Fatalf("%v accepted", args)
		}
	}
	if err := accountCommand(&out, []string{"--data", t.TempDir(), "review"}); err == nil || !strings.Contains(err.Error(), "no store") {
		t.Fatalf("empty directory: %v", err)
	}
}
