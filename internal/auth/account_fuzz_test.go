package auth

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzAccountNormalize checks that any input either fails with a catalogue
// error or yields a canonical identity that normalises to itself.
func FuzzAccountNormalize(f *testing.F) {
	for _, s := range [][3]string{
		{"Alice@Example.com", "", ""}, {"", "+976", "9911-2233"}, {"a@b", "", ""}, {"", "0", "1"},
		{"x@y.mn", "976", "99"}, {"\"q\"@x.co", "", ""}, {"", "97a", "88001122"}, {"a b@c.d", "", ""},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, email, cc, num string) {
		id, err := Account{Email: email, CountryCode: cc, Mobile: num}.normalize()
		if err != nil {
			return
		}
		var again ident
		if id.isEmail() {
			if id.email != strings.ToLower(id.email) || strings.ContainsAny(id.email, " #") {
				t.Fatalf("non-canonical e-mail %q", id.email)
			}
			again, err = normEmail(id.email)
		} else {
			if !allDigits(id.cc) || !allDigits(id.num) {
				t.Fatalf("non-digit phone %+v", id)
			}
			again, err = normPhone(id.cc, id.num)
		}
		if err != nil || again != id {
			t.Fatalf("not idempotent: %+v -> %+v (%v)", id, again, err)
		}
	})
}

// FuzzPasswordRule checks the rule against its definition.
func FuzzPasswordRule(f *testing.F) {
	for _, s := range []string{"passw0rd", "short1", "12345678", "abcdefgh", "пароль123", "a1\x00aaaaaa", strings.Repeat("a1", 17)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pw string) {
		err := checkPasswordRule(pw)
		n := utf8.RuneCountInString(pw)
		if err == nil && (n < 8 || n > 32 || !strings.ContainsAny(pw, "0123456789") || !utf8.ValidString(pw)) {
			t.Fatalf("accepted %q", pw)
		}
	})
}
