package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/banksim"
	"tenger/internal/chain"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/store/embedded"
	"tenger/internal/wallet"
)

type fundsEnv struct {
	mux   *http.ServeMux
	box   *profOutbox
	clock *profClock
	led   *ledger.Ledger
	wal   *wallet.Service
	funds *Funds
}

type fundsAnswer struct {
	Code     string          `json:"code"`
	Msg      string          `json:"msg"`
	ErrorMsg string          `json:"errorMsg"`
	Data     json.RawMessage `json:"data"`
}

func newFundsEnv(t *testing.T) *fundsEnv {
	t.Helper()
	return newFundsEnvWith(t, false)
}

// newFundsEnvWith builds the env; dev is FundsConfig.Dev (the simulator's explorer).
func newFundsEnvWith(t *testing.T, dev bool) *fundsEnv {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e := &fundsEnv{box: &profOutbox{}, clock: &profClock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}}
	cat, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	authSvc := auth.New(auth.Options{Store: st, Notifier: auth.NotifierFunc(e.box.send), Now: e.clock.Now, Log: zerolog.Nop(),
		Password: &auth.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}, SecretKey: []byte("k")})
	e.led = ledger.New(st, e.clock.Now)
	wal := wallet.New(wallet.Options{Store: st, Ledger: e.led, Coins: cat, Auth: authSvc, Now: e.clock.Now, Log: zerolog.Nop()})
	e.wal = wal
	e.funds, err = NewFunds(FundsConfig{Store: st, Ledger: e.led, Coins: cat, Auth: authSvc, Wallet: wal, Now: e.clock.Now, Log: zerolog.Nop(), Dev: dev})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Log: zerolog.Nop(), Now: e.clock.Now, Sessions: AuthSessions(authSvc)}
	e.mux = http.NewServeMux()
	Mount(e.mux, NewProfileRouter(authSvc, opts), e.funds.Router(opts), e.funds.DevRouter(opts))
	return e
}

func (e *fundsEnv) call(t *testing.T, path, token string, body any) fundsAnswer {
	t.Helper()
	bs, _ := json.Marshal(body)
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(string(bs)))
	if token != "" {
		req.Header.Set(HeaderToken, token)
	}
	req.Header.Set(HeaderLanguage, apperr.LangMN)
	rec := httptest.NewRecorder()
	e.mux.ServeHTTP(rec, req)
	var a fundsAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
		t.Fatalf("%s: %s", path, rec.Body.String())
	}
	return a
}

func (e *fundsEnv) ok(t *testing.T, path, token string, body, out any) {
	t.Helper()
	a := e.call(t, path, token, body)
	if a.Code != "0" {
		t.Fatalf("%s: code %s %s", path, a.Code, a.Msg)
	}
	if out != nil {
		if err := json.Unmarshal(a.Data, out); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
}

// signUp registers an e-mail account and returns its id and session token.
func (e *fundsEnv) signUp(t *testing.T, email string) (string, string) {
	t.Helper()
	e.ok(t, "/fe-ex-api/v4/common/emailValidCode", "", map[string]any{"email": email, "operationType": 1}, nil)
	var reg struct {
		UID string `json:"uid"`
	}
	e.ok(t, "/fe-ex-api/user/register", "", map[string]any{"email": email, "loginPword": "secret123", "code": e.box.last(email, 1)}, &reg)
	var login struct {
		Token string `json:"token"`
	}
	e.ok(t, "/fe-ex-api/user/login_in", "", map[string]any{"email": email, "loginPword": "secret123"}, &login)
	return reg.UID, login.Token
}

func (e *fundsEnv) emailCode(t *testing.T, token, email string) string {
	t.Helper()
	e.clock.Add(91 * time.Second) // the resend wait
	e.ok(t, "/fe-ex-api/v4/common/emailValidCode", token, map[string]any{"operationType": "17"}, nil)
	return e.box.last(email, 17)
}

func TestFundsRoutesEndToEnd(t *testing.T) {
	e := newFundsEnv(t)
	uid, tok := e.signUp(t, "bat@example.com")

	// Deposit address and the chain simulator.
	var addr struct {
		AddressLong, AddressQRCode, Chain string
	}
	e.ok(t, "/fe-ex-api/wallet/get_charge_address", tok, map[string]any{"symbol": "USDT", "chain": "TRC20"}, &addr)
	if chain.Validate(chain.TRC20, addr.AddressLong) != nil || !strings.HasPrefix(addr.AddressQRCode, "data:image/png") {
		t.Fatalf("address %+v", addr)
	}
	if a := e.call(t, "/fe-ex-api/wallet/get_charge_address", "", map[string]any{"symbol": "USDT"}); a.Code != apperr.CodeNotSignedIn {
		t.Fatalf("anonymous: %+v", a)
	}
	var tx DevChainTx
	e.ok(t, "/dev/chain/deposit", "", map[string]any{"coin": "USDT", "chain": "TRC20", "address": addr.AddressLong, "amount": "250"}, &tx)
	if a := e.call(t, "/dev/chain/deposit", "", map[string]any{"coin": "USDT", "chain": "TRC20", "address": "nope", "amount": "1"}); a.Code != apperr.CodeSimInput {
		t.Fatalf("bad sim input %+v", a)
	}
	var hist FundsDepositPage
	e.ok(t, "/fe-ex-api/wallet/deposit_history", tok, map[string]any{}, &hist)
	if hist.Count != 1 || hist.List[0].Status != "confirming" || hist.List[0].TxID != tx.TxID {
		t.Fatalf("history %+v", hist)
	}
	e.ok(t, "/dev/chain/mine", "", map[string]any{"chain": "TRC20", "blocks": 19}, nil)
	e.ok(t, "/fe-ex-api/wallet/deposit_history", tok, map[string]any{"coinSymbol": "USDT"}, &hist)
	if hist.List[0].Status != "credited" || hist.List[0].Confirmations != 19 {
		t.Fatalf("credited %+v", hist.List[0])
	}
	// Paging follows the rule of every list: 1..100000 and 1..100, refused outside, never clamped.
	for _, c := range []struct {
		body map[string]any
		msg  string
	}{
		{map[string]any{"page": 0}, "page: 1 to 100000"},
		{map[string]any{"page": 100001}, "page: 1 to 100000"},
		{map[string]any{"pageSize": 0}, "pageSize: 1 to 100"},
		{map[string]any{"pageSize": 100000}, "pageSize: 1 to 100"},
	} {
		for _, path := range []string{"/fe-ex-api/wallet/deposit_history", "/fe-ex-api/wallet/withdraw_history"} {
			if a := e.call(t, path, tok, c.body); a.Code != apperr.CodeParam || !strings.HasSuffix(a.Msg, c.msg) {
				t.Fatalf("%s %v: %+v", path, c.body, a)
			}
		}
	}
	// A range that ends before it starts, or before the 180-day window, is refused (not a 5xx).
	for _, body := range []map[string]any{{"endTime": 123}, {"startTime": time.Now().UnixMilli(), "endTime": time.Now().Add(-time.Hour).UnixMilli()}} {
		for _, path := range []string{"/fe-ex-api/wallet/deposit_history", "/fe-ex-api/wallet/withdraw_history"} {
			if a := e.call(t, path, tok, body); a.Code != apperr.CodeWalletHistoryRange {
				t.Fatalf("%s %v: %+v", path, body, a)
			}
		}
	}

	// Bank deposit with the user id as the reference.
	e.ok(t, "/dev/bank/incoming", "", map[string]any{"amount": "300000", "reference": uid, "bankTxId": "K1"}, nil)
	e.ok(t, "/dev/bank/incoming", "", map[string]any{"amount": "300000", "reference": uid, "bankTxId": "K1"}, nil)
	e.ok(t, "/dev/bank/incoming", "", map[string]any{"amount": "5", "reference": "nobody", "bankTxId": "K2"}, nil)
	var review DevReviewList
	req := httptest.NewRequest(http.MethodGet, "/dev/bank/review", nil)
	rec := httptest.NewRecorder()
	e.mux.ServeHTTP(rec, req)
	var env fundsAnswer
	_ = json.Unmarshal(rec.Body.Bytes(), &env)
	_ = json.Unmarshal(env.Data, &review)
	if len(review.List) != 1 || review.List[0].TxID != "K2" {
		t.Fatalf("review %s", rec.Body.String())
	}
	var assets FundsAssetList
	e.ok(t, "/fe-ex-api/wallet/recharge_list", tok, map[string]any{}, &assets)
	var mnt, usdt bool
	for _, a := range assets.List {
		if a.Value == "MNT" && a.NormalBalance == "300000.00" {
			mnt = true
		}
		if a.Value == "USDT" && a.NormalBalance == "250.000000" && len(a.Chains) == 3 {
			usdt = true
		}
	}
	if !mnt || !usdt {
		t.Fatalf("assets %+v", assets.List)
	}

	// Chain withdrawal: cost, address check, wrong then right e-mail code.
	var cost struct {
		DefaultFee        string `json:"defaultFee"`
		CanWithdrawAmount string `json:"can_withdraw_amount"`
		NeedEmailCode     bool   `json:"needEmailCode"`
	}
	e.ok(t, "/fe-ex-api/cost/Getcost", tok, map[string]any{"symbol": "USDT", "chain": "TRC20"}, &cost)
	if cost.DefaultFee != "1" || cost.CanWithdrawAmount != "250.00000000" || !cost.NeedEmailCode {
		t.Fatalf("cost %+v", cost)
	}
	der, _ := chain.New(chain.DevelopmentConfig())
	to, _ := der.DepositAddress(chain.TRC20, 999)
	e.ok(t, "/fe-ex-api/wallet/validate_withdraw_address", tok, map[string]any{"coinSymbol": "USDT", "trustType": "TRC20", "address": to.Address}, nil)
	if a := e.call(t, "/fe-ex-api/wallet/validate_withdraw_address", tok, map[string]any{"coinSymbol": "USDT", "trustType": "TRC20", "address": "T123"}); a.Code != apperr.CodeAddressInvalid {
		t.Fatalf("invalid address %+v", a)
	}
	code := e.emailCode(t, tok, "bat@example.com")
	wrong := "000000"
	if code == wrong {
		wrong = "000001"
	}
	body := map[string]any{"symbol": "USDT", "trustType": "TRC20", "address": to.Address, "amount": "100", "fee": "1", "emailCode": wrong}
	if a := e.call(t, "/fe-ex-api/wallet/confirm_withdraw", tok, body); a.Code != "10009" || a.Msg != "Мобайл эсвэл имэйл баталгаажуулах код буруу байна" {
		t.Fatalf("wrong code %+v", a)
	}
	body["amount"] = "5"
	body["emailCode"] = code
	if a := e.call(t, "/fe-ex-api/wallet/confirm_withdraw", tok, body); a.ErrorMsg != "the.amount.is.not.enough" || a.Msg != "Зарлагын доод хязгаараас бага байна" {
		t.Fatalf("below min %+v", a)
	}
	body["amount"] = "100"
	var sub FundsSubmitResp
	e.ok(t, "/fe-ex-api/wallet/confirm_withdraw", tok, body, &sub)
	e.drive(t)
	e.ok(t, "/dev/chain/mine", "", map[string]any{"chain": "TRC20", "blocks": 19}, nil)
	e.drive(t)
	var wh FundsWithdrawPage
	e.ok(t, "/fe-ex-api/wallet/withdraw_history", tok, map[string]any{}, &wh)
	if wh.Count != 1 || wh.List[0].Status != "SUCCESS" || wh.List[0].TxID == "" || wh.List[0].ID != sub.ID {
		t.Fatalf("withdraw history %+v", wh)
	}

	// Bank withdrawal to a saved account, approved on the simulator's page.
	e.clock.Add(91 * time.Second)
	bal, _ := e.led.Balance(context.Background(), ledger.UserAccount(uid, ledger.Spot), "MNT")
	if !bal.Available.Equal(decimal.NewFromInt(300000)) {
		t.Fatalf("MNT %s", bal.Available)
	}
	if a := e.call(t, "/bank/v2/withdraw-req", tok, map[string]any{"userId": uid, "amount": "100000", "bankAccNo": "123456789012345678",
		"bankName": "Khan Bank", "bankAccName": "Bat", "code": "MONT", "emailCode": "123456"}); a.Code != apperr.CodeBankAccountUnknown {
		t.Fatalf("unsaved bank account %+v", a)
	}
	if _, err := e.wal.AddBankAccount(context.Background(), uid, wallet.AddBankInput{Account: "123456789012345678", Payment: wallet.Banks()[0].Payment}); err != nil {
		t.Fatal(err)
	}
	code = e.emailCode(t, tok, "bat@example.com")
	e.ok(t, "/bank/v2/withdraw-req", tok, map[string]any{"userId": uid, "amount": "100000", "bankAccNo": "MN123456789012345678",
		"bankName": "Khan Bank", "bankAccName": "Bat", "code": "MONT", "emailCode": code}, &sub)
	if sub.URL != "/dev/bank/confirm?id="+sub.ID {
		t.Fatalf("url %+v", sub)
	}
	e.drive(t)
	rec = httptest.NewRecorder()
	e.mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, sub.URL, nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "99500 MNT") {
		t.Fatalf("confirm page %d %s", rec.Code, rec.Body.String())
	}
	form := url.Values{"id": {sub.ID}, "answer": {"approve"}}
	req = httptest.NewRequest(http.MethodPost, "/dev/bank/confirm/answer", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec = httptest.NewRecorder()
	e.mux.ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("answer %d", rec.Code)
	}
	e.drive(t)
	e.ok(t, "/fe-ex-api/wallet/withdraw_history", tok, map[string]any{"coinSymbol": "MONT"}, &wh)
	if wh.Count != 1 || wh.List[0].Status != "SUCCESS" || wh.List[0].Kind != "bank" {
		t.Fatalf("bank withdraw history %+v", wh)
	}
	bal, _ = e.led.Balance(context.Background(), ledger.UserAccount(uid, ledger.Spot), "MNT")
	if !bal.Available.Equal(decimal.NewFromInt(200000)) || !bal.Frozen.IsZero() {
		t.Fatalf("MNT after %s/%s", bal.Available, bal.Frozen)
	}
	rep, err := e.led.Audit(context.Background())
	if err != nil || !rep.Clean() {
		t.Fatalf("audit %v %v", rep.Problems, err)
	}
}

// drive runs the workflow until it rests.
func (e *fundsEnv) drive(t *testing.T) {
	t.Helper()
	for i := 0; i < 20; i++ {
		n, err := e.funds.Runner.RunDue(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
	}
}

func TestBankConfirmPage(t *testing.T) {
	e := newFundsEnv(t)
	// A request the workflow would create, answered through the HTML page.
	r, err := e.funds.Bank.Pay(context.Background(), bankPay("w1"))
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	e.mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/dev/bank/confirm?id="+r.ID, nil))
	page, _ := io.ReadAll(rec.Body)
	if rec.Code != 200 || !strings.Contains(string(page), "Approve") || !strings.Contains(string(page), "99500 MNT") {
		t.Fatalf("page %d %s", rec.Code, page)
	}
	form := url.Values{"id": {r.ID}, "answer": {"approve"}}
	req := httptest.NewRequest(http.MethodPost, "/dev/bank/confirm/answer", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec = httptest.NewRecorder()
	e.mux.ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("answer %d %s", rec.Code, rec.Body.String())
	}
	got, _ := e.funds.Bank.Get(context.Background(), r.ID)
	if got.Status != "approved" {
		t.Fatalf("status %s", got.Status)
	}
}

func bankPay(ref string) banksim.PayReq {
	return banksim.PayReq{Ref: ref, Amount: decimal.NewFromInt(99500), BankName: "Khan Bank", AccountNo: "MN123456789012345678", AccountName: "Bat"}
}
