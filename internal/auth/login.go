package auth

import (
	"context"
	"errors"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// Challenge types of the second sign-in step.
const (
	ChallengeGoogle = "google"
	ChallengeMobile = "mobile"
)

// LoginResult is a session token, or, when ChallengeType is set, the token
// of a second step to finish with ConfirmLogin.
type LoginResult struct {
	Token         string
	ChallengeType string
	// DeviceToken, when set, is a new trusted-device token to hand to the
	// browser (set with the session, see device.go).
	DeviceToken string
}

func challengeKey(hash string) store.Key { return store.Key{PK: "CHALLENGE#" + hash, SK: "CHALLENGE"} }

// Login signs in with an e-mail or phone and the password.
func (s *Service) Login(ctx context.Context, m Meta, acct Account, password string) (LoginResult, error) {
	id, err := acct.normalize()
	if err != nil {
		return LoginResult{}, err
	}
	if password == "" {
		return LoginResult{}, apperr.Param("loginPword: required")
	}
	// Per IP only failed attempts count, so many people behind one address
	// (or a test suite on localhost) can still sign in, while password
	// guessing across accounts from one address is stopped.
	ipKey := "login-ip:" + m.IP
	if m.IP != "" {
		d, err := s.limiter.Check(ctx, ipKey)
		if err != nil {
			return LoginResult{}, internal(err)
		}
		if !d.Allowed {
			return LoginResult{}, limited(apperr.CodeTooManyRequests, d)
		}
	}
	// The lock is per e-mail/phone, whether or not it has an account, so
	// the answers do not tell which accounts exist; a trusted device of the
	// account has a lock of its own instead (device.go).
	u, err := s.userByIdent(ctx, id)
	found := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return LoginResult{}, internal(err)
	}
	lockKey := "login-acct:" + id.target()
	trusted := false
	if found && m.DeviceToken != "" {
		dev, err := s.deviceOf(ctx, m.DeviceToken, u.ID)
		if err != nil {
			return LoginResult{}, internal(err)
		}
		if trusted = dev != ""; trusted {
			lockKey = "login-dev:" + dev
		}
	}
	d, err := s.limiter.Check(ctx, lockKey)
	if err != nil {
		return LoginResult{}, internal(err)
	}
	if !d.Allowed {
		return LoginResult{}, limited(apperr.CodeAccountLocked, d)
	}
	hash := s.dummy
	if found {
		hash = u.PasswordHash
	}
	if !checkPassword(hash, password) || !found {
		if m.IP != "" {
			if _, err := s.limiter.Fail(ctx, ipKey, s.limits.LoginIPAttempts, s.limits.LoginWindow); err != nil {
				return LoginResult{}, internal(err)
			}
		}
		d, err := s.limiter.Fail(ctx, lockKey, s.limits.LoginFailures, s.limits.LoginWindow)
		if err != nil {
			return LoginResult{}, internal(err)
		}
		if !d.Allowed {
			if found {
				s.recordHistory(ctx, u.ID, histLogin, actLoginLocked, m)
			}
			return LoginResult{}, limited(apperr.CodeAccountLocked, d)
		}
		if found {
			s.recordHistory(ctx, u.ID, histLogin, actLoginFailed, m)
		}
		return LoginResult{}, apperr.New(apperr.CodeBadCredentials)
	}
	_ = s.limiter.Reset(ctx, lockKey)
	// A closed account says so, but only to whoever knows its password.
	if u.CancelledMs != 0 {
		return LoginResult{}, apperr.New(apperr.CodeAccountCancelled)
	}
	switch {
	case u.GoogleOn:
		return s.newChallenge(ctx, u, ChallengeGoogle)
	case u.MobileCheck && u.Mobile != "":
		ph, _ := u.phone()
		err := s.sendCode(ctx, m, ph, OpLogin)
		// A code sent within the last 90 s is still valid: the user
		// finishes with it.
		if err != nil && !errors.Is(err, apperr.New(apperr.CodeCodeResendWait)) {
			return LoginResult{}, err
		}
		return s.newChallenge(ctx, u, ChallengeMobile)
	}
	return s.finishLogin(ctx, u, m, deviceChecked(trusted))
}

func (s *Service) newChallenge(ctx context.Context, u User, typ string) (LoginResult, error) {
	token, hash := newToken()
	now := s.now()
	k := challengeKey(hash)
	err := s.st.Put(ctx, store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK, attrUID: u.ID, "type": typ, "tries": 0,
		"expiresAt": now.Add(ChallengeTTL).UnixMilli(), store.AttrTTL: ttlAt(now.Add(ChallengeTTL)),
	}, store.ItemNotExists())
	if err != nil {
		return LoginResult{}, internal(err)
	}
	return LoginResult{Token: token, ChallengeType: typ}, nil
}

// deviceState is what the sign-in already knows of m.DeviceToken: Login
// looks it up for the lock, so finishing the sign-in need not look again.
type deviceState int

const (
	deviceUnchecked deviceState = iota
	deviceUntrusted
	deviceTrusted
)

func deviceChecked(trusted bool) deviceState {
	if trusted {
		return deviceTrusted
	}
	return deviceUntrusted
}

// finishLogin opens the session and, unless dev says the caller's device
// is trusted already, trusts a new one.
func (s *Service) finishLogin(ctx context.Context, u User, m Meta, dev deviceState) (LoginResult, error) {
	// A second step (or an authenticator reset) begun before the account
	// was cancelled opens no session after it.
	if u.CancelledMs != 0 {
		return LoginResult{}, apperr.New(apperr.CodeAccountCancelled)
	}
	token, err := s.newSession(ctx, u, m)
	if err != nil {
		return LoginResult{}, err
	}
	// A device the owner signed in on stays able to sign in while others
	// lock the account; failing to remember it only loses that comfort.
	var device string
	if dev != deviceTrusted {
		if device, err = s.trustDevice(ctx, u, m, dev == deviceUntrusted); err != nil {
			device = ""
		}
	}
	s.recordHistory(ctx, u.ID, histLogin, actLogin, m)
	return LoginResult{Token: token, DeviceToken: device}, nil
}

// ConfirmLogin finishes a challenged sign-in with the Google code or the SMS
// code. The challenge is single use and burns after five wrong codes.
func (s *Service) ConfirmLogin(ctx context.Context, m Meta, challengeToken, authCode string) (LoginResult, error) {
	if len(challengeToken) != 64 {
		return LoginResult{}, apperr.New(apperr.CodeChallengeExpired)
	}
	k := challengeKey(hashToken(challengeToken))
	ch, err := s.st.Get(ctx, k)
	if errors.Is(err, store.ErrNotFound) {
		return LoginResult{}, apperr.New(apperr.CodeChallengeExpired)
	}
	if err != nil {
		return LoginResult{}, internal(err)
	}
	if ch.Int("expiresAt") <= s.now().UnixMilli() || ch.Int("tries") >= challengeTries {
		return LoginResult{}, apperr.New(apperr.CodeChallengeExpired)
	}
	u, err := s.getUser(ctx, ch.Str(attrUID))
	if err != nil {
		return LoginResult{}, apperr.New(apperr.CodeChallengeExpired)
	}
	ops := []store.Op{store.DeleteOp(k, store.And(store.ItemExists(), store.Compare("tries", store.CmpLt, challengeTries)))}
	switch ch.Str("type") {
	case ChallengeGoogle:
		if err := s.checkTOTP(ctx, u, authCode, false); err != nil {
			s.challengeFailed(ctx, k, u, m, err)
			return LoginResult{}, err
		}
	case ChallengeMobile:
		ph, ok := u.phone()
		if !ok {
			return LoginResult{}, apperr.New(apperr.CodeChallengeExpired)
		}
		del, err := s.checkCode(ctx, ph, OpLogin, authCode)
		if err != nil {
			s.challengeFailed(ctx, k, u, m, err)
			return LoginResult{}, err
		}
		ops = append(ops, del)
	default:
		return LoginResult{}, apperr.New(apperr.CodeChallengeExpired)
	}
	if err := s.commit(ctx, ops, apperr.New(apperr.CodeChallengeExpired)); err != nil {
		return LoginResult{}, err
	}
	return s.finishLogin(ctx, u, m, deviceUnchecked)
}

// challengeFailed counts a wrong second-step code against the challenge.
func (s *Service) challengeFailed(ctx context.Context, k store.Key, u User, m Meta, cause error) {
	var ae *apperr.Error
	if errors.As(cause, &ae) && ae.Entry.Code == apperr.CodeInternal {
		return
	}
	_, _ = s.st.Update(ctx, k, store.NewUpdate().AddInt("tries", 1), store.ItemExists())
	s.recordHistory(ctx, u.ID, histLogin, actLogin2FAFailed, m)
}

// checkUserPassword checks the current password for a settings change;
// wrong passwords count towards a lock-out of the account's settings.
func (s *Service) checkUserPassword(ctx context.Context, u User, password string) error {
	if password == "" {
		return apperr.Param("password: required")
	}
	lockKey := "pw:" + u.ID
	d, err := s.limiter.Check(ctx, lockKey)
	if err != nil {
		return internal(err)
	}
	if !d.Allowed {
		return limited(apperr.CodeAccountLocked, d)
	}
	if checkPassword(u.PasswordHash, password) {
		_ = s.limiter.Reset(ctx, lockKey)
		return nil
	}
	d, err = s.limiter.Fail(ctx, lockKey, s.limits.LoginFailures, s.limits.LoginWindow)
	if err != nil {
		return internal(err)
	}
	if !d.Allowed {
		return limited(apperr.CodeAccountLocked, d)
	}
	return apperr.New(apperr.CodeWrongPassword)
}
