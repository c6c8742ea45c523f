package corporate

import (
	_ "embed"
	"strings"
)

// countryCodes is the list the web app reads too (frontend/src/features/
// corporate/lib/countries.ts imports the same file), so the server and the
// pickers never disagree on a code.
//
//go:embed countries.txt
var countryCodes string

// countries are the ISO 3166-1 alpha-2 codes of the countries and
// territories (249, the standard's officially assigned codes): the
// registered and business addresses and the people's nationalities are
// kept as these codes, which the web app names in the reader's language.
var countries = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(countryCodes) {
		m[c] = true
	}
	return m
}()
