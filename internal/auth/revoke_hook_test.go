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
	users []string
}

func (r *revokes) hook(_ context.Context, uid string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.users = append(r.users, uid)
}

func (r *revokes) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	u := r.users
	r.users = nil
	return u
}

func newRevokeEnv(t *testing.T) (*env, *revokes) {
	t.Helper()
	rec := &revokes{}
	return newEnv(t, func(o *Options) { o.OnRevoke = rec.hook }), rec
}

func wantRevoked(t *testing.T, rec *revokes, want ...string) {
	t.Helper()
	if got := rec.take(); !slices.Equal(got, want) {
		t.Fatalf("OnRevoke calls %q, want %q", got, want)
	}
}

// The hook hears of a sign-out with the signed-out user's id.
func TestOnRevokeLogout(t *testing.T) {
	e, rec := newRevokeEnv(t)
	uid := e.registerEmail(t, "hl@example.com", "secret123")
	e.registerEmail(t, "hl2@example.com", "secret123")
	m := e.login(t, Account{Email: "hl@example.com"}, "secret123")
	wantRevoked(t, rec)
	wantCode(t, e.svc.Logout(ctx, m), "")
	wantRevoked(t, rec, uid)
	// An anonymous sign-out ends nothing.
	wantCode(t, e.svc.Logout(ctx, meta("1.1.1.1")), "")
	wantRevoked(t, rec)
}

// A password change calls the hook once it is stored, and a refused one
// does not.
func TestOnRevokePasswordChange(t *testing.T) {
	e, rec := newRevokeEnv(t)
	uid := e.registerEmail(t, "hp@example.com", "secret123")
	m := e.login(t, Account{Email: "hp@example.com"}, "secret123")
	wantCode(t, e.svc.UpdatePassword(ctx, m, "wrongpass1", "newsecret9", ""), apperr.CodeWrongPassword)
	wantRevoked(t, rec)
	wantCode(t, e.svc.UpdatePassword(ctx, m, "secret123", "newsecret9", ""), "")
	wantRevoked(t, rec, uid)
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
	wantRevoked(t, rec, uid)
}
