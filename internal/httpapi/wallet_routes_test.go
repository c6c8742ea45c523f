package httpapi

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
	"tenger/internal/auth"
	"tenger/internal/ledger"
	wt "tenger/internal/wallet/wallettest"
)

// walletSessions resolves test tokens to users (sessions themselves are
// the profile service's and tested there).
type walletSessions map[string]string

func (m walletSessions) ResolveSession(_ context.Context, token string) (Principal, error) {
	uid, ok := m[token]
	if !ok {
		return Principal{}, apperr.New(apperr.CodeNotSignedIn)
	}
	return Principal{UserID: uid, SessionID: "s-" + token}, nil
}

type walletEnv struct {
	*wt.Env
	h        *Router
	sessions walletSessions
}

type walletAnswer struct {
	Status   int
	Code     string          `json:"code"`
	Msg      string          `json:"msg"`
	ErrorMsg string          `json:"errorMsg"`
	Data     json.RawMessage `json:"data"`
}

func newWalletEnv(t *testing.T) *walletEnv {
	t.Helper()
	e := wt.New(t)
	s := walletSessions{}
	return &walletEnv{Env: e, sessions: s, h: NewWalletRouter(e.Wallet, Options{Log: zerolog.Nop(), Sessions: s, Now: e.Clock.Now})}
}

// login makes a token for the user.
func (w *walletEnv) login(u wt.User) string {
	tok := "tok-" + u.UID
	w.sessions[tok] = u.UID
	return tok
}

func (w *walletEnv) call(t *testing.T, path, token string, body any, cookies ...*http.Cookie) walletAnswer {
	t.Helper()
	raw, ok := body.(string)
	if !ok && body != nil {
		b, _ := json.Marshal(body)
		raw = string(b)
	}
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set(HeaderToken, token)
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	w.h.ServeHTTP(rec, req)
	var a walletAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
		t.Fatalf("%s: body %q: %v", path, rec.Body.String(), err)
	}
	a.Status = rec.Code
	if rec.Code >= 500 || a.Code == apperr.CodeInternal {
		t.Fatalf("%s %s: server error %d %s %s", path, raw, rec.Code, a.Code, a.Msg)
	}
	return a
}

// ok calls and requires code 0, decoding data into out when given.
func (w *walletEnv) ok(t *testing.T, path, token string, body any, out any) {
	t.Helper()
	a := w.call(t, path, token, body)
	if a.Code != apperr.CodeOK {
		t.Fatalf("%s: code %s %s", path, a.Code, a.Msg)
	}
	if out != nil {
		if err := json.Unmarshal(a.Data, out); err != nil {
			t.Fatalf("%s: data %s: %v", path, a.Data, err)
		}
	}
}

func (w *walletEnv) fail(t *testing.T, path, token string, body any, code string) walletAnswer {
	t.Helper()
	a := w.call(t, path, token, body)
	if a.Code != code {
		t.Fatalf("%s %v: code %s (%s), want %s", path, body, a.Code, a.Msg, code)
	}
	return a
}

func TestWalletRoutesPublic(t *testing.T) {
	w := newWalletEnv(t)
	for _, p := range []string{"/fe-ex-api/common/rate", "/fe-ex-api/wallet/rateData"} {
		var rates map[string]map[string]string
		w.ok(t, p, "", map[string]any{"uaTime": "2026-11-21 10:00:00"}, &rates)
		if rates["en_US"]["BTC"] == "" || rates["mn_MN"]["MONT"] != "1" || rates["mn_MN"]["lang_logo"] != "₮" {
			t.Fatalf("%s: %v", p, rates)
		}
	}
	var v2 WalletRates
	w.ok(t, "/fe-ex-api/common/rateV2", "", nil, &v2)
	if len(v2.Currencies) != 2 || v2.Rate["en_US"]["USDT"] != "1" {
		t.Fatalf("rateV2 %+v", v2)
	}
	var cur []map[string]string
	w.ok(t, "/fe-ex-api/common/getFaitCoinList", "", nil, &cur)
	if len(cur) != 2 || cur[0]["id"] != "USD" || cur[1]["text"] != "MNT" {
		t.Fatalf("currencies %v", cur)
	}
	var pay WalletPaymentList
	w.ok(t, "/fe-ex-api/wallet/payment_list", "", nil, &pay)
	if len(pay.AllPaymentList) < 9 || pay.AllPaymentList[0].Title != "Khan Bank" {
		t.Fatalf("payment list %+v", pay)
	}
	var ml struct{ CoinLists []map[string]string }
	w.ok(t, "/fe-ex-api/wallet/get_margin_coin_list", "", map[string]any{"mode": "2"}, &ml)
	if len(ml.CoinLists) == 0 || ml.CoinLists[0]["showBaseCoin"] != "BTC" {
		t.Fatalf("margin list %+v", ml)
	}
	w.fail(t, "/fe-ex-api/wallet/get_margin_coin_list", "", map[string]any{}, apperr.CodeParam)
	w.fail(t, "/fe-ex-api/wallet/get_margin_coin_list", "", map[string]any{"mode": 5}, apperr.CodeParam)

	// Every route is in the OpenAPI document.
	doc, err := json.Marshal(OpenAPI("Tenger", "test", w.h.Routes()))
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range w.h.Routes() {
		if !strings.Contains(string(doc), `"`+rt.Path+`"`) {
			t.Fatalf("%s missing from OpenAPI", rt.Path)
		}
	}
	for _, p := range []string{"/fe-ex-api/finance/v5/account_balance", "/fe-ex-api/finance/otc_transfer", "/fe-ex-api/finance/otc_account_list",
		"/fe-ex-api/finance/v4/otc_account_list", "/fe-ex-api/record/otc_transfer_list", "/fe-ex-api/fiat/fiat_user_bank_list",
		"/fe-ex-api/fiat/fiat_user_bank_add", "/fe-ex-api/v4/capital_password/reset", "/fe-ex-api/common/rate", "/fe-ex-api/common/rateV2",
		"/fe-ex-api/common/getFaitCoinList", "/fe-ex-api/user/update_fee_coin_open"} {
		if !strings.Contains(string(doc), `"`+p+`"`) {
			t.Fatalf("spec path %s not served", p)
		}
	}

	// Every private route refuses anonymous and unknown-token calls.
	for _, rt := range w.h.Routes() {
		if rt.Auth != Private {
			continue
		}
		w.fail(t, rt.Path, "", map[string]any{}, apperr.CodeNotSignedIn)
		w.fail(t, rt.Path, "nope", map[string]any{}, apperr.CodeNotSignedIn)
	}
}

// TestWalletRoutesNeverFail5xx sends malformed and mistyped bodies to every
// route: each answers a catalogue code, never a server error.
func TestWalletRoutesNeverFail5xx(t *testing.T) {
	w := newWalletEnv(t)
	u := w.NewUser(t, wt.Flags{MobileCheck: true})
	tok := w.login(u)
	w.Fund(t, u.UID, "USDT", "5")
	bodies := []string{
		"", "{", "[]", "null", `"x"`, `{"a":1} {}`, strings.Repeat("x", 70<<10),
		`{"amount":{},"coinSymbol":[],"fromAccount":"x","transferType":1.5}`,
		`{"amount":"1e400","coinSymbol":"USDT","fromAccount":1,"toAccount":2,"transferType":"3","symbol":"BTCUSDT","type":"1","mode":"1"}`,
		`{"amount":"99999999999999999999999999999999","coinSymbol":"USDT","fromAccount":2,"toAccount":1,"transferType":4}`,
		`{"amount":"0.1","coinSymbol":"BTC","transferType":1,"symbol":"NOPE","type":0,"account":"isolated"}`,
		`{"address":"` + strings.Repeat("a", 300) + `","coinSymbol":"USDT","label":"l","chain":"ERC20"}`,
		`{"address":"x","coinSymbol":"ZZZ","label":"l","trustType":"ERC20","verify":7}`,
		`{"account":"MN` + strings.Repeat("9", 40) + `","payment":"KHAN","smsAuthCode":"1"}`,
		`{"newCapitalPwd":"` + strings.Repeat("p", 300) + `","smsAuthCode":"abcdefghijklmnopqrst"}`,
		`{"id":"` + strings.Repeat("i", 70) + `","useFeeCoinOpen":3,"open":2,"page":-1,"pageSize":1000}`,
		`{"startDate":"2026-13-45","endDate":"x","startTime":-5,"endTime":"abc","coinSymbol":"` + strings.Repeat("C", 30) + `"}`,
		`{"currency":"` + strings.Repeat("E", 20) + `","onlyAccount":"yes"}`,
	}
	for _, rt := range w.h.Routes() {
		for _, b := range bodies {
			a := w.call(t, rt.Path, tok, b)
			if a.Code == apperr.CodeOK && len(b) > 60<<10 {
				t.Fatalf("%s accepted an oversized body", rt.Path)
			}
		}
		// Wrong method.
		req := httptest.NewRequest(http.MethodGet, rt.Path, nil)
		rec := httptest.NewRecorder()
		w.h.ServeHTTP(rec, req)
		if rec.Code != http.StatusMethodNotAllowed {
			t.Fatalf("GET %s: %d", rt.Path, rec.Code)
		}
	}
	// Balances unchanged by all that, except what valid calls moved; the books are clean.
	w.Audit(t)
}

func TestWalletRoutesBalancesAndTransfers(t *testing.T) {
	w := newWalletEnv(t)
	u := w.NewUser(t, wt.Flags{})
	tok := w.login(u)
	w.Fund(t, u.UID, "USDT", "1000")
	w.Fund(t, u.UID, "BTC", "1")

	// OTC: 1 spot -> 2 OTC, and back.
	var rec struct {
		ID, Amount, FromAccount, ToAccount string
		Replayed                           bool
	}
	w.ok(t, "/fe-ex-api/finance/otc_transfer", tok, map[string]any{"fromAccount": 1, "toAccount": "2", "amount": "100", "coinSymbol": "USDT"}, &rec)
	if rec.FromAccount != "spot" || rec.ToAccount != "otc" || rec.Amount != "100" {
		t.Fatalf("otc transfer %+v", rec)
	}
	w.ok(t, "/fe-ex-api/wallet/otc_transfer", tok, map[string]any{"fromAccount": 2, "toAccount": 1, "amount": 25.5, "coinSymbol": "USDT"}, nil)
	w.fail(t, "/fe-ex-api/finance/otc_transfer", tok, map[string]any{"fromAccount": 1, "toAccount": 1, "amount": "1", "coinSymbol": "USDT"}, apperr.CodeWalletTransferAccount)
	w.fail(t, "/fe-ex-api/finance/otc_transfer", tok, map[string]any{"fromAccount": 1, "toAccount": 3, "amount": "1", "coinSymbol": "USDT"}, apperr.CodeWalletTransferAccount)
	w.fail(t, "/fe-ex-api/finance/otc_transfer", tok, map[string]any{"fromAccount": 1, "amount": "1", "coinSymbol": "USDT"}, apperr.CodeParam)
	w.fail(t, "/fe-ex-api/finance/otc_transfer", tok, map[string]any{"fromAccount": 1, "toAccount": 2, "amount": "1.", "coinSymbol": "USDT"}, "0")
	w.fail(t, "/fe-ex-api/finance/otc_transfer", tok, map[string]any{"fromAccount": 1, "toAccount": 2, "amount": "1..", "coinSymbol": "USDT"}, apperr.CodeWalletAmountFormat)
	w.fail(t, "/fe-ex-api/finance/otc_transfer", tok, map[string]any{"fromAccount": 1, "toAccount": 2, "amount": "0", "coinSymbol": "USDT"}, apperr.CodeWalletAmountZero)
	w.fail(t, "/fe-ex-api/finance/otc_transfer", tok, map[string]any{"fromAccount": 1, "toAccount": 2, "amount": "5000", "coinSymbol": "USDT"}, apperr.CodeWalletInsufficient)
	w.fail(t, "/fe-ex-api/finance/otc_transfer", tok, map[string]any{"fromAccount": 1, "toAccount": 2, "amount": "1", "coinSymbol": "TRX"}, apperr.CodeWalletCoinNotTransferable)

	// Futures with truncation and an idempotent retry.
	body := map[string]any{"amount": "10.98765", "coinSymbol": "USDT", "clientOid": "abc-1"}
	w.ok(t, "/fe-ex-api/wallet/futures_to_contract", tok, body, &rec)
	if rec.Amount != "10.987" || rec.Replayed {
		t.Fatalf("futures %+v", rec)
	}
	w.ok(t, "/fe-ex-api/wallet/futures_to_contract", tok, body, &rec)
	if !rec.Replayed {
		t.Fatalf("retry not replayed: %+v", rec)
	}
	w.ok(t, "/fe-ex-api/wallet/futures_to_account", tok, map[string]any{"amount": "0.987", "coinSymbol": "USDT"}, nil)
	w.WantAvail(t, ledger.UserAccount(u.UID, ledger.Futures), "USDT", "10")

	// Margin types 1-4.
	w.ok(t, "/fe-ex-api/wallet/margin_transfer", tok, map[string]any{"transferType": 1, "amount": "0.5", "symbol": "BTCUSDT", "coinSymbol": "BTC"}, nil)
	w.ok(t, "/fe-ex-api/wallet/margin_transfer", tok, map[string]any{"transferType": "2", "amount": "0.2", "symbol": "BTCUSDT", "coinSymbol": "BTC"}, nil)
	w.ok(t, "/fe-ex-api/wallet/margin_transfer", tok, map[string]any{"transferType": 3, "amount": "50", "coinSymbol": "USDT"}, nil)
	w.ok(t, "/fe-ex-api/wallet/margin_transfer", tok, map[string]any{"transferType": 4, "amount": "20", "coinSymbol": "USDT"}, nil)
	w.fail(t, "/fe-ex-api/wallet/margin_transfer", tok, map[string]any{"transferType": 1, "amount": "0.5", "coinSymbol": "BTC"}, apperr.CodeParam)
	w.fail(t, "/fe-ex-api/wallet/margin_transfer", tok, map[string]any{"transferType": 5, "amount": "0.5", "coinSymbol": "BTC"}, apperr.CodeParam)
	w.fail(t, "/fe-ex-api/wallet/margin_transfer", tok, map[string]any{"transferType": 2, "amount": "5", "symbol": "BTCUSDT", "coinSymbol": "BTC"}, apperr.CodeWalletInsufficient)
	w.WantAvail(t, ledger.IsolatedAccount(u.UID, "BTCUSDT"), "BTC", "0.3")
	w.WantAvail(t, ledger.UserAccount(u.UID, ledger.MarginCross), "USDT", "30")
	w.WantAvail(t, ledger.UserAccount(u.UID, ledger.Spot), "USDT", "884.5")

	// Lookups.
	var mi map[string]any
	w.ok(t, "/fe-ex-api/wallet/get_margin_cross_isolated", tok, map[string]any{"type": 1, "symbol": "USDT"}, &mi)
	if mi["exNormalBalance"] != "884.5000" || mi["canTransfer"] != "30.0000" {
		t.Fatalf("cross info %v", mi)
	}
	w.ok(t, "/fe-ex-api/wallet/get_margin_cross_isolated", tok, map[string]any{"type": 0, "symbol": "BTCUSDT"}, &mi)
	if mi["baseCanTransfer"] != "0.3000" || mi["quoteCoin"] != "USDT" {
		t.Fatalf("isolated info %v", mi)
	}
	w.fail(t, "/fe-ex-api/wallet/get_margin_cross_isolated", tok, map[string]any{"type": 1}, apperr.CodeParam)
	var tcl struct {
		List []map[string]any
	}
	w.ok(t, "/fe-ex-api/wallet/get_transfer_coin_list", tok, map[string]any{"account": "otc"}, &tcl)
	if len(tcl.List) != 3 || tcl.List[0]["targetNormal"] != "75.500000" {
		t.Fatalf("otc coins %+v", tcl)
	}
	w.fail(t, "/fe-ex-api/wallet/get_transfer_coin_list", tok, map[string]any{"account": "bank"}, apperr.CodeWalletTransferAccount)

	// Balance pages at both paths, with the currency cookie.
	var ab map[string]any
	w.ok(t, "/fe-ex-api/finance/v5/account_balance", tok, nil, &ab)
	if ab["currency"] != "USD" || ab["totalBalanceSymbol"] != "BTC" {
		t.Fatalf("account balance %v", ab)
	}
	a := w.call(t, "/fe-ex-api/wallet/account_balance", tok, nil, &http.Cookie{Name: CookieCurrency, Value: "MNT"})
	if !strings.Contains(string(a.Data), `"currency":"MNT"`) || !strings.Contains(string(a.Data), `"lang_logo":"₮"`) {
		t.Fatalf("cookie currency ignored: %s", a.Data)
	}
	for _, p := range []string{"get_overview_balance", "get_fiat_balance", "get_margin_cross_balance", "get_margin_isolated_balance",
		"otc_account_list", "get_futures_balance", "get_futures_balance_statistics", "get_earn_balance"} {
		w.ok(t, "/fe-ex-api/wallet/"+p, tok, map[string]any{"currency": "MNT"}, nil)
	}
	var otc struct {
		AllCoinMap map[string]map[string]string
	}
	for _, p := range []string{"/fe-ex-api/finance/otc_account_list", "/fe-ex-api/finance/v4/otc_account_list"} {
		w.ok(t, p, tok, nil, &otc)
		if otc.AllCoinMap["USDT"]["normal"] != "75.50" || otc.AllCoinMap["USDT"]["exchangeNormal"] != "884.50" {
			t.Fatalf("%s: %+v", p, otc.AllCoinMap["USDT"])
		}
	}
	var ov map[string]string
	w.ok(t, "/fe-ex-api/wallet/get_overview_balance", tok, map[string]any{"coinSymbol": "USDT"}, &ov)
	if ov["coinSymbol"] != "USDT" {
		t.Fatalf("overview %v", ov)
	}
	w.fail(t, "/fe-ex-api/wallet/get_overview_balance", tok, map[string]any{"coinSymbol": "NOPE"}, apperr.CodeWalletCoinUnknown)
	var fb struct{ AccountList []map[string]string }
	w.ok(t, "/fe-ex-api/wallet/get_futures_balance", tok, map[string]any{"onlyAccount": 1}, &fb)
	if fb.AccountList[0]["canUseAmount"] != "10.00000000" {
		t.Fatalf("futures %+v", fb)
	}
	w.fail(t, "/fe-ex-api/wallet/get_futures_balance_statistics", tok, map[string]any{"startDate": "2026-11-20", "endDate": "2026-11-01"}, apperr.CodeWalletHistoryRange)

	// History at both OTC paths and the general list.
	var page struct {
		Count int
		List  []map[string]any
	}
	w.ok(t, "/fe-ex-api/record/otc_transfer_list", tok, map[string]any{"page": 1, "pageSize": 10}, &page)
	if page.Count != 3 {
		t.Fatalf("otc history %+v", page)
	}
	w.ok(t, "/fe-ex-api/wallet/transfer_list", tok, map[string]any{"coinSymbol": "BTC"}, &page)
	if page.Count != 2 || page.List[0]["fromAccount"] != "margin_isolated" {
		t.Fatalf("BTC history %+v", page)
	}
	w.ok(t, "/fe-ex-api/wallet/transfer_list", tok, map[string]any{"account": "futures", "pageSize": "1", "page": "2"}, &page)
	if page.Count != 2 || len(page.List) != 1 || page.List[0]["amount"] != "10.987" {
		t.Fatalf("futures history %+v", page)
	}
	w.fail(t, "/fe-ex-api/wallet/transfer_list", tok, map[string]any{"pageSize": 101}, apperr.CodeParam)
	w.fail(t, "/fe-ex-api/wallet/transfer_list", tok, map[string]any{"coinSymbol": "NOPE"}, apperr.CodeWalletCoinUnknown)

	// Every read-only route answers an empty body at every path it is served at.
	readOnly := []string{"rate", "rateData", "rateV2", "getFaitCoinList", "payment_list", "get_overview_balance", "get_fiat_balance",
		"account_balance", "get_margin_cross_balance", "get_margin_isolated_balance", "otc_account_list", "get_futures_balance",
		"get_futures_balance_statistics", "get_earn_balance", "otc_transfer_list", "transfer_list", "withdraw_address_list",
		"get_verify_address", "fiat_user_bank_list", "capital_password_status", "get_wallet_settings"}
	served := 0
	for _, rt := range w.h.Routes() {
		for _, op := range readOnly {
			if strings.HasSuffix(rt.Path, "/"+op) {
				w.ok(t, rt.Path, tok, "{}", nil)
				served++
			}
		}
	}
	if served < len(readOnly)+6 {
		t.Fatalf("only %d read-only paths served", served)
	}

	// Another user's history is empty.
	v := w.NewUser(t, wt.Flags{})
	w.ok(t, "/fe-ex-api/wallet/transfer_list", w.login(v), nil, &page)
	if page.Count != 0 {
		t.Fatalf("other user's history %+v", page)
	}
	w.Audit(t)
}

func TestWalletRoutesAddressBookBankAndSettings(t *testing.T) {
	w := newWalletEnv(t)
	u := w.NewUser(t, wt.Flags{MobileCheck: true})
	tok := w.login(u)
	v := w.NewUser(t, wt.Flags{})
	vtok := w.login(v)

	// Address book.
	w.fail(t, "/fe-ex-api/wallet/add_withdraw_address", tok, map[string]any{"address": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "coinSymbol": "USDT", "label": "a", "trustType": "ERC20"}, apperr.CodeSMSCodeRequired)
	w.fail(t, "/fe-ex-api/wallet/add_withdraw_address", tok, map[string]any{"coinSymbol": "USDT", "label": "a"}, apperr.CodeParam)
	w.fail(t, "/fe-ex-api/wallet/add_withdraw_address", tok, map[string]any{"address": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "coinSymbol": "USDT", "label": "a", "trustType": "ERC20", "smsValidCode": w.SMSCode(t, u, auth.OpSecurity)}, apperr.CodeWalletAddressInvalid)
	var saved map[string]any
	w.ok(t, "/fe-ex-api/wallet/add_withdraw_address", tok, map[string]any{"address": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh_77", "coinSymbol": "XRP",
		"label": "x", "chain": "XRP", "smsValidCode": w.SMSCode(t, u, auth.OpSecurity), "verify": "1"}, &saved)
	if saved["memo"] != "77" || saved["trustType"] != "XRP" {
		t.Fatalf("saved %v", saved)
	}
	id := saved["id"].(string)
	var list WalletAddressList
	w.ok(t, "/fe-ex-api/wallet/withdraw_address_list", tok, map[string]any{"coinSymbol": "XRP"}, &list)
	if len(list.List) != 1 || list.List[0].ID != id {
		t.Fatalf("list %+v", list)
	}
	w.ok(t, "/fe-ex-api/wallet/withdraw_address_list", vtok, nil, &list)
	if len(list.List) != 0 {
		t.Fatalf("B sees A's addresses: %+v", list)
	}
	w.fail(t, "/fe-ex-api/wallet/delete_withdraw_address", vtok, map[string]any{"id": id}, apperr.CodeWalletAddressNotFound)
	var vs map[string]int
	w.ok(t, "/fe-ex-api/wallet/get_verify_address", tok, nil, &vs)
	if vs["open"] != 1 {
		t.Fatalf("verify switch %v", vs)
	}
	w.fail(t, "/fe-ex-api/wallet/set_verify_address", tok, map[string]any{"open": 0}, apperr.CodeSMSCodeRequired)
	w.fail(t, "/fe-ex-api/wallet/set_verify_address", tok, map[string]any{"open": 0, "smsValidCode": "000000"}, apperr.CodeCodeExpired)
	w.ok(t, "/fe-ex-api/wallet/set_verify_address", tok, map[string]any{"open": 0, "smsAuthCode": w.SMSCode(t, u, auth.OpSecurity)}, nil)
	w.ok(t, "/fe-ex-api/wallet/get_verify_address", tok, nil, &vs)
	if vs["open"] != 0 {
		t.Fatalf("verify switch %v", vs)
	}
	w.ok(t, "/fe-ex-api/wallet/delete_withdraw_address", tok, map[string]any{"id": id}, nil)
	w.fail(t, "/fe-ex-api/wallet/delete_withdraw_address", tok, map[string]any{"id": id}, apperr.CodeWalletAddressNotFound)

	// Bank accounts at both paths.
	w.fail(t, "/fe-ex-api/fiat/fiat_user_bank_add", tok, map[string]any{"account": "12345", "payment": "KHAN", "smsAuthCode": "123456"}, apperr.CodeWalletIBANDigits)
	a := w.fail(t, "/fe-ex-api/fiat/fiat_user_bank_add", tok, map[string]any{"account": "MN1234", "payment": "KHAN"}, apperr.CodeWalletIBANFormat)
	if a.Msg != "Invalid IBAN format. It must start with MN and be 20 characters long." {
		t.Fatalf("msg %q", a.Msg)
	}
	w.fail(t, "/fe-ex-api/fiat/fiat_user_bank_add", tok, map[string]any{"account": "123456789012345678", "payment": "KHAN"}, apperr.CodeSMSCodeRequired)
	w.fail(t, "/fe-ex-api/fiat/fiat_user_bank_add", tok, map[string]any{"account": "123456789012345678"}, apperr.CodeParam)
	var bank map[string]any
	w.ok(t, "/fe-ex-api/fiat/fiat_user_bank_add", tok, map[string]any{"account": 123456789012345678, "payment": "1", "userName": "Someone Else",
		"smsAuthCode": w.SMSCode(t, u, auth.OpAddBank)}, &bank)
	if bank["account"] != "MN123456789012345678" || bank["userName"] != u.Email || bank["title"] != "Khan Bank" {
		t.Fatalf("bank %v", bank)
	}
	var banks []map[string]any
	for _, p := range []string{"/fe-ex-api/fiat/fiat_user_bank_list", "/fe-ex-api/wallet/fiat_user_bank_list"} {
		w.ok(t, p, tok, nil, &banks)
		if len(banks) != 1 || banks[0]["id"] != bank["id"] {
			t.Fatalf("%s: %v", p, banks)
		}
	}
	w.ok(t, "/fe-ex-api/fiat/fiat_user_bank_list", vtok, nil, &banks)
	if len(banks) != 0 {
		t.Fatalf("B sees A's banks: %v", banks)
	}
	w.fail(t, "/fe-ex-api/wallet/fiat_user_bank_delete", vtok, map[string]any{"id": bank["id"]}, apperr.CodeWalletBankAccountNotFound)
	w.ok(t, "/fe-ex-api/fiat/fiat_user_bank_delete", tok, map[string]any{"id": bank["id"]}, nil)
	w.ok(t, "/fe-ex-api/fiat/fiat_user_bank_list", tok, nil, &banks)
	if len(banks) != 0 {
		t.Fatalf("deleted bank still listed: %v", banks)
	}

	// Trade password, status, settings, fee coin.
	w.fail(t, "/fe-ex-api/v4/capital_password/reset", tok, map[string]any{"newCapitalPwd": "abc"}, apperr.CodeWalletTradePasswordRule)
	w.fail(t, "/fe-ex-api/v4/capital_password/reset", tok, map[string]any{"newCapitalPwd": "trade123", "confirmCapitalPwd": "x"}, apperr.CodeWalletPasswordMismatch)
	w.fail(t, "/fe-ex-api/v4/capital_password/reset", tok, map[string]any{"newCapitalPwd": "trade123"}, apperr.CodeSMSCodeRequired)
	w.fail(t, "/fe-ex-api/v4/capital_password/reset", tok, map[string]any{"smsAuthCode": "123456"}, apperr.CodeParam)
	var cs map[string]int64
	w.ok(t, "/fe-ex-api/v4/capital_password/reset", tok, map[string]any{"newCapitalPwd": "trade123", "confirmCapitalPwd": "trade123",
		"smsAuthCode": w.SMSCode(t, u, auth.OpTradePassword), "googleCode": ""}, &cs)
	if cs["isCapitalPwordSet"] != 1 || cs["lockSeconds"] != 0 || cs["withdrawLockedUntil"] != 0 {
		t.Fatalf("capital %v (a first trade password bans nothing)", cs)
	}
	w.Clock.Add(2 * time.Minute)
	w.ok(t, "/fe-ex-api/v4/capital_password/reset", tok, map[string]any{"newCapitalPwd": "trade456", "confirmCapitalPwd": "trade456",
		"smsAuthCode": w.SMSCode(t, u, auth.OpTradePassword), "googleCode": ""}, &cs)
	if cs["isCapitalPwordSet"] != 1 || cs["lockSeconds"] != 86400 {
		t.Fatalf("capital changed %v", cs)
	}
	w.ok(t, "/fe-ex-api/wallet/capital_password_status", vtok, nil, &cs)
	if cs["isCapitalPwordSet"] != 0 || cs["withdrawLockedUntil"] != 0 {
		t.Fatalf("B's status %v", cs)
	}
	w.ok(t, "/fe-ex-api/user/update_fee_coin_open", tok, map[string]any{"useFeeCoinOpen": "1"}, nil)
	w.fail(t, "/fe-ex-api/user/update_fee_coin_open", tok, map[string]any{"useFeeCoinOpen": 2}, apperr.CodeParam)
	w.fail(t, "/fe-ex-api/wallet/update_fee_coin_open", tok, map[string]any{}, apperr.CodeParam)
	var ws map[string]any
	w.ok(t, "/fe-ex-api/wallet/get_wallet_settings", tok, nil, &ws)
	if ws["useFeeCoinOpen"] != float64(1) || ws["verifyAddress"] != float64(0) || ws["isCapitalPwordSet"] != float64(1) {
		t.Fatalf("settings %v", ws)
	}
}
