package httpapi

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"tenger/internal/chain"
	"tenger/internal/ledger"
)

// The deposit modal's chains carry the minimum deposit, the confirmations
// and the expected arrival; the bank rail carries none of them.
func TestAssetListChainsCarryDepositInfo(t *testing.T) {
	e := newFundsEnv(t)
	_, tok := e.signUp(t, "info@example.com")
	var assets FundsAssetList
	e.ok(t, "/fe-ex-api/wallet/recharge_list", tok, map[string]any{}, &assets)
	got := map[string]string{}
	for _, a := range assets.List {
		for _, c := range a.Chains {
			got[a.Value+"/"+c.Name] = c.DepositMin + " " + strconv.Itoa(c.Confirmations) + " " + strconv.Itoa(c.ArrivalSeconds)
		}
	}
	for key, want := range map[string]string{
		"BTC/BTC":    "0.0001 2 1200",
		"USDT/TRC20": "1 19 57",
		"USDT/ERC20": "1 12 144",
		"MNT/Bank":   "0 0 0",
	} {
		if got[key] != want {
			t.Errorf("%s = %q, want %q", key, got[key], want)
		}
	}
}

// fundAndWithdraw deposits 250 USDT on TRC20, credits it, withdraws 100
// and lets the chain confirm the send; it returns the deposit txid.
func fundAndWithdraw(t *testing.T, e *fundsEnv, tok, email string) string {
	t.Helper()
	var addr struct{ AddressLong string }
	e.ok(t, "/fe-ex-api/wallet/get_charge_address", tok, map[string]any{"symbol": "USDT", "chain": "TRC20"}, &addr)
	var tx DevChainTx
	e.ok(t, "/dev/chain/deposit", "", map[string]any{"coin": "USDT", "chain": "TRC20", "address": addr.AddressLong, "amount": "250"}, &tx)
	e.ok(t, "/dev/chain/mine", "", map[string]any{"chain": "TRC20", "blocks": 19}, nil)
	der, _ := chain.New(chain.DevelopmentConfig())
	to, _ := der.DepositAddress(chain.TRC20, 999)
	code := e.emailCode(t, tok, email)
	e.ok(t, "/fe-ex-api/wallet/confirm_withdraw", tok, map[string]any{"symbol": "USDT", "trustType": "TRC20", "address": to.Address,
		"amount": "100", "fee": "1", "emailCode": code}, nil)
	e.drive(t)
	return tx.TxID
}

// Deposits and sent withdrawals link their transaction on the chain's
// explorer: the catalogue's public one by default.
func TestHistoryLinksTheChainsExplorer(t *testing.T) {
	e := newFundsEnv(t)
	_, tok := e.signUp(t, "explorer@example.com")
	depTx := fundAndWithdraw(t, e, tok, "explorer@example.com")
	var dh FundsDepositPage
	e.ok(t, "/fe-ex-api/wallet/deposit_history", tok, map[string]any{}, &dh)
	if dh.List[0].ExplorerURL != "https://tronscan.org/#/transaction/"+depTx {
		t.Fatalf("deposit explorer %q", dh.List[0].ExplorerURL)
	}
	var wh FundsWithdrawPage
	e.ok(t, "/fe-ex-api/wallet/withdraw_history", tok, map[string]any{}, &wh)
	w := wh.List[0]
	if w.TxID == "" || w.ExplorerURL != "https://tronscan.org/#/transaction/"+w.TxID {
		t.Fatalf("withdraw %+v", w)
	}
}

// With --dev the links go to the simulator's own explorer page, which
// shows the transaction and its confirmations.
func TestDevHistoryLinksTheSimulatorsExplorer(t *testing.T) {
	e := newFundsEnvWith(t, true)
	uid, tok := e.signUp(t, "devexplorer@example.com")
	depTx := fundAndWithdraw(t, e, tok, "devexplorer@example.com")
	e.ok(t, "/dev/bank/incoming", "", map[string]any{"amount": "300000", "reference": uid, "bankTxId": "K9"}, nil)
	var dh FundsDepositPage
	e.ok(t, "/fe-ex-api/wallet/deposit_history", tok, map[string]any{}, &dh)
	links := map[string]string{}
	for _, r := range dh.List {
		links[r.TxID] = r.ExplorerURL
	}
	if links[depTx] != "/dev/chain/tx?chain=TRC20&txid="+depTx || links["K9"] != "" {
		t.Fatalf("deposit links %v", links)
	}
	var wh FundsWithdrawPage
	e.ok(t, "/fe-ex-api/wallet/withdraw_history", tok, map[string]any{}, &wh)
	link := wh.List[0].ExplorerURL
	if link != "/dev/chain/tx?chain=TRC20&txid="+wh.List[0].TxID {
		t.Fatalf("withdraw link %q", link)
	}
	rec := httptest.NewRecorder()
	e.mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, link, nil))
	page, _ := io.ReadAll(rec.Body)
	if rec.Code != 200 || !strings.Contains(string(page), wh.List[0].TxID) || !strings.Contains(string(page), "99 USDT") ||
		!strings.Contains(string(page), "sent by the exchange") || !strings.Contains(string(page), `id="confirmations">0<`) {
		t.Fatalf("explorer page %d %s", rec.Code, page)
	}
	rec = httptest.NewRecorder()
	e.mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/dev/chain/tx?chain=TRC20&txid=%3Cscript%3E", nil))
	if body, _ := io.ReadAll(rec.Body); rec.Code != http.StatusNotFound || strings.Contains(string(body), "<script>") {
		t.Fatalf("unknown tx %d %s", rec.Code, body)
	}
}

// A chain deposit below the chain's minimum is recorded in the user's
// history as such and never credited; one at the minimum is.
func TestDepositBelowTheMinimumIsNotCredited(t *testing.T) {
	e := newFundsEnv(t)
	uid, tok := e.signUp(t, "small@example.com")
	var addr struct{ AddressLong string }
	e.ok(t, "/fe-ex-api/wallet/get_charge_address", tok, map[string]any{"symbol": "USDT", "chain": "TRC20"}, &addr)
	var small, atMin DevChainTx
	e.ok(t, "/dev/chain/deposit", "", map[string]any{"coin": "USDT", "chain": "TRC20", "address": addr.AddressLong, "amount": "0.99"}, &small)
	e.ok(t, "/dev/chain/deposit", "", map[string]any{"coin": "USDT", "chain": "TRC20", "address": addr.AddressLong, "amount": "1"}, &atMin)
	e.ok(t, "/dev/chain/mine", "", map[string]any{"chain": "TRC20", "blocks": 19}, nil)
	e.ok(t, "/dev/chain/mine", "", map[string]any{"chain": "TRC20", "blocks": 1}, nil)
	var dh FundsDepositPage
	e.ok(t, "/fe-ex-api/wallet/deposit_history", tok, map[string]any{}, &dh)
	status := map[string]string{}
	for _, r := range dh.List {
		status[r.TxID] = r.Status
	}
	if status[small.TxID] != "below_min" || status[atMin.TxID] != "credited" {
		t.Fatalf("statuses %v", status)
	}
	e.ok(t, "/fe-ex-api/wallet/deposit_history", tok, map[string]any{"status": "below_min"}, &dh)
	if dh.Count != 1 || dh.List[0].TxID != small.TxID {
		t.Fatalf("below_min filter %+v", dh)
	}
	bal, _ := e.led.Balance(context.Background(), ledger.UserAccount(uid, ledger.Spot), "USDT")
	if bal.Available.String() != "1" {
		t.Fatalf("USDT %s", bal.Available)
	}
	rep, err := e.led.Audit(context.Background())
	if err != nil || !rep.Clean() {
		t.Fatalf("audit %v %v", rep.Problems, err)
	}
}
