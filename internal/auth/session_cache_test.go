package auth

import (
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
)

// A session resolved (and so cached) just before a password change is
// refused right after it, in the process that made the change.
func TestCachedSessionEndsWithPasswordChange(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "c@example.com", "secret123")
	acct := Account{Email: "c@example.com"}
	r1, _ := e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	r2, _ := e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	m1 := e.metaOf(t, r1.Token)
	e.metaOf(t, r2.Token) // cached now
	wantCode(t, e.svc.UpdatePassword(ctx, m1, "secret123", "newsecret9", ""), "")
	_, err := e.svc.Authenticate(ctx, r2.Token)
	wantCode(t, err, apperr.CodeNotSignedIn)
	e.metaOf(t, r1.Token) // the session that changed the password stays
}

// The same for a password reset, which ends every session.
func TestCachedSessionEndsWithPasswordReset(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "cr@example.com", "secret123")
	acct := Account{Email: "cr@example.com"}
	r1, _ := e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	e.metaOf(t, r1.Token) // cached now
	wantCode(t, e.svc.ResetStart(ctx, meta("1.1.1.1"), acct), "")
	token, err := e.svc.ResetVerify(ctx, meta("1.1.1.1"), acct, e.box.last("cr@example.com", OpForgot))
	wantCode(t, err, "")
	wantCode(t, e.svc.ResetFinish(ctx, meta("1.1.1.1"), token, "brandnew77"), "")
	_, err = e.svc.Authenticate(ctx, r1.Token)
	wantCode(t, err, apperr.CodeNotSignedIn)
}

// The cache never outlives the session itself.
func TestCachedSessionStillExpires(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "ce@example.com", "secret123")
	res, _ := e.svc.Login(ctx, meta("1.1.1.1"), Account{Email: "ce@example.com"}, "secret123")
	e.clock.Add(SessionTTL - SessionCacheTTL/2)
	e.metaOf(t, res.Token) // cached until after the session's expiry
	e.clock.Add(SessionCacheTTL / 4)
	e.metaOf(t, res.Token)
	e.clock.Add(SessionCacheTTL / 2)
	_, err := e.svc.Authenticate(ctx, res.Token)
	wantCode(t, err, apperr.CodeNotSignedIn)
}

// A logout in another process (another instance on the same store) is
// seen here at the latest SessionCacheTTL after this process cached it.
func TestLogoutElsewhereSeenAfterCacheTTL(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "co@example.com", "secret123")
	res, _ := e.svc.Login(ctx, meta("1.1.1.1"), Account{Email: "co@example.com"}, "secret123")
	m := e.metaOf(t, res.Token) // cached here
	other := New(Options{Store: e.svc.st, Notifier: e.box, Now: e.clock.Now, Log: zerolog.Nop(), Password: cheapPasswords,
		SecretKey: []byte("test-key")})
	wantCode(t, other.Logout(ctx, m), "")
	_, err := other.Authenticate(ctx, res.Token)
	wantCode(t, err, apperr.CodeNotSignedIn)
	e.metaOf(t, res.Token) // still cached here
	e.clock.Add(SessionCacheTTL)
	_, err = e.svc.Authenticate(ctx, res.Token)
	wantCode(t, err, apperr.CodeNotSignedIn)
}

// A resolution that began before a revocation does not cache what it read.
func TestSessionCacheSkipsRacedRevocation(t *testing.T) {
	var c sessionCache
	now := (&testClock{}).Now()
	epoch := c.begin()
	c.revokeUser("u1")
	c.put("h", "u1", now.UnixMilli()+1000, now, epoch)
	if _, ok := c.get("h", now); ok {
		t.Fatal("a session read before a revocation was cached")
	}
	c.put("h", "u1", now.UnixMilli()+1000, now, c.begin())
	if uid, ok := c.get("h", now); !ok || uid != "u1" {
		t.Fatalf("get = %q, %v", uid, ok)
	}
}
