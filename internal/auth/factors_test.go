package auth

import (
	"testing"
	"time"

	"tenger/internal/apperr"
)

// A withdrawal-style check of three codes: a wrong one answers its error and
// uses up none of the right ones, so the retry with every code right
// passes; after that all three are used up, and an accepted Google code is
// never accepted twice.
func TestVerifyAllUsesCodesUpOnlyTogether(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "f@example.com", "secret123")
	m := e.login(t, Account{Email: "f@example.com"}, "secret123")
	wantCode(t, e.svc.SendSMSCode(ctx, m, "976", "88001123", OpBindPhone), "")
	wantCode(t, e.svc.BindMobile(ctx, m, "976", "88001123", e.box.last("+97688001123", OpBindPhone), ""), "")
	setup, err := e.svc.GoogleSetupStart(ctx, m)
	wantCode(t, err, "")
	wantCode(t, e.svc.GoogleEnable(ctx, m, totpNow(t, setup.Secret, e.clock.Now()), "secret123"), "")
	e.clock.Add(31 * time.Second)

	const op = 17
	wantCode(t, e.svc.SendEmailCode(ctx, m, "", op), "")
	wantCode(t, e.svc.SendSMSCode(ctx, m, "", "", op), "")
	email, sms := e.box.last("f@example.com", op), e.box.last("+97688001123", op)
	google := totpNow(t, setup.Secret, e.clock.Now())
	wrong := func(code string) string {
		if code == "000000" {
			return "111111"
		}
		return "000000"
	}
	factors := func(g, s, em string) []Factor {
		return []Factor{{Channel: ChannelGoogle, Code: g}, {Channel: ChannelSMS, Ops: []int{op}, Code: s},
			{Channel: ChannelEmail, Ops: []int{op}, Code: em}}
	}
	wantCode(t, e.svc.VerifyAll(ctx, m.UserID, factors(google, sms, wrong(email))...), apperr.CodeVerifyCodeWrong)
	wantCode(t, e.svc.VerifyAll(ctx, m.UserID, factors(google, wrong(sms), email)...), apperr.CodeVerifyCodeWrong)
	wantCode(t, e.svc.VerifyAll(ctx, m.UserID, factors(wrong(google), sms, email)...), apperr.CodeGoogleCodeWrong)
	wantCode(t, e.svc.VerifyAll(ctx, m.UserID, factors(google, sms, email)...), "")
	// All used up: the codes are gone, and the Google code's step is spent.
	wantCode(t, e.svc.VerifyAll(ctx, m.UserID, factors(google, sms, email)[1:2]...), apperr.CodeCodeExpired)
	wantCode(t, e.svc.VerifyAll(ctx, m.UserID, factors(google, sms, email)[2:]...), apperr.CodeCodeExpired)
	wantCode(t, e.svc.VerifyAll(ctx, m.UserID, factors(google, sms, email)[:1]...), apperr.CodeGoogleCodeUsed)

	// A code of the second operation counts when the first has none.
	e.clock.Add(91 * time.Second)
	wantCode(t, e.svc.SendSMSCode(ctx, m, "", "", 6), "")
	add := e.box.last("+97688001123", 6)
	wantCode(t, e.svc.VerifyAll(ctx, m.UserID, Factor{Channel: ChannelSMS, Ops: []int{28, 6}, Code: add}), "")
}
