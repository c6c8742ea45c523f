package deposit_test

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/chain"
	"tenger/internal/chainsim"
	"tenger/internal/deposit"
)

// tonBounceable respells a non-bounceable user-friendly TON address as the
// bounceable form of the same account (tag 0x11, CRC16 recomputed).
func tonBounceable(t *testing.T, addr string) string {
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

// tonRaw is the raw form "0:hex" of a basechain user-friendly TON address.
func tonRaw(t *testing.T, addr string) string {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(addr)
	if err != nil || len(raw) != 36 || raw[1] != 0 {
		t.Fatalf("TON address %q: %v", addr, err)
	}
	return "0:" + hex.EncodeToString(raw[2:34])
}

// A deposit sent to another spelling of a user's address that the chain's
// format defines as the same destination (upper-case bech32, upper-case
// EVM hex, another TON user-friendly form of the shared address) is the
// user's, not held for review; the record keeps the address as sent.
func TestDepositToAnotherSpellingCredited(t *testing.T) {
	e := newEnv(t)
	const uid = "10000001"
	btc, err := e.svc.ChargeAddress(ctx, uid, "BTC", "")
	if err != nil {
		t.Fatal(err)
	}
	eth, err := e.svc.ChargeAddress(ctx, uid, "ETH", "")
	if err != nil {
		t.Fatal(err)
	}
	ton, err := e.svc.ChargeAddress(ctx, uid, "TON", "")
	if err != nil {
		t.Fatal(err)
	}
	upper := strings.ToUpper(btc.AddressLong)
	if upper == btc.AddressLong || chain.Validate(chain.BTC, upper) != nil {
		t.Fatalf("upper-case form %s", upper)
	}
	ethUpper := "0x" + strings.ToUpper(eth.AddressLong[2:])
	tonOther := tonBounceable(t, ton.AddressLong)
	if tonOther == ton.AddressLong || chain.Validate(chain.TON, tonOther) != nil {
		t.Fatalf("bounceable TON form %s", tonOther)
	}
	for _, d := range []chainsim.DepositReq{
		{Coin: "BTC", Chain: "BTC", Address: upper, Amount: "0.25"},
		{Coin: "ETH", Chain: "ETH", Address: ethUpper, Amount: "2"},
		{Coin: "TON", Chain: "TON", Address: tonOther, Memo: ton.Memo, Amount: "7"},
	} {
		if _, err := e.sim.Deposit(ctx, d); err != nil {
			t.Fatalf("%s deposit: %v", d.Chain, err)
		}
	}
	e.mine(t, "BTC", 2)
	e.mine(t, "ETH", 12)
	e.mine(t, "TON", 1)
	for coin, want := range map[string]string{"BTC": "0.25", "ETH": "2", "TON": "7"} {
		if b := e.spot(t, uid, coin); !b.Available.Equal(decimal.RequireFromString(want)) {
			t.Errorf("%s credited %s, want %s", coin, b.Available, want)
		}
	}
	if rev, err := e.svc.Review(ctx); err != nil || len(rev) != 0 {
		t.Fatalf("held for review: %+v %v", rev, err)
	}
	l, _, err := e.svc.History(ctx, uid, deposit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]bool{}
	for _, r := range l {
		shown[r.Address] = true
	}
	if !shown[upper] || !shown[ethUpper] || !shown[tonOther] {
		t.Fatalf("history does not show the addresses as sent: %v", shown)
	}
	// OwnerOf says the same for every spelling, and nothing for a spelling
	// the format refuses (mixed-case bech32).
	for _, a := range []struct{ ch, addr, memo, want string }{
		{"BTC", upper, "", uid},
		{"BTC", btc.AddressLong, "", uid},
		{"BTC", btc.AddressLong[:5] + strings.ToUpper(btc.AddressLong[5:]), "", ""},
		{"ERC20", ethUpper, "", uid},
		{"BEP20", strings.ToLower(eth.AddressLong), "", uid},
		{"TON", tonOther, ton.Memo, uid},
		{"TON", tonRaw(t, ton.AddressLong), ton.Memo, uid},
		{"TON", strings.ToUpper(tonRaw(t, ton.AddressLong)), ton.Memo, uid},
		{"TON", tonOther, "", ""},
	} {
		if got, err := e.svc.OwnerOf(ctx, a.ch, a.addr, a.memo); err != nil || got != a.want {
			t.Errorf("OwnerOf(%s, %s, %q) = %q, %v; want %q", a.ch, a.addr, a.memo, got, err, a.want)
		}
	}
	e.audit(t)
}
