package auth

import (
	"context"
	"slices"
	"sync"
	"testing"

	"tenger/internal/apperr"
)

// revokes records Options.OnRevoke calls.
type revokes struct {
	mu    sync.Mutex
	calls []Revoked
}

func (r *revokes) hook(_ context.Context, rv Revoked) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, rv)
}

func (r *revokes) take() []Revoked {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.calls
	r.calls = nil
	return c
}

func newRevokeEnv(t *testing.T) (*env, *revokes) {
	t.Helper()
	rec := &revokes{}
	return newEnv(t, func(o *Options) { o.OnRevoke = rec.hook }), rec
}

func wantRevoked(t *testing.T, rec *revokes, want ...Revoked) {
	t.Helper()
	if got := rec.take(); !slices.Equal(got, want) {
		t.Fatalf("OnRevoke calls %+v, want %+v", got, want)
	}
}

// ends lists which of the sessions r ends.
func ends(r Revoked, sessions ...string) []string {
	var out []string
	for _, s := range sessions {
		if r.Ended(s) {
			out = append(out, s)
		}
	}
	return out
}

// The hook hears of a sign-out with the signed-out session only: the
// user's other sessions keep their connections.
func TestOnRevokeLogout(t *testing.T) {
	e, rec := newRevokeEnv(t)
	uid := e.registerEmail(t, "hl@example.com", "secret123")
	e.registerEmail(t, "hl2@example.com", "secret123")
	m := e.login(t, Account{Email: "hl@example.com"}, "secret123")
	other := e.login(t, Account{Email: "hl@example.com"}, "secret123")
	wantRevoked(t, rec)
	wantCode(t, e.svc.Logout(ctx, m), "")
	r := Revoked{UserID: uid, Session: m.SessionID}
	wantRevoked(t, rec, r)
	if got := ends(r, m.SessionID, other.SessionID, ""); !slices.Equal(got, []string{m.SessionID}) {
		t.Fatalf("a sign-out ends %q", got)
	}
	// An anonymous sign-out ends nothing.
	wantCode(t, e.svc.Logout(ctx, meta("1.1.1.1")), "")
	wantRevoked(t, rec)
}

// A password change calls the hook once it is stored, ending every session
// but the one that made it; a refused one does not.
func TestOnRevokePasswordChange(t *testing.T) {
	e, rec := newRevokeEnv(t)
	uid := e.registerEmail(t, "hp@example.com", "secret123")
	m := e.login(t, Account{Email: "hp@example.com"}, "secret123")
	other := e.login(t, Account{Email: "hp@example.com"}, "secret123")
	wantCode(t, e.svc.UpdatePassword(ctx, m, "wrongpass1", "newsecret9", ""), apperr.CodeWrongPassword)
	wantRevoked(t, rec)
	wantCode(t, e.svc.UpdatePassword(ctx, m, "secret123", "newsecret9", ""), "")
	r := Revoked{UserID: uid, Keep: m.SessionID}
	wantRevoked(t, rec, r)
	if got := ends(r, m.SessionID, other.SessionID, ""); !slices.Equal(got, []string{other.SessionID, ""}) {
		t.Fatalf("a password change ends %q", got)
	}
}

// A password reset calls the hook with the account's id once it is stored;
// a reset with a bad token does not.
func TestOnRevokePasswordReset(t *testing.T) {
	e, rec := newRevokeEnv(t)
	e.registerEmail(t, "other@example.com", "secret123")
	uid := e.registerEmail(t, "hr@example.com", "secret123")
	acct := Account{Email: "hr@example.com"}
	wantCode(t, e.svc.ResetStart(ctx, meta("1.1.1.1"), acct), "")
	token, err := e.svc.ResetVerify(ctx, meta("1.1.1.1"), acct, e.box.last("hr@example.com", OpForgot))
	wantCode(t, err, "")
	wantCode(t, e.svc.ResetFinish(ctx, meta("1.1.1.1"), "x"+token[1:], "brandnew77"), apperr.CodeResetTokenInvalid)
	wantRevoked(t, rec)
	wantCode(t, e.svc.ResetFinish(ctx, meta("1.1.1.1"), token, "brandnew77"), "")
	r := Revoked{UserID: uid}
	wantRevoked(t, rec, r)
	if got := ends(r, "s1", "s2", ""); !slices.Equal(got, []string{"s1", "s2", ""}) {
		t.Fatalf("a reset ends %q", got)
	}
}
