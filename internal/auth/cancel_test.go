package auth

import (
	"strings"
	"testing"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

func (e *env) cancelCodes(t *testing.T, m Meta, email string) Codes {
	t.Helper()
	wantCode(t, e.svc.SendEmailCode(ctx, m, "", SensitiveEmailOp), "")
	return Codes{Email: e.box.last(email, SensitiveEmailOp)}
}

// A cancellation ends every session at once, refuses sign-in from then on
// (saying so only after the right password), keeps the address reserved,
// tells the owner, and is told to the revocation hook.
func TestCancelAccount(t *testing.T) {
	e, rec := newRevokeEnv(t)
	uid := e.registerEmail(t, "leaver@example.com", "secret123")
	m := e.login(t, Account{Email: "leaver@example.com"}, "secret123")
	otherToken := e.loginToken(t, Account{Email: "leaver@example.com"}, "secret123")
	_, err := e.svc.CancelAccount(ctx, m, CancelInput{})
	wantCode(t, err, apperr.CodeEmailCodeRequired)
	_, err = e.svc.CancelAccount(ctx, m, CancelInput{Codes: Codes{Email: "000000"}})
	wantCode(t, err, apperr.CodeCodeExpired)
	codes := e.cancelCodes(t, m, "leaver@example.com")
	at, err := e.svc.CancelAccount(ctx, m, CancelInput{Codes: codes})
	wantCode(t, err, "")
	if !at.Equal(e.clock.Now()) {
		t.Fatalf("cancelled at %s", at)
	}
	wantRevoked(t, rec, Revoked{UserID: uid})
	_, err = e.svc.Authenticate(ctx, otherToken)
	wantCode(t, err, apperr.CodeNotSignedIn)
	_, err = e.svc.Login(ctx, meta("1.1.1.1"), Account{Email: "leaver@example.com"}, "wrongpass1")
	wantCode(t, err, apperr.CodeBadCredentials)
	_, err = e.svc.Login(ctx, meta("1.1.1.1"), Account{Email: "leaver@example.com"}, "secret123")
	wantCode(t, err, apperr.CodeAccountCancelled)
	// The address stays the closed account's.
	wantCode(t, e.svc.SendEmailCode(ctx, meta("2.2.2.2"), "leaver@example.com", OpRegister), apperr.CodeAccountExists)
	if it, err := e.svc.st.Get(ctx, store.Key{PK: "EMAIL#leaver@example.com", SK: "UNIQUE"}); err != nil || it.Str(attrUID) != uid {
		t.Fatalf("reservation %v %v", it, err)
	}
	notice := e.box.msgs[len(e.box.msgs)-1]
	if notice.To != "leaver@example.com" || notice.Code != "" || !strings.Contains(notice.Text, "held for review") {
		t.Fatalf("notice %+v", notice)
	}
	when, err := e.svc.Cancelled(ctx, uid)
	wantCode(t, err, "")
	if !when.Equal(at) {
		t.Fatalf("Cancelled %s, want %s", when, at)
	}
	// The codes were used up with it.
	_, err = e.svc.CancelAccount(ctx, m, CancelInput{Codes: codes})
	wantCode(t, err, apperr.CodeAccountCancelled)

	// Reopened, the owner signs in with the same password; the old
	// sessions stay ended.
	wantCode(t, e.svc.ReopenAccount(ctx, "99999999"), apperr.CodeAccountUnknown)
	wantCode(t, e.svc.ReopenAccount(ctx, uid), "")
	wantCode(t, e.svc.ReopenAccount(ctx, uid), apperr.CodeAccountNotCancelled)
	_, err = e.svc.Authenticate(ctx, otherToken)
	wantCode(t, err, apperr.CodeNotSignedIn)
	back := e.login(t, Account{Email: "leaver@example.com"}, "secret123")
	sh, _ := e.svc.SettingHistory(ctx, back, 1, 10)
	if sh.Count != 3 || sh.List[0].Action != "Account reopened by support" || sh.List[1].Action != "Account closed by its owner" {
		t.Fatalf("setting history %+v", sh)
	}
}

// A refused cancellation changes nothing and leaves the codes valid: an
// extra operation of the caller that fails (a balance that moved) answers
// CodeAccountChanged.
func TestCancelRefusedByExtraLeavesCodes(t *testing.T) {
	e := newEnv(t)
	uid := e.registerEmail(t, "stay@example.com", "secret123")
	m := e.login(t, Account{Email: "stay@example.com"}, "secret123")
	codes := e.cancelCodes(t, m, "stay@example.com")
	moved := store.CheckOp(store.Key{PK: "TEST#" + uid, SK: "X"}, store.ItemExists()).Named("balance")
	_, err := e.svc.CancelAccount(ctx, m, CancelInput{Codes: codes, Extra: []store.Op{moved}})
	wantCode(t, err, apperr.CodeAccountChanged)
	if _, err := e.svc.Authenticate(ctx, e.loginToken(t, Account{Email: "stay@example.com"}, "secret123")); err != nil {
		t.Fatalf("sessions ended by a refused cancellation: %v", err)
	}
	_, err = e.svc.CancelAccount(ctx, m, CancelInput{Codes: codes})
	wantCode(t, err, "")
}

// A second sign-in step begun before the cancellation opens no session
// after it.
func TestChallengeAfterCancelRefused(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "two@example.com", "secret123")
	acct := Account{Email: "two@example.com"}
	m := e.login(t, acct, "secret123")
	setup, _ := e.svc.GoogleSetupStart(ctx, m)
	wantCode(t, e.svc.GoogleEnable(ctx, m, totpNow(t, setup.Secret, e.clock.Now()), "secret123"), "")
	res, err := e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	wantCode(t, err, "")
	e.clock.Add(31 * time.Second)
	codes := e.cancelCodes(t, m, "two@example.com")
	codes.Google = totpNow(t, setup.Secret, e.clock.Now())
	_, err = e.svc.CancelAccount(ctx, m, CancelInput{Codes: codes})
	wantCode(t, err, "")
	e.clock.Add(31 * time.Second)
	_, err = e.svc.ConfirmLogin(ctx, meta("1.1.1.1"), res.Token, totpNow(t, setup.Secret, e.clock.Now()))
	wantCode(t, err, apperr.CodeAccountCancelled)
}

// loginToken signs in and returns the session token.
func (e *env) loginToken(t *testing.T, acct Account, pw string) string {
	t.Helper()
	res, err := e.svc.Login(ctx, meta("10.0.0.3"), acct, pw)
	wantCode(t, err, "")
	return res.Token
}
