package chain

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"strings"
	"testing"
)

func base64URL(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func TestParseAddressMemo(t *testing.T) {
	tonWithUnderscore := DevTONAddress
	cases := []struct {
		chain      Chain
		in         string
		addr, memo string
	}{
		{XRP, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh_100042", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "100042"},
		{XRP, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", ""},
		{TON, tonWithUnderscore, tonWithUnderscore, ""},
		{TON, tonWithUnderscore + "_100042", tonWithUnderscore, "100042"},
		{TON, tonWithUnderscore + "_my_note", tonWithUnderscore, "my_note"},
		{TON, "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8_7", "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8", "7"},
		{TON, "short_5", "short_5", ""},
		{TON, "0:12_5", "0:12", "5"},
		{ETH, "0xde709f2102306220921060314715629080e2fb77_5", "0xde709f2102306220921060314715629080e2fb77_5", ""},
	}
	for _, c := range cases {
		a, m := ParseAddressMemo(c.chain, c.in)
		if a != c.addr || m != c.memo {
			t.Errorf("ParseAddressMemo(%s, %q) = %q, %q; want %q, %q", c.chain, c.in, a, m, c.addr, c.memo)
		}
		if c.memo != "" {
			if j := JoinAddressMemo(a, m); j != strings.TrimSpace(c.in) {
				t.Errorf("JoinAddressMemo(%q, %q) = %q", a, m, j)
			}
		}
	}
	if JoinAddressMemo("r1", "") != "r1" {
		t.Error("JoinAddressMemo without memo must be the address")
	}
}

func TestShortAddress(t *testing.T) {
	s37 := strings.Repeat("a", 37)
	if ShortAddress(s37) != s37 {
		t.Errorf("37 chars must stay whole")
	}
	long := "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3"
	want := long[:28] + "..." + long[len(long)-6:]
	if got := ShortAddress(long); got != want || len(got) != 37 {
		t.Errorf("ShortAddress = %q, want %q", got, want)
	}
	s38 := strings.Repeat("b", 30) + "12345678"
	if got := ShortAddress(s38); got != strings.Repeat("b", 28)+"...345678" {
		t.Errorf("38 chars: %q", got)
	}
}

func TestQRDataURL(t *testing.T) {
	u, err := QRDataURL("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu")
	if err != nil {
		t.Fatal(err)
	}
	const prefix = "data:image/png;base64,"
	if !strings.HasPrefix(u, prefix) {
		t.Fatalf("not a PNG data URL: %.40s", u)
	}
	raw, err := base64.StdEncoding.DecodeString(u[len(prefix):])
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != qrSize || b.Dy() != qrSize {
		t.Errorf("QR is %dx%d, want %d", b.Dx(), b.Dy(), qrSize)
	}
	if _, err := QRDataURL(""); err == nil {
		t.Error("empty text must fail")
	}
}
