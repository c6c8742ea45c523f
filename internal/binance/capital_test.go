package binance

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/deposit"
	"tenger/internal/withdraw"
)

// fakeFunds records the withdrawals asked for and answers fixed histories.
type fakeFunds struct {
	mu     sync.Mutex
	asked  []withdraw.ConfirmInput
	keys   []string
	refuse error
}

func (f *fakeFunds) ConfirmByKey(_ context.Context, uid, apiKey string, in withdraw.ConfirmInput) (withdraw.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refuse != nil {
		return withdraw.Result{}, f.refuse
	}
	f.asked, f.keys = append(f.asked, in), append(f.keys, apiKey)
	return withdraw.Result{ID: "wd-" + uid, Status: withdraw.StatusPending}, nil
}

func (f *fakeFunds) ChargeAddress(_ context.Context, uid, symbol, chain string) (deposit.Address, error) {
	if symbol == "MNT" {
		return deposit.Address{Coin: "MNT", Bank: &deposit.BankBlock{}}, nil
	}
	return deposit.Address{Coin: symbol, Chain: chain, AddressLong: "0xabc" + uid + chain, Memo: ""}, nil
}

func (f *fakeFunds) History(_ context.Context, uid string, fl deposit.Filter) ([]deposit.Record, int, error) {
	return []deposit.Record{{ID: "d1", Coin: "USDT", Chain: "BEP20", TxID: "0xtx", Address: "0xabc", Amount: decimal.RequireFromString("25.5"),
		Confirmations: 15, Required: 15, Status: "credited", Created: time.UnixMilli(1_700_000_000_000).UnixMilli()}}, 1, nil
}

// withdrawalHistory adapts fakeFunds to Withdrawals' History.
type fakeWithdrawals struct{ *fakeFunds }

func (f fakeWithdrawals) History(context.Context, string, deposit.Filter) ([]withdraw.Record, int, error) {
	return []withdraw.Record{{ID: "w1", Kind: withdraw.KindChain, Coin: "USDT", Chain: "BEP20", Address: "0xdef",
		Amount: decimal.RequireFromString("10"), Fee: decimal.RequireFromString("0.8"), Net: decimal.RequireFromString("9.2"),
		Status: withdraw.StatusSuccess, TxID: "0xsent", Created: 1_700_000_000_000, Updated: 1_700_000_060_000}}, 1, nil
}

func TestCapitalEndpoints(t *testing.T) {
	e := newSignedEnv(t)
	reader := e.key(alice, []string{"spot"})
	withdrawer := e.key(alice, []string{"withdraw"}, "203.0.113.0/24")

	var addr depositAddress
	e.ok(e.call(http.MethodGet, "/sapi/v1/capital/deposit/address", reader, vals("coin", "USDT", "network", "BSC")), &addr)
	if addr.Address != "0xabc"+alice+"BEP20" || addr.Coin != "USDT" {
		t.Fatalf("address %+v", addr)
	}
	e.fails(e.call(http.MethodGet, "/sapi/v1/capital/deposit/address", reader, vals("coin", "MNT")), 400, CodeInvalidParameter, "")
	var deps []depositRecord
	e.ok(e.call(http.MethodGet, "/sapi/v1/capital/deposit/hisrec", reader, nil), &deps)
	if len(deps) != 1 || deps[0].Status != 1 || deps[0].Amount != "25.5" || deps[0].Network != "BSC" || deps[0].ConfirmTimes != "15/15" {
		t.Fatalf("deposits %+v", deps)
	}
	var wds []withdrawRecord
	e.ok(e.call(http.MethodGet, "/sapi/v1/capital/withdraw/history", reader, nil), &wds)
	if len(wds) != 1 || wds[0].Status != 6 || wds[0].Amount != "9.2" || wds[0].TransactionFee != "0.8" || wds[0].CompleteTime == "" {
		t.Fatalf("withdrawals %+v", wds)
	}

	body := vals("coin", "USDT", "network", "BSC", "address", "0xdef", "amount", "10", "withdrawOrderId", "bot-1")
	// Only a key with the withdraw permission (which is bound to IPs) withdraws.
	e.fails(e.call(http.MethodPost, "/sapi/v1/capital/withdraw/apply", reader, body), 401, CodeRejectedAPIKey, "")
	e.fails(e.call(http.MethodPost, "/sapi/v1/capital/withdraw/apply", withdrawer, body, withIP("198.51.100.1")), 401, CodeRejectedAPIKey, "")
	var res struct{ ID string }
	e.ok(e.call(http.MethodPost, "/sapi/v1/capital/withdraw/apply", withdrawer, body), &res)
	if res.ID != "wd-"+alice || len(e.funds.asked) != 1 || e.funds.keys[0] != withdrawer.APIKey {
		t.Fatalf("withdraw %+v asked %+v", res, e.funds.asked)
	}
	in := e.funds.asked[0]
	if in.Symbol != "USDT" || in.Chain != "BEP20" || in.Address != "0xdef" || in.Amount != "10" || !strings.HasSuffix(in.RequestID, ":bot-1") {
		t.Fatalf("confirm input %+v", in)
	}
	// Without withdrawOrderId each request is a withdrawal of its own.
	e.ok(e.call(http.MethodPost, "/sapi/v1/capital/withdraw/apply", withdrawer, vals("coin", "USDT", "address", "0xdef", "amount", "10")), &res)
	e.ok(e.call(http.MethodPost, "/sapi/v1/capital/withdraw/apply", withdrawer, vals("coin", "USDT", "address", "0xdef", "amount", "10")), &res)
	if e.funds.asked[1].RequestID == e.funds.asked[2].RequestID {
		t.Fatal("two withdrawals without withdrawOrderId share an idempotency key")
	}
	e.fails(e.call(http.MethodPost, "/sapi/v1/capital/withdraw/apply", withdrawer, vals("coin", "USDT", "amount", "10")), 400, CodeMandatoryParam,
		"Mandatory parameter 'address' was not sent, was empty/null, or malformed.")
	e.funds.refuse = apperr.New(apperr.CodeInsufficientFunds)
	e.fails(e.call(http.MethodPost, "/sapi/v1/capital/withdraw/apply", withdrawer, body), 400, CodeNewOrderRejected, msgInsufficient)
	e.funds.refuse = apperr.New(apperr.CodeAmountBelowMin, "5")
	e.fails(e.call(http.MethodPost, "/sapi/v1/capital/withdraw/apply", withdrawer, body), 400, CodeInvalidParameter, "")
}
