package chain

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// tonStd respells a base64url user-friendly TON address in standard base64.
func tonStd(s string) string { return strings.NewReplacer("-", "+", "_", "/").Replace(s) }

func TestCanonical(t *testing.T) {
	var elector [32]byte
	for i := range elector {
		elector[i] = 0x33
	}
	// DevTONAddress's account hash is SHA-256("tenger development TON deposit address").
	devRaw := "0:e7e59fefd4c115002e8e9298a071de46834eb790ecabc8c51c3cc802109243db"
	devHash, _ := hex.DecodeString(devRaw[2:])
	var dev [32]byte
	copy(dev[:], devHash)
	// Each group lists spellings of one destination; the first is the
	// canonical form.
	groups := []struct {
		chain Chain
		forms []string
	}{
		{BTC, []string{"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4"}},
		{BTC, []string{"bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3",
			"BC1QRP33G0Q5C5TXSP9ARYSRX4K6ZDKFS4NCE4XJ0GDCCCEFVPYSXF3QCCFMV3"}},
		{BTC, []string{"bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr",
			"BC1P5CYXNUXMEUWUVKWFEM96LQZSZD02N6XDCJRS20CAC6YQJJWUDPXQKEDRCR"}},
		{BTC, []string{"1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"}},
		{BTC, []string{"3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"}},
		{ETH, []string{"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
			"0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED"}},
		{BEP20, []string{"0xd1220a0cf47c7b9be7a2e6ba89f429762e7b9adb", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"}},
		{TRC20, []string{"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"}},
		{XRP, []string{"rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"}},
		{TON, []string{"-1:3333333333333333333333333333333333333333333333333333333333333333",
			"Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF", tonFriendly(-1, elector, false)}},
		{TON, []string{devRaw, strings.ToUpper(devRaw), DevTONAddress, tonStd(DevTONAddress), tonFriendly(0, dev, true),
			tonStd(tonFriendly(0, dev, true))}},
	}
	seen := map[string]int{}
	for gi, g := range groups {
		for _, f := range g.forms {
			got, err := Canonical(g.chain, f)
			if err != nil || got != g.forms[0] {
				t.Errorf("Canonical(%s, %s) = %q, %v; want %q", g.chain, f, got, err, g.forms[0])
			}
			if !SameAddress(g.chain, f, g.forms[0]) || !SameAddress(g.chain, g.forms[0], f) {
				t.Errorf("SameAddress(%s, %s, %s) = false", g.chain, f, g.forms[0])
			}
		}
		fam, _ := g.chain.Family()
		key := string(fam) + "|" + g.forms[0]
		if prev, ok := seen[key]; ok {
			t.Errorf("groups %d and %d share the canonical form %s", prev, gi, g.forms[0])
		}
		seen[key] = gi
	}
	// Another spelling that the format does not define as the same address
	// is refused, or is another address.
	refused := []struct {
		chain Chain
		addr  string
		want  error
	}{
		{BTC, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kV8f3t4", ErrCharacter},      // mixed-case bech32 (BIP173)
		{BTC, "Bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", ErrCharacter},      // mixed case in the prefix
		{BTC, "1bvbmseystwetqtfn5au4m4gfg7xjanvn2", ErrChecksum},               // base58 is case-sensitive
		{ETH, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", ErrChecksum},       // wrong EIP-55 case
		{ETH, "0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", ErrPrefix},         // 0X is not an EVM prefix
		{TRX, "tr7nhqjekqxgtci8q8zy4pl8otszgjlj6t", ErrPrefix},                 // base58 is case-sensitive
		{XRP, "RHB9CJAWYB4RJ91VRWN96DKUKG4BWDTYTH", ErrPrefix},                 // base58 is case-sensitive
		{TON, strings.ToLower(DevTONAddress), ErrChecksum},                     // base64 is case-sensitive
		{TON, "kQDn5Z_v1MEVAC6Okpigcd5Gg063kOyryMUcPMgCEJJD21U6", ErrChecksum}, // test-only tag, old CRC
		{TON, "", ErrEmpty},
	}
	for _, r := range refused {
		if got, err := Canonical(r.chain, r.addr); !errors.Is(err, r.want) {
			t.Errorf("Canonical(%s, %q) = %q, %v; want %v", r.chain, r.addr, got, err, r.want)
		}
	}
	// A test-only TON address (valid CRC) is for another network.
	var testOnly [36]byte
	testOnly[0] = tonNonBounceable | tonTestOnly
	copy(testOnly[2:34], dev[:])
	if _, err := Canonical(TON, tonFriendlyRaw(testOnly)); !errors.Is(err, ErrNetwork) {
		t.Errorf("test-only TON address: %v", err)
	}
	if SameAddress(BTC, "1bvbmseystwetqtfn5au4m4gfg7xjanvn2", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2") {
		t.Error("a base58 address in another case is the same address")
	}
	if SameAddress(BTC, "junk", "JUNK") || !SameAddress(BTC, "junk", "junk") {
		t.Error("invalid addresses compare by bytes")
	}
	if _, err := Canonical("DOGE", "D"); !errors.Is(err, ErrUnknownChain) {
		t.Errorf("unknown chain: %v", err)
	}
}

// tonFriendlyRaw encodes 36 bytes whose CRC it fills in.
func tonFriendlyRaw(raw [36]byte) string {
	crc := crc16XModem(raw[:34])
	raw[34], raw[35] = byte(crc>>8), byte(crc)
	return base64.RawURLEncoding.EncodeToString(raw[:])
}

// Derived deposit addresses are already canonical for bech32 and TRON, and
// lower-case for EVM: the deposit store keys written before Canonical
// existed (the derived address, lower-cased for EVM) are canonical forms.
func TestDerivedAddressesCanonical(t *testing.T) {
	d, err := New(DevelopmentConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, idx := range []uint32{0, 1, 2, 777, 1 << 20, 1<<31 - 1} {
		for _, c := range []Chain{BTC, ETH, TRX} {
			a, err := d.DepositAddress(c, idx)
			if err != nil {
				t.Fatal(err)
			}
			want := a.Address
			if c == ETH {
				want = strings.ToLower(a.Address)
			}
			if got, err := Canonical(c, a.Address); err != nil || got != want {
				t.Errorf("Canonical(%s, %s) = %q, %v; want %q", c, a.Address, got, err, want)
			}
		}
	}
}

// FuzzCanonical: any address with a canonical form has a valid, idempotent
// canonical form; every spelling of a generated address that its format
// allows has the same canonical form; different accounts have different
// canonical forms.
func FuzzCanonical(f *testing.F) {
	f.Add(byte(0), []byte{1, 2, 3}, []byte{1, 2, 4}, "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4")
	f.Add(byte(1), []byte{9}, []byte{9}, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	f.Add(byte(4), []byte{7, 7}, []byte{7, 8}, DevTONAddress)
	f.Fuzz(func(t *testing.T, kind byte, a, b []byte, raw string) {
		for _, c := range All() {
			can, err := Canonical(c, raw)
			if err != nil {
				if Validate(c, raw) == nil {
					t.Fatalf("Canonical(%s, %q) refused a valid address: %v", c, raw, err)
				}
				continue
			}
			if Validate(c, can) != nil {
				t.Fatalf("canonical form %q of %q is invalid on %s", can, raw, c)
			}
			if again, err := Canonical(c, can); err != nil || again != can {
				t.Fatalf("Canonical(%s) not idempotent: %q -> %q -> %q, %v", c, raw, can, again, err)
			}
			if !SameAddress(c, raw, can) {
				t.Fatalf("SameAddress(%s, %q, %q) = false", c, raw, can)
			}
		}
		// spellings returns the chain and every allowed spelling of the
		// account generated from data.
		spellings := func(data []byte) (Chain, []string) {
			switch kind % 5 {
			case 0: // bech32 P2WSH and bech32m P2TR, lower and upper case
				v := byte(0)
				if len(data) > 32 && data[32]&1 == 1 {
					v = 1
				}
				s, err := segwitEncode(btcHRP, v, pad(data, 32))
				if err != nil {
					t.Fatal(err)
				}
				return BTC, []string{s, strings.ToUpper(s)}
			case 1: // EVM: EIP-55, lower, upper
				s := eip55(pad(data, 20))
				return ETH, []string{s, "0x" + strings.ToLower(s[2:]), "0x" + strings.ToUpper(s[2:])}
			case 2: // TRON: one spelling
				return TRX, []string{encodeBase58Check(pad(data, 20), tronVersion, bitcoinAlphabet)}
			case 3: // XRP: one spelling
				return XRP, []string{encodeBase58Check(pad(data, 20), xrpVersion, rippleAlphabet)}
			default: // TON: four friendly forms and the raw form in both cases
				var h [32]byte
				copy(h[:], data)
				wc := int8(0)
				if len(data) > 32 && data[32]&1 == 1 {
					wc = -1
				}
				rawForm := "0:" + hex.EncodeToString(h[:])
				if wc == -1 {
					rawForm = "-1" + rawForm[1:]
				}
				bo, nb := tonFriendly(wc, h, true), tonFriendly(wc, h, false)
				return TON, []string{bo, nb, tonStd(bo), tonStd(nb), rawForm, strings.ToUpper(rawForm)}
			}
		}
		c, as := spellings(a)
		_, bs := spellings(b)
		canA, err := Canonical(c, as[0])
		if err != nil {
			t.Fatalf("generated %s invalid: %v", as[0], err)
		}
		for _, s := range as[1:] {
			if got, err := Canonical(c, s); err != nil || got != canA {
				t.Fatalf("Canonical(%s, %s) = %q, %v; want %q (from %s)", c, s, got, err, canA, as[0])
			}
		}
		canB, err := Canonical(c, bs[0])
		if err != nil {
			t.Fatalf("generated %s invalid: %v", bs[0], err)
		}
		// The generators are injective on the padded data (TON: on the hash
		// and the workchain bit), so equal canonical forms mean equal input.
		if (canA == canB) != (sameAccount(kind, a, b)) {
			t.Fatalf("%s: %s and %s have canonical forms %q and %q", c, as[0], bs[0], canA, canB)
		}
	})
}

// sameAccount reports whether FuzzCanonical's generator makes the same
// account of a and b.
func sameAccount(kind byte, a, b []byte) bool {
	switch kind % 5 {
	case 0, 4:
		bit := func(d []byte) bool { return len(d) > 32 && d[32]&1 == 1 }
		return string(pad(a, 32)) == string(pad(b, 32)) && bit(a) == bit(b)
	default:
		return string(pad(a, 20)) == string(pad(b, 20))
	}
}
