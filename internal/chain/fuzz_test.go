package chain

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math/big"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/sha3"
)

// Every fuzz target takes:
//   - raw: an arbitrary string that must never panic the validator and, when
//     refused, must be refused with one of the package's errors;
//   - data: bytes from which a VALID address is generated, which must pass;
//   - pos, ch: a one-character mutation of that valid address, which must be
//     refused (exceptions are spelled out per format and checked
//     independently rather than waved through).

var sentinels = []error{ErrEmpty, ErrLength, ErrCharacter, ErrChecksum, ErrPrefix, ErrNetwork, ErrFormat}

func checkRaw(t *testing.T, c Chain, raw string) {
	t.Helper()
	err := Validate(c, raw)
	if err == nil {
		// A valid address survives the address_memo round trip.
		if c.IsMemoChain() {
			a, m := ParseAddressMemo(c, JoinAddressMemo(raw, "100001"))
			if a != raw || m != "100001" {
				t.Fatalf("address_memo round trip of %q gave %q, %q", raw, a, m)
			}
		}
		return
	}
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("Validate(%s, %q) returned an unclassified error: %v", c, raw, err)
}

func mutate(s string, pos uint16, ch byte) (string, bool) {
	if len(s) == 0 {
		return s, false
	}
	i := int(pos) % len(s)
	if s[i] == ch {
		return s, false
	}
	b := []byte(s)
	b[i] = ch
	return string(b), true
}

var (
	fuzzDeriverOnce sync.Once
	fuzzDeriver     *Deriver
)

func deriver(t *testing.T) *Deriver {
	fuzzDeriverOnce.Do(func() {
		d, err := New(DevelopmentConfig())
		if err != nil {
			panic(err)
		}
		fuzzDeriver = d
	})
	return fuzzDeriver
}

func indexFrom(data []byte) uint32 {
	var b [4]byte
	copy(b[:], data)
	return binary.LittleEndian.Uint32(b[:]) & 0x7fffffff
}

func pad(data []byte, n int) []byte {
	out := make([]byte, n)
	copy(out, data)
	return out
}

// refBase58CheckOK is an independent (math/big) base58check decoder used to
// confirm that an accepted mutation really carries a matching checksum —
// a 1 in 2^32 collision of the format, not a validator bug.
func refBase58CheckOK(s, alphabet string) bool {
	n := new(big.Int)
	for i := 0; i < len(s); i++ {
		j := strings.IndexByte(alphabet, s[i])
		if j < 0 {
			return false
		}
		n.Mul(n, big.NewInt(58))
		n.Add(n, big.NewInt(int64(j)))
	}
	zeros := 0
	for zeros < len(s) && s[zeros] == alphabet[0] {
		zeros++
	}
	b := append(make([]byte, zeros), n.Bytes()...)
	if len(b) < 5 {
		return false
	}
	h1 := sha256.Sum256(b[:len(b)-4])
	h2 := sha256.Sum256(h1[:])
	return bytes.Equal(h2[:4], b[len(b)-4:])
}

func FuzzValidateBTC(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 0}, uint16(10), byte('x'), "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu")
	f.Add([]byte{3, 9, 9}, uint16(0), byte('2'), "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy")
	f.Fuzz(func(t *testing.T, data []byte, pos uint16, ch byte, raw string) {
		checkRaw(t, BTC, raw)
		kind := byte(0)
		if len(data) > 0 {
			kind, data = data[0]%5, data[1:]
		}
		var valid string
		var err error
		base58Kind := false
		switch kind {
		case 0:
			var a Address
			a, err = deriver(t).DepositAddress(BTC, indexFrom(data))
			valid = a.Address
		case 1:
			valid, err = segwitEncode(btcHRP, 0, pad(data, 32)) // P2WSH
		case 2:
			valid, err = segwitEncode(btcHRP, 1, pad(data, 32)) // P2TR
		case 3:
			valid, base58Kind = encodeBase58Check(pad(data, 20), btcP2PKHVersion, bitcoinAlphabet), true
		case 4:
			valid, base58Kind = encodeBase58Check(pad(data, 20), btcP2SHVersion, bitcoinAlphabet), true
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(BTC, valid); err != nil {
			t.Fatalf("generated %s invalid: %v", valid, err)
		}
		m, changed := mutate(valid, pos, ch)
		if !changed || Validate(BTC, m) != nil {
			return
		}
		// bech32 detects every single-character error, so only a base58
		// checksum collision may pass, and it must be a genuine one.
		if !base58Kind || !refBase58CheckOK(m, bitcoinAlphabet) {
			t.Fatalf("mutation %s of %s accepted", m, valid)
		}
	})
}

// refEIP55 is an independent EIP-55 check written straight from the EIP.
func refEIP55(addr string) bool {
	body := addr[2:]
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte(strings.ToLower(body)))
	sum := hex.EncodeToString(h.Sum(nil))
	for i := 0; i < 40; i++ {
		c := body[i]
		up := sum[i] >= '8'
		if c >= 'a' && c <= 'f' && up || c >= 'A' && c <= 'F' && !up {
			return false
		}
	}
	return true
}

func FuzzValidateEVM(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0}, uint16(5), byte('A'), "0x9858EfFD232B4033E47d90003D41EC34EcaEda94")
	f.Fuzz(func(t *testing.T, data []byte, pos uint16, ch byte, raw string) {
		checkRaw(t, ETH, raw)
		if err := Validate(ETH, raw); err == nil && strings.ToLower(raw[2:]) != raw[2:] && strings.ToUpper(raw[2:]) != raw[2:] && !refEIP55(raw) {
			t.Fatalf("accepted %s with a wrong EIP-55 checksum", raw)
		}
		a, err := deriver(t).DepositAddress(BEP20, indexFrom(data))
		if err != nil {
			t.Fatal(err)
		}
		valid := a.Address
		if err := Validate(ERC20, valid); err != nil || !refEIP55(valid) {
			t.Fatalf("derived %s invalid: %v", valid, err)
		}
		m, changed := mutate(valid, pos, ch)
		if !changed || Validate(ETH, m) != nil {
			return
		}
		body := m[2:]
		if strings.EqualFold(m, valid) {
			// A single case flip always breaks EIP-55 unless the result
			// carries no checksum at all (all one case).
			if body != strings.ToLower(body) && body != strings.ToUpper(body) {
				t.Fatalf("case mutation %s of %s accepted", m, valid)
			}
			return
		}
		// A changed hex value: EIP-55 is a probabilistic checksum (about
		// 1 in 2^15 typos pass), so an accepted mutation must be a genuine
		// EIP-55 address or unchecksummed.
		if body != strings.ToLower(body) && body != strings.ToUpper(body) && !refEIP55(m) {
			t.Fatalf("mutation %s of %s accepted", m, valid)
		}
	})
}

func FuzzValidateTRON(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0}, uint16(3), byte('z'), "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH")
	f.Fuzz(func(t *testing.T, data []byte, pos uint16, ch byte, raw string) {
		checkRaw(t, TRC20, raw)
		a, err := deriver(t).DepositAddress(TRX, indexFrom(data))
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(TRC20, a.Address); err != nil || !refBase58CheckOK(a.Address, bitcoinAlphabet) {
			t.Fatalf("derived %s invalid: %v", a.Address, err)
		}
		m, changed := mutate(a.Address, pos, ch)
		if changed && Validate(TRX, m) == nil && !refBase58CheckOK(m, bitcoinAlphabet) {
			t.Fatalf("mutation %s of %s accepted", m, a.Address)
		}
	})
}

func FuzzValidateXRP(f *testing.F) {
	f.Add([]byte("account-id-bytes-20b"), uint16(1), byte('r'), "rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3")
	f.Fuzz(func(t *testing.T, data []byte, pos uint16, ch byte, raw string) {
		checkRaw(t, XRP, raw)
		valid := encodeBase58Check(pad(data, 20), xrpVersion, rippleAlphabet)
		if err := Validate(XRP, valid); err != nil || !refBase58CheckOK(valid, rippleAlphabet) {
			t.Fatalf("generated %s invalid: %v", valid, err)
		}
		m, changed := mutate(valid, pos, ch)
		if changed && Validate(XRP, m) == nil && !refBase58CheckOK(m, rippleAlphabet) {
			t.Fatalf("mutation %s of %s accepted", m, valid)
		}
	})
}

// tonCanonical maps the base64 spelling onto base64url, under which the two
// spellings of one address are equal.
func tonCanonical(s string) string {
	return strings.NewReplacer("+", "-", "/", "_").Replace(s)
}

func FuzzValidateTON(f *testing.F) {
	f.Add([]byte{1, 2, 3}, uint16(47), byte('A'), DevTONAddress)
	f.Fuzz(func(t *testing.T, data []byte, pos uint16, ch byte, raw string) {
		checkRaw(t, TON, raw)
		var h [32]byte
		copy(h[:], data)
		wc, bounce := int8(0), false
		if len(data) > 32 {
			if data[32]&1 == 1 {
				wc = -1
			}
			bounce = data[32]&2 == 2
		}
		valid := tonFriendly(wc, h, bounce)
		if err := Validate(TON, valid); err != nil {
			t.Fatalf("generated %s invalid: %v", valid, err)
		}
		m, changed := mutate(valid, pos, ch)
		// CRC16 detects every burst of up to 16 bits and one base64
		// character spans 6, so only a respelling of the same character
		// in the other base64 alphabet may pass.
		if changed && Validate(TON, m) == nil && tonCanonical(m) != tonCanonical(valid) {
			t.Fatalf("mutation %s of %s accepted", m, valid)
		}
	})
}

func FuzzMemo(f *testing.F) {
	f.Add(uint32(0), "100000")
	f.Add(uint32(4294867295), "4294967295")
	f.Fuzz(func(t *testing.T, index uint32, memo string) {
		for _, c := range []Chain{XRP, TON} {
			// Arbitrary memos never panic and are classified.
			if err := ValidateMemo(c, memo); err != nil && !errors.Is(err, ErrMemo) {
				t.Fatalf("ValidateMemo(%s, %q): %v", c, memo, err)
			}
			if i, err := MemoIndex(c, memo); err == nil {
				if back, _ := Memo(c, i); back != strings.TrimSpace(memo) {
					t.Fatalf("MemoIndex(%q) = %d but Memo(%d) = %q", memo, i, i, back)
				}
			}
			// Issued memos are valid and invert.
			m, err := Memo(c, index)
			if index > MaxMemoIndex {
				if err == nil {
					t.Fatalf("Memo(%d) should overflow", index)
				}
				continue
			}
			if err != nil || ValidateMemo(c, m) != nil {
				t.Fatalf("Memo(%s, %d) = %q, %v", c, index, m, err)
			}
			if back, err := MemoIndex(c, m); err != nil || back != index {
				t.Fatalf("MemoIndex(%q) = %d, %v", m, back, err)
			}
		}
	})
}
