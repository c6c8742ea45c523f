package main

import (
	"bytes"
	"context"
	"encoding/json"
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
	"tenger/internal/awslambda"
	"tenger/internal/chain"
	"tenger/internal/coins"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
	"tenger/internal/wallet"
	"tenger/internal/withdraw"
)

// clock is the deployment's time, moved on by the test (code resend waits).
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestWalletFromSampleEvents drives the wallet function as API Gateway
// does, with recorded HTTP API v2 events, against the DynamoDB adapter on
// DynamoDB Local: a user signed up and in through the profile routers gets
// a chain and a bank deposit credited by the engine task, reads the balances
// (cookie auth), moves part to the OTC account, gets a deposit address, and
// submits a chain and a bank withdrawal with e-mail codes (header auth).
// Each submit writes the WF# item the workflow starter consumes and holds
// the amount in the engine; engine, table and books agree throughout.
func TestWalletFromSampleEvents(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	st := fntest.Table(t, "wallet-fn")

	box := &fntest.Recorder{}
	clk := &clock{t: time.Now()}
	var logs bytes.Buffer
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	d := &platform.Deps{Store: st, Notify: box, Log: zerolog.New(&logs), Now: clk.Now, Coins: cc, Markets: markets.Defaults(),
		Config: platform.Config{Stage: "test", SecureCookies: true}}
	if _, err := newHandler(d); !errors.Is(err, platform.ErrNoEngine) {
		t.Fatalf("the wallet function without the engine: %v", err)
	}
	eng := fntest.Engine(t, d)
	handler, err := newHandler(d)
	if err != nil {
		t.Fatal(err)
	}
	h := awslambda.NewRuntime("wallet", &logs).HTTP(handler)
	profileMux := http.NewServeMux()
	httpapi.Mount(profileMux, d.ProfileArea()...)
	profile := awslambda.NewRuntime("profile", &logs).HTTP(profileMux)

	// Sign up and in through the profile function's routers.
	const email = "sample.user@tenger.example"
	if env := fntest.Call(t, profile, fntest.SampleEvent(t, "http_email_code.json", nil), nil); env.Code != "0" {
		t.Fatalf("emailValidCode: %+v", env)
	}
	var reg struct{ UID string }
	fntest.Call(t, profile, fntest.SampleEvent(t, "http_register.json", map[string]string{"code": box.LastCode(email)}), &reg)
	var login struct{ Token string }
	fntest.Call(t, profile, fntest.SampleEvent(t, "http_login.json", nil), &login)
	uid, tok := reg.UID, login.Token
	if uid == "" || tok == "" {
		t.Fatalf("sign-up: uid %q", uid)
	}

	// Deposits credited as the deposit watcher credits them: engine
	// commands from the chain's and the bank's external accounts.
	led := ledger.New(st, clk.Now)
	for _, m := range []spotfunds.Move{
		{Ref: "deposit:TRC20:tx-wallet-fn:0", UID: uid, Coin: "USDT", Amount: dec("500"), Other: ledger.ChainAccount("TRC20"), Reason: "deposit"},
		{Ref: "deposit:bank:K-wallet-fn", UID: uid, Coin: "MNT", Amount: dec("300000"), Other: ledger.BankAccount("KHAN"), Reason: "deposit"},
	} {
		if err := d.SpotFunds().Credit(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	balances := func() map[string]struct{ Normal, Freeze, Total string } {
		t.Helper()
		var ab struct {
			AllCoinMap map[string]struct{ Normal, Freeze, Total string }
		}
		fntest.Call(t, h, fntest.SampleEvent(t, "http_wallet_account_balance.json", map[string]string{"token": tok}), &ab)
		return ab.AllCoinMap
	}
	expectRow := func(stage, coin, normal, freeze string) {
		t.Helper()
		row := balances()[coin]
		if !dec(row.Normal).Equal(dec(normal)) || !dec(row.Freeze).Equal(dec(freeze)) || !dec(row.Total).Equal(dec(normal).Add(dec(freeze))) {
			t.Errorf("%s: %s row = %+v, want normal %s freeze %s", stage, coin, row, normal, freeze)
		}
	}
	expectRow("after deposits", "USDT", "500", "0")
	expectRow("after deposits", "MNT", "300000", "0")

	// Spot → OTC, one ledger transaction.
	var moved struct{ FromAccount, ToAccount, Amount string }
	fntest.Call(t, h, fntest.SampleEvent(t, "http_wallet_otc_transfer.json", map[string]string{"token": tok, "amount": "120.5"}), &moved)
	if moved.FromAccount != "spot" || moved.ToAccount != "otc" || !dec(moved.Amount).Equal(dec("120.5")) {
		t.Fatalf("otc transfer = %+v", moved)
	}
	expectRow("after the OTC transfer", "USDT", "379.5", "0")
	if b, _ := led.Balance(ctx, ledger.UserAccount(uid, ledger.OTC), "USDT"); !b.Available.Equal(dec("120.5")) {
		t.Errorf("OTC USDT = %s", b.Available)
	}
	// More than the spot balance is refused and moves nothing.
	if env := fntest.Call(t, h, fntest.SampleEvent(t, "http_wallet_otc_transfer.json", map[string]string{"token": tok, "amount": "1000"}), nil); env.Code == "0" {
		t.Errorf("overdraft transfer accepted: %+v", env)
	}

	// Deposit address: the chain's real format, with its QR code.
	var addr struct{ AddressLong, AddressQRCode string }
	fntest.Call(t, h, fntest.SampleEvent(t, "http_wallet_get_charge_address.json", map[string]string{"token": tok}), &addr)
	if chain.Validate(chain.TRC20, addr.AddressLong) != nil || !strings.HasPrefix(addr.AddressQRCode, "data:image/png;base64,") {
		t.Fatalf("deposit address = %q (qr %.30q)", addr.AddressLong, addr.AddressQRCode)
	}
	var again struct{ AddressLong string }
	fntest.Call(t, h, fntest.SampleEvent(t, "http_wallet_get_charge_address.json", map[string]string{"token": tok}), &again)
	if again.AddressLong != addr.AddressLong {
		t.Errorf("deposit address not stable: %s then %s", addr.AddressLong, again.AddressLong)
	}

	// Chain withdrawal with the e-mail code: 100 USDT held (fee 1 included).
	der, err := chain.New(chain.DevelopmentConfig())
	if err != nil {
		t.Fatal(err)
	}
	to, err := der.DepositAddress(chain.TRC20, 4242)
	if err != nil {
		t.Fatal(err)
	}
	// The e-mail code route is the profile function's; the wallet function
	// does not serve it.
	if env := fntest.Call(t, h, fntest.SampleEvent(t, "http_wallet_email_code.json", map[string]string{"token": tok}), nil); env.Code == "0" {
		t.Fatalf("wallet function served emailValidCode: %+v", env)
	}
	// Its named operations emailValid and marketData are the wallet
	// function's, through the same services.
	named := func(path string) events.APIGatewayV2HTTPRequest {
		ev := fntest.SampleEvent(t, "http_wallet_email_code.json", map[string]string{"token": tok})
		ev.RawPath, ev.RequestContext.HTTP.Path = path, path
		ev.RouteKey, ev.RequestContext.RouteKey = "POST /fe-ex-api/wallet/{proxy+}", "POST /fe-ex-api/wallet/{proxy+}"
		return ev
	}
	before := box.LastCode(email)
	fntest.Call(t, h, named("/fe-ex-api/wallet/emailValid"), new(json.RawMessage))
	if c := box.LastCode(email); len(c) != 6 || c == before {
		t.Fatalf("wallet/emailValid mailed no new code: %q (before %q)", c, before)
	}
	var md struct {
		Market map[string]map[string]json.RawMessage
	}
	fntest.Call(t, h, named("/fe-ex-api/wallet/marketData"), &md)
	if md.Market["USDT"]["BTC/USDT"] == nil {
		t.Fatalf("wallet/marketData without BTC/USDT: %+v", md)
	}
	emailCode := func() string {
		t.Helper()
		clk.Add(91 * time.Second)
		fntest.Call(t, profile, fntest.SampleEvent(t, "http_wallet_email_code.json", map[string]string{"token": tok}), new(json.RawMessage))
		return box.LastCode(email)
	}
	var sub struct{ ID, Status, URL string }
	fill := map[string]string{"token": tok, "address": to.Address, "amount": "100", "code": emailCode(), "requestId": "req-chain-1"}
	fntest.Call(t, h, fntest.SampleEvent(t, "http_wallet_confirm_withdraw.json", fill), &sub)
	if sub.ID == "" || sub.Status != withdraw.StatusPending {
		t.Fatalf("confirm_withdraw = %+v", sub)
	}
	// A retried submit (same requestId) holds nothing twice.
	var retried struct{ ID string }
	fntest.Call(t, h, fntest.SampleEvent(t, "http_wallet_confirm_withdraw.json", fill), &retried)
	if retried.ID != sub.ID {
		t.Errorf("retried submit made %s, first %s", retried.ID, sub.ID)
	}
	expectRow("after the chain withdrawal", "USDT", "279.5", "100")
	wf, err := st.Get(ctx, store.Key{PK: "WF#" + sub.ID, SK: "WF"})
	if err != nil || wf.Str("kind") != withdraw.WorkflowKind || wf.Str("id") != sub.ID {
		t.Fatalf("workflow item of %s: %v %v", sub.ID, wf, err)
	}

	// Bank withdrawal of MNT to a saved account.
	if _, err := d.Wallet().AddBankAccount(ctx, uid, wallet.AddBankInput{Account: "123456789012345678", Payment: wallet.Banks()[0].Payment}); err != nil {
		t.Fatal(err)
	}
	var bank struct{ ID, Status string }
	fntest.Call(t, h, fntest.SampleEvent(t, "http_bank_withdraw_req.json", map[string]string{"token": tok, "uid": uid, "amount": "100000",
		"code": emailCode(), "requestId": "req-bank-1"}), &bank)
	if bank.ID == "" || bank.ID == sub.ID || bank.Status != withdraw.StatusPending {
		t.Fatalf("withdraw-req = %+v", bank)
	}
	expectRow("after the bank withdrawal", "MNT", "200000", "100000")
	if _, err := st.Get(ctx, store.Key{PK: "WF#" + bank.ID, SK: "WF"}); err != nil {
		t.Fatalf("workflow item of the bank withdrawal: %v", err)
	}

	// Rates answer from the wallet function (the exact route that wins over
	// the profile function's /fe-ex-api/common/{proxy+}).
	if env := fntest.Call(t, h, fntest.SampleEvent(t, "http_wallet_rate.json", map[string]string{"token": tok}), nil); env.Code != "0" || !strings.Contains(string(env.Data), "USDT") {
		t.Errorf("common/rate: %+v", env)
	}

	// The simulators' /dev routes are not part of the AWS function.
	ev := fntest.SampleEvent(t, "http_wallet_get_charge_address.json", map[string]string{"token": tok})
	ev.RawPath, ev.RequestContext.HTTP.Path = "/dev/chain/deposit", "/dev/chain/deposit"
	if resp, err := h(ctx, ev); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("/dev/chain/deposit: %d %v", resp.StatusCode, err)
	}

	symbols := make([]string, 0)
	for _, c := range cc.List() {
		symbols = append(symbols, c.Symbol)
	}
	if problems, err := eng.Verify(ctx); err != nil || len(problems) != 0 {
		t.Fatalf("engine and table disagree: %v %v", problems, err)
	}
	rep, err := led.Audit(ctx, symbols...)
	if err != nil || !rep.Clean() {
		t.Fatalf("audit: %v %v", rep.Problems, err)
	}
	for _, secret := range []string{tok, box.LastCode(email)} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("a secret reached the logs")
		}
	}
}
