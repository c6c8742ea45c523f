package auth

import (
	"testing"
	"time"

	"tenger/internal/apperr"
)

// A user who lost the authenticator signs in with the password, then resets
// it with the codes sent to the account's e-mail and phone: the
// authenticator is off, the sign-in finishes, withdrawals are locked for
// 24 hours and the setting history says so. Wrong codes count against the
// challenge; an account without a phone cannot reset here.
func TestResetLostAuthenticator(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "lost@example.com", "secret123")
	acct := Account{Email: "lost@example.com"}
	m := e.login(t, acct, "secret123")
	setup, err := e.svc.GoogleSetupStart(ctx, m)
	wantCode(t, err, "")
	wantCode(t, e.svc.GoogleEnable(ctx, m, totpNow(t, setup.Secret, e.clock.Now()), "secret123"), "")

	// Without a phone the reset is not open.
	res, err := e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	wantCode(t, err, "")
	_, err = e.svc.SendAuthenticatorResetCodes(ctx, meta("1.1.1.1"), res.Token)
	wantCode(t, err, apperr.CodeRecoveryUnavailable)

	e.clock.Add(31 * time.Second) // the next authenticator code
	wantCode(t, e.svc.SendSMSCode(ctx, m, "976", "99112233", OpBindPhone), "")
	wantCode(t, e.svc.BindMobile(ctx, m, "976", "99112233", e.box.last("+97699112233", OpBindPhone), totpNow(t, setup.Secret, e.clock.Now())), "")
	e.clock.Add(2 * time.Minute)

	// Only a Google challenge opens it, not a session or garbage.
	_, err = e.svc.SendAuthenticatorResetCodes(ctx, meta("1.1.1.1"), "not-a-challenge")
	wantCode(t, err, apperr.CodeChallengeExpired)

	res, err = e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	wantCode(t, err, "")
	targets, err := e.svc.SendAuthenticatorResetCodes(ctx, meta("1.1.1.1"), res.Token)
	wantCode(t, err, "")
	if targets.Email != "l***@example.com" || targets.Mobile != "******33" {
		t.Fatalf("targets %+v", targets)
	}
	emailCode, smsCode := e.box.last("lost@example.com", OpResetAuthenticator), e.box.last("+97699112233", OpResetAuthenticator)
	if emailCode == "" || smsCode == "" || emailCode == smsCode {
		t.Fatalf("codes %q %q", emailCode, smsCode)
	}
	_, err = e.svc.ResetAuthenticator(ctx, meta("1.1.1.1"), res.Token, emailCode, "000000")
	wantCode(t, err, apperr.CodeVerifyCodeWrong)
	if info, _ := e.svc.UserInfo(ctx, m); info.GoogleStatus != 1 {
		t.Fatal("a wrong SMS code turned the authenticator off")
	}

	done, err := e.svc.ResetAuthenticator(ctx, meta("1.1.1.1"), res.Token, emailCode, smsCode)
	wantCode(t, err, "")
	sess, err := e.svc.Authenticate(ctx, done.Token)
	if err != nil || sess.UserID != m.UserID {
		t.Fatalf("the reset did not sign in: %v", err)
	}
	if info, _ := e.svc.UserInfo(ctx, m); info.GoogleStatus != 0 {
		t.Fatal("the authenticator is still on")
	}
	until, err := e.svc.WithdrawLockedUntil(ctx, m.UserID)
	if err != nil || !until.Equal(time.UnixMilli(e.clock.Now().Add(RecoveryLock).UnixMilli())) {
		t.Fatalf("withdraw lock until %v (%v)", until, err)
	}
	sh, _ := e.svc.SettingHistory(ctx, m, 1, 1)
	if len(sh.List) != 1 || sh.List[0].Action != actionLabel(actGoogleReset, apperr.LangEN) {
		t.Fatalf("setting history %+v", sh)
	}
	// The challenge and codes are used up; the next sign-in needs no second step.
	_, err = e.svc.ResetAuthenticator(ctx, meta("1.1.1.1"), res.Token, emailCode, smsCode)
	wantCode(t, err, apperr.CodeChallengeExpired)
	if again, err := e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123"); err != nil || again.ChallengeType != "" {
		t.Fatalf("sign-in after the reset %+v %v", again, err)
	}
	// The lock ends after 24 hours.
	e.clock.Add(RecoveryLock + time.Second)
	if until, _ := e.svc.WithdrawLockedUntil(ctx, m.UserID); !until.IsZero() {
		t.Fatalf("still locked until %v", until)
	}
}
