package wallet_test

import (
	"strings"
	"tenger/internal/store"
	"testing"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/wallet"
	wt "tenger/internal/wallet/wallettest"
)

const (
	ethAddr   = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	tronAddr  = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
	xrpAddr   = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"
	btcAddr   = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
	tonAddr   = "Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF"
	goodIBAN  = "123456789012345678"
	goodIBAN2 = "MN987654321098765432"
)

func bptr(b bool) *bool { return &b }

func TestAddressBookWithoutFlags(t *testing.T) {
	e := wt.New(t)
	u := e.NewUser(t, wt.Flags{})
	add := func(in wallet.AddAddressInput, code string) wallet.SavedAddress {
		t.Helper()
		a, err := e.Wallet.AddAddress(ctx, u.UID, in)
		wt.WantCode(t, err, code)
		return a
	}
	// A lower-case EVM address is stored in EIP-55 form and matches either way.
	a := add(wallet.AddAddressInput{Coin: "USDT", Chain: "ERC20", Address: strings.ToLower(ethAddr), Label: "cold"}, "")
	if a.Address != ethAddr || a.Chain != "ERC20" || a.TrustType != "ERC20" || a.CoinSymbol != "USDT" || a.ID == "" || a.Memo != "" {
		t.Fatalf("saved %+v", a)
	}
	for _, addr := range []string{ethAddr, strings.ToLower(ethAddr)} {
		if ok, err := e.Wallet.IsSavedAddress(ctx, u.UID, "USDT", "erc20", addr, ""); err != nil || !ok {
			t.Fatalf("IsSavedAddress(%s) = %v %v", addr, ok, err)
		}
	}
	if ok, _ := e.Wallet.IsSavedAddress(ctx, u.UID, "USDT", "BEP20", ethAddr, ""); ok {
		t.Fatal("saved on ERC20 must not match BEP20")
	}
	add(wallet.AddAddressInput{Coin: "USDT", Chain: "ERC20", Address: ethAddr, Label: "again"}, apperr.CodeWalletAddressExists)
	// Memo after an underscore (spec §7), and a memo field.
	x := add(wallet.AddAddressInput{Coin: "XRP", Chain: "XRP", Address: xrpAddr + "_12345", Label: "exchange"}, "")
	if x.Address != xrpAddr || x.Memo != "12345" || x.AddressStr != xrpAddr+"_12345" {
		t.Fatalf("xrp %+v", x)
	}
	if ok, _ := e.Wallet.IsSavedAddress(ctx, u.UID, "XRP", "XRP", xrpAddr, "12345"); !ok {
		t.Fatal("xrp with memo not found")
	}
	if ok, _ := e.Wallet.IsSavedAddress(ctx, u.UID, "XRP", "XRP", xrpAddr+"_12345", ""); !ok {
		t.Fatal("xrp address_memo form not found")
	}
	if ok, _ := e.Wallet.IsSavedAddress(ctx, u.UID, "XRP", "XRP", xrpAddr, "999"); ok {
		t.Fatal("another memo must not match")
	}
	add(wallet.AddAddressInput{Coin: "TON", Address: tonAddr, Memo: "hello", Label: "ton"}, "") // one chain: chain may be omitted
	add(wallet.AddAddressInput{Coin: "BTC", Chain: "BTC", Address: btcAddr, Label: "b"}, "")
	add(wallet.AddAddressInput{Coin: "TRX", Chain: "TRX", Address: tronAddr, Label: "t"}, "")

	add(wallet.AddAddressInput{Coin: "BTC", Chain: "BTC", Address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", Label: "x"}, apperr.CodeWalletAddressInvalid)
	add(wallet.AddAddressInput{Coin: "USDT", Chain: "TRC20", Address: ethAddr, Label: "x"}, apperr.CodeWalletAddressInvalid)
	add(wallet.AddAddressInput{Coin: "XRP", Chain: "XRP", Address: xrpAddr + "_notanumber", Label: "x"}, apperr.CodeWalletMemoInvalid)
	add(wallet.AddAddressInput{Coin: "ETH", Chain: "ETH", Address: ethAddr, Memo: "1", Label: "x"}, apperr.CodeWalletMemoInvalid)
	add(wallet.AddAddressInput{Coin: "MNT", Chain: "Bank", Address: "MN123", Label: "x"}, apperr.CodeWalletChainInvalid)
	add(wallet.AddAddressInput{Coin: "USDT", Chain: "SOL", Address: ethAddr, Label: "x"}, apperr.CodeWalletChainInvalid)
	add(wallet.AddAddressInput{Coin: "USDT", Address: ethAddr, Label: "x"}, apperr.CodeWalletChainInvalid) // several chains: must say which
	add(wallet.AddAddressInput{Coin: "DOGE", Chain: "ETH", Address: ethAddr, Label: "x"}, apperr.CodeWalletCoinUnknown)
	add(wallet.AddAddressInput{Coin: "ETH", Chain: "ETH", Address: ethAddr, Label: ""}, apperr.CodeWalletLabelInvalid)
	add(wallet.AddAddressInput{Coin: "ETH", Chain: "ETH", Address: ethAddr, Label: strings.Repeat("л", 31)}, apperr.CodeWalletLabelInvalid)
	add(wallet.AddAddressInput{Coin: "ETH", Chain: "ETH", Address: ethAddr, Label: "a\nb"}, apperr.CodeWalletLabelInvalid)
	add(wallet.AddAddressInput{Coin: "ETH", Chain: "ETH", Address: "", Label: "x"}, apperr.CodeParam)

	all, err := e.Wallet.Addresses(ctx, u.UID, "")
	wt.WantCode(t, err, "")
	usdt, _ := e.Wallet.Addresses(ctx, u.UID, "USDT")
	if len(all) != 5 || len(usdt) != 1 || usdt[0].ID != a.ID {
		t.Fatalf("lists: all %d, usdt %+v", len(all), usdt)
	}

	// Owner checks: another user can neither see nor delete the entry.
	v := e.NewUser(t, wt.Flags{})
	if l, _ := e.Wallet.Addresses(ctx, v.UID, ""); len(l) != 0 {
		t.Fatalf("other user sees %+v", l)
	}
	wt.WantCode(t, e.Wallet.DeleteAddress(ctx, v.UID, a.ID), apperr.CodeWalletAddressNotFound)
	if ok, _ := e.Wallet.IsSavedAddress(ctx, v.UID, "USDT", "ERC20", ethAddr, ""); ok {
		t.Fatal("another user's address counted as saved")
	}
	wt.WantCode(t, e.Wallet.DeleteAddress(ctx, u.UID, a.ID), "")
	wt.WantCode(t, e.Wallet.DeleteAddress(ctx, u.UID, a.ID), apperr.CodeWalletAddressNotFound)
	wt.WantCode(t, e.Wallet.DeleteAddress(ctx, u.UID, "x#y"), apperr.CodeWalletAddressNotFound)
	if ok, _ := e.Wallet.IsSavedAddress(ctx, u.UID, "USDT", "ERC20", ethAddr, ""); ok {
		t.Fatal("deleted address still saved")
	}
	if ok, _ := e.Wallet.IsSavedAddress(ctx, u.UID, "NOPE", "ERC20", ethAddr, ""); ok {
		t.Fatal("unknown coin")
	}

	// The verify flag of the add form sets the switch.
	on, _ := e.Wallet.VerifyAddressOn(ctx, u.UID)
	if on {
		t.Fatal("switch on by default")
	}
	add(wallet.AddAddressInput{Coin: "ETH", Chain: "ETH", Address: ethAddr, Label: "v", Verify: bptr(true)}, "")
	if on, _ = e.Wallet.VerifyAddressOn(ctx, u.UID); !on {
		t.Fatal("verify flag did not turn the switch on")
	}
	wt.WantCode(t, e.Wallet.SetVerifyAddress(ctx, u.UID, true, wallet.Codes{}), apperr.CodeWalletVerifyAddressSame)
	wt.WantCode(t, e.Wallet.SetVerifyAddress(ctx, u.UID, false, wallet.Codes{}), "")
	if on, _ = e.Wallet.VerifyAddressOn(ctx, u.UID); on {
		t.Fatal("switch still on")
	}
}

func TestAddressBookCodes(t *testing.T) {
	e := wt.New(t)
	u := e.NewUser(t, wt.Flags{MobileCheck: true, Google: true})
	in := wallet.AddAddressInput{Coin: "ETH", Chain: "ETH", Address: ethAddr, Label: "main"}
	add := func(c wallet.Codes, code string) {
		t.Helper()
		in.Codes = c
		_, err := e.Wallet.AddAddress(ctx, u.UID, in)
		wt.WantCode(t, err, code)
	}
	add(wallet.Codes{}, apperr.CodeSMSCodeRequired)
	add(wallet.Codes{SMS: "123456"}, apperr.CodeGoogleCodeRequired)
	// A code of another operation (withdraw, 10) does not count.
	add(wallet.Codes{SMS: e.SMSCode(t, u, auth.OpWithdraw), Google: e.GoogleCode(t, u)}, apperr.CodeCodeExpired)
	sms := e.SMSCode(t, u, auth.OpSecurity)
	add(wallet.Codes{SMS: wt.WrongCode(sms), Google: e.GoogleCode(t, u)}, apperr.CodeVerifyCodeWrong)
	add(wallet.Codes{SMS: sms, Google: "000000"}, apperr.CodeGoogleCodeWrong)
	// The wrong Google code used up nothing: the right SMS code, and the
	// Google codes the refused calls carried, still work for the retry.
	gc := e.GoogleCode(t, u)
	add(wallet.Codes{SMS: sms, Google: gc}, "")
	// Now both are used up.
	in.Address, in.Label = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "second"
	add(wallet.Codes{SMS: sms, Google: gc}, apperr.CodeCodeExpired)
	add(wallet.Codes{SMS: e.SMSCode(t, u, auth.OpSecurity), Google: e.GoogleCode(t, u)}, "")
	if l, _ := e.Wallet.Addresses(ctx, u.UID, "ETH"); len(l) != 2 {
		t.Fatalf("list %+v", l)
	}

	// The verify-address switch needs the same codes.
	wt.WantCode(t, e.Wallet.SetVerifyAddress(ctx, u.UID, true, wallet.Codes{}), apperr.CodeSMSCodeRequired)
	wt.WantCode(t, e.Wallet.SetVerifyAddress(ctx, u.UID, true, wallet.Codes{SMS: e.SMSCode(t, u, auth.OpSecurity)}), apperr.CodeGoogleCodeRequired)
	wt.WantCode(t, e.Wallet.SetVerifyAddress(ctx, u.UID, true,
		wallet.Codes{SMS: e.SMSCode(t, u, auth.OpSecurity), Google: e.GoogleCode(t, u)}), "")
	if on, _ := e.Wallet.VerifyAddressOn(ctx, u.UID); !on {
		t.Fatal("switch not on")
	}

	// Google only.
	g := e.NewUser(t, wt.Flags{Google: true})
	_, err := e.Wallet.AddAddress(ctx, g.UID, wallet.AddAddressInput{Coin: "ETH", Chain: "ETH", Address: ethAddr, Label: "g"})
	wt.WantCode(t, err, apperr.CodeGoogleCodeRequired)
	_, err = e.Wallet.AddAddress(ctx, g.UID, wallet.AddAddressInput{Coin: "ETH", Chain: "ETH", Address: ethAddr, Label: "g",
		Codes: wallet.Codes{Google: e.GoogleCode(t, g)}})
	wt.WantCode(t, err, "")
}

func TestBankAccounts(t *testing.T) {
	e := wt.New(t)
	u := e.NewUser(t, wt.Flags{MobileCheck: true})
	add := func(in wallet.AddBankInput, code string) wallet.BankAccount {
		t.Helper()
		b, err := e.Wallet.AddBankAccount(ctx, u.UID, in)
		wt.WantCode(t, err, code)
		return b
	}
	sms28 := func() wallet.Codes { return wallet.Codes{SMS: e.SMSCode(t, u, auth.OpAddBank)} }
	add(wallet.AddBankInput{Account: goodIBAN, Payment: "NOPE"}, apperr.CodeWalletBankUnknown)
	add(wallet.AddBankInput{Account: "", Payment: "KHAN"}, apperr.CodeWalletIBANRequired)
	add(wallet.AddBankInput{Account: "12345", Payment: "KHAN"}, apperr.CodeWalletIBANDigits)
	add(wallet.AddBankInput{Account: "1234567890123456789", Payment: "KHAN"}, apperr.CodeWalletIBANDigits)
	add(wallet.AddBankInput{Account: "MN12345", Payment: "KHAN"}, apperr.CodeWalletIBANFormat)
	add(wallet.AddBankInput{Account: "GB12345678901234567890", Payment: "KHAN"}, apperr.CodeWalletIBANFormat)
	add(wallet.AddBankInput{Account: "MN12345678901234567A", Payment: "KHAN"}, apperr.CodeWalletIBANFormat)
	add(wallet.AddBankInput{Account: goodIBAN, Payment: "KHAN"}, apperr.CodeSMSCodeRequired)
	add(wallet.AddBankInput{Account: goodIBAN, Payment: "KHAN", Codes: wallet.Codes{SMS: "12345"}}, apperr.CodeVerifyCodeWrong)

	// MN is prepended; the holder is the user's own name (e-mail until KYC gives a real name).
	b := add(wallet.AddBankInput{Account: goodIBAN, Payment: "KHAN", Codes: sms28()}, "")
	if b.Account != "MN"+goodIBAN || b.Title != "Khan Bank" || b.UserName != u.Email || b.Icon == "" || b.ID == "" {
		t.Fatalf("bank %+v", b)
	}
	add(wallet.AddBankInput{Account: "mn" + goodIBAN, Payment: "2"}, apperr.CodeWalletBankAccountExists)
	// The add-bank SMS may also have been requested under operationType 6.
	b2 := add(wallet.AddBankInput{Account: goodIBAN2, Payment: "2", Codes: wallet.Codes{SMS: e.SMSCode(t, u, auth.OpTradePassword)}}, "")
	if b2.Title != "Golomt Bank" || b2.Account != goodIBAN2 {
		t.Fatalf("bank 2 %+v", b2)
	}
	// A wrong code under 28 is reported even if an op-6 code exists.
	e.SMSCode(t, u, auth.OpTradePassword)
	code28 := e.SMSCode(t, u, auth.OpAddBank)
	add(wallet.AddBankInput{Account: "MN111111111111111111", Payment: "XAC", Codes: wallet.Codes{SMS: wt.WrongCode(code28)}}, apperr.CodeVerifyCodeWrong)

	list, err := e.Wallet.BankAccounts(ctx, u.UID)
	wt.WantCode(t, err, "")
	if len(list) != 2 || list[0].ID != b.ID || list[1].ID != b2.ID {
		t.Fatalf("list %+v", list)
	}
	// Each names its bank in Mongolian too, for the mn_MN screens.
	if list[0].TitleMN != "Хаан банк" || list[1].TitleMN != "Голомт банк" || b.TitleMN != "Хаан банк" {
		t.Fatalf("Mongolian bank names %q %q %q", list[0].TitleMN, list[1].TitleMN, b.TitleMN)
	}
	got, err := e.Wallet.BankAccount(ctx, u.UID, b.ID)
	wt.WantCode(t, err, "")
	if got != b {
		t.Fatalf("BankAccount %+v, want %+v", got, b)
	}
	// Owner checks.
	v := e.NewUser(t, wt.Flags{})
	_, err = e.Wallet.BankAccount(ctx, v.UID, b.ID)
	wt.WantCode(t, err, apperr.CodeWalletBankAccountNotFound)
	wt.WantCode(t, e.Wallet.DeleteBankAccount(ctx, v.UID, b.ID), apperr.CodeWalletBankAccountNotFound)
	if l, _ := e.Wallet.BankAccounts(ctx, v.UID); len(l) != 0 {
		t.Fatalf("other user sees %+v", l)
	}
	// An IBAN saved by one user cannot be added by another while the
	// first keeps it, typed either way.
	_, err = e.Wallet.AddBankAccount(ctx, v.UID, wallet.AddBankInput{Account: goodIBAN, Payment: "KHAN"})
	wt.WantCode(t, err, apperr.CodeWalletBankAccountTaken)
	_, err = e.Wallet.AddBankAccount(ctx, v.UID, wallet.AddBankInput{Account: "MN" + goodIBAN, Payment: "2"})
	wt.WantCode(t, err, apperr.CodeWalletBankAccountTaken)
	if l, _ := e.Wallet.BankAccounts(ctx, v.UID); len(l) != 0 {
		t.Fatalf("a refused add saved %+v", l)
	}
	wt.WantCode(t, e.Wallet.DeleteBankAccount(ctx, u.UID, b.ID), "")
	_, err = e.Wallet.BankAccount(ctx, u.UID, b.ID)
	wt.WantCode(t, err, apperr.CodeWalletBankAccountNotFound)
	// Deleting frees it. A user without flags needs no code; the holder
	// falls back to the e-mail.
	vb, err := e.Wallet.AddBankAccount(ctx, v.UID, wallet.AddBankInput{Account: goodIBAN, Payment: "KHAN"})
	wt.WantCode(t, err, "")
	if vb.UserName != v.Email {
		t.Fatalf("holder %q", vb.UserName)
	}
	// Now the first user is refused, and the user's own re-add is "exists".
	_, err = e.Wallet.AddBankAccount(ctx, u.UID, wallet.AddBankInput{Account: goodIBAN, Payment: "KHAN", Codes: sms28()})
	wt.WantCode(t, err, apperr.CodeWalletBankAccountTaken)
	_, err = e.Wallet.AddBankAccount(ctx, v.UID, wallet.AddBankInput{Account: goodIBAN, Payment: "KHAN"})
	wt.WantCode(t, err, apperr.CodeWalletBankAccountExists)
	_, err = e.Wallet.BankAccount(ctx, u.UID, "")
	wt.WantCode(t, err, apperr.CodeWalletBankAccountNotFound)
	if len(wallet.Banks()) < 9 {
		t.Fatal("payment list too short")
	}
}

func TestCapitalPasswordAndWithdrawLock(t *testing.T) {
	e := wt.New(t)
	u := e.NewUser(t, wt.Flags{Phone: true, Google: true})
	set := func(in wallet.CapitalPasswordInput, code string) {
		t.Helper()
		_, err := e.Wallet.SetCapitalPassword(ctx, u.UID, in)
		wt.WantCode(t, err, code)
	}
	st, _ := e.Wallet.CapitalStatus(ctx, u.UID)
	if st.IsSet != 0 || st.WithdrawLockedUntil != 0 {
		t.Fatalf("initial %+v", st)
	}
	set(wallet.CapitalPasswordInput{NewPassword: "short1"}, apperr.CodeWalletTradePasswordRule)
	set(wallet.CapitalPasswordInput{NewPassword: "onlyletters"}, apperr.CodeWalletTradePasswordRule)
	set(wallet.CapitalPasswordInput{NewPassword: "12345678"}, apperr.CodeWalletTradePasswordRule)
	set(wallet.CapitalPasswordInput{NewPassword: "with space1"}, apperr.CodeWalletTradePasswordRule)
	set(wallet.CapitalPasswordInput{NewPassword: strings.Repeat("a1", 17)}, apperr.CodeWalletTradePasswordRule)
	set(wallet.CapitalPasswordInput{NewPassword: "trade123", Confirm: "trade124"}, apperr.CodeWalletPasswordMismatch)
	set(wallet.CapitalPasswordInput{NewPassword: u.Password}, apperr.CodeWalletTradePasswordIsLogin)
	set(wallet.CapitalPasswordInput{NewPassword: "trade123"}, apperr.CodeSMSCodeRequired)
	set(wallet.CapitalPasswordInput{NewPassword: "trade123", Codes: wallet.Codes{SMS: "123456"}}, apperr.CodeGoogleCodeRequired)
	set(wallet.CapitalPasswordInput{NewPassword: "trade123", Codes: wallet.Codes{SMS: e.SMSCode(t, u, auth.OpAddBank), Google: e.GoogleCode(t, u)}},
		apperr.CodeCodeExpired) // an SMS of another operation
	set(wallet.CapitalPasswordInput{NewPassword: "trade012", Confirm: "trade012",
		Codes: wallet.Codes{SMS: e.SMSCode(t, u, auth.OpTradePassword), Google: e.GoogleCode(t, u)}}, "")
	// A first trade password changes no one's access: withdrawals stay open (spec §6: a change bans them).
	until, err := e.Wallet.WithdrawLockedUntil(ctx, u.UID)
	if err != nil || !until.IsZero() {
		t.Fatalf("locked after the first trade password: %v %v", until, err)
	}
	e.Clock.Add(2 * time.Minute)
	set(wallet.CapitalPasswordInput{NewPassword: "trade123", Confirm: "trade123",
		Codes: wallet.Codes{SMS: e.SMSCode(t, u, auth.OpTradePassword), Google: e.GoogleCode(t, u)}}, "")
	now := e.Clock.Now()
	until, err = e.Wallet.WithdrawLockedUntil(ctx, u.UID)
	wt.WantCode(t, err, "")
	if !until.Equal(now.Add(24 * time.Hour).Truncate(time.Millisecond)) {
		t.Fatalf("locked until %v, want %v", until, now.Add(24*time.Hour))
	}
	st, _ = e.Wallet.CapitalStatus(ctx, u.UID)
	if st.IsSet != 1 || st.LockSeconds != 24*3600 || st.SetAt != now.UnixMilli() {
		t.Fatalf("status %+v", st)
	}
	if ok, _ := e.Wallet.CheckCapitalPassword(ctx, u.UID, "trade123"); !ok {
		t.Fatal("trade password not accepted")
	}
	if ok, _ := e.Wallet.CheckCapitalPassword(ctx, u.UID, "trade124"); ok {
		t.Fatal("wrong trade password accepted")
	}
	e.Clock.Add(24*time.Hour - time.Second)
	if until, _ := e.Wallet.WithdrawLockedUntil(ctx, u.UID); until.IsZero() {
		t.Fatal("lock ended early")
	}
	e.Clock.Add(2 * time.Second)
	if until, _ := e.Wallet.WithdrawLockedUntil(ctx, u.UID); !until.IsZero() {
		t.Fatalf("lock still on: %v", until)
	}
	// Another user is not locked.
	v := e.NewUser(t, wt.Flags{})
	if until, _ := e.Wallet.WithdrawLockedUntil(ctx, v.UID); !until.IsZero() {
		t.Fatal("other user locked")
	}
	// The reset of a lost authenticator locks withdrawals too (auth keeps
	// its end on the profile): the later of the two locks counts.
	r := e.NewUser(t, wt.Flags{})
	authLock := e.Clock.Now().Add(36 * time.Hour).UnixMilli()
	if _, err := e.Store.Update(ctx, store.Key{PK: "USER#" + r.UID, SK: "PROFILE"}, store.NewUpdate().Set("withdrawLockUntil", authLock), nil); err != nil {
		t.Fatal(err)
	}
	if until, _ := e.Wallet.WithdrawLockedUntil(ctx, r.UID); until.UnixMilli() != authLock {
		t.Fatalf("the recovery's lock is not seen: %v", until)
	}
	// Without a phone the e-mail code of operationType 6 is asked for.
	_, err = e.Wallet.SetCapitalPassword(ctx, v.UID, wallet.CapitalPasswordInput{NewPassword: "trade123"})
	wt.WantCode(t, err, apperr.CodeWalletEmailCodeRequired)
	_, err = e.Wallet.SetCapitalPassword(ctx, v.UID, wallet.CapitalPasswordInput{NewPassword: "trade123",
		Codes: wallet.Codes{Email: e.EmailCode(t, v, auth.OpTradePassword)}})
	wt.WantCode(t, err, "")
	if until, _ := e.Wallet.WithdrawLockedUntil(ctx, v.UID); !until.IsZero() {
		t.Fatal("locked after the first trade password")
	}
	// The fee-coin switch.
	if on, _ := e.Wallet.FeeCoinOpen(ctx, v.UID); on {
		t.Fatal("fee coin on by default")
	}
	wt.WantCode(t, e.Wallet.SetFeeCoinOpen(ctx, v.UID, true), "")
	if on, _ := e.Wallet.FeeCoinOpen(ctx, v.UID); !on {
		t.Fatal("fee coin not stored")
	}
	if st, _ := e.Wallet.CapitalStatus(ctx, v.UID); st.IsSet != 1 {
		t.Fatal("fee switch overwrote the trade password state")
	}
}
