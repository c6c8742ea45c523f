package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/notify"
	"tenger/internal/ratelimit"
	"tenger/internal/store"
)

// Notifier channels.
const (
	ChannelSMS   = notify.ChannelSMS
	ChannelEmail = notify.ChannelEmail
)

// Message is one verification code to deliver (the notify port's message).
type Message = notify.Message

// Notifier delivers codes (SMS and e-mail; locally the dev outbox). Every
// notify.Sender is one.
type Notifier interface {
	Send(ctx context.Context, m Message) error
}

var _ Notifier = notify.Sender(nil)

// NotifierFunc adapts a function to Notifier.
type NotifierFunc func(ctx context.Context, m Message) error

// Send implements Notifier.
func (f NotifierFunc) Send(ctx context.Context, m Message) error { return f(ctx, m) }

// Limits are the rate limits and lifetimes of the service.
type Limits struct {
	// Sign-in: failures per account before it locks, failures per IP
	// before it locks, and the window (and lock time) of both.
	LoginFailures   int
	LoginIPAttempts int
	LoginWindow     time.Duration
	// Code sending per IP and per target within CodeSendWindow.
	CodeIPSends     int
	CodeTargetSends int
	CodeSendWindow  time.Duration
	// Wrong Google codes per account before settings changes lock.
	TOTPFailures int
}

// DefaultLimits are the production limits.
var DefaultLimits = Limits{
	LoginFailures: 5, LoginIPAttempts: 20, LoginWindow: 15 * time.Minute,
	CodeIPSends: 50, CodeTargetSends: 10, CodeSendWindow: time.Hour,
	TOTPFailures: 5,
}

// Lifetimes fixed by the spec and the design.
const (
	SessionTTL = 7 * 24 * time.Hour
	CodeTTL    = 5 * time.Minute
	CodeResend = 90 * time.Second
	// SecurityResend is the resend window of operationType 11 (security
	// settings and the add-address modal), whose screen unlocks its send
	// button after 60 s (spec §4, §9). The other screens count 90 s.
	SecurityResend = 60 * time.Second
	CodeMaxTries   = 5
	ChallengeTTL   = 5 * time.Minute
	ResetTTL       = 10 * time.Minute
	challengeTries = 5
)

// Options configure the service.
type Options struct {
	Store    store.Store
	Notifier Notifier
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	Log zerolog.Logger
	// Issuer names the exchange in authenticator apps ("Tenger").
	Issuer string
	// SecretKey seals TOTP secrets at rest (AES-256-GCM with a key derived
	// from it). Empty stores them unsealed.
	SecretKey []byte
	// Password overrides DefaultPasswordParams (tests use cheaper ones).
	Password *PasswordParams
	// Limits overrides DefaultLimits.
	Limits *Limits
	// OnRevoke, when set, is told which sessions ended after a sign-out, a
	// password change or a password reset has been stored, so what they
	// still hold open (the user's WebSocket connections) can be closed. It
	// runs before the request returns; it must not fail it, so it reports
	// its own errors.
	OnRevoke func(ctx context.Context, r Revoked)
}

// Service is the profile service.
type Service struct {
	st       store.Store
	notifier Notifier
	now      func() time.Time
	log      zerolog.Logger
	issuer   string
	limiter  *ratelimit.Limiter
	pw       PasswordParams
	limits   Limits
	box      secretBox
	dummy    string // a hash to check against when the account does not exist
	sessions sessionCache
	onRevoke func(ctx context.Context, r Revoked)
}

// New builds the service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Issuer == "" {
		o.Issuer = "Tenger"
	}
	s := &Service{
		st: o.Store, notifier: o.Notifier, now: o.Now, log: o.Log, issuer: o.Issuer,
		limiter: ratelimit.New(o.Store, o.Now), pw: DefaultPasswordParams, limits: DefaultLimits,
		box: newSecretBox(o.SecretKey), onRevoke: o.OnRevoke,
	}
	if o.Password != nil {
		s.pw = *o.Password
	}
	if o.Limits != nil {
		s.limits = *o.Limits
	}
	s.dummy, _ = hashPassword("dummy-password-0", s.pw)
	return s
}

// Meta is what the service knows about the caller of one request.
type Meta struct {
	IP     string
	Device string
	// UserAgent is the caller's User-Agent header: history entries name the
	// device from it (DeviceName).
	UserAgent string
	// Lang picks the language of sent messages and history actions.
	Lang string
	// DeviceToken is the trusted-device token the caller presented (see
	// device.go); "" when none.
	DeviceToken string
	// UserID and SessionID identify a signed-in caller ("" when anonymous).
	UserID    string
	SessionID string
}

// newToken returns 32 random bytes in hex and the SHA-256 under which the
// token is stored.
func newToken() (token, hash string) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("auth: no randomness: " + err.Error())
	}
	token = hex.EncodeToString(b)
	return token, hashToken(token)
}

func hashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// internal wraps an unexpected failure as CodeInternal (the cause is logged
// by the platform, never shown).
func internal(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return err
	}
	return apperr.New(apperr.CodeInternal).WithCause(err)
}

// retryData is the data of rate-limited answers.
type retryData struct {
	RetryAfter int `json:"retryAfter"`
}

func limited(code string, d ratelimit.Decision) error {
	s := d.RetryAfterSeconds()
	return apperr.New(code, s).WithData(retryData{RetryAfter: s})
}

func ttlAt(t time.Time) int64 { return t.Unix() + 60 }
