package wallet_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"tenger/internal/apperr"
	"tenger/internal/store"
	"tenger/internal/wallet"
	wt "tenger/internal/wallet/wallettest"
)

// Spellings of one destination that the chains' formats define as equal.
const (
	// tonAddr (the elector, -1:33...33) as a non-bounceable address and
	// in the raw form.
	tonNonBounceable = "Uf8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMxYA"
	tonRawAddr       = "-1:3333333333333333333333333333333333333333333333333333333333333333"
)

func TestTONSpellingsAreOneAccount(t *testing.T) {
	// The constant above is the same account as tonAddr: tag 0x51 instead
	// of 0x11, the same workchain and hash.
	a, _ := base64.RawURLEncoding.DecodeString(tonAddr)
	b, _ := base64.RawURLEncoding.DecodeString(tonNonBounceable)
	if len(a) != 36 || len(b) != 36 || a[0] != 0x11 || b[0] != 0x51 || string(a[1:34]) != string(b[1:34]) {
		t.Fatalf("test constants: %x %x", a, b)
	}
}

// The address book treats every spelling of a saved address as that address:
// adding it again is a duplicate, and it counts as saved for the
// verify-address switch. The entry shows the address as first typed.
func TestAddressBookComparesCanonicalForms(t *testing.T) {
	e := wt.New(t)
	u := e.NewUser(t, wt.Flags{})
	add := func(in wallet.AddAddressInput, code string) wallet.SavedAddress {
		t.Helper()
		a, err := e.Wallet.AddAddress(ctx, u.UID, in)
		wt.WantCode(t, err, code)
		return a
	}
	saved := func(coin, ch, addr, memo string) bool {
		t.Helper()
		ok, err := e.Wallet.IsSavedAddress(ctx, u.UID, coin, ch, addr, memo)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	upperBTC := strings.ToUpper(btcAddr)
	b := add(wallet.AddAddressInput{Coin: "BTC", Chain: "BTC", Address: upperBTC, Label: "qr"}, "")
	if b.Address != upperBTC {
		t.Fatalf("shown as %s, typed %s", b.Address, upperBTC)
	}
	add(wallet.AddAddressInput{Coin: "BTC", Chain: "BTC", Address: btcAddr, Label: "again"}, apperr.CodeWalletAddressExists)
	if !saved("BTC", "BTC", btcAddr, "") || !saved("BTC", "BTC", upperBTC, "") {
		t.Fatal("bech32 in another case not saved")
	}
	// Mixed case is not a spelling of the address (BIP173).
	add(wallet.AddAddressInput{Coin: "BTC", Chain: "BTC", Address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kV8f3t4", Label: "x"},
		apperr.CodeWalletAddressInvalid)
	if saved("BTC", "BTC", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kV8f3t4", "") {
		t.Fatal("mixed-case bech32 counted as saved")
	}

	// EVM: EIP-55, lower and upper case are one address.
	add(wallet.AddAddressInput{Coin: "ETH", Chain: "ETH", Address: "0x" + strings.ToUpper(ethAddr[2:]), Label: "e"}, "")
	add(wallet.AddAddressInput{Coin: "ETH", Chain: "ETH", Address: strings.ToLower(ethAddr), Label: "e2"}, apperr.CodeWalletAddressExists)
	add(wallet.AddAddressInput{Coin: "ETH", Chain: "ETH", Address: ethAddr, Label: "e3"}, apperr.CodeWalletAddressExists)

	// TON: bounceable, non-bounceable and raw are one account;
	// the memo still tells entries apart.
	add(wallet.AddAddressInput{Coin: "TON", Address: tonAddr, Memo: "hello", Label: "ton"}, "")
	add(wallet.AddAddressInput{Coin: "TON", Address: tonNonBounceable, Memo: "hello", Label: "ton2"}, apperr.CodeWalletAddressExists)
	add(wallet.AddAddressInput{Coin: "TON", Address: tonRawAddr, Memo: "hello", Label: "ton3"}, apperr.CodeWalletAddressExists)
	if !saved("TON", "TON", tonRawAddr, "hello") || !saved("TON", "TON", tonNonBounceable+"_hello", "") {
		t.Fatal("TON account in another form not saved")
	}
	if saved("TON", "TON", tonRawAddr, "other") {
		t.Fatal("another memo counted as saved")
	}
	add(wallet.AddAddressInput{Coin: "TON", Address: tonRawAddr, Memo: "other", Label: "ton4"}, "")

	// Base58 (TRON, XRP, legacy BTC) is case-sensitive: another case is
	// not the address at all.
	add(wallet.AddAddressInput{Coin: "TRX", Chain: "TRX", Address: tronAddr, Label: "t"}, "")
	add(wallet.AddAddressInput{Coin: "TRX", Chain: "TRX", Address: strings.ToLower(tronAddr), Label: "t2"}, apperr.CodeWalletAddressInvalid)

	if l, _ := e.Wallet.Addresses(ctx, u.UID, ""); len(l) != 5 {
		t.Fatalf("entries: %+v", l)
	}
}

// Entries saved before ids were derived from the canonical form (their id
// is a hash of the address as typed) are still found in any spelling.
func TestAddressBookFindsEntriesSavedUnderOldIDs(t *testing.T) {
	e := wt.New(t)
	u := e.NewUser(t, wt.Flags{})
	for i, a := range []struct{ coin, ch, addr, memo string }{
		{"BTC", "BTC", strings.ToUpper(btcAddr), ""},
		{"USDT", "ERC20", ethAddr, ""},
		{"TON", "TON", tonAddr, "hi"},
	} {
		id := "0000000000000000000" + string(rune('a'+i))
		it := store.Item{store.AttrPK: "WALLET#" + u.UID, store.AttrSK: "ADDR#" + id, "id": id, "coin": a.coin, "chain": a.ch,
			"address": a.addr, "memo": a.memo, "label": "old", "ctime": int64(1)}
		if err := e.Store.Put(ctx, it, nil); err != nil {
			t.Fatal(err)
		}
	}
	if l, _ := e.Wallet.Addresses(ctx, u.UID, ""); len(l) != 3 {
		t.Fatalf("entries: %+v", l)
	}
	for _, a := range []struct{ coin, ch, addr, memo string }{
		{"BTC", "BTC", btcAddr, ""},
		{"USDT", "ERC20", strings.ToLower(ethAddr), ""},
		{"TON", "TON", tonRawAddr, "hi"},
	} {
		if ok, err := e.Wallet.IsSavedAddress(ctx, u.UID, a.coin, a.ch, a.addr, a.memo); err != nil || !ok {
			t.Errorf("IsSavedAddress(%s %s) = %v, %v", a.ch, a.addr, ok, err)
		}
		_, err := e.Wallet.AddAddress(ctx, u.UID, wallet.AddAddressInput{Coin: a.coin, Chain: a.ch, Address: a.addr, Memo: a.memo, Label: "new"})
		wt.WantCode(t, err, apperr.CodeWalletAddressExists)
	}
	if ok, _ := e.Wallet.IsSavedAddress(ctx, u.UID, "USDT", "BEP20", ethAddr, ""); ok {
		t.Fatal("an old ERC20 entry matched BEP20")
	}
}
