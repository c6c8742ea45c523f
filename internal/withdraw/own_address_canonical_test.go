package withdraw_test

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"tenger/internal/apperr"
	"tenger/internal/withdraw"
)

// bounceableTON respells a non-bounceable user-friendly TON address as the
// bounceable form of the same account in standard base64 (tag 0x11, CRC16
// recomputed).
func bounceableTON(t *testing.T, addr string) string {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(addr)
	if err != nil || len(raw) != 36 {
		t.Fatalf("TON address %q: %v", addr, err)
	}
	raw[0] = 0x11
	var crc uint16
	for _, b := range raw[:34] {
		crc ^= uint16(b) << 8
		for i := 0; i < 8; i++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	raw[34], raw[35] = byte(crc>>8), byte(crc)
	return base64.RawStdEncoding.EncodeToString(raw)
}

// The own-deposit-address rule compares canonical forms: the user's address
// in another spelling that its chain's format allows (upper-case bech32,
// EVM hex in any case, another TON user-friendly form or the raw form) is
// still the user's own address, on the real deposit service's lookup.
func TestWithdrawToOwnDepositAddressInAnotherSpelling(t *testing.T) {
	e := newEnvWithDeposits(t)
	e.user("u1", true, false, false)
	e.user("u2", true, false, false)
	for _, c := range [][2]string{{"BTC", "BTC"}, {"USDT", "ERC20"}, {"TON", "TON"}} {
		e.fund("u1", c[0], c[1], "100")
		e.fund("u2", c[0], c[1], "100")
	}
	own := func(uid, sym, ch string) (address, memo string) {
		t.Helper()
		a, err := e.deposits.ChargeAddress(ctx, uid, sym, ch)
		if err != nil {
			t.Fatal(err)
		}
		return a.AddressLong, a.Memo
	}
	btc, _ := own("u1", "BTC", "BTC")
	eth, _ := own("u1", "USDT", "ERC20")
	ton, memo := own("u1", "TON", "TON")
	_, memo2 := own("u2", "TON", "TON")
	raw, err := base64.RawURLEncoding.DecodeString(ton)
	if err != nil || len(raw) != 36 || raw[1] != 0 {
		t.Fatalf("TON address %s", ton)
	}
	tonRaw := "0:" + strings.ToUpper(hex.EncodeToString(raw[2:34]))
	cases := []struct {
		name, sym, ch, address, memo, fee string
	}{
		{"bech32 as derived", "BTC", "BTC", btc, "", "0.0002"},
		{"bech32 upper case", "BTC", "BTC", strings.ToUpper(btc), "", "0.0002"},
		{"EVM lower case", "USDT", "ERC20", strings.ToLower(eth), "", "1"},
		{"EVM upper case", "USDT", "ERC20", "0x" + strings.ToUpper(eth[2:]), "", "1"},
		{"EVM on another chain of the family", "USDT", "BEP20", eth, "", "1"},
		{"TON bounceable", "TON", "TON", bounceableTON(t, ton), memo, "0.01"},
		{"TON raw", "TON", "TON", tonRaw, memo, "0.01"},
	}
	ownErr := apperr.New(apperr.CodeWithdrawOwnAddress)
	for _, c := range cases {
		in := withdraw.ConfirmInput{Symbol: c.sym, Chain: c.ch, Address: c.address, Memo: c.memo, Amount: "5", Fee: c.fee,
			Codes: withdraw.Codes{Email: "wrong"}}
		if _, err := e.svc.Confirm(ctx, "u1", in); !errors.Is(err, ownErr) {
			t.Errorf("%s: Confirm to %s: %v, want own address", c.name, c.address, err)
		}
		withMemo := c.address
		if c.memo != "" {
			withMemo += "_" + c.memo
		}
		if err := e.svc.ValidateAddress(ctx, "u1", c.sym, c.ch, withMemo); !errors.Is(err, ownErr) {
			t.Errorf("%s: ValidateAddress(%s): %v, want own address", c.name, withMemo, err)
		}
		// For another user it is an ordinary destination.
		if err := e.svc.ValidateAddress(ctx, "u2", c.sym, c.ch, withMemo); err != nil {
			t.Errorf("%s: another user's address: %v", c.name, err)
		}
	}
	// The shared TON address with another user's memo is that user's, not u1's.
	if err := e.svc.ValidateAddress(ctx, "u1", "TON", "TON", bounceableTON(t, ton)+"_"+memo2); err != nil {
		t.Errorf("TON with another user's memo: %v", err)
	}
	if err := e.svc.ValidateAddress(ctx, "u2", "TON", "TON", tonRaw+"_"+memo2); !errors.Is(err, ownErr) {
		t.Errorf("TON raw form with u2's memo for u2: %v", err)
	}
	// The refusals held nothing.
	if b := e.spot("u1", "BTC"); !b.Frozen.IsZero() {
		t.Fatalf("frozen %s", b.Frozen)
	}
}

// A requestId sent again with the same destination spelled another way
// (upper-case bech32) answers the first withdrawal rather than 13024.
func TestRetryWithAnotherSpellingIsTheSameWithdrawal(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, true, false)
	e.fund("u1", "BTC", "BTC", "1")
	in := btcInput(t, "0.3", allCodes)
	in.RequestID = "req-case"
	a, err := e.svc.Confirm(ctx, "u1", in)
	if err != nil {
		t.Fatal(err)
	}
	again := in
	again.Address = strings.ToUpper(in.Address)
	if b, err := e.svc.Confirm(ctx, "u1", again); err != nil || b.ID != a.ID {
		t.Fatalf("retry in upper case: %+v %v", b, err)
	}
	other := in
	other.Address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" // the BIP173 vector: another address
	if _, err := e.svc.Confirm(ctx, "u1", other); !errors.Is(err, apperr.New(apperr.CodeWithdrawRequestReused)) {
		t.Fatalf("another address with the same requestId: %v", err)
	}
	if b := e.spot("u1", "BTC"); !b.Frozen.Equal(dec("0.3")) {
		t.Fatalf("frozen %s", b.Frozen)
	}
	if r := e.record(a.ID); r.Address != in.Address {
		t.Fatalf("stored address %s, sent %s", r.Address, in.Address)
	}
}
