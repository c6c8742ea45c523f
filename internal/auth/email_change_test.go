package auth

import (
	"strings"
	"testing"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// sendChangeCodes asks for the new address's code (5) and the current
// address's (17), and returns them.
func (e *env) sendChangeCodes(t *testing.T, m Meta, oldEmail, newEmail string) (newCode, oldCode string) {
	t.Helper()
	wantCode(t, e.svc.SendEmailCode(ctx, m, newEmail, OpChangeTarget), "")
	wantCode(t, e.svc.SendEmailCode(ctx, m, "", SensitiveEmailOp), "")
	return e.box.last(newEmail, OpChangeTarget), e.box.last(oldEmail, SensitiveEmailOp)
}

// The e-mail change asks for the new address's code and the current
// address's; a missing one is named, a wrong one leaves the others valid
// for the retry, and the current address's code cannot stand in for the
// new one's.
func TestChangeEmailCodes(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "cur@example.com", "secret123")
	m := e.login(t, Account{Email: "cur@example.com"}, "secret123")
	newCode, oldCode := e.sendChangeCodes(t, m, "cur@example.com", "next@example.com")
	change := func(in EmailChange) error {
		in.Email = "next@example.com"
		_, err := e.svc.ChangeEmail(ctx, m, in)
		return err
	}
	wantCode(t, change(EmailChange{Codes: Codes{Email: oldCode}}), apperr.CodeNewEmailCodeRequired)
	wantCode(t, change(EmailChange{NewCode: newCode}), apperr.CodeEmailCodeRequired)
	wantCode(t, change(EmailChange{NewCode: oldCode, Codes: Codes{Email: oldCode}}), apperr.CodeVerifyCodeWrong)
	wantCode(t, change(EmailChange{NewCode: newCode, Codes: Codes{Email: newCode}}), apperr.CodeVerifyCodeWrong)
	wantCode(t, change(EmailChange{NewCode: "12345x", Codes: Codes{Email: oldCode}}), apperr.CodeVerifyCodeWrong)
	if u, _ := e.svc.User(ctx, m.UserID); u.Email != "cur@example.com" {
		t.Fatalf("a refused change changed the address to %s", u.Email)
	}
	// Both codes survived the wrong tries.
	wantCode(t, change(EmailChange{NewCode: newCode, Codes: Codes{Email: oldCode}}), "")
	// And are used up: the account now asks for a code of its new address.
	wantCode(t, e.svc.SendEmailCode(ctx, m, "third@example.com", OpChangeTarget), "")
	_, err := e.svc.ChangeEmail(ctx, m, EmailChange{Email: "third@example.com", NewCode: e.box.last("third@example.com", OpChangeTarget),
		Codes: Codes{Email: oldCode}})
	wantCode(t, err, apperr.CodeCodeExpired)
}

// A successful change moves the reservation, locks withdrawals for 24
// hours, tells the old address (masking the new one) and lets the owner
// sign in with the new address only.
func TestChangeEmailLocksWithdrawalsAndTellsOldAddress(t *testing.T) {
	e := newEnv(t)
	uid := e.registerEmail(t, "first@example.com", "secret123")
	m := e.login(t, Account{Email: "first@example.com"}, "secret123")
	newCode, oldCode := e.sendChangeCodes(t, m, "first@example.com", "second@example.com")
	before := e.box.count()
	res, err := e.svc.ChangeEmail(ctx, m, EmailChange{Email: " Second@Example.com ", NewCode: newCode, Codes: Codes{Email: oldCode}})
	wantCode(t, err, "")
	want := e.clock.Now().Add(EmailChangeLock)
	if res.Email != "second@example.com" || res.WithdrawLockedUntil != want.UnixMilli() {
		t.Fatalf("answer %+v", res)
	}
	until, err := e.svc.WithdrawLockedUntil(ctx, uid)
	wantCode(t, err, "")
	if !until.Equal(want) {
		t.Fatalf("withdrawals locked until %s, want %s", until, want)
	}
	e.clock.Add(EmailChangeLock + time.Second)
	if until, _ := e.svc.WithdrawLockedUntil(ctx, uid); !until.IsZero() {
		t.Fatalf("lock still on after 24 h: %s", until)
	}
	if e.box.count() != before+1 {
		t.Fatalf("%d messages sent by the change, want the notice only", e.box.count()-before)
	}
	notice := e.box.msgs[len(e.box.msgs)-1]
	if notice.To != "first@example.com" || notice.Code != "" || !strings.Contains(notice.Text, "s***@example.com") ||
		strings.Contains(notice.Text, "second@example.com") || !strings.Contains(notice.Text, "24 hours") {
		t.Fatalf("notice %+v", notice)
	}
	if _, err := e.svc.st.Get(ctx, store.Key{PK: "EMAIL#first@example.com", SK: "UNIQUE"}); err == nil {
		t.Fatal("the old address is still reserved")
	}
	if it, err := e.svc.st.Get(ctx, store.Key{PK: "EMAIL#second@example.com", SK: "UNIQUE"}); err != nil || it.Str(attrUID) != uid {
		t.Fatalf("the new address is not reserved for the account: %v %v", it, err)
	}
	_, err = e.svc.Login(ctx, meta("1.1.1.1"), Account{Email: "first@example.com"}, "secret123")
	wantCode(t, err, apperr.CodeBadCredentials)
	e.login(t, Account{Email: "second@example.com"}, "secret123")
	sh, _ := e.svc.SettingHistory(ctx, m, 1, 10)
	if sh.Count != 2 || sh.List[0].Action != "E-mail changed" {
		t.Fatalf("setting history %+v", sh)
	}
}

// An address another account has is refused: the code-sending step says
// so (and counts the asking against the caller's address), and an address
// taken after its code was sent is refused by the change itself, only
// once its code was shown right.
func TestChangeEmailToTakenAddress(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "taken@example.com", "secret123")
	e.registerEmail(t, "mover@example.com", "secret123")
	m := e.login(t, Account{Email: "mover@example.com"}, "secret123")
	wantCode(t, e.svc.SendEmailCode(ctx, m, "taken@example.com", OpChangeTarget), apperr.CodeAccountExists)
	wantCode(t, e.svc.SendEmailCode(ctx, m, "mover@example.com", OpChangeTarget), apperr.CodeSameTarget)
	_, err := e.svc.ChangeEmail(ctx, m, EmailChange{Email: "mover@example.com", NewCode: "123456", Codes: Codes{Email: "123456"}})
	wantCode(t, err, apperr.CodeSameTarget)
	// Without the new address's code the change tells nothing of the address.
	_, err = e.svc.ChangeEmail(ctx, m, EmailChange{Email: "taken@example.com", NewCode: "123456", Codes: Codes{Email: "123456"}})
	wantCode(t, err, apperr.CodeCodeExpired)

	newCode, oldCode := e.sendChangeCodes(t, m, "mover@example.com", "late@example.com")
	e.registerEmail(t, "late@example.com", "secret123") // someone signs up with it meanwhile
	_, err = e.svc.ChangeEmail(ctx, m, EmailChange{Email: "late@example.com", NewCode: newCode, Codes: Codes{Email: oldCode}})
	wantCode(t, err, apperr.CodeAccountExists)
	if u, _ := e.svc.User(ctx, m.UserID); u.Email != "mover@example.com" {
		t.Fatalf("address changed to %s", u.Email)
	}
}

// Asking for a change code to an address that has an account counts
// against the caller's code sends, as sign-up's lookups do.
func TestChangeCodeLookupsCountAgainstCodeSends(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "a1@example.com", "secret123")
	e.registerEmail(t, "a2@example.com", "secret123")
	e.registerEmail(t, "prober@example.com", "secret123")
	m := e.login(t, Account{Email: "prober@example.com"}, "secret123")
	m.IP = "8.8.8.8"
	lim := DefaultLimits
	lim.CodeIPSends = 2
	e.svc.limits = lim
	wantCode(t, e.svc.SendEmailCode(ctx, m, "a1@example.com", OpChangeTarget), apperr.CodeAccountExists)
	wantCode(t, e.svc.SendEmailCode(ctx, m, "a2@example.com", OpChangeTarget), apperr.CodeAccountExists)
	wantCode(t, e.svc.SendEmailCode(ctx, m, "free@example.com", OpChangeTarget), apperr.CodeTooManyRequests)
}

// An account with the SMS check and the authenticator on gives both, and
// the authenticator's code is accepted once.
func TestChangeEmailAsksForEveryFactor(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "all@example.com", "secret123")
	m := e.login(t, Account{Email: "all@example.com"}, "secret123")
	secret := e.phoneAndGoogle(t, m, "95001122")
	e.clock.Add(time.Minute)
	newCode, oldCode := e.sendChangeCodes(t, m, "all@example.com", "all2@example.com")
	wantCode(t, e.svc.SendSMSCode(ctx, m, "", "", SensitiveSMSOp), "")
	sms := e.box.last("+97695001122", SensitiveSMSOp)
	in := EmailChange{Email: "all2@example.com", NewCode: newCode, Codes: Codes{Email: oldCode}}
	_, err := e.svc.ChangeEmail(ctx, m, in)
	wantCode(t, err, apperr.CodeSMSCodeRequired)
	in.Codes.SMS = sms
	_, err = e.svc.ChangeEmail(ctx, m, in)
	wantCode(t, err, apperr.CodeGoogleCodeRequired)
	in.Codes.Google = "000000"
	_, err = e.svc.ChangeEmail(ctx, m, in)
	wantCode(t, err, apperr.CodeGoogleCodeWrong)
	in.Codes.Google = totpNow(t, secret, e.clock.Now())
	_, err = e.svc.ChangeEmail(ctx, m, in)
	wantCode(t, err, "")
	u, _ := e.svc.User(ctx, m.UserID)
	if u.Email != "all2@example.com" || u.TOTPStep == 0 {
		t.Fatalf("after the change %+v", u)
	}
}

// A phone account adds an e-mail with the new address's code and an SMS
// code (its phone is its only factor); the notice goes to the phone.
func TestPhoneAccountAddsEmail(t *testing.T) {
	e := newEnv(t)
	wantCode(t, e.svc.SendSMSCode(ctx, meta("1.1.1.1"), "976", "99887766", OpRegister), "")
	_, err := e.svc.Register(ctx, meta("1.1.1.1"), RegisterInput{Account: Account{CountryCode: "976", Mobile: "99887766"},
		Password: "abcdefg1", Code: e.box.last("+97699887766", OpRegister)})
	wantCode(t, err, "")
	m := e.login(t, Account{CountryCode: "976", Mobile: "99887766"}, "abcdefg1")
	wantCode(t, e.svc.SendEmailCode(ctx, m, "added@example.com", OpChangeTarget), "")
	in := EmailChange{Email: "added@example.com", NewCode: e.box.last("added@example.com", OpChangeTarget)}
	_, err = e.svc.ChangeEmail(ctx, m, in)
	wantCode(t, err, apperr.CodeSMSCodeRequired)
	wantCode(t, e.svc.SendSMSCode(ctx, m, "", "", SensitiveSMSOp), "")
	in.Codes.SMS = e.box.last("+97699887766", SensitiveSMSOp)
	_, err = e.svc.ChangeEmail(ctx, m, in)
	wantCode(t, err, "")
	notice := e.box.msgs[len(e.box.msgs)-1]
	if notice.To != "+97699887766" || notice.Channel != ChannelSMS || notice.Code != "" {
		t.Fatalf("notice %+v", notice)
	}
	e.login(t, Account{Email: "added@example.com"}, "abcdefg1")
}

// phoneAndGoogle binds a phone, turns the SMS check and the authenticator
// on, and returns the authenticator's secret.
func (e *env) phoneAndGoogle(t *testing.T, m Meta, number string) string {
	t.Helper()
	wantCode(t, e.svc.SendSMSCode(ctx, m, "976", number, OpBindPhone), "")
	wantCode(t, e.svc.BindMobile(ctx, m, "976", number, e.box.last("+976"+number, OpBindPhone), ""), "")
	wantCode(t, e.svc.SendSMSCode(ctx, m, "", "", OpSecurity), "")
	wantCode(t, e.svc.OpenMobileCheck(ctx, m, e.box.last("+976"+number, OpSecurity)), "")
	setup, err := e.svc.GoogleSetupStart(ctx, m)
	wantCode(t, err, "")
	wantCode(t, e.svc.GoogleEnable(ctx, m, totpNow(t, setup.Secret, e.clock.Now()), "secret123"), "")
	return setup.Secret
}
