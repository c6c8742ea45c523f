package httpapi

import (
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/favourites"
	"tenger/internal/markets"
)

// The send-code and market calls answer at their named wallet paths too,
// through the same services as at their own paths.
func TestWalletNamedOperations(t *testing.T) {
	p := newProfEnv(t)
	const email = "named.ops@tenger.example"
	uid := p.signUp(t, email, "Passw0rd2026")
	tok := p.signIn(t, email, "Passw0rd2026")
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	mc := markets.Defaults()
	favs := favourites.New(p.st, mc)
	p.h = NewWalletNamedRouter(p.svc, cc, mc, favs, Options{Log: zerolog.Nop(), Now: p.clock.Now, Sessions: AuthSessions(p.svc)})

	// emailValid with operationType "17" (withdraw) mails the signed-in user's own address.
	p.ok(t, "/fe-ex-api/wallet/emailValid", withEnv(map[string]any{"operationType": "17"}), hdr(tok))
	if c := p.box.last(email, 17); len(c) != 6 {
		t.Fatalf("no withdraw code mailed: %q", c)
	}
	// The 90 s resend rule is the same service's.
	p.fails(t, "/fe-ex-api/wallet/emailValid", withEnv(map[string]any{"operationType": "17"}), hdr(tok), apperr.CodeCodeResendWait)
	// smsValid for a user without a bound phone is refused with the catalogue's reason.
	p.fails(t, "/fe-ex-api/wallet/smsValid", withEnv(map[string]any{"operationType": 10, "smsType": "0"}), hdr(tok), apperr.CodePhoneNotBound)

	// marketData is the market document, with the caller's favourites.
	if _, err := favs.Update(t.Context(), uid, favourites.Add, []string{"ethusdt"}); err != nil {
		t.Fatal(err)
	}
	d := p.ok(t, "/fe-ex-api/wallet/marketData", withEnv(map[string]any{}), hdr(tok))
	market, _ := d["market"].(map[string]any)
	usdt, _ := market["USDT"].(map[string]any)
	follow, _ := d["followCoinList"].([]any)
	if usdt["BTC/USDT"] == nil || len(follow) != 1 || follow[0] != "ethusdt" {
		t.Fatalf("marketData: %v", d)
	}
}
