package coins

import (
	"errors"
	"strings"
	"testing"
)

func TestNormalizeIBAN(t *testing.T) {
	digits := "123456789012345678"
	ok := map[string]string{
		digits:               "MN" + digits,
		"MN" + digits:        "MN" + digits,
		"mn" + digits:        "MN" + digits,
		"  " + digits + "  ": "MN" + digits,
	}
	for in, want := range ok {
		got, err := NormalizeIBAN(in)
		if err != nil || got != want {
			t.Errorf("NormalizeIBAN(%q) = %q, %v; want %q", in, got, err, want)
		}
		if ValidateIBAN(got) != nil {
			t.Errorf("normalized %q does not validate", got)
		}
	}
	bad := map[string]error{
		"":                        ErrIBANRequired,
		"   ":                     ErrIBANRequired,
		"12345678901234567":       ErrIBANDigits, // 17 digits
		"1234567890123456789":     ErrIBANDigits, // 19 digits
		"MN12345678901234567":     ErrIBANFormat, // 19 characters
		"MN1234567890123456789":   ErrIBANFormat, // 21 characters
		"US123456789012345678":    ErrIBANFormat,
		"MN12345678901234567X":    ErrIBANFormat,
		"MN 23456789012345678":    ErrIBANFormat,
		"1234 5678 9012 3456 78":  ErrIBANFormat,
		"MN-123456789012345678":   ErrIBANFormat,
		"١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨":      ErrIBANFormat,
		"MN123456789012345678abc": ErrIBANFormat,
	}
	for in, want := range bad {
		if _, err := NormalizeIBAN(in); !errors.Is(err, want) {
			t.Errorf("NormalizeIBAN(%q) = %v, want %v", in, err, want)
		}
	}
	if ValidateIBAN("mn"+digits) == nil || ValidateIBAN(digits) == nil || ValidateIBAN("") != ErrIBANRequired {
		t.Error("ValidateIBAN must take only the stored form")
	}
	// The spec's two texts.
	if ErrIBANDigits.MN != "Буруу IBAN формат. 18 орон байх ёстой." ||
		ErrIBANFormat.MN != "Буруу IBAN формат. MN-ээр эхэлж, 20 тэмдэгттэй байх ёстой." {
		t.Error("IBAN texts differ from spec §8")
	}
	var ie *IBANError
	if _, err := NormalizeIBAN("1"); !errors.As(err, &ie) || ie.Rule != "digits" {
		t.Errorf("errors.As IBANError: %v", err)
	}
}

func TestIBANInput(t *testing.T) {
	cases := map[string]string{
		"12ab34":                         "1234",
		"1234567890123456789999":         "123456789012345678",
		"MN123456789012345678":           "123456789012345678",
		"  mn123456789012345678 ":        "123456789012345678",
		"":                               "",
		strings.Repeat("9", 30) + "abc1": strings.Repeat("9", 18),
	}
	for in, want := range cases {
		got, err := IBANInput(in)
		if err != nil || got != want {
			t.Errorf("IBANInput(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"MN1234", "MN1234567890123456789", "MNX23456789012345678"} {
		if _, err := IBANInput(in); !errors.Is(err, ErrIBANFormat) {
			t.Errorf("IBANInput(%q) = %v, want ErrIBANFormat", in, err)
		}
	}
}

func FuzzIBAN(f *testing.F) {
	f.Add("MN123456789012345678")
	f.Fuzz(func(t *testing.T, s string) {
		n, err := NormalizeIBAN(s)
		if err != nil {
			if err != ErrIBANRequired && err != ErrIBANDigits && err != ErrIBANFormat {
				t.Fatalf("NormalizeIBAN(%q): unexpected error %v", s, err)
			}
		} else {
			if ValidateIBAN(n) != nil || len(n) != IBANLength || !strings.HasPrefix(n, "MN") {
				t.Fatalf("NormalizeIBAN(%q) = %q, not a valid IBAN", s, n)
			}
			if !strings.HasSuffix(strings.TrimSpace(s), n[2:]) {
				t.Fatalf("NormalizeIBAN(%q) = %q changed the digits", s, n)
			}
			// Idempotent.
			if again, err := NormalizeIBAN(n); err != nil || again != n {
				t.Fatalf("NormalizeIBAN not idempotent on %q: %q, %v", n, again, err)
			}
		}
		if ValidateIBAN(s) == nil {
			if n != s {
				t.Fatalf("valid IBAN %q normalized to %q", s, n)
			}
		}
		in, err := IBANInput(s)
		if err == nil {
			if len(in) > IBANDigits || !allDigits(in) {
				t.Fatalf("IBANInput(%q) = %q", s, in)
			}
			// 18 kept digits always submit cleanly.
			if len(in) == IBANDigits {
				if got, err := NormalizeIBAN(in); err != nil || got != "MN"+in {
					t.Fatalf("submit of %q: %q, %v", in, got, err)
				}
			}
		} else if err != ErrIBANFormat {
			t.Fatalf("IBANInput(%q): %v", s, err)
		}
	})
}
