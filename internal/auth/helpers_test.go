package auth

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/store/embedded"
)

// testClock is an injectable clock tests move by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// outbox records sent messages.
type outbox struct {
	mu   sync.Mutex
	msgs []Message
	fail bool
}

func (o *outbox) Send(_ context.Context, m Message) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.fail {
		return errors.New("provider down")
	}
	o.msgs = append(o.msgs, m)
	return nil
}

// last returns the newest code sent to "to" for op ("" when none).
func (o *outbox) last(to string, op int) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := len(o.msgs) - 1; i >= 0; i-- {
		if o.msgs[i].To == to && o.msgs[i].OperationType == op {
			return o.msgs[i].Code
		}
	}
	return ""
}

func (o *outbox) count() int { o.mu.Lock(); defer o.mu.Unlock(); return len(o.msgs) }

type env struct {
	svc   *Service
	clock *testClock
	box   *outbox
}

var cheapPasswords = &PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}

// newEnv builds the service on a fresh embedded store; opts adjust its
// options.
func newEnv(t *testing.T, opts ...func(*Options)) *env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	clk := &testClock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	box := &outbox{}
	o := Options{Store: st, Notifier: box, Now: clk.Now, Log: zerolog.Nop(), Password: cheapPasswords,
		SecretKey: []byte("test-key")}
	for _, f := range opts {
		f(&o)
	}
	svc := New(o)
	return &env{svc: svc, clock: clk, box: box}
}

var ctx = context.Background()

func meta(ip string) Meta { return Meta{IP: ip, Device: "test-device", Lang: apperr.LangEN} }

// wantCode fails unless err is the catalogue error code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if code == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Entry.Code != code {
		t.Fatalf("want code %s, got %v", code, err)
	}
}

// registerEmail signs up an e-mail account and returns its uid.
func (e *env) registerEmail(t *testing.T, email, pw string) string {
	t.Helper()
	wantCode(t, e.svc.SendEmailCode(ctx, meta("10.0.0.1"), email, OpRegister), "")
	uid, err := e.svc.Register(ctx, meta("10.0.0.1"), RegisterInput{Account: Account{Email: email}, Password: pw, Code: e.box.last(strings.ToLower(email), OpRegister)})
	wantCode(t, err, "")
	return uid
}

// login signs in and returns the session with its meta.
func (e *env) login(t *testing.T, acct Account, pw string) Meta {
	t.Helper()
	res, err := e.svc.Login(ctx, meta("10.0.0.2"), acct, pw)
	wantCode(t, err, "")
	if res.ChallengeType != "" || res.Token == "" {
		t.Fatalf("want a session, got %+v", res)
	}
	return e.metaOf(t, res.Token)
}

func (e *env) metaOf(t *testing.T, token string) Meta {
	t.Helper()
	sess, err := e.svc.Authenticate(ctx, token)
	wantCode(t, err, "")
	m := meta("10.0.0.2")
	m.UserID, m.SessionID = sess.UserID, sess.ID
	return m
}

func totpNow(t *testing.T, secret string, now time.Time) string {
	t.Helper()
	c, err := totp.GenerateCodeCustom(secret, now, totpOpts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
