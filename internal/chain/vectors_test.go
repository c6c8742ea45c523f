package chain

import (
	"bytes"
	"crypto/pbkdf2"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
	"testing"

	"github.com/btcsuite/btcd/btcutil/hdkeychain"
	"github.com/btcsuite/btcd/chaincfg"
)

// testMnemonic is the public BIP39 test mnemonic used by the BIP84 vectors.
const testMnemonic = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

// accountKey derives m/purpose'/coin'/0' of the test mnemonic with the
// standard BIP39 seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic")
// and BIP32 hardened derivation, and returns its neutered (public) form.
func accountKey(t testing.TB, purpose, coin uint32) *hdkeychain.ExtendedKey {
	t.Helper()
	seed, err := pbkdf2.Key(sha512.New, testMnemonic, []byte("mnemonic"), 2048, 64)
	if err != nil {
		t.Fatal(err)
	}
	k, err := hdkeychain.NewMaster(seed, &chaincfg.MainNetParams)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []uint32{purpose, coin, 0} {
		if k, err = k.Derive(hdkeychain.HardenedKeyStart + i); err != nil {
			t.Fatal(err)
		}
	}
	pub, err := k.Neuter()
	if err != nil {
		t.Fatal(err)
	}
	return pub
}

// TestDevelopmentKeysAreStandardDerivations shows the shipped development
// xpubs are exactly the standard account keys of the test mnemonic.
func TestDevelopmentKeysAreStandardDerivations(t *testing.T) {
	zpubVersion := []byte{0x04, 0xb2, 0x47, 0x46}
	btc, err := accountKey(t, 84, 0).CloneWithVersion(zpubVersion)
	if err != nil {
		t.Fatal(err)
	}
	if got := btc.String(); got != DevBTCXpub {
		t.Errorf("m/84'/0'/0' zpub = %s, DevBTCXpub = %s", got, DevBTCXpub)
	}
	if got := accountKey(t, 44, 60).String(); got != DevETHXpub {
		t.Errorf("m/44'/60'/0' xpub = %s, DevETHXpub = %s", got, DevETHXpub)
	}
	if got := accountKey(t, 44, 195).String(); got != DevTRONXpub {
		t.Errorf("m/44'/195'/0' xpub = %s, DevTRONXpub = %s", got, DevTRONXpub)
	}
	// XRP: the account of m/44'/144'/0'/0/0.
	ext, _ := accountKey(t, 44, 144).Derive(0)
	child, _ := ext.Derive(0)
	pub, _ := child.ECPubKey()
	if got := xrpAddress(pub.SerializeCompressed()); got != DevXRPAddress {
		t.Errorf("m/44'/144'/0'/0/0 = %s, DevXRPAddress = %s", got, DevXRPAddress)
	}
	h := sha256.Sum256([]byte("tenger development TON deposit address"))
	if got := tonFriendly(0, h, false); got != DevTONAddress {
		t.Errorf("dev TON address = %s, DevTONAddress = %s", got, DevTONAddress)
	}
	if !DevelopmentConfig().UsesDevelopmentKeys() {
		t.Error("development config not recognised as development keys")
	}
}

// Published vectors of the test mnemonic (BIP84 spec; MetaMask/Ian Coleman
// BIP39 tool for m/44'/60'; TronLink for m/44'/195'; XRP m/44'/144').
func TestPublishedDerivationVectors(t *testing.T) {
	d, err := New(DevelopmentConfig())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		chain Chain
		index uint32
		want  string
	}{
		{BTC, 0, "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"},
		{BTC, 1, "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g"},
		{ETH, 0, "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"},
		{ERC20, 0, "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"},
		{BEP20, 0, "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"},
		{ETH, 1, "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0"},
		{TRX, 0, "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH"},
		{TRC20, 0, "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH"},
	}
	for _, c := range cases {
		got, err := d.DepositAddress(c.chain, c.index)
		if err != nil {
			t.Fatalf("%s/%d: %v", c.chain, c.index, err)
		}
		if got.Address != c.want || got.Memo != "" {
			t.Errorf("%s/%d = %+v, want %s", c.chain, c.index, got, c.want)
		}
		if err := Validate(c.chain, got.Address); err != nil {
			t.Errorf("derived %s does not validate: %v", got.Address, err)
		}
	}
}

func TestDepositAddressesStableAndUnique(t *testing.T) {
	d, err := New(DevelopmentConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range All() {
		seen := map[Address]uint32{}
		for i := uint32(0); i < 40; i++ {
			a, err := d.DepositAddress(c, i)
			if err != nil {
				t.Fatalf("%s/%d: %v", c, i, err)
			}
			again, _ := d.DepositAddress(c, i)
			if again != a {
				t.Fatalf("%s/%d not stable: %v then %v", c, i, a, again)
			}
			if j, dup := seen[a]; dup {
				t.Fatalf("%s: index %d and %d share %v", c, j, i, a)
			}
			seen[a] = i
			if err := Validate(c, a.Address); err != nil {
				t.Fatalf("%s/%d: %s invalid: %v", c, i, a.Address, err)
			}
			if c.IsMemoChain() {
				if a.Memo == "" {
					t.Fatalf("%s/%d: no memo", c, i)
				}
				if err := ValidateMemo(c, a.Memo); err != nil {
					t.Fatalf("%s/%d: memo %q invalid: %v", c, i, a.Memo, err)
				}
				back, err := MemoIndex(c, a.Memo)
				if err != nil || back != i {
					t.Fatalf("%s: MemoIndex(%q) = %d, %v; want %d", c, a.Memo, back, err, i)
				}
			} else if a.Memo != "" {
				t.Fatalf("%s/%d: unexpected memo %q", c, i, a.Memo)
			}
		}
	}
	if _, err := d.DepositAddress(BTC, hdkeychain.HardenedKeyStart); !errors.Is(err, ErrIndex) {
		t.Errorf("hardened index: err = %v, want ErrIndex", err)
	}
	if _, err := d.DepositAddress(XRP, MaxMemoIndex+1); !errors.Is(err, ErrIndex) {
		t.Errorf("memo overflow: err = %v, want ErrIndex", err)
	}
	if a, err := d.DepositAddress(XRP, MaxMemoIndex); err != nil || a.Memo != "4294967295" {
		t.Errorf("largest memo index = %+v, %v", a, err)
	}
	if _, err := d.DepositAddress(Chain("DOGE"), 0); !errors.Is(err, ErrUnknownChain) {
		t.Errorf("unknown chain: err = %v", err)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	good := DevelopmentConfig()
	seed := bytes.Repeat([]byte{7}, 32)
	master, _ := hdkeychain.NewMaster(seed, &chaincfg.MainNetParams)
	masterPub, _ := master.Neuter()
	acct := master
	for _, i := range []uint32{84, 0, 0} {
		acct, _ = acct.Derive(hdkeychain.HardenedKeyStart + i)
	}
	cases := map[string]func(*Config){
		"empty":       func(c *Config) { c.ETHXpub = "" },
		"garbage":     func(c *Config) { c.BTCXpub = "xpub-not-a-key" },
		"private key": func(c *Config) { c.BTCXpub = acct.String() },
		"depth 0":     func(c *Config) { c.TRONXpub = masterPub.String() },
		"bad xrp":     func(c *Config) { c.XRPAddress = "rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v4" },
		"bad ton":     func(c *Config) { c.TONAddress = "UQDn5Z_v1MEVAC6Okpigcd5Gg063kOyryMUcPMgCEJJD21U7" },
	}
	for name, mutate := range cases {
		c := good
		mutate(&c)
		if _, err := New(c); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: err = %v, want ErrConfig", name, err)
		}
	}
	if c := (Config{ETHXpub: "x"}).WithDefaults(); c.ETHXpub != "x" || c.BTCXpub != DevBTCXpub || c.TONAddress != DevTONAddress {
		t.Errorf("WithDefaults = %+v", c)
	}
	own := Config{BTCXpub: "a", ETHXpub: "b", TRONXpub: "c", XRPAddress: "d", TONAddress: "e"}
	if own.UsesDevelopmentKeys() {
		t.Error("own keys reported as development keys")
	}
}

func TestValidateVectors(t *testing.T) {
	valid := []struct {
		chain Chain
		addr  string
	}{
		// BIP173 / BIP350 / BIP86 vectors.
		{BTC, "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4"},
		{BTC, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"},
		{BTC, "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3"},
		{BTC, "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr"},
		// Legacy base58check.
		{BTC, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"},
		{BTC, "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"},
		{BTC, "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"},
		// EIP-55 specification vectors (mixed, all upper, all lower).
		{ETH, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"},
		{ETH, "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"},
		{ERC20, "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"},
		{BEP20, "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"},
		{ETH, "0x52908400098527886E0F7030069857D2E4169EE7"},
		{ETH, "0xde709f2102306220921060314715629080e2fb77"},
		// TRON: the USDT contract address.
		{TRC20, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"},
		// XRP: genesis account and ACCOUNT_ZERO.
		{XRP, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"},
		{XRP, "rrrrrrrrrrrrrrrrrrrrrhoLvTp"},
		// TON: the elector contract (-1:33...33), bounceable, base64url and raw.
		{TON, "Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF"},
		{TON, "-1:3333333333333333333333333333333333333333333333333333333333333333"},
		{TON, "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8"},
	}
	for _, v := range valid {
		if err := Validate(v.chain, v.addr); err != nil {
			t.Errorf("Validate(%s, %s) = %v, want nil", v.chain, v.addr, err)
		}
	}
	invalid := []struct {
		chain Chain
		addr  string
		want  error
	}{
		{BTC, "", ErrEmpty},
		{BTC, "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", ErrNetwork},
		{BTC, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", ErrChecksum},
		{BTC, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh", ErrChecksum},                     // v0 with bech32m
		{BTC, "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut", ErrChecksum}, // v1 with bech32
		{BTC, "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", ErrFormat},                             // witness v2
		{BTC, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kV8f3t4", ErrCharacter},                    // mixed case
		{BTC, "bc1q9zpgru", ErrLength},
		{BTC, "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", ErrNetwork},
		{BTC, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3", ErrChecksum},
		{BTC, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNV0", ErrCharacter},
		{BTC, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", ErrLength},
		{ETH, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", ErrChecksum},
		{ETH, "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", ErrLength},
		{ETH, "1x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", ErrPrefix},
		{ETH, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg", ErrCharacter},
		{TRX, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u", ErrChecksum},
		{TRX, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", ErrPrefix},
		{TRX, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj", ErrLength},
		{TRX, "AR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", ErrPrefix},
		{XRP, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTi", ErrChecksum},
		{XRP, "1Hb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", ErrPrefix},
		{XRP, "rHb9CJAWyB4rj91VRWn96DkukG4bwdty0h", ErrCharacter},
		{XRP, "X7AcgcsBL6XDcUb289X4mJ8djcdyKaB5hJDWMArnXr61cqZ", ErrLength},
		{TON, "Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vG", ErrChecksum},
		{TON, "Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0v", ErrLength},
		{TON, "Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0v*", ErrCharacter},
		{TON, "1:3333333333333333333333333333333333333333333333333333333333333333", ErrNetwork},
		{TON, "0:33", ErrLength},
		{Chain("Bank"), "MN123456789012345678", ErrUnknownChain},
	}
	for _, v := range invalid {
		if err := Validate(v.chain, v.addr); !errors.Is(err, v.want) {
			t.Errorf("Validate(%s, %q) = %v, want %v", v.chain, v.addr, err, v.want)
		}
	}
}

func TestTONEncodings(t *testing.T) {
	var elector [32]byte
	for i := range elector {
		elector[i] = 0x33
	}
	if got := tonFriendly(-1, elector, true); got != "Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF" {
		t.Errorf("elector = %s", got)
	}
	// The standard-base64 spelling of the same address is accepted too.
	h := sha256.Sum256([]byte("any"))
	url := tonFriendly(0, h, false)
	std := []byte(url)
	for i, c := range std {
		switch c {
		case '-':
			std[i] = '+'
		case '_':
			std[i] = '/'
		}
	}
	if err := Validate(TON, string(std)); err != nil {
		t.Errorf("std base64 %s: %v", std, err)
	}
	// Testnet flag is refused.
	raw := tonFriendly(0, h, true)
	if err := Validate(TON, raw); err != nil {
		t.Fatalf("bounceable: %v", err)
	}
	testnet := testnetTON(h)
	if err := Validate(TON, testnet); !errors.Is(err, ErrNetwork) {
		t.Errorf("testnet %s: err = %v, want ErrNetwork", testnet, err)
	}
}

func testnetTON(h [32]byte) string {
	var raw [36]byte
	raw[0] = tonBounceable | tonTestOnly
	copy(raw[2:34], h[:])
	sum := crc16XModem(raw[:34])
	raw[34], raw[35] = byte(sum>>8), byte(sum)
	return base64URL(raw[:])
}

func TestCRC16XModemCheckValue(t *testing.T) {
	// The catalogue check value of CRC-16/XMODEM.
	if got := crc16XModem([]byte("123456789")); got != 0x31C3 {
		t.Errorf("crc16(123456789) = %#04x, want 0x31c3", got)
	}
}

func TestMemos(t *testing.T) {
	okMemos := map[Chain][]string{
		XRP: {"", "0", "12345", "4294967295"},
		TON: {"", "100042", "hello world", "привет"},
		BTC: {""},
	}
	for c, ms := range okMemos {
		for _, m := range ms {
			if err := ValidateMemo(c, m); err != nil {
				t.Errorf("ValidateMemo(%s, %q) = %v", c, m, err)
			}
		}
	}
	bad := []struct {
		chain Chain
		memo  string
		want  error
	}{
		{XRP, "4294967296", ErrMemo},
		{XRP, "-1", ErrMemo},
		{XRP, "12a", ErrMemo},
		{XRP, "007", ErrMemo},
		{XRP, "12345678901", ErrMemo},
		{TON, string(bytes.Repeat([]byte("a"), MaxTONCommentLen+1)), ErrMemo},
		{TON, "a\nb", ErrMemo},
		{TON, "\xff", ErrMemo},
		{ETH, "1", ErrNoMemo},
	}
	for _, b := range bad {
		if err := ValidateMemo(b.chain, b.memo); !errors.Is(err, b.want) {
			t.Errorf("ValidateMemo(%s, %q) = %v, want %v", b.chain, b.memo, err, b.want)
		}
	}
	if _, err := MemoIndex(XRP, "99999"); !errors.Is(err, ErrMemo) {
		t.Errorf("memo below base: %v", err)
	}
	if _, err := Memo(BTC, 1); !errors.Is(err, ErrNoMemo) {
		t.Errorf("Memo(BTC) = %v", err)
	}
}

func TestChecksumEVMAddress(t *testing.T) {
	got, err := ChecksumEVMAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")
	if err != nil || got != "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" {
		t.Errorf("ChecksumEVMAddress = %s, %v", got, err)
	}
}

func TestParse(t *testing.T) {
	for _, c := range All() {
		got, err := Parse(" " + string(c) + " ")
		if err != nil || got != c {
			t.Errorf("Parse(%s) = %s, %v", c, got, err)
		}
	}
	if got, err := Parse("trc20"); err != nil || got != TRC20 {
		t.Errorf("Parse(trc20) = %s, %v", got, err)
	}
	if _, err := Parse("Bank"); !errors.Is(err, ErrUnknownChain) {
		t.Errorf("Parse(Bank) = %v", err)
	}
}
