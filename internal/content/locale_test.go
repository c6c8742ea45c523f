package content

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestResolveLocale(t *testing.T) {
	cases := []struct{ id, requested, want string }{
		{"home", "en-US", LocaleEnglish},
		{"home", "en_US", LocaleEnglish},
		{"home", "EN-us", LocaleEnglish},
		{"home", "", LocaleEnglish},
		{"home", "  ", LocaleEnglish},
		{"home", "mn-MN", LocaleMongolian},
		{"home", "mn_MN", LocaleMongolian},
		{"home", "zh-CN", LocaleMongolian},
		{"home", "ru-RU", LocaleMongolian},
		{"home", "en", LocaleMongolian}, // only en-US is English
		{"corporateVerification", "zh-CN", LocaleEnglish},
		{"corporateVerificationStep3", "zh_CN", LocaleEnglish},
		{"corporateVerificationStep5", "mn-MN", LocaleMongolian},
		{"corporateVerificationStep1", "ru-RU", LocaleMongolian},
		{"corporateVerificationStep1", "en-US", LocaleEnglish},
		{"myCorporateVerification", "zh-CN", LocaleMongolian}, // prefix, not substring
	}
	for _, tc := range cases {
		if got := ResolveLocale(tc.id, tc.requested); got != tc.want {
			t.Errorf("ResolveLocale(%q, %q) = %q, want %q", tc.id, tc.requested, got, tc.want)
		}
	}
}

func TestRequestLocale(t *testing.T) {
	cases := []struct {
		cookie, header, want string
	}{
		{"", "", "en-US"},
		{"mn_MN", "", "mn-MN"},
		{"en_US", "mn_MN", "en-US"}, // the cookie wins
		{"", "mn_MN", "mn-MN"},
		{"zh_CN", "", "zh-CN"},
	}
	for _, tc := range cases {
		r := httptest.NewRequest(http.MethodPost, "/graphql", nil)
		if tc.cookie != "" {
			r.AddCookie(&http.Cookie{Name: "lan", Value: tc.cookie})
		}
		if tc.header != "" {
			r.Header.Set("exchange-language", tc.header)
		}
		if got := RequestLocale(r); got != tc.want {
			t.Errorf("cookie %q header %q: %q, want %q", tc.cookie, tc.header, got, tc.want)
		}
	}
}
