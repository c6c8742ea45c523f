package withdraw_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/chain"
	"tenger/internal/coins"
	"tenger/internal/deposit"
	"tenger/internal/ledger"
	"tenger/internal/store"
	"tenger/internal/store/storetest"
	"tenger/internal/wallet"
	"tenger/internal/withdraw"
	"tenger/internal/workflow"
)

func btcInput(t *testing.T, amount string, codes withdraw.Codes) withdraw.ConfirmInput {
	return withdraw.ConfirmInput{Symbol: "BTC", Chain: "BTC", Address: addr(t, chain.BTC).Address, Amount: amount, Fee: "0.0002", Codes: codes}
}

func TestCodeCombinations(t *testing.T) {
	cases := []struct {
		name               string
		email, sms, google bool
		missing            string // code answered when no codes are given
	}{
		{"email only", true, false, false, apperr.CodeEmailCodeRequired},
		{"email and sms", true, true, false, apperr.CodeEmailCodeRequired},
		{"email, sms and google", true, true, true, apperr.CodeEmailCodeRequired},
		{"phone only: sms required", false, false, false, apperr.CodeSMSCodeRequired},
		{"phone with google", false, false, true, apperr.CodeGoogleCodeRequired},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.user("u1", tc.email, tc.sms, tc.google)
			e.fund("u1", "BTC", "BTC", "1")
			_, err := e.svc.Confirm(ctx, "u1", btcInput(t, "0.1", withdraw.Codes{}))
			wantCode(t, err, tc.missing)
			needSMS := tc.sms || (!tc.email && !tc.google)
			if tc.email {
				_, err = e.svc.Confirm(ctx, "u1", btcInput(t, "0.1", withdraw.Codes{Email: "999999", SMS: "222222", Google: "333333"}))
				ae := wantCode(t, err, apperr.CodeVerifyCodeWrong)
				if ae.Message(apperr.LangMN) != "Мобайл эсвэл имэйл баталгаажуулах код буруу байна" {
					t.Fatalf("mn message %q", ae.Message(apperr.LangMN))
				}
				e.auth.issue("u1")
			}
			if needSMS {
				_, err = e.svc.Confirm(ctx, "u1", btcInput(t, "0.1", withdraw.Codes{Email: "111111", SMS: "999999", Google: "333333"}))
				wantCode(t, err, apperr.CodeVerifyCodeWrong)
				e.auth.issue("u1")
			}
			if tc.google {
				_, err = e.svc.Confirm(ctx, "u1", btcInput(t, "0.1", withdraw.Codes{Email: "111111", SMS: "222222", Google: "999999"}))
				wantCode(t, err, apperr.CodeGoogleCodeWrong)
				e.auth.issue("u1")
			}
			if b := e.spot("u1", "BTC"); !b.Frozen.IsZero() {
				t.Fatalf("a refused submit held %s", b.Frozen)
			}
			cost, err := e.svc.Cost(ctx, "u1", "BTC", "")
			if err != nil || cost.NeedEmailCode != tc.email || cost.NeedSMSCode != needSMS || cost.NeedGoogleCode != tc.google {
				t.Fatalf("factors %+v %v", cost.Factors, err)
			}
			res, err := e.svc.Confirm(ctx, "u1", btcInput(t, "0.1", allCodes))
			if err != nil || res.Status != withdraw.StatusPending {
				t.Fatalf("submit %+v %v", res, err)
			}
			if b := e.spot("u1", "BTC"); !b.Frozen.Equal(dec("0.1")) || !b.Available.Equal(dec("0.9")) {
				t.Fatalf("hold %s/%s", b.Available, b.Frozen)
			}
			e.audit()
		})
	}
}

func TestAmountAddressAndFundsRules(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, false, false)
	e.fund("u1", "BTC", "BTC", "0.5")
	try := func(in withdraw.ConfirmInput, code, errorMsg string) {
		t.Helper()
		_, err := e.svc.Confirm(ctx, "u1", in)
		ae := wantCode(t, err, code)
		if ae.ErrorMsg != errorMsg {
			t.Fatalf("errorMsg %q, want %q", ae.ErrorMsg, errorMsg)
		}
	}
	try(btcInput(t, "0.0005", allCodes), apperr.CodeAmountBelowMin, "the.amount.is.not.enough")
	try(btcInput(t, "11", allCodes), apperr.CodeAmountAboveMax, "the.amount.is.exceeded")
	try(btcInput(t, "0.123456789", allCodes), apperr.CodeAmountInvalid, "")
	try(btcInput(t, "1e-1", allCodes), apperr.CodeAmountInvalid, "")
	try(btcInput(t, "-1", allCodes), apperr.CodeAmountInvalid, "")
	try(btcInput(t, "1", allCodes), apperr.CodeInsufficientFunds, "")
	in := btcInput(t, "0.1", allCodes)
	in.Fee = "0.0001"
	try(in, apperr.CodeFeeMismatch, "")
	in = btcInput(t, "0.1", allCodes)
	in.Address = "bc1qnotanaddress"
	try(in, apperr.CodeAddressInvalid, "")
	in.Address = addr(t, chain.ETH).Address
	try(in, apperr.CodeAddressInvalid, "")
	x := addr(t, chain.XRP)
	e.fund("u1", "XRP", "XRP", "100")
	try(withdraw.ConfirmInput{Symbol: "XRP", Address: x.Address + "_notanumber", Amount: "50", Codes: allCodes}, apperr.CodeMemoInvalid, "")
	try(withdraw.ConfirmInput{Symbol: "MONT", Address: x.Address, Amount: "50", Codes: allCodes}, apperr.CodeBankOnly, "")
	try(withdraw.ConfirmInput{Symbol: "DOGE", Address: x.Address, Amount: "50", Codes: allCodes}, apperr.CodeCoinUnknown, "")
	// Nothing was held by any refusal.
	if b := e.spot("u1", "BTC"); !b.Frozen.IsZero() {
		t.Fatalf("held %s", b.Frozen)
	}
	// The XRP memo after an underscore is accepted and kept.
	res, err := e.svc.Confirm(ctx, "u1", withdraw.ConfirmInput{Symbol: "XRP", Address: x.Address + "_12345", Amount: "50", Codes: allCodes})
	if err != nil {
		t.Fatal(err)
	}
	if r := e.record(res.ID); r.Memo != "12345" || r.Address != x.Address || !r.Net.Equal(dec("49.8")) {
		t.Fatalf("record %+v", r)
	}
	// Address validation call.
	if err := e.svc.ValidateAddress(ctx, "u1", "USDT", "TRC20", addr(t, chain.TRX).Address); err != nil {
		t.Fatal(err)
	}
	wantCode(t, e.svc.ValidateAddress(ctx, "u1", "USDT", "TRC20", addr(t, chain.ETH).Address), apperr.CodeAddressInvalid)
	if err := e.svc.ValidateAddress(ctx, "u1", "MONT", "Bank", "MN123456789012345678"); err != nil {
		t.Fatal(err)
	}
}

func TestDailyLimitInUSDT(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, false, false)
	e.fund("u1", "BTC", "BTC", "5")
	submit := func(amount string) error {
		e.auth.issue("u1")
		_, err := e.svc.Confirm(ctx, "u1", btcInput(t, amount, allCodes))
		return err
	}
	for _, a := range []string{"1", "0.999"} { // 50000 + 49950 USDT
		if err := submit(a); err != nil {
			t.Fatal(err)
		}
	}
	err := submit("0.002") // 100 USDT more than the 50 left
	ae := wantCode(t, err, apperr.CodeDailyLimit)
	if ae.Message(apperr.LangEN) != "The 24-hour withdrawal limit would be exceeded: 50.00 USDT left of 100000.00 USDT" {
		t.Fatalf("message %q", ae.Message(apperr.LangEN))
	}
	c, _ := e.svc.Cost(ctx, "u1", "BTC", "")
	if c.LeftWithdrawDailyAmount != "50.00" || c.TotalWithdrawDailyMaxLimit != "100000.00" {
		t.Fatalf("cost limits %+v", c)
	}
	e.clk.Add(24*time.Hour + time.Second)
	if err := submit("0.002"); err != nil {
		t.Fatalf("after 24 h: %v", err)
	}
}

func TestLockAndVerifyAddressSwitch(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, false, false)
	e.fund("u1", "BTC", "BTC", "1")
	e.wal.locked["u1"] = e.clk.Now().Add(3 * time.Hour)
	_, err := e.svc.Confirm(ctx, "u1", btcInput(t, "0.1", allCodes))
	wantCode(t, err, apperr.CodeWithdrawLocked)
	delete(e.wal.locked, "u1")
	e.wal.verify["u1"] = true
	_, err = e.svc.Confirm(ctx, "u1", btcInput(t, "0.1", allCodes))
	wantCode(t, err, apperr.CodeAddressNotSaved)
	e.wal.save("u1", "BTC", "BTC", addr(t, chain.BTC).Address, "")
	if _, err := e.svc.Confirm(ctx, "u1", btcInput(t, "0.1", allCodes)); err != nil {
		t.Fatal(err)
	}
	c, err := e.svc.Cost(ctx, "u1", "BTC", "")
	if err != nil || len(c.UserWithdrawAddrList) != 1 || !c.VerifyAddress || c.DefaultFee != "0.0002" || c.WithdrawMin != "0.0010" ||
		c.CanWithdrawAmount != "0.90000000" || c.MainChainNameTip != "BTC" {
		t.Fatalf("cost %+v %v", c, err)
	}
}

func TestRetriedSubmitHoldsOnce(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, true, false)
	e.fund("u1", "BTC", "BTC", "1")
	in := btcInput(t, "0.3", allCodes)
	in.RequestID = "req-1"
	a, err := e.svc.Confirm(ctx, "u1", in)
	if err != nil {
		t.Fatal(err)
	}
	// The codes are used up; the retry must still answer the same withdrawal.
	b, err := e.svc.Confirm(ctx, "u1", in)
	if err != nil || b.ID != a.ID {
		t.Fatalf("retry %+v %v", b, err)
	}
	// The same requestId for another amount is not that withdrawal.
	other := btcInput(t, "0.25", allCodes)
	other.RequestID = "req-1"
	if _, err := e.svc.Confirm(ctx, "u1", other); !errors.Is(err, apperr.New(apperr.CodeWithdrawRequestReused)) {
		t.Fatalf("reused requestId: %v", err)
	}
	// Without a requestId, the same codes derive the same key.
	e.auth.issue("u1")
	c, err := e.svc.Confirm(ctx, "u1", btcInput(t, "0.2", allCodes))
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.Confirm(ctx, "u1", btcInput(t, "0.2", allCodes))
	if err != nil || d.ID != c.ID {
		t.Fatalf("derived retry %+v %v", d, err)
	}
	if bal := e.spot("u1", "BTC"); !bal.Frozen.Equal(dec("0.5")) {
		t.Fatalf("frozen %s", bal.Frozen)
	}
	l, n, err := e.svc.History(ctx, "u1", deposit.Filter{})
	if err != nil || n != 2 || len(l) != 2 {
		t.Fatalf("history %d %v", n, err)
	}
	e.audit()
}

func TestChainWithdrawalSettlesAfterConfirmations(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, false, false)
	e.fund("u1", "USDT", "TRC20", "500")
	to := addr(t, chain.TRX).Address
	res, err := e.svc.Confirm(ctx, "u1", withdraw.ConfirmInput{Symbol: "USDT", Chain: "TRC20", Address: to, Amount: "100", Fee: "1", Codes: allCodes})
	if err != nil {
		t.Fatal(err)
	}
	e.drive()
	r := e.record(res.ID)
	if r.Status != withdraw.StatusProcessing || r.TxID == "" {
		t.Fatalf("after send %+v", r)
	}
	tx, err := e.chain.Get(ctx, "TRC20", r.TxID)
	if err != nil || !tx.Amount.Equal(dec("99")) || tx.Address != to || tx.Dir != "out" {
		t.Fatalf("sent %+v %v", tx, err)
	}
	if _, err := e.chain.Mine(ctx, "TRC20", 18); err != nil {
		t.Fatal(err)
	}
	e.drive()
	if r := e.record(res.ID); r.Status != withdraw.StatusProcessing {
		t.Fatalf("settled early %+v", r)
	}
	if _, err := e.chain.Mine(ctx, "TRC20", 1); err != nil {
		t.Fatal(err)
	}
	e.drive()
	if r := e.record(res.ID); r.Status != withdraw.StatusSuccess {
		t.Fatalf("not settled %+v", r)
	}
	b := e.spot("u1", "USDT")
	if !b.Available.Equal(dec("400")) || !b.Frozen.IsZero() {
		t.Fatalf("user %s/%s", b.Available, b.Frozen)
	}
	if fee := e.balance(ledger.FeeAccount(), "USDT"); !fee.Equal(dec("1")) {
		t.Fatalf("fee %s", fee)
	}
	// The chain account mirrors 500 in, 99 out.
	if c := e.balance(ledger.ChainAccount("TRC20"), "USDT"); !c.Equal(dec("-401")) {
		t.Fatalf("chain %s", c)
	}
	in, err := e.runner.Get(ctx, res.ID)
	if err != nil || in.Status != workflow.StatusDone {
		t.Fatalf("instance %+v %v", in, err)
	}
	// The change feed tells the settlement once (the Binance-compatible
	// user data stream's balanceUpdate reads it).
	var settled []withdraw.Record
	for _, ch := range storetest.AllChanges(t, e.st) {
		if r, ok := withdraw.SettledBy(ch); ok {
			settled = append(settled, r)
		}
	}
	if len(settled) != 1 || settled[0].ID != res.ID || settled[0].UID != "u1" || !settled[0].Amount.Equal(dec("100")) {
		t.Fatalf("settlements in the change feed: %+v", settled)
	}
	e.audit()
}

func TestBankWithdrawalApproveAndReject(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, false, false)
	e.fund("u1", "MNT", "Bank", "1000000")
	e.wal.banks["u1"] = []wallet.BankAccount{{ID: "b1", Title: "Khan Bank", TitleMN: "Хаан банк", Account: "MN123456789012345678", UserName: "Bat"}}
	_, err := e.svc.ConfirmBank(ctx, "u1", withdraw.BankInput{UserID: "u2", Amount: "10000", BankAccNo: "123456789012345678", Codes: allCodes})
	wantCode(t, err, apperr.CodeUserMismatch)
	_, err = e.svc.ConfirmBank(ctx, "u1", withdraw.BankInput{UserID: "u1", Amount: "10000", BankAccNo: "999456789012345678", Codes: allCodes})
	wantCode(t, err, apperr.CodeBankAccountUnknown)
	_, err = e.svc.ConfirmBank(ctx, "u1", withdraw.BankInput{UserID: "u1", Amount: "100", BankAccNo: "123456789012345678", Codes: allCodes})
	wantCode(t, err, apperr.CodeAmountBelowMin)
	ok, err := e.svc.ConfirmBank(ctx, "u1", withdraw.BankInput{UserID: "u1", Amount: "100000", BankAccNo: "123456789012345678", Code: "MONT", Codes: allCodes})
	if err != nil || ok.URL != "/dev/bank/confirm?id="+ok.ID {
		t.Fatalf("bank submit %+v %v", ok, err)
	}
	e.drive()
	req, err := e.bank.Get(ctx, ok.ID)
	if err != nil || !req.Amount.Equal(dec("99500")) || req.AccountNo != "MN123456789012345678" {
		t.Fatalf("bank request %+v %v", req, err)
	}
	if _, err := e.bank.Answer(ctx, ok.ID, true); err != nil {
		t.Fatal(err)
	}
	e.drive()
	// The record names the bank in both languages, as the account had it.
	if r := e.record(ok.ID); r.Status != withdraw.StatusSuccess || r.Kind != withdraw.KindBank || r.BankName != "Khan Bank" ||
		r.BankNameMN != "Хаан банк" {
		t.Fatalf("approved %+v", r)
	}
	e.auth.issue("u1")
	no, err := e.svc.ConfirmBank(ctx, "u1", withdraw.BankInput{UserID: "u1", Amount: "200000", BankAccountID: "b1", Codes: allCodes})
	if err != nil {
		t.Fatal(err)
	}
	e.drive()
	// Answer before and after: the second answer is refused.
	if _, err := e.bank.Answer(ctx, no.ID, false); err != nil {
		t.Fatal(err)
	}
	if _, err := e.bank.Answer(ctx, no.ID, true); err == nil {
		t.Fatal("answered twice")
	}
	e.drive()
	if r := e.record(no.ID); r.Status != withdraw.StatusFailed {
		t.Fatalf("rejected %+v", r)
	}
	b := e.spot("u1", "MNT")
	if !b.Available.Equal(dec("900000")) || !b.Frozen.IsZero() {
		t.Fatalf("MNT %s/%s", b.Available, b.Frozen)
	}
	if fee := e.balance(ledger.FeeAccount(), "MNT"); !fee.Equal(dec("500")) {
		t.Fatalf("fee %s", fee)
	}
	e.audit()
}

func TestRailRefusalReleases(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, false, false)
	e.fund("u1", "ETH", "ETH", "2")
	res, err := e.svc.Confirm(ctx, "u1", withdraw.ConfirmInput{Symbol: "ETH", Address: addr(t, chain.ETH).Address, Amount: "1", Codes: allCodes})
	if err != nil {
		t.Fatal(err)
	}
	// The operator closes ETH withdrawals before the workflow validates.
	list := e.cat.List()
	for i := range list {
		if list[i].Symbol == "ETH" {
			list[i].Chains[0].WithdrawOpen = false
		}
	}
	cat, err := coins.NewCatalogue(list)
	if err != nil {
		t.Fatal(err)
	}
	e.cat = cat
	e.restart()
	e.drive()
	r := e.record(res.ID)
	if r.Status != withdraw.StatusFailed {
		t.Fatalf("not released %+v", r)
	}
	if b := e.spot("u1", "ETH"); !b.Available.Equal(dec("2")) || !b.Frozen.IsZero() {
		t.Fatalf("ETH %s/%s", b.Available, b.Frozen)
	}
	l, _ := e.chain.List(ctx, "ETH", 10)
	if len(l) != 0 {
		t.Fatalf("sent anyway: %+v", l)
	}
	e.audit()
}

// Concurrent submits of one user cannot overrun the 24 h limit together.
// Retries sent while the first submit still runs (a client that timed out
// and sent again) find the codes used up by it, and answer the withdrawal it
// made rather than "code expired"; one withdrawal is held.
func TestConcurrentRetriesAnswerTheFirstSubmit(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, true, false)
	e.fund("u1", "BTC", "BTC", "1")
	in := btcInput(t, "0.3", allCodes)
	in.RequestID = "req-par"
	ids := make([]string, 10)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r, err := e.svc.Confirm(ctx, "u1", in)
			if err != nil {
				t.Errorf("submit %d: %v", i, err)
			}
			ids[i] = r.ID
		}(i)
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] || id == "" {
			t.Fatalf("ids %v", ids)
		}
	}
	if b := e.spot("u1", "BTC"); !b.Frozen.Equal(dec("0.3")) {
		t.Fatalf("frozen %s", b.Frozen)
	}
	// The same key from another user is that user's own withdrawal.
	e.user("u2", true, true, false)
	e.fund("u2", "BTC", "BTC", "1")
	if r, err := e.svc.Confirm(ctx, "u2", in); err != nil || r.ID == ids[0] {
		t.Fatalf("u2: %+v %v", r, err)
	}
	e.audit()
}

func TestHistoryShowsTheUSDTValueTo8Places(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, true, false)
	e.fund("u1", "BTC", "BTC", "1")
	e.wal.mu.Lock()
	e.wal.prices["BTC"] = dec("50000.123456789123456789")
	e.wal.mu.Unlock()
	if _, err := e.svc.Confirm(ctx, "u1", btcInput(t, "0.3", allCodes)); err != nil {
		t.Fatal(err)
	}
	l, _, err := e.svc.History(ctx, "u1", deposit.Filter{})
	if err != nil || len(l) != 1 {
		t.Fatalf("history %v %v", l, err)
	}
	if got := l[0].USDT.String(); got != "15000.03703704" {
		t.Fatalf("usdtValue %s", got)
	}
}

func TestDailyLimitHoldsUnderConcurrency(t *testing.T) {
	e := newEnv(t)
	e.user("u1", false, false, true) // Google codes are not used up
	e.fund("u1", "BTC", "BTC", "10")
	var wg sync.WaitGroup
	var mu sync.Mutex
	okCount, limited := 0, 0
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			in := btcInput(t, "0.5", withdraw.Codes{Google: "333333"}) // 25000 USDT each
			in.RequestID = fmt.Sprintf("c%d", i)
			_, err := e.svc.Confirm(ctx, "u1", in)
			mu.Lock()
			defer mu.Unlock()
			var ae *apperr.Error
			switch {
			case err == nil:
				okCount++
			case errors.As(err, &ae) && ae.Entry.Code == apperr.CodeDailyLimit:
				limited++
			default:
				t.Errorf("submit %d: %v", i, err)
			}
		}(i)
	}
	wg.Wait()
	if okCount != 4 || limited != 6 {
		t.Fatalf("%d accepted, %d limited; want 4 and 6", okCount, limited)
	}
	if b := e.spot("u1", "BTC"); !b.Frozen.Equal(dec("2")) {
		t.Fatalf("frozen %s", b.Frozen)
	}
	e.audit()
}

// A withdrawal to the user's own deposit address is refused before any
// code is used; another user's address is an ordinary destination.
func TestWithdrawToOwnDepositAddress(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, false, false)
	e.user("u2", true, false, false)
	e.fund("u1", "BTC", "BTC", "1")
	e.fund("u2", "BTC", "BTC", "1")
	in := btcInput(t, "0.1", withdraw.Codes{Email: "wrong"})
	e.owners["BTC|"+in.Address+"|"] = "u1"
	if _, err := e.svc.Confirm(ctx, "u1", in); !errors.Is(err, apperr.New(apperr.CodeWithdrawOwnAddress)) {
		t.Fatalf("own address: %v", err)
	}
	// Step one of the withdraw screen says so before codes are sent.
	wantCode(t, e.svc.ValidateAddress(ctx, "u1", "BTC", "BTC", in.Address), apperr.CodeWithdrawOwnAddress)
	if err := e.svc.ValidateAddress(ctx, "u2", "BTC", "BTC", in.Address); err != nil {
		t.Fatalf("another user's address: %v", err)
	}
	if _, err := e.svc.Confirm(ctx, "u2", in); errors.Is(err, apperr.New(apperr.CodeWithdrawOwnAddress)) {
		t.Fatalf("another user's address refused: %v", err)
	}
}

// An API key's withdrawal (ConfirmByKey) needs no codes, keeps every other
// rule and the workflow, answers a retry with the first withdrawal, and
// names the key in the record.
func TestWithdrawalByAPIKey(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, true, true)
	e.fund("u1", "BTC", "BTC", "1")
	in := btcInput(t, "0.1", withdraw.Codes{})
	in.Fee = "" // the API sends no fee: the chain's own
	in.RequestID = "api:key1:bot-1"
	_, err := e.svc.ConfirmByKey(ctx, "u1", "", in)
	wantCode(t, err, apperr.CodeNotSignedIn)
	res, err := e.svc.ConfirmByKey(ctx, "u1", "key1", in)
	if err != nil || res.Status != withdraw.StatusPending {
		t.Fatalf("submit %+v %v", res, err)
	}
	again, err := e.svc.ConfirmByKey(ctx, "u1", "key1", in)
	if err != nil || again.ID != res.ID {
		t.Fatalf("retry %+v %v, first %s", again, err, res.ID)
	}
	if b := e.spot("u1", "BTC"); !b.Frozen.Equal(dec("0.1")) {
		t.Fatalf("hold %s", b.Frozen)
	}
	it, err := e.st.Get(ctx, store.Key{PK: "WD#" + res.ID, SK: "WD"})
	if err != nil || it.Str("apiKey") != "key1" {
		t.Fatalf("record %v %v", it, err)
	}
	small := btcInput(t, "0.0005", withdraw.Codes{})
	small.Fee = ""
	_, err = e.svc.ConfirmByKey(ctx, "u1", "key1", small)
	wantCode(t, err, apperr.CodeAmountBelowMin)
	// The web's submit still asks for the codes.
	_, err = e.svc.Confirm(ctx, "u1", btcInput(t, "0.1", withdraw.Codes{}))
	wantCode(t, err, apperr.CodeEmailCodeRequired)
	e.audit()
}
