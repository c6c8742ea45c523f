package content

import (
	"net/http"
	"strings"
)

// Locales the texts are written in.
const (
	LocaleEnglish   = "en-US"
	LocaleMongolian = "mn-MN"
	// localeChinese is the only locale with a special rule: corporate
	// verification pages fall back to English for it.
	localeChinese = "zh-CN"
)

// corporateVerificationPrefix starts the ids of the corporate verification
// pages (general plus steps 1 to 5).
const corporateVerificationPrefix = "corporateVerification"

// NormalizeLocale turns a language code as the web app stores it ("en_US",
// the lan cookie) into the hyphenated form ("en-US"); "" stays "".
func NormalizeLocale(code string) string {
	return strings.ReplaceAll(strings.TrimSpace(code), "_", "-")
}

// ResolveLocale maps a requested locale to the locale whose texts are served
// for page id (spec §9): en-US (also the default for "") is en-US, anything
// else is mn-MN, except that corporate verification pages serve en-US for
// zh-CN. Matching ignores case and accepts underscores.
func ResolveLocale(id, requested string) string {
	loc := NormalizeLocale(requested)
	switch {
	case loc == "" || strings.EqualFold(loc, LocaleEnglish):
		return LocaleEnglish
	case strings.EqualFold(loc, localeChinese) && strings.HasPrefix(id, corporateVerificationPrefix):
		return LocaleEnglish
	}
	return LocaleMongolian
}

// RequestLocale is the default locale of an HTTP request: the lan cookie
// with '_' replaced by '-'; without the cookie, the exchange-language header
// the web app's request client sends (useful when the content host is on
// another domain and gets no cookies); otherwise en-US.
func RequestLocale(r *http.Request) string {
	if c, err := r.Cookie("lan"); err == nil {
		if loc := NormalizeLocale(c.Value); loc != "" {
			return loc
		}
	}
	if loc := NormalizeLocale(r.Header.Get("exchange-language")); loc != "" {
		return loc
	}
	return LocaleEnglish
}
